"""Browser-test fixtures: the real server as a subprocess and Debian's Chromium driven by Playwright.

``python3 dev.py test`` installs ``chromium`` with apt-get when it is missing;
without it these tests skip with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server_process import ServerProcess

CHROMIUM = Path(os.environ.get("TAIWAN_POKER_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
SW_BLOCKED = "Service Worker registration blocked by Playwright"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``taiwan-poker serve --port <free port>`` in a subprocess; yields its base URL."""
    tmp = tmp_path_factory.mktemp("server")
    process = ServerProcess(tmp / "data", tmp / "server.log")
    yield process.start()
    process.stop()


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
        # a context that blocks the service worker (the page still asks to register it) is not the page's fault
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "warning") and SW_BLOCKED not in m.text else None)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        # ERR_ABORTED: the page navigated away while a request (say, the favicon) was in flight, not a failure
        page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url} {r.failure}")
                if "ERR_ABORTED" not in str(r.failure) else None)
        page.on("response", lambda r: self.problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)


@pytest.fixture()
def context(browser: object) -> Iterator[object]:
    # bypass_csp: Playwright's wait_for_function evaluates its predicate with eval(), which the app's
    # Content-Security-Policy forbids; tests/web/test_csp.py runs the pages with the policy enforced
    # service workers blocked: a test's requests reach the server (and its routes) as sent; the service worker
    # and the offline pages have their own tests (tests/web/test_offline.py)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-TW",  # type: ignore[attr-defined]
                              bypass_csp=True, service_workers="block")
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
