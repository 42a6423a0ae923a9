"""Builds the package's optional compiled parts; everything else is in pyproject.toml.

- The C kernel of the batch evaluator (``src/taiwan_poker/evaluate/_kernel.c``).
- The table machine compiled by mypyc (pyproject.toml lists its modules: the rules of a hand and the
  table's state, events and views, the work of every move; docs/scaling.md).
  The modules are the same typed Python; compiled, a move costs less CPU.
  ``TAIWAN_POKER_PURE=1`` builds without them (for a profile that sees inside
  them, or to debug one in Python); ``TAIWAN_POKER_MYPYC_OPT=0`` compiles them
  at the C compiler's ``-O0``, four times faster to build and slower to run
  (the wheel test's build).

Both are only speed-ups: when one cannot be built (no C compiler, no Python
headers, no mypyc) the install still succeeds, says so once, and the package
runs the same code in Python (the NumPy kernel is about three times slower).
"""

import os
import sys
import tomllib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

BUILD_ERRORS = (CCompilerError, ExecError, PlatformError, OSError)
# the commands of a PEP 517 build that only write metadata (requirements, dist-info): they need no extension, and
# mypyc's analysis of the compiled modules takes 10-15 s each time
METADATA_ONLY = {"egg_info", "dist_info"}


class OptionalBuildExt(build_ext):
    """``build_ext`` that turns a build failing for want of a compiler into one clear message instead of a failed
    install. The kernel is built first: when it fails, the mypyc modules (which need the same compiler) are not
    tried, so the package is never left with half of them."""

    def run(self) -> None:
        try:
            super().run()
        except BUILD_ERRORS as exc:  # e.g. no compiler found at all
            self._skipped(exc)

    def build_extension(self, ext: Extension) -> None:
        if getattr(self, "_said_so", False):
            return
        try:
            super().build_extension(ext)
        except BUILD_ERRORS as exc:  # e.g. the compiler or Python.h is missing
            self._skipped(exc)

    def _skipped(self, exc: BaseException) -> None:
        if getattr(self, "_said_so", False):
            return
        self._said_so = True
        print(
            "\n"
            "*** taiwan-poker: the optional compiled parts (the evaluator's C kernel, the table machine by mypyc)\n"
            f"*** could not be built: {type(exc).__name__}: {exc}\n"
            "*** The install goes on without them: the same code runs in Python (the batch evaluator's NumPy\n"
            "*** kernel about three times slower, a table's move slower). For the fast build, install a C\n"
            "*** compiler and the Python headers (Debian: apt-get install gcc python3-dev) and install again.\n",
            file=sys.stderr,
            flush=True,
        )


def compiled_modules() -> list[Extension]:
    """The mypyc extensions of the modules pyproject.toml lists (``[tool.taiwan-poker] compiled``), or none (said
    once) when mypyc is missing or not wanted."""
    if os.environ.get("TAIWAN_POKER_PURE") == "1":
        return []
    if METADATA_ONLY.issuperset(sys.argv[1:2]):  # pip asks for the metadata first: no build, no mypyc analysis
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        print(f"*** taiwan-poker: mypyc is not installed ({exc}); the table machine stays in Python", file=sys.stderr)
        return []
    listed = tomllib.loads(Path(__file__).with_name("pyproject.toml").read_text())["tool"]["taiwan-poker"]["compiled"]
    try:  # mypyc type-checks the modules first (numpy's types come from the build requirements) and exits on errors
        return mypycify([f"src/taiwan_poker/{m}.py" for m in listed], group_name="taiwan_poker_core",
                        opt_level=os.environ.get("TAIWAN_POKER_MYPYC_OPT", "3"))
    except SystemExit as exc:
        print(f"*** taiwan-poker: mypyc could not compile the table machine (exit {exc.code}, its errors above); "
              "it stays in Python", file=sys.stderr)
        return []


setup(
    ext_modules=[
        Extension(
            "taiwan_poker.evaluate._kernel",
            sources=["src/taiwan_poker/evaluate/_kernel.c"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        ),
        *compiled_modules(),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
