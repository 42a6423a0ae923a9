"""The built wheel is the whole product (issue 48, point 1).

Builds the wheel from a copy of the sources (``pip wheel``, the pinned build backend), installs it with its
pinned dependencies into a fresh virtual environment that knows nothing of the editable install the other
tests use, and runs the installed ``taiwan-poker`` from a directory outside the repository: ``--version``,
``doctor``, then ``serve`` with the home page, the static files, the lab table, the odds tables (the solved
data), the offline pieces of the phone app and a bot table (a guest's, on a database the installed migrations
made). Last, it removes the compiled kernel from the installed package and checks the fallback warning.

The install needs the package registry (pip's index); the wheel build needs a C compiler, as the editable
install does. Both are on every machine that runs the suite (``dev.py``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from taiwan_poker import __version__
from tests.members.conftest import pg_url
from tests.members.test_restart import signed_in
from tests.scale.test_database_outage import socket_for, socket_reply
from tests.server_process import ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "CHANGELOG.md", "src")
__all__ = ["pg_url"]  # the member tests' fixture: a fresh PostgreSQL schema
SERVER_ENV = ("TP_GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_ID", "DATABASE_URL", "TP_PUSH_BUS", "TP_RATE_LIMIT_STORAGE",
              "TAIWAN_POKER_KERNEL", "PYTHONPATH", "VIRTUAL_ENV")

pytestmark = pytest.mark.slow


def _pip_env() -> dict[str, str]:
    # the build backend (setuptools, wheel) is pinned in constraints.txt too: PIP_CONSTRAINT reaches pip's
    # isolated build environment, where -c does not
    return {**os.environ, "PIP_CONSTRAINT": str(ROOT / "constraints.txt"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def _run(cmd: list[str], *, env: dict[str, str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", env=env, cwd=cwd, timeout=timeout)
    assert r.returncode == 0, f"{' '.join(cmd)} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtual environment with the built wheel installed; yields its bin directory."""
    work = tmp_path_factory.mktemp("wheel")
    tree = work / "tree"
    tree.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info", "*.pyc")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tree / name, ignore=ignore)
        else:
            shutil.copy2(source, tree / name)
    dist = work / "dist"
    # the table machine compiled at -O0: the same wheel, built in a third of the time (setup.py)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(tree)],
         env={**_pip_env(), "TAIWAN_POKER_MYPYC_OPT": "0"}, cwd=work, timeout=600)
    wheels = list(dist.glob("taiwan_poker-*.whl"))
    assert [w.name.split("-")[1] for w in wheels] == [__version__]
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / "bin"
    # --no-compile: no byte-code for the dependencies' every module ahead (a third of the install); Python writes
    # it for what the tests import
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--no-compile", "-c",
          str(ROOT / "constraints.txt"), str(wheels[0])], env=_pip_env(), cwd=work, timeout=900)
    yield bin_dir


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SERVER_ENV}
    return {**env, "PYTHONIOENCODING": "utf-8", "TP_BOT_PAUSE": "0,0", **extra}


def _site_packages(bin_dir: Path) -> Path:
    out = _run([str(bin_dir / "python"), "-c", "import taiwan_poker, pathlib; print(pathlib.Path("
                "taiwan_poker.__file__).parent)"], env=_env(), cwd=bin_dir, timeout=60).stdout.strip()
    return Path(out)


def test_the_installed_package_is_the_wheels_own_not_the_source_tree(installed: Path) -> None:
    package = _site_packages(installed)
    assert package.is_relative_to(installed.parent), package
    assert not package.is_relative_to(ROOT)
    for part in ("web/templates/base.html", "web/static/css/app.css", "web/static/js/app.js",
                 "web/static/js/sw.js", "web/static/js/offline.js", "web/static/img/icon-192.png",
                 "web/static/img/icon-512.png", "web/templates/offline.html", "web/messages/zh-TW.json",
                 "web/messages/en.json",
                 "data/preflop_equity.json", "data/preflop_strategy.npz", "store/migrations/env.py",
                 "store/migrations/script.py.mako", "store/migrations/versions/0001_initial_schema.py"):
        assert (package / part).is_file(), part
    assert list((package / "evaluate").glob("_kernel*.so")), "the compiled kernel is in the wheel"
    shared = list(package.parent.glob("taiwan_poker_core__mypyc*.so"))
    assert list((package / "tables").glob("machine*.so")) and shared, "the table machine compiled by mypyc is there"
    # the lab (arena, LBR, exploiters, solver) is not the product's: not in the wheel, nor in its package
    assert not (package.parent / "taiwan_poker_lab").exists()
    assert not [p.name for p in package.rglob("*.py") if p.stem in ("arena", "lbr", "exploiters", "luck", "cfr",
                                                                      "calibrate")]


def test_the_installed_command_prints_its_version_and_a_clean_check_up(installed: Path, tmp_path: Path) -> None:
    exe = str(installed / "taiwan-poker")
    version = _run([exe, "--version"], env=_env(), cwd=tmp_path, timeout=60).stdout.strip()
    assert version == f"taiwan-poker {__version__}"
    out = _run([exe, "doctor", "--data-dir", str(tmp_path / "data")], env=_env(), cwd=tmp_path, timeout=120).stdout
    assert "the compiled C kernel" in out and "Table machine: compiled (mypyc)" in out and "No problems found." in out


def test_the_installed_server_serves_the_pages_the_lab_and_a_bot_table(installed: Path, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen([str(installed / "taiwan-poker"), "serve", "--port", str(port), "--data-dir",
                             str(tmp_path / "data")], env=_env(), cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)
    try:
        with httpx.Client(base_url=base, timeout=30, follow_redirects=True) as c:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if c.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert proc.poll() is None, (tmp_path / "server.log").read_text()
                assert time.monotonic() < deadline, "the installed server did not start"
                time.sleep(0.2)
            home = c.get("/")
            assert home.status_code == 200 and "台灣撲克" in home.text and f"v{__version__}" in home.text
            for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', home.text):
                assert c.get(asset).status_code == 200, asset
            assert c.get("/manifest.webmanifest").json()["display"] == "fullscreen"
            assert "const BUILD" in c.get("/sw.js").text
            assert len(c.get("/offline-data/practice.json").json()["en"]["drills"]) == 60
            for page in ("/rules", "/odds", "/calculators", "/practice", "/lab", "/lobby", "/docs"):
                assert c.get(page).status_code == 200, page
            assert "%" in c.get("/odds?decks=3").text  # the solved tables read from the installed data
            hand = c.post("/api/lab/hands", json={"decks": 2})
            assert hand.status_code == 201 and len(hand.json()["hole"]) == 2
            assert c.post(f"/api/lab/hands/{hand.json()['id']}/next").json()["best"]["category"]
            # a guest's table against a bot: the database the installed migrations made, the bots' solved tables
            guest = c.post("/api/auth/guest", headers={"X-CSRF-Token": "signin"})
            assert guest.status_code == 200, guest.text
            csrf = {"X-CSRF-Token": c.cookies["tp_csrf"]}
            room = c.post("/api/rooms", json={"seats": 2, "bots": 1, "level": "strong"}, headers=csrf)
            assert room.status_code in (200, 201), room.text
            code = room.json()["code"]
            assert c.get(f"/rooms/{code}").status_code == 200
            state = c.get(f"/api/rooms/{code}").json()
            assert state["hand"] is not None, state
    finally:
        proc.terminate()
        proc.wait(20)
        log.close()
    text = (tmp_path / "server.log").read_text()
    assert "Traceback" not in text, text[-3000:]


def test_the_installed_server_writes_a_socket_move_on_postgresql(installed: Path, tmp_path: Path,
                                                                   pg_url: str) -> None:
    """A move over a room's socket on PostgreSQL, written on the event loop (issue 49): its statement is awaited
    in a greenlet, so the installed dependencies must bring the greenlet library (SQLAlchemy's ``asyncio``
    extra), which nothing else of the product needs."""
    url = pg_url.replace("postgresql+psycopg://", "postgresql://")
    server = ServerProcess(tmp_path / "data", tmp_path / "server.log", {"DATABASE_URL": url},
                           exe=installed / "taiwan-poker", base_env=_env(), cwd=tmp_path)
    base = server.start()
    stack = contextlib.ExitStack()
    try:
        players = [signed_in(base, "Alice"), signed_in(base, "Bob")]
        code = players[0].post("/api/rooms", json={"decks": 2}).json()["code"]
        assert players[1].post(f"/api/rooms/{code}/join").status_code == 200
        st = players[0].get(f"/api/rooms/{code}").json()
        seat = st["hand"]["to_act"]
        ws = socket_for(base, players[seat], code, stack)
        ws.send(json.dumps({"type": "action", "version": st["version"], "key": "k1", "action": {"kind": "call"}}))
        reply = socket_reply(ws, 30)
        assert reply.get("applied") and reply["state"]["version"] > st["version"], reply
    finally:
        stack.close()
        server.stop()
    text = (tmp_path / "server.log").read_text()
    assert "Traceback" not in text, text[-3000:]


def test_without_the_compiled_kernel_the_installed_package_warns_and_uses_numpy(installed: Path,
                                                                               tmp_path: Path) -> None:
    """Last in this module: it removes the kernel from the installed package (as an install without a C compiler
    leaves it)."""
    package = _site_packages(installed)
    for so in (package / "evaluate").glob("_kernel*.so"):
        so.unlink()
    r = subprocess.run([str(installed / "python"), "-c",
                        "from taiwan_poker.evaluate import batch, evaluate_batch; print(batch.kernel())"],
                       capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "numpy"
    assert "KernelFallbackWarning" in r.stderr and "NumPy kernel" in r.stderr
    out = subprocess.run([str(installed / "taiwan-poker"), "doctor", "--data-dir", str(tmp_path / "d")],
                         capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=120).stdout
    assert "! 牌力評估核心" in out and "the NumPy kernel: the compiled kernel could not be loaded" in out


def _containerfile_json(instruction: str) -> list[str]:
    """The JSON array of the Containerfile's last ``instruction`` (exec form), continuation lines joined."""
    text = (ROOT / "Containerfile").read_text().replace("\\\n", " ")
    found = re.findall(rf"^{instruction}\s+(?:--\S+\s+)*(?:CMD\s+)?(\[.*\])\s*$", text, flags=re.MULTILINE)
    assert found, instruction
    import json

    value: list[str] = json.loads(found[-1])
    return value


def test_the_containers_entrypoint_and_health_check_run_outside_a_container(installed: Path, tmp_path: Path) -> None:
    """What the image runs (ENTRYPOINT + CMD, then the HEALTHCHECK's command), run from the installed wheel here,
    where no container engine can run the image (docs/hosting.md says what was and was not run)."""
    port = str(free_port())
    command = [a.replace("8000", port).replace("/var/lib/taiwan-poker", str(tmp_path))
               for a in _containerfile_json("ENTRYPOINT") + _containerfile_json("CMD")]
    assert command[:3] == ["taiwan-poker", "serve", "--host"] and "0.0.0.0" in command
    health = [a.replace("8000", port) for a in _containerfile_json("HEALTHCHECK")]
    env = _env(PATH=f"{installed}:{os.environ.get('PATH', '')}")
    # the image refuses to start without Google sign-in on its public address, as serve does anywhere
    refused = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert refused.returncode == 2 and "TP_GOOGLE_CLIENT_ID" in refused.stderr
    env["TP_GOOGLE_CLIENT_ID"] = "123-abc.apps.googleusercontent.com"
    proc = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while subprocess.run(health, env=env, cwd=tmp_path, capture_output=True, timeout=30).returncode != 0:
            assert proc.poll() is None, "the server stopped"
            assert time.monotonic() < deadline, "the health check never passed"
            time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(20)
    assert subprocess.run(health, env=env, cwd=tmp_path, capture_output=True, timeout=30).returncode != 0
