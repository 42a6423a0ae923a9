#!/usr/bin/env python3
"""Set up the project and run it or its tests. Needs nothing but Python 3.11+.

    python3 dev.py run  [ARGS...]   set up .venv, then start the web app at http://127.0.0.1:8000
                                    (``taiwan-poker serve``; with ARGS: ``taiwan-poker ARGS``)
    python3 dev.py test [PYTEST ARGS...]   set up .venv (and Debian's Chromium and HAProxy for the
                                    browser and proxy tests), then lint, type-check and run every
                                    test (on every core, pytest-xdist ``-n auto``, unless ARGS say ``-n``)

Set-up is idempotent: it creates ``.venv`` and installs the pinned
dependencies (``constraints.txt``) only when they or the build files changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".taiwan-poker-installed"
BUILD_INPUTS = ["constraints.txt", "pyproject.toml", "setup.py", "src/taiwan_poker/evaluate/_kernel.c"]
TYPED = ["src/taiwan_poker", "lab/taiwan_poker_lab"]  # mypy --strict on the product (core and shell) and the lab
LAB = ROOT / "lab"  # the lab (arena, LBR, exploiters, solver): on the venv's path, never in the product's wheel
CHROMIUM = Path("/usr/bin/chromium")
CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
EMOJI_FONT = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")  # the bots' 🤖 in screenshots
HAPROXY = Path("/usr/sbin/haproxy")  # the reverse proxy in front of several instances (tests/scale/test_proxy.py)


def sh(*cmd: str | Path, **kw: object) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, **kw)  # type: ignore[call-overload]


def setup() -> None:
    """Create .venv and install the pinned dependencies and the package (editable) when needed."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older Python
        sys.exit("Taiwan Poker needs Python 3.11 or newer")
    if not PY.exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    lab_path()
    digest = build_digest()
    if STAMP.exists() and STAMP.read_text() == digest:
        return
    sh(PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", "constraints.txt", "pip")
    sh(PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", "constraints.txt",
       "-e", ".[test,bench]", env={**os.environ, "PIP_CONSTRAINT": str(ROOT / "constraints.txt")})  # the build too
    STAMP.write_text(digest)


def build_digest() -> str:
    """What the installed build was made from: the build files and every source mypyc may compile (an edited
    module of the table machine is compiled again before the tests run; tests/conftest.py checks it)."""
    import tomllib  # here: an older Python reaching dev.py gets setup()'s message, not an ImportError

    compiled = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["taiwan-poker"]["compiled"]
    sources = [*BUILD_INPUTS, *(f"src/taiwan_poker/{m}.py" for m in compiled)]
    return hashlib.sha256(b"".join((ROOT / f).read_bytes() for f in sources)).hexdigest()


def lab_path() -> None:
    """Put ``lab/`` on the virtual environment's path (a ``.pth`` file): the tests, benchmarks and scripts import
    ``taiwan_poker_lab``; the product does not, and its wheel does not hold it."""
    out = subprocess.run([str(PY), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout.strip()
    pth = Path(out) / "taiwan_poker_lab.pth"
    if not pth.exists() or pth.read_text().strip() != str(LAB):
        pth.write_text(f"{LAB}\n")


def run(args: list[str]) -> int:
    setup()
    return subprocess.call([str(BIN / "taiwan-poker"), *(args or ["serve"])], cwd=ROOT)


def system_setup() -> None:
    """The browser tests drive Debian's Chromium (Playwright's own download does not work here), the proxy
    test Debian's HAProxy.

    Installs ``chromium`` (and CJK and emoji fonts, so screenshots show the Chinese text) and ``haproxy`` with
    apt-get when missing; without root or apt-get it only says what is missing and those tests skip.
    """
    wanted = (("chromium", CHROMIUM), ("fonts-noto-cjk", CJK_FONT), ("fonts-noto-color-emoji", EMOJI_FONT),
              ("haproxy", HAPROXY))
    missing = [pkg for pkg, path in wanted if not path.exists()]
    if not missing:
        return
    can_apt = sys.platform.startswith("linux") and Path("/usr/bin/apt-get").exists() and os.geteuid() == 0
    if not can_apt:
        print(f"note: {', '.join(missing)} missing and apt-get unavailable; the tests needing them will be skipped",
              flush=True)
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    sh("apt-get", "update", "-qq", env=env)
    sh("apt-get", "install", "-y", "-qq", *missing, env=env)
    if "haproxy" in missing:  # the package starts its service where it can; the tests start their own
        with contextlib.suppress(OSError):
            subprocess.run(["service", "haproxy", "stop"], cwd=ROOT, check=False, capture_output=True)


def test(args: list[str]) -> int:
    setup()
    system_setup()
    sh(BIN / "ruff", "check", "src", "lab", "tests", "benchmarks", "deploy", "dev.py")
    sh(BIN / "mypy", "--strict", *TYPED)
    parallel = [] if any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in args) else ["-n", "auto"]
    return subprocess.call([str(PY), "-m", "pytest", *parallel, *args], cwd=ROOT)  # pytest-xdist: all cores


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in ("run", "test"):
        print(__doc__)
        return 2
    command, args = sys.argv[1], sys.argv[2:]
    try:
        return run(args) if command == "run" else test(args)
    except subprocess.CalledProcessError as exc:
        return exc.returncode or 1


if __name__ == "__main__":
    sys.exit(main())
