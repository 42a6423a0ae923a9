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


def test_each_bad_schedule_or_payout_says_why_in_both_languages_and_opens_nothing(app: FastAPI) -> None:
    """The lobby's structure editor shows these messages next to its fields: each names what is wrong."""
    a = client(app, "Alice")
    levels = [[10, 20], [15, 30], [25, 50]]
    cases = [
        ({"minutes": 61}, "bad_schedule", "每級分鐘數須是 1 至 60", "Minutes a level must be a whole number from 1 to"),
        ({"break_every": 41}, "bad_schedule", "休息間隔須是 0 至 40", "Levels between breaks must be"),
        ({"break_minutes": 31}, "bad_schedule", "休息分鐘數須是 0 至 30", "A break's minutes must be"),
        ({"ante_from": -1}, "bad_schedule", "前注起始級須是 0 至 40", "antes start from must be"),
        ({"buy_in": 0}, "bad_schedule", "買入須是 1 至 1000000", "buy-in must be a whole number"),
        ({"preset": "hyper"}, "bad_schedule", "快速、標準或深籌碼", "turbo, regular or deep"),
        ({"speed": 1}, "bad_schedule", "沒有這項錦標賽設定：speed", "No such sit-and-go setting: speed"),
        ({"levels": []}, "bad_schedule", "須有 1 至 40 級", "1 to 40 levels"),
        ({"levels": [[10, 20], [15, "30"]]}, "bad_schedule", "第 2 級：小盲、大盲與前注須是整數", "Level 2: the small"),
        ({"levels": [[10, 20], [40, 30]]}, "bad_schedule", "第 2 級：小盲須至少 1", "Level 2: the small blind must"),
        ({"levels": [[10, 20, 21]]}, "bad_schedule", "第 1 級：前注須是 0 至大盲", "Level 1: the ante must be"),
        ({"levels": [*levels, [30, 50]]}, "bad_schedule", "第 4 級：大盲須大於上一級", "Level 4: the big blind must"),
        ({"levels": [[10, 20], 5], "ante_from": 1}, "bad_schedule", "第 2 級：小盲", "Level 2: the small blind, big"),
        ({"payouts": {"3": [50, 40]}}, "bad_payouts", "合計須為 100（現在是 90）", "add up to 100 (now 90)"),
        ({"payouts": {"3": [40, 60]}}, "bad_payouts", "名次越前，百分比不可越小", "largest first"),
        ({"payouts": {"3": [50, 0, 50]}}, "bad_payouts", "大於 0 的整數百分比", "a whole percentage above 0"),
        ({"payouts": {"3": [25, 25, 25, 25]}}, "bad_payouts", "須有 1 至 3 個得獎名次", "1 to 3 places are paid"),
        ({"payouts": {"2": [60, 40]}}, "bad_payouts", "兩人對決由贏家全拿", "Heads-up the winner takes all"),
        ({"payouts": [[100]]}, "bad_payouts", "每種人數各給一組百分比", "one list of percentages for each field"),
    ]
    for change, code, zh, en in cases:
        body = {"seats": 3, "tournament": {"preset": "turbo", **change}}
        for lang, words in (("zh-TW", zh), ("en", en)):
            r = a.post("/api/rooms", json=body, headers={"Accept-Language": lang})
            error = r.json()["error"]
            assert r.status_code == 400 and error["code"] == code and words in error["message"], (change, lang, error)
    assert a.get("/api/rooms").json()["rooms"] == []
