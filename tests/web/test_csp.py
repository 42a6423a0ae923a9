"""The Content-Security-Policy and anti-framing headers (audit finding 5), checked in Debian's Chromium.

Every page loads and runs its main interaction with no CSP violation (no inline script, no ``style=""``,
no ``eval``), the headers are on every kind of response, and no page can be shown in a frame.
The browser contexts here enforce the policy, so they wait with ``expect``/``wait_for_selector``:
Playwright's ``wait_for_function`` runs ``eval()`` in the page, which the policy refuses.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from taiwan_poker.store.db import database_url
from taiwan_poker.web import create_app
from taiwan_poker.web.config import Settings
from taiwan_poker.web.security_headers import content_security_policy

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
HEADERS = {"content-security-policy": POLICY, "x-frame-options": "DENY", "x-content-type-options": "nosniff",
           "referrer-policy": "same-origin"}

CHROME_ERROR = "chrome-error://chromewebdata/"

# every securitypolicyviolation event of every document the page loads, reported to the test as it happens
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolation(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
}, true);
"""


def _settings(google_client_id: str | None) -> Settings:
    return Settings(data_dir=Path("data"), database_url="sqlite://", google_client_id=google_client_id,
                    host="0.0.0.0" if google_client_id else "127.0.0.1")


def test_the_policy_without_google_allows_this_server_only() -> None:
    assert content_security_policy(_settings(None)) == POLICY


def test_the_policy_with_google_sign_in_adds_only_the_identity_services_sources() -> None:
    policy = content_security_policy(_settings("123-abc.apps.googleusercontent.com"))
    directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ")}
    assert directives == {
        "default-src": ["'self'"],
        "script-src": ["'self'", "https://accounts.google.com/gsi/client"],
        "style-src": ["'self'", "https://accounts.google.com/gsi/style"],
        "img-src": ["'self'", "data:", "https://*.googleusercontent.com"],
        "connect-src": ["'self'", "https://accounts.google.com/gsi/"],
        "font-src": ["'self'"],
        "frame-src": ["https://accounts.google.com/gsi/"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
    assert "unsafe" not in policy


def test_a_server_with_google_sign_in_sends_that_policy(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database_url=database_url(tmp_path),
                        google_client_id="123-abc.apps.googleusercontent.com", host="0.0.0.0")
    with TestClient(create_app(tmp_path, warm=False, settings=settings)) as c:
        page = c.get("/signin", headers={"Accept": "text/html"})
        assert '<script src="https://accounts.google.com/gsi/client"' in page.text
        assert page.headers["content-security-policy"] == content_security_policy(settings)
        assert page.headers["x-frame-options"] == "DENY"
        assert page.headers["referrer-policy"] == "strict-origin-when-cross-origin", "GSI reads the origin"


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            r.read()
            return r.status, r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.headers


@pytest.mark.parametrize(("path", "accept", "status", "content_type"), [
    ("/odds", "text/html", 200, "text/html"),
    ("/api/rules", "application/json", 200, "application/json"),
    ("/static/css/app.css", "text/css", 200, "text/css"),  # a static file, gzipped
    ("/static-docs/swagger-ui-bundle.js", "*/*", 200, "javascript"),
    ("/no-such-page", "text/html", 404, "text/html"),
    ("/api/no-such-thing", "application/json", 404, "application/json"),
    ("/api/lab/hands/nope", "application/json", 404, "application/json"),
])
def test_every_kind_of_response_carries_the_headers(server: str, path: str, accept: str, status: int,
                                                    content_type: str) -> None:
    code, headers = _get(server + path, {"Accept": accept, "Accept-Encoding": "gzip"})
    assert code == status
    assert content_type in headers["content-type"]
    for name, value in HEADERS.items():
        assert headers.get_all(name) == [value], name


class CspWatch:
    """One browser context whose pages report every CSP violation and CSP console message to the test."""

    def __init__(self, browser: Any) -> None:
        self.ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-TW")
        self.violations: list[str] = []
        self.ctx.expose_function("cspViolation", lambda text: self.violations.append(f"event: {text}"))
        self.ctx.add_init_script(REPORT_VIOLATIONS)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(15_000)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.violations.append(f"page error: {e}"))

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.violations.append(f"console {message.type}: {message.text}")

    def csrf(self) -> str:
        token: str = next(c["value"] for c in self.ctx.cookies() if c["name"] == "tp_csrf")
        return token


@pytest.fixture()
def watch(browser: Any) -> Iterator[CspWatch]:
    w = CspWatch(browser)
    yield w
    w.ctx.close()


def _load(w: CspWatch, url: str) -> Any:
    p = w.page
    p.goto(url)
    p.wait_for_load_state("networkidle")
    return p


def test_the_public_pages_run_with_no_csp_violation(server: str, watch: CspWatch) -> None:
    p = _load(watch, server + "/")
    _load(watch, server + "/rules")
    for path in ("/odds", "/odds?decks=4"):
        _load(watch, server + path)
        # the bars and the heat map get their computed styles through the CSSOM, not style=""
        widths = p.eval_on_selector_all(".bar-cell .bar", "bs => bs.map(b => [b.style.width, b.offsetWidth])")
        assert widths and all(w.endswith("%") for w, _ in widths) and max(px for _, px in widths) > 50
        cell = "table.heat tbody td:not(.na)"
        assert p.eval_on_selector(cell, "td => getComputedStyle(td).getPropertyValue('--e')") != ""
        assert p.eval_on_selector(cell, "td => getComputedStyle(td).backgroundColor") != "rgba(0, 0, 0, 0)"
    # calculators: outs, pot odds, equity
    _load(watch, server + "/calculators")
    p.click("#outs-example")
    expect(p.locator("#outs-next")).to_have_text("22.45%")
    p.fill("#pot-p", "60")
    p.fill("#pot-b", "20")
    expect(p.locator("#pot-result")).to_have_text("20.00%")
    p.click("#eq-run")
    p.wait_for_selector("#eq-form[data-done='1']", timeout=30_000)
    # lab: deal and play to the river
    _load(watch, server + "/lab")
    expect(p.locator("#lab-hole .card:not(.slot)")).to_have_count(2)
    for board_count in (3, 4, 5):
        p.wait_for_selector("#lab-next:not([disabled])")
        p.click("#lab-next")
        expect(p.locator("#lab-board .card:not(.slot)")).to_have_count(board_count)
    # practice: answer a scenario and the drill
    _load(watch, server + "/practice")
    p.click("#scenario-pot_odds .choice[data-choice='20']")
    p.wait_for_selector("#score[data-answered='1']")
    p.click("#drill-choices .choice >> nth=0")
    p.wait_for_selector("#score[data-answered='2']")
    # an unknown page: the HTML error page
    response = p.goto(server + "/no-such-page")
    assert response is not None and response.status == 404
    p.wait_for_load_state("networkidle")
    assert watch.violations == []


def test_the_member_pages_and_a_live_room_run_with_no_csp_violation(server: str, browser: Any,
                                                                    watch: CspWatch) -> None:
    p = _load(watch, server + "/signin")
    p.fill("#local-name", "CSP 甲")
    p.click("#local-submit")
    p.wait_for_url("**/lobby")
    expect(p.locator("#lobby-hello")).to_contain_text("CSP 甲")
    # a real room through the API, and a second member who joins it, so the table deals a hand
    created = watch.ctx.request.post(server + "/api/rooms", data={"decks": 2}, headers={"X-CSRF-Token": watch.csrf()})
    assert created.ok, created.text()
    code = created.json()["code"]
    other = CspWatch(browser)
    try:
        assert other.ctx.request.post(server + "/api/auth/local", data={"name": "CSP 乙"},
                                      headers={"X-CSRF-Token": "signin"}).ok
        joined = other.ctx.request.post(f"{server}/api/rooms/{code}/join", headers={"X-CSRF-Token": other.csrf()})
        assert joined.ok, joined.text()
    finally:
        other.ctx.close()
    p.goto(f"{server}/rooms/{code}")
    p.wait_for_selector("#room[data-status='playing']")
    # the WebSocket (ws://same host) is allowed by connect-src 'self'
    p.wait_for_selector("#room[data-conn='live']")
    assert p.locator("#room .card:not(.slot)").count() >= 2
    _load(watch, f"{server}/rooms/{code}/history")
    assert p.is_hidden("#history-error")
    _load(watch, server + "/lobby")
    p.wait_for_selector(f".room-item[data-code='{code}']")
    assert watch.violations == []


def test_the_api_docs_run_with_no_csp_violation(server: str, watch: CspWatch) -> None:
    p = watch.page
    # FastAPI writes OpenAPI 3.1, which the bundled Swagger UI 5 renders as it is
    assert json.loads(urllib.request.urlopen(server + "/openapi.json", timeout=10).read())["openapi"].startswith("3.1")
    response = p.goto(server + "/docs")
    assert response is not None and response.headers["content-security-policy"] == POLICY
    p.wait_for_selector(".opblock-tag")
    assert p.locator(".opblock").count() > 10
    # run the first operation (GET /api/i18n/{lang}) from the page: the request and the highlighted answer
    p.click(".opblock-summary >> nth=0")
    p.click(".opblock.is-open .try-out__btn")
    p.fill(".opblock.is-open input[placeholder='lang']", "en")
    p.click(".opblock.is-open .execute")
    expect(p.locator(".opblock.is-open .live-responses-table tbody .response-col_status").first).to_have_text("200")
    p.wait_for_selector(".opblock.is-open .live-responses-table .highlight-code")
    p.click(".models .json-schema-2020-12-expand-deep-button >> nth=0")  # a schema, expanded
    p.wait_for_selector(".models .json-schema-2020-12-property")
    assert watch.violations == []


@pytest.mark.parametrize("path", ["/", "/docs", "/no-such-page"])
def test_no_page_can_be_framed(server: str, watch: CspWatch, path: str) -> None:
    p = watch.page
    with p.expect_console_message(lambda m: "frame-ancestors" in m.text) as refused:
        p.set_content(f'<iframe src="{server}{path}" width="800" height="600"></iframe>')  # on about:blank
    assert f"Framing '{server}/' violates" in refused.value.text
    assert "\"frame-ancestors 'none'\"" in refused.value.text
    # Chromium refuses the response and shows its own error page in the frame: nothing of ours
    deadline = time.monotonic() + 5
    while [f.url for f in p.frames[1:]] != [CHROME_ERROR] and time.monotonic() < deadline:
        p.wait_for_timeout(50)
    assert [f.url for f in p.frames[1:]] == [CHROME_ERROR]
