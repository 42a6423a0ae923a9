"""The member pages as HTML: which sign-in each server offers, safe redirects, every message resolved."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taiwan_poker.web import create_app
from taiwan_poker.web.config import Settings
from taiwan_poker.web.member_pages import GSI_CLIENT
from taiwan_poker.web.redirects import safe_next

RAW_KEY = re.compile(r"\b(?:room|lobby|signin|history|member|action|nav)\.[a-z_]+(?:\.[a-z_]+)*\b")


def _client(tmp_path: Path, **over: Any) -> TestClient:
    fields: dict[str, Any] = {"data_dir": tmp_path, "database_url": f"sqlite:///{tmp_path / 'tp.sqlite3'}",
                              "google_client_id": None, "host": "127.0.0.1", "action_clock_seconds": 45}
    fields.update(over)
    return TestClient(create_app(tmp_path, warm=False, settings=Settings(**fields)))


def _text(html: str) -> str:
    body = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", body)


def test_local_mode_offers_the_labelled_local_sign_in_and_no_google_script(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        html = c.get("/signin").text
    assert 'id="local-form"' in html and "本機測試登入" in html
    assert GSI_CLIENT not in html and "g_id_onload" not in html


def test_with_a_client_id_the_page_loads_google_and_posts_back_by_redirect(tmp_path: Path) -> None:
    with _client(tmp_path, google_client_id="123.apps.googleusercontent.com") as c:
        html = c.get("/signin?next=/rooms/ABC234").text
    assert f'<script src="{GSI_CLIENT}"' in html
    assert 'data-client_id="123.apps.googleusercontent.com"' in html
    assert 'data-ux_mode="redirect"' in html and 'data-login_uri="/auth/google?next=/rooms/ABC234"' in html
    assert 'id="local-form"' not in html


def test_without_google_and_off_localhost_there_is_no_sign_in_at_all(tmp_path: Path) -> None:
    with _client(tmp_path, host="0.0.0.0") as c:
        html = c.get("/signin").text
    assert 'id="local-form"' not in html and GSI_CLIENT not in html
    assert "沒有開放登入" in html


@pytest.mark.parametrize(("target", "expected"), [
    (None, "/lobby"), ("/rooms/ABC234", "/rooms/ABC234"), ("/lobby?x=1", "/lobby?x=1"),
    ("//evil.example/x", "/lobby"), ("https://evil.example/", "/lobby"), ("javascript:alert(1)", "/lobby"),
    ("lobby", "/lobby"), ("/\\evil.example", "/lobby"), ("/\\/evil.example", "/lobby"),
    ("/\t/evil.example", "/lobby"), ("/\n/evil.example", "/lobby"), ("/lobby\r", "/lobby"), ("/\x00x", "/lobby"),
    ("http:/evil.example", "/lobby"), ("/%5Cevil.example", "/%5Cevil.example"),
])
def test_next_is_always_a_path_on_this_site(target: str | None, expected: str) -> None:
    assert safe_next(target) == expected


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
@pytest.mark.parametrize("path", ["/signin", "/rooms/abc234", "/rooms/ABC234/history", "/rooms/<x>"])
def test_member_pages_render_in_both_languages_with_every_message(tmp_path: Path, lang: str, path: str) -> None:
    with _client(tmp_path) as c:
        r = c.get(path, headers={"Accept-Language": lang})
    assert r.status_code == 200
    assert f'<html lang="{lang}"' in r.text
    assert 'id="i18n-page"' in r.text
    assert RAW_KEY.findall(_text(r.text)) == []
    if path.startswith("/rooms/a"):
        assert 'data-code="ABC234"' in r.text
    if path == "/rooms/<x>":
        assert 'data-code=""' in r.text


def test_the_lobby_asks_to_sign_in_first(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        r = c.get("/lobby", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/signin?next=/lobby"
        c.post("/api/auth/local", json={"name": "小明"}, headers={"X-CSRF-Token": "signin"})
        for lang in ("zh-TW", "en"):
            r = c.get("/lobby", headers={"Accept-Language": lang})
            assert r.status_code == 200 and 'id="create-form"' in r.text
            assert RAW_KEY.findall(_text(r.text)) == []


def test_a_failed_google_sign_in_comes_back_with_a_message(tmp_path: Path) -> None:
    with _client(tmp_path, google_client_id="123.apps.googleusercontent.com") as c:
        html = c.get("/signin?error=bad_token").text
        odd = c.get("/signin?error=<script>").text
    assert "Google 登入驗證失敗" in html
    assert "<script>" not in _text(odd) and 'id="signin-error" role="alert" hidden' in odd


def test_nav_links_to_the_tables_and_sign_in_on_every_page(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        html = c.get("/").text
        c.post("/api/auth/local", json={"name": "小明"}, headers={"X-CSRF-Token": "signin"})
        lobby = c.get("/lobby").text
    assert 'href="/lobby"' in html and 'id="nav-member" href="/signin"' in html
    assert re.search(r'<a href="/lobby" aria-current="page">', lobby)
