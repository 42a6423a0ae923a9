"""The member's history over HTTP: hands and numbers across tables with filters, exports, share links, the pages,
and the practice room's score counting each question once."""

from __future__ import annotations

import datetime as dt
import random

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.members.conftest import client
from tests.members.test_history_leaks import play


def two_tables(app: FastAPI) -> tuple[TestClient, TestClient, list[str]]:
    app.state.rooms.rng_factory = lambda: random.Random(7)
    a, b = client(app, "Alice"), client(app, "Bob")
    codes = []
    for i in range(2):
        code = a.post("/api/rooms", json={"decks": 2 + i}).json()["code"]
        assert b.post(f"/api/rooms/{code}/join").status_code == 200
        play(app, [a, b], code, random.Random(i), hands=4)
        codes.append(code)
    return a, b, codes


def test_my_hands_across_tables_with_filters_and_numbers(app: FastAPI) -> None:
    assert client(app).get("/api/me/hands").status_code == 401
    a, b, codes = two_tables(app)
    data = a.get("/api/me/hands").json()
    hands = data["hands"]
    assert sorted(data["tables"]) == sorted(codes)
    assert {h["table"] for h in hands} == set(codes) and len(hands) >= 2
    assert data["stats"]["hands"] == len(hands)
    assert data["stats"]["net"] == sum(h["net"] for h in hands)
    assert sum(h["net"] for h in hands) == -sum(h["net"] for h in b.get("/api/me/hands").json()["hands"])
    for h in hands:
        assert h["result"] == ("won" if h["net"] > 0 else "lost" if h["net"] < 0 else "even")
        assert h["ev_net"] == h["net"] or h["allin_ev"]
        assert not h["pfr"] or h["vpip"]
    one = a.get("/api/me/hands", params={"table": codes[0]}).json()
    assert {h["table"] for h in one["hands"]} == {codes[0]} and one["tables"] == data["tables"]
    for result in ("won", "lost", "even"):
        got = a.get("/api/me/hands", params={"result": result}).json()["hands"]
        assert all(h["result"] == result for h in got)
        assert len(got) == sum(h["result"] == result for h in hands)
    today = dt.datetime.now(dt.UTC).date()
    recent = a.get("/api/me/hands", params={"since": str(today - dt.timedelta(days=1))}).json()["hands"]
    assert len(recent) == len(hands)
    assert a.get("/api/me/hands", params={"since": str(today + dt.timedelta(days=2))}).json()["hands"] == []
    assert a.get("/api/me/hands", params={"until": str(today - dt.timedelta(days=2))}).json()["stats"]["hands"] == 0
    assert a.get("/api/me/hands", params={"result": "maybe"}).status_code == 422
    assert a.get("/api/me/hands", params={"since": "yesterday"}).status_code == 422


def test_history_page_shows_numbers_with_definitions_and_a_server_drawn_chart(app: FastAPI) -> None:
    out = client(app).get("/history", follow_redirects=False)
    assert out.status_code == 303 and out.headers["location"].startswith("/signin")
    a, _, codes = two_tables(app)
    page = a.get("/history", headers={"Accept-Language": "zh-TW"}).text
    assert "<svg" in page and 'class="chips-line"' in page and 'class="ev-line"' in page
    for word in ("VPIP", "PFR", "主動入池率", "翻牌前加注率", "攤牌勝場"):
        assert word in page
    assert "<script src=\"http" not in page  # no charting library from a CDN
    filtered = a.get("/history", params={"table": codes[1], "result": "won", "since": "bad"}).text
    assert f'<option value="{codes[1]}" selected>' in filtered
    empty = client(app, "Newcomer").get("/history", headers={"Accept-Language": "en"}).text
    assert "No finished hands yet." in empty and "<svg" not in empty


def test_exports_and_pages_for_one_hand(app: FastAPI) -> None:
    a, _, codes = two_tables(app)
    code = codes[0]
    text = a.get(f"/api/rooms/{code}/hands/1.txt")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert f'filename="{code}-1.txt"' in text.headers["content-disposition"]
    assert "Dealt to Alice [" in text.text and "Dealt to Bob" not in text.text
    whole = a.get(f"/api/rooms/{code}/hands.txt").text
    assert whole.count("Taiwan Poker Hand #") == len(a.get(f"/api/rooms/{code}/hands.json").json()["hands"])
    one = a.get(f"/api/rooms/{code}/hands/1.json").json()
    assert one["hand_no"] == 1 and one["seat"] is not None and one["names"][one["seat"]] == "Alice"
    assert a.get(f"/api/rooms/{code}/hands/99.json").status_code == 404
    assert a.get(f"/api/rooms/{code}/hands/99.txt").status_code == 404
    page = a.get(f"/rooms/{code}/hands/1").text
    for link in (f"/api/rooms/{code}/hands/1.phh", f"/api/rooms/{code}/hands/1.txt", f"/api/rooms/{code}/hands/1.json"):
        assert link in page
    assert 'id="review"' in page and "replay.js" in page


def test_share_links(app: FastAPI) -> None:
    a, b, codes = two_tables(app)
    code = codes[0]
    first = a.post(f"/api/rooms/{code}/hands/1/share").json()["url"]
    assert first.startswith("/share/") and b.post(f"/api/rooms/{code}/hands/1/share").json()["url"] == first
    assert a.post(f"/api/rooms/{code}/hands/2/share").json()["url"] != first
    assert client(app, "Stranger").post(f"/api/rooms/{code}/hands/1/share").status_code == 403
    assert client(app).post(f"/api/rooms/{code}/hands/1/share").status_code in (401, 403)
    assert a.post(f"/api/rooms/{code}/hands/999/share").status_code == 404
    token = first.rsplit("/", 1)[1]
    anyone = client(app)
    shared = anyone.get(f"/api/share/{token}").json()
    assert shared["seat"] is None and shared["table"] is None and shared["hand_no"] == 1
    assert "you" not in shared["final"]
    assert anyone.get(first).status_code == 200
    assert anyone.get("/api/share/not-a-real-token").status_code == 404
    assert anyone.get("/share/<script>").status_code in (200, 404)


def test_a_hand_being_played_cannot_be_shared(app: FastAPI) -> None:
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    b.post(f"/api/rooms/{code}/join")
    r = a.post(f"/api/rooms/{code}/hands/1/share")
    assert r.status_code == 409 and r.json()["error"]["code"] == "hand_in_progress"


def test_practice_counts_each_question_once(app: FastAPI) -> None:
    c = client(app)
    first = c.post("/api/practice/answers", json={"scenario": "pot_odds", "choice": "20"}).json()
    again = c.post("/api/practice/answers", json={"scenario": "pot_odds", "choice": "33"}).json()
    assert first["score"]["answered"] == again["score"]["answered"] == 1
    assert again["score"]["correct"] == first["score"]["correct"]
    other = c.post("/api/practice/answers", json={"scenario": "draw_price", "choice": "call"}).json()
    assert other["score"]["answered"] == 2
    drill = c.get("/api/practice/drill", params={"seed": 5}).json()
    body = {"seed": drill["seed"], "choice": "1/2"}
    assert c.post("/api/practice/drill/answers", json=body).json()["score"]["answered"] == 3
    assert c.post("/api/practice/drill/answers", json=body).json()["score"]["answered"] == 3
    assert "每題只計第一次作答" in c.get("/practice", headers={"Accept-Language": "zh-TW"}).text
