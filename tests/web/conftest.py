"""Browser-test fixtures: the real server as a subprocess and Debian's Chromium driven by Playwright.

``python3 dev.py test`` installs ``chromium`` with apt-get when it is missing;
without it these tests skip with the reason.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("TAIWAN_POKER_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``taiwan-poker serve --port <free port>`` in a subprocess; yields its base URL."""
    port = _free_port()
    data = tmp_path_factory.mktemp("data")
    exe = Path(sys.executable).with_name("taiwan-poker")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-c", "from taiwan_poker.cli import main; main()"]
    log = (tmp_path_factory.mktemp("log") / "server.log").open("w")
    proc = subprocess.Popen([*cmd, "serve", "--port", str(port), "--data-dir", str(data), "--log-level", "warning"],
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"server did not start (exit {proc.returncode}); see {log.name}")
        time.sleep(0.1)
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (python3 dev.py test installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


class PageWatch:
    """Collects console errors and failed requests of one page."""

    def __init__(self, page: object) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url} {r.failure}"))
        page.on("response", lambda r: self.problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)


@pytest.fixture()
def context(browser: object) -> Iterator[object]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-TW")  # type: ignore[attr-defined]
    yield ctx
    ctx.close()


@pytest.fixture()
def page(context: object) -> Iterator[PageWatch]:
    p = context.new_page()  # type: ignore[attr-defined]
    p.set_default_timeout(10_000)
    yield PageWatch(p)


def screenshot(page: object, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")  # type: ignore[attr-defined]
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, animations="disabled")  # type: ignore[attr-defined]
