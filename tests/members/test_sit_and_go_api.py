"""Sit-and-go through the HTTP API and pages (issue 46): a member opens one against bots from a preset, its view
shows the level, the next level and the time left, the results page lists places in both languages and can be
shared, the member's tournaments are listed, bad settings get a code and change nothing."""

from __future__ import annotations

from fastapi import FastAPI

from tests.members.conftest import client


def test_a_member_opens_a_sit_and_go_against_bots_and_its_view_shows_the_level_clock(app: FastAPI) -> None:
    a = client(app, "Alice")
    r = a.post("/api/rooms", json={"decks": 2, "seats": 3, "bots": 2, "tournament": {"preset": "turbo"}})
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    view = a.get(f"/api/rooms/{code}").json()
    sng = view["tournament"]
    assert view["stack"] == 1500 and sng["level"] == 1 and sng["blinds"] == [10, 20]
    assert sng["next"] == {"level": 2, "blinds": [15, 30], "ante": 0}
    assert 0 < view["level_seconds_left"] <= 180 and sng["deadline"] is not None
    mine = a.get("/api/tournaments").json()["tournaments"]
    assert [t["code"] for t in mine] == [code] and mine[0]["place"] is None
    results = client(app).get(f"/api/rooms/{code}/results").json()  # public
    assert results["field"] == 3 and results["prize_pool"] == 300 and len(results["places"]) == 3
    assert all("member" not in p for p in results["places"])
    for lang, word in (("zh-TW", "錦標賽結果"), ("en", "Tournament results")):
        page = client(app).get(f"/rooms/{code}/results", headers={"Accept-Language": lang})
        assert page.status_code == 200 and word in page.text and 'id="results-table"' in page.text


def test_bad_sit_and_go_settings_are_refused_with_a_code_and_open_nothing(app: FastAPI) -> None:
    a = client(app, "Alice")
    for body, code in (({"seats": 3, "tournament": {"preset": "hyper"}}, "bad_schedule"),
                       ({"seats": 3, "tournament": {"preset": "turbo", "minutes": 0}}, "bad_schedule"),
                       ({"seats": 3, "tournament": {"payouts": {"3": [50, 60]}}}, "bad_payouts"),
                       ({"seats": 8, "tournament": {"preset": "turbo"}}, "bad_seats"),
                       ({"seats": 3, "rebuys": True, "tournament": {}}, "tournament_stacks"),
                       ({"seats": 3, "blinds": [0, 1], "tournament": {}}, "bad_blinds"),  # checked, then unused
                       ({"seats": 3, "blinds": [100001, 1], "tournament": {}}, "bad_blinds")):
        r = a.post("/api/rooms", json=body)
        assert r.status_code in (400, 409) and r.json()["error"]["code"] == code, (body, r.text)
    assert a.get("/api/tournaments").json()["tournaments"] == []
    assert client(app).get("/api/rooms/ZZZZ/results").status_code == 404


def test_a_cash_table_has_no_results_page(app: FastAPI) -> None:
    a = client(app, "Alice")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    r = client(app).get(f"/api/rooms/{code}/results")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_tournament"
    assert a.get(f"/api/rooms/{code}").json()["tournament"] is None


def test_a_guest_starts_a_sit_and_go_against_bots_from_the_home_page(app: FastAPI) -> None:
    g = client(app)
    for lang, word in (("zh-TW", "錦標賽・快速"), ("en", "Sit-and-go · turbo")):
        home = g.get("/", headers={"Accept-Language": lang}).text
        assert 'name="solo-format" value="turbo"' in home and word in home
    assert g.post("/api/auth/guest", json={}).status_code == 200
    g.headers["X-CSRF-Token"] = g.cookies["tp_csrf"]
    r = g.post("/api/rooms", json={"seats": 6, "decks": 2, "bots": 5, "tournament": {"preset": "turbo"}})
    assert r.status_code == 200, r.text
    view = g.get(f"/api/rooms/{r.json()['code']}").json()
    assert view["tournament"]["begun"] and view["tournament"]["field"] == 6 and view["status"] == "playing"


def test_the_members_list_of_tables_names_a_sit_and_go_and_their_place(app: FastAPI) -> None:
    a = client(app, "Alice")
    body = {"decks": 2, "seats": 2, "bots": 1, "tournament": {"preset": "deep"}}
    code = a.post("/api/rooms", json=body).json()["code"]
    rooms = a.get("/api/rooms").json()["rooms"]
    entry = next(r for r in rooms if r["code"] == code)
    assert entry["tournament"] == {"preset": "deep", "finished": False, "field": 2, "place": None, "payout": None}
    cash = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    assert next(r for r in a.get("/api/rooms").json()["rooms"] if r["code"] == cash)["tournament"] is None
