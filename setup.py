"""Builds the optional C kernel of the batch evaluator; everything else is in pyproject.toml.

The kernel is only a speed-up: when it cannot be built (no C compiler, no
Python headers) the install still succeeds, says so once, and the package
uses its pure NumPy kernel (``taiwan_poker.evaluate.numpy_kernel``, same
results, about three times slower).
"""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

BUILD_ERRORS = (CCompilerError, ExecError, PlatformError, OSError)


class OptionalBuildExt(build_ext):
    """``build_ext`` that turns a failed build of the kernel into one clear message instead of a failed install."""

    def run(self) -> None:
        try:
            super().run()
        except BUILD_ERRORS as exc:  # e.g. no compiler found at all
            self._skipped(exc)

    def build_extension(self, ext: Extension) -> None:
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
            "*** taiwan-poker: the optional C kernel (src/taiwan_poker/evaluate/_kernel.c) could not be built:\n"
            f"***   {type(exc).__name__}: {exc}\n"
            "*** The install goes on without it: the batch evaluator will use its pure NumPy kernel\n"
            "*** (same results, about three times slower). For the fast kernel, install a C compiler and\n"
            "*** the Python headers (Debian: apt-get install gcc python3-dev) and install again.\n",
            file=sys.stderr,
            flush=True,
        )


setup(
    ext_modules=[
        Extension(
            "taiwan_poker.evaluate._kernel",
            sources=["src/taiwan_poker/evaluate/_kernel.c"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
