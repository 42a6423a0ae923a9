"""Sign-in over HTTP: local mode only when it is safe, Google tokens verified for real, sessions and CSRF."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from taiwan_poker.auth.google import GoogleTokenVerifier
from tests.auth.test_google_token import CLIENT_ID, certs_server, claims, keys, sign  # noqa: F401 - fixtures
from tests.members.conftest import AppFactory, client


def test_local_sign_in_sets_an_httponly_session_and_a_csrf_cookie(make_app: AppFactory) -> None:
    c = client(make_app())
    r = c.post("/api/auth/local", json={"name": "  小明  "})
    assert r.status_code == 200 and r.json()["member"]["name"] == "小明"
    cookies = r.headers.get_list("set-cookie")
    session = next(x for x in cookies if x.startswith("tp_session="))
    csrf = next(x for x in cookies if x.startswith("tp_csrf="))
    assert "HttpOnly" in session and "samesite=lax" in session.lower() and "Secure" not in session
    assert "HttpOnly" not in csrf
    me = c.get("/api/me").json()
    assert me["member"]["name"] == "小明" and me["local_signin"] is True and me["csrf"] == c.cookies["tp_csrf"]


@pytest.mark.parametrize(("over", "why"), [({"google_client_id": CLIENT_ID}, "google"), ({"host": "0.0.0.0"}, "lan")])
def test_local_sign_in_is_off_with_google_configured_or_off_localhost(make_app: AppFactory, over: dict[str, Any],
                                                                      why: str) -> None:
    c = client(make_app(**over))
    r = c.post("/api/auth/local", json={"name": "Eve"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "local_signin_disabled", why
    assert c.get("/api/me").json()["local_signin"] is False


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "bad\u0000name", 42, None])
def test_bad_names_are_refused(make_app: AppFactory, name: object) -> None:
    r = client(make_app()).post("/api/auth/local", json={"name": name})
    assert r.status_code in (400, 422)
    assert r.json()["error"]["code"] in ("bad_name", "bad_request")


def test_signing_in_again_rotates_the_session_and_sign_out_ends_it(make_app: AppFactory) -> None:
    c = client(make_app(), "Alice")
    old = c.cookies["tp_session"]
    c.post("/api/auth/local", json={"name": "Alice"})
    new = c.cookies["tp_session"]
    assert new != old
    assert c.post("/api/auth/logout").status_code == 403, "the CSRF token rotates with the session"
    c.headers["X-CSRF-Token"] = c.cookies["tp_csrf"]
    stale = client(c.app)
    stale.cookies.set("tp_session", old)
    assert stale.get("/api/me").json()["member"] is None, "the old session must end on sign-in"
    assert c.post("/api/auth/logout", headers={"X-CSRF-Token": ""}).status_code == 403
    assert c.post("/api/auth/logout").status_code == 200
    assert c.get("/api/me").json()["member"] is None


def test_state_changing_requests_need_the_csrf_header(make_app: AppFactory) -> None:
    c = client(make_app(), "Alice")
    for headers in ({"X-CSRF-Token": ""}, {"X-CSRF-Token": "forged"}):
        r = c.post("/api/rooms", json={"decks": 2}, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_required"
    assert c.get("/api/rooms").json() == {"rooms": []}, "nothing was created"


def test_room_api_needs_a_member(make_app: AppFactory) -> None:
    anon = client(make_app())
    anon.cookies.set("tp_csrf", "t")
    r = anon.post("/api/rooms", json={"decks": 2}, headers={"X-CSRF-Token": "t"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_required", "no session, no CSRF token"
    r = anon.get("/api/rooms")
    assert r.status_code == 401 and r.json()["error"]["code"] == "signin_required"


@pytest.fixture
def google_client(make_app: AppFactory, certs_server: dict[str, Any]) -> TestClient:  # noqa: F811
    app = make_app(google_client_id=CLIENT_ID, host="0.0.0.0")
    app.state.google_verifier = GoogleTokenVerifier(CLIENT_ID, certs_url=certs_server["url"])
    return client(app, follow_redirects=False)


def post_credential(c: TestClient, token: str, csrf_cookie: str = "tok", csrf_field: str = "tok") -> Any:
    c.cookies.set("g_csrf_token", csrf_cookie)
    return c.post("/auth/google", data={"credential": token, "g_csrf_token": csrf_field})


def test_google_sign_in_verifies_the_token_and_starts_a_secure_session(
    google_client: TestClient, keys: dict[str, Any]  # noqa: F811
) -> None:
    r = post_credential(google_client, sign(keys["good"], claims()))
    assert r.status_code == 303 and r.headers["location"] == "/lobby"
    session = next(x for x in r.headers.get_list("set-cookie") if x.startswith("tp_session="))
    assert "Secure" in session and "HttpOnly" in session
    google_client.cookies.set("tp_session", r.cookies["tp_session"])
    assert google_client.get("/api/me").json()["member"]["name"] == "牌手 Player"
    # the same Google account signing in again is the same member, its profile updated
    again = post_credential(google_client, sign(keys["good"], claims(name="New Name")))
    google_client.cookies.set("tp_session", again.cookies["tp_session"])
    me = google_client.get("/api/me").json()["member"]
    assert me["name"] == "New Name"


def test_a_google_name_is_cleaned_like_a_local_one(google_client: TestClient, keys: dict[str, Any]  # noqa: F811
                                                  ) -> None:
    """Audit issue 51: a right-to-left override in a Google name was stored as it came."""
    for raw, shown in (("Eve\u202eevil\u202c  the\tgreat", "Eveevil the great"), ("x" * 60, "x" * 40),
                       ("\u200b\u202e ", "player")):
        r = post_credential(google_client, sign(keys["good"], claims(name=raw, email="player@example.com")))
        google_client.cookies.set("tp_session", r.cookies["tp_session"])
        assert google_client.get("/api/me").json()["member"]["name"] == shown, raw


@pytest.mark.parametrize(
    ("token_kind", "csrf", "code"),
    [
        ("good", ("tok", "other"), "bad_csrf"),
        ("good", ("", ""), "bad_csrf"),
        ("wrong_aud", ("tok", "tok"), "bad_token"),
        ("expired", ("tok", "tok"), "bad_token"),
        ("forged", ("tok", "tok"), "bad_token"),
        ("garbage", ("tok", "tok"), "bad_token"),
    ],
)
def test_google_sign_in_failures_redirect_with_the_reason_and_start_nothing(
    google_client: TestClient, keys: dict[str, Any], token_kind: str, csrf: tuple[str, str], code: str  # noqa: F811
) -> None:
    tokens = {
        "good": sign(keys["good"], claims()),
        "wrong_aud": sign(keys["good"], claims(aud="other.apps.googleusercontent.com")),
        "expired": sign(keys["good"], claims(iat=1_000_000_000, exp=1_000_003_600)),
        "forged": sign(keys["forged"], claims()),
        "garbage": "not.a.token",
    }
    r = post_credential(google_client, tokens[token_kind], *csrf)
    assert r.status_code == 303 and r.headers["location"] == f"/signin?error={code}"
    assert "tp_session" not in r.cookies
