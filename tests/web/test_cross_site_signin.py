"""Audit round 2, finding 3: sign-in from another site (login CSRF), against the real server and Chromium.

A page on another site that auto-submitted a form to ``POST /api/auth/guest`` turned a signed-in member's
browser into a guest's. Every sign-in route now refuses a foreign ``Origin`` (or ``Sec-Fetch-Site``) and a
missing CSRF proof (the ``X-CSRF-Token`` header, which no form can send), and a member is never made a
guest: they sign out first.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from tests.web.conftest import PageWatch

SIGNIN = {"X-CSRF-Token": "signin"}


@pytest.fixture(scope="module")
def evil_site(server: str) -> Iterator[str]:
    """Another site (``localhost`` is a different site from ``127.0.0.1``) whose pages auto-submit forms to
    the sign-in routes of the server under test."""
    pages = {
        f"/{route}": (f'<!doctype html><form method="post" action="{server}/api/auth/{route}">'
                      '<input type="hidden" name="name" value="Mallory"></form>'
                      '<script>document.forms[0].submit()</script>').encode()
        for route in ("guest", "local")
    }

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path, b"")
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    yield f"http://localhost:{site.server_address[1]}"
    site.shutdown()


@pytest.mark.parametrize("route", ["guest", "local"])
def test_round2_a_form_on_another_site_cannot_replace_a_members_session(
    server: str, evil_site: str, page: PageWatch, route: str
) -> None:
    p = page.page
    p.goto(f"{server}/signin")
    p.fill("#local-name", "Alice")
    p.click("#local-submit")
    p.wait_for_url("**/lobby")
    me = p.request.get(f"{server}/api/me").json()["member"]
    assert me["name"] == "Alice" and me["guest"] is False
    with p.expect_navigation(url=f"{server}/api/auth/{route}"):
        p.goto(f"{evil_site}/{route}")
    refused = p.locator("body").inner_text()
    assert "cross_site" in refused or "csrf_required" in refused, refused
    after = p.request.get(f"{server}/api/me").json()["member"]
    assert after is not None and after["id"] == me["id"] and after["guest"] is False, after
    page.problems.clear()  # the refused form post is an expected 403


def test_round2_sign_in_routes_refuse_a_foreign_origin_and_a_missing_proof(server: str) -> None:
    with httpx.Client(base_url=server) as c:
        for path in ("/api/auth/guest", "/api/auth/local"):
            foreign = c.post(path, json={"name": "M"}, headers={**SIGNIN, "Origin": "https://evil.example"})
            assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "cross_site", foreign.text
            cross = c.post(path, json={"name": "M"}, headers={**SIGNIN, "Sec-Fetch-Site": "cross-site"})
            assert cross.status_code == 403 and cross.json()["error"]["code"] == "cross_site", cross.text
            bare = c.post(path, json={"name": "M"})
            assert bare.status_code == 403 and bare.json()["error"]["code"] == "csrf_required", bare.text
            zh = c.post(path, json={"name": "M"}, headers={"Accept-Language": "zh-TW"})
            assert "安全檢查" in zh.json()["error"]["message"]
        assert "tp_session" not in c.cookies, "no refused request started a session"
        same = c.post("/api/auth/guest", headers={**SIGNIN, "Origin": server, "Sec-Fetch-Site": "same-origin"})
        assert same.status_code == 200 and same.json()["member"]["guest"] is True


def test_round2_a_signed_in_member_is_never_made_a_guest(server: str) -> None:
    with httpx.Client(base_url=server) as c:
        assert c.post("/api/auth/local", json={"name": "Bob"}, headers=SIGNIN).status_code == 200
        own = {"X-CSRF-Token": c.cookies["tp_csrf"]}
        stale = c.post("/api/auth/guest", headers=SIGNIN)
        assert stale.status_code == 403 and stale.json()["error"]["code"] == "csrf_required", \
            "with a session, only that session's token proves the member's own page asked"
        asked = c.post("/api/auth/guest", headers=own)
        assert asked.status_code == 409 and asked.json()["error"]["code"] == "member_signed_in", asked.text
        assert c.get("/api/me").json()["member"]["name"] == "Bob"


def test_round2_google_sign_in_from_another_site_is_refused(server: str) -> None:
    with httpx.Client(base_url=server, cookies={"g_csrf_token": "t"}) as c:
        r = c.post("/auth/google", data={"credential": "x", "g_csrf_token": "t"},
                   headers={"Origin": "https://evil.example"}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/signin?error=cross_site"
