"""The table history and the replayer tell a straddled hand run twice as the table played it (issue 45), in the
browser (Debian's Chromium) at 360 and 1280 pixels: four members play a hand with a straddle and two all-ins run
twice, Bob leaves and Eve takes his seat for the next hand, won uncontested with a card shown. The history names
Bob in hand 1 and Eve in hand 2, writes the straddle, labels each run's pots and offers the whole table's
downloads; the replayer's pot and stacks count the straddle, the second run is a step with its own board, and its
last step's stacks are the table's. Photographed (``TP_SHOTS45``, by default test-output/screenshots/history45)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server_process import ServerProcess

from .conftest import SCREENSHOTS
from .test_bots_e2e import settle
from .test_tables_e2e import RAW_KEY, Player

SHOTS = Path(os.environ.get("TP_SHOTS45") or SCREENSHOTS / "history45")
WIDTHS = {"phone": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}


def shot(page: Any, name: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    if full:
        page.evaluate("window.scrollTo(0, 0)")  # the sticky header stays at the top of a whole-page shot
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full, animations="disabled")


def fold_round(alice: Player, code: str, by_seat: dict[int, Player]) -> dict[str, Any]:
    """Everyone still to act folds; the hand as it then stands."""
    hand = alice.state(code)["hand"]
    while hand["to_act"] is not None:
        by_seat[hand["to_act"]].act_api(code, {"kind": "fold"})
        hand = alice.state(code)["hand"]
    return hand


def play_the_evening(players: dict[str, Player], eve: Player) -> tuple[str, dict[str, Any]]:
    """Hand 1: the straddle, two all-ins, the board run twice; Bob leaves and Eve sits in his seat; hand 2: the first
    to act lets the clock run out, the rest fold and the winner shows a card. The host pauses during each hand, so
    the table holds the next one. Returns the code and hand 1's JSON export (the host's)."""
    alice = players["Alice"]
    status, room = alice.post("/api/rooms", {"seats": 5, "straddle": True, "run_twice": True, "time_bank": 0})
    assert status == 200, room
    code = room["code"]
    for name in ("Bob", "Carol", "Dave"):
        assert players[name].post(f"/api/rooms/{code}/join")[0] == 200
    for name in ("Alice", "Dave"):  # Dave, under the gun in the first hand, and Alice later straddle
        assert players[name].post(f"/api/rooms/{code}/straddle", {"choice": "always"})[0] == 200
    assert alice.post(f"/api/rooms/{code}/next", {"version": alice.state(code)["version"]})[0] == 200
    assert alice.post(f"/api/rooms/{code}/pause")[0] == 200
    by_seat = {p["seat"]: players[p["name"]] for p in alice.state(code)["players"]}
    hand = alice.state(code)["hand"]
    assert hand["straddle_seat"] is not None
    for kind in ("allin", "call"):  # the first to act goes all in and the next calls all in; the rest fold
        by_seat[hand["to_act"]].act_api(code, {"kind": kind})
        hand = alice.state(code)["hand"]
    hand = fold_round(alice, code, by_seat)
    for seat in hand["pending"]["seats"]:
        s = alice.state(code)
        status, res = by_seat[seat].post(f"/api/rooms/{code}/runs", {"version": s["version"], "agree": True})
        assert status == 200 and res["applied"], res
    hand = alice.state(code)["hand"]
    assert hand["complete"] and hand["runs"] == 2
    bob_seat = next(s for s, p in by_seat.items() if p is players["Bob"])
    assert players["Bob"].post(f"/api/rooms/{code}/leave")[0] == 200
    assert eve.post(f"/api/rooms/{code}/join", {"seat": bob_seat})[0] == 200
    by_seat[bob_seat] = eve
    assert alice.post(f"/api/rooms/{code}/resume")[0] == 200
    s = alice.state(code)
    if s["hand"]["hand_no"] == 1:
        assert alice.post(f"/api/rooms/{code}/next", {"version": s["version"]})[0] == 200
    assert alice.post(f"/api/rooms/{code}/pause")[0] == 200
    s = alice.state(code)
    late = s["hand"]["to_act"]
    deadline = time.monotonic() + 30
    while (s := alice.state(code))["hand"]["to_act"] == late and not s.get("timeout_allowed"):
        assert time.monotonic() < deadline, s
        time.sleep(0.2)
    if s["hand"]["to_act"] == late:  # else the server's sweep timed them out first
        presser = next(p for seat, p in by_seat.items() if seat != late)
        presser.post(f"/api/rooms/{code}/timeout", {"version": s["version"]})
    hand = fold_round(alice, code, by_seat)
    assert hand["timeouts"] == [{"seat": late, "kind": "fold"}], hand["timeouts"]
    winner = by_seat[hand["pots"][0]["winners"][0]]
    assert winner.post(f"/api/rooms/{code}/show", {"cards": [0]})[0] == 200
    first = alice.ctx.request.get(f"{alice.base}/api/rooms/{code}/hands/1.json").json()
    return code, first


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose new tables have a 3-second action clock, so a time-out happens in a test's time."""
    tmp = tmp_path_factory.mktemp("quick")
    process = ServerProcess(tmp / "data", tmp / "server.log", env={"TP_ACTION_CLOCK_SECONDS": "3"})
    yield process.start()
    process.stop()


@pytest.fixture(scope="module")
def evening(quick_server: str, browser: Any) -> Any:
    players = {name: Player(browser, quick_server, name) for name in ("Alice", "Bob", "Carol", "Dave")}
    eve = Player(browser, quick_server, "Eve")
    try:
        yield (*play_the_evening(players, eve), players["Alice"])
    finally:
        for p in (*players.values(), eve):
            p.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_history_and_the_replayer_tell_the_straddled_run_twice_hand_as_it_was(
        quick_server: str, browser: Any, evening: Any, size: str) -> None:
    server = quick_server
    code, first, alice = evening
    ctx = browser.new_context(viewport=WIDTHS[size], locale="zh-TW", bypass_csp=True,
                              storage_state=alice.ctx.storage_state())
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    try:
        events = first["events"]
        straddle = next(e for e in events if e.get("type") == "straddle_posted")
        posted = sum(e["amount"] for e in events if e.get("type") in ("blind_posted", "straddle_posted"))
        final = first["final"]

        # the table history: names as seated at each hand, the straddle, each run's pots, the table's downloads
        page.goto(f"{server}/rooms/{code}/history")
        page.wait_for_selector("#hand-list li[data-hand='2']")
        one, two = page.locator("li[data-hand='1']"), page.locator("li[data-hand='2']")
        for item in (one, two):
            item.locator("details summary").click()
        text1, text2 = one.inner_text(), two.inner_text()
        assert "Bob" in text1 and "Eve" not in text1, "hand 1 was Bob's"
        assert "Eve" in text2 and "Bob" not in text2, "hand 2 is Eve's, in the seat Bob left"
        assert f"{first['names'][straddle['seat']]}：搶先注 {straddle['amount']}" in text1
        assert "盲注 10/20" in text1
        for run in (1, 2):
            pot = next(p for p in final["pots"] if p["run"] == run)
            assert f"第 {run} 次 · 底池 {pot['amount']:,}" in text1
        assert one.locator(".hand-summary .card").count() >= 10, "both boards"
        assert "贏得無人跟注的底池後亮牌" in text2, "the card an uncontested winner showed"
        assert "逾時，自動棄牌。" in two.locator(".hand-result").inner_text(), "the time-out explained after the hand"
        for fmt in ("txt", "phh", "json"):
            assert page.get_attribute(f"#dl-table-{fmt}", "href") == f"/api/rooms/{code}/hands.{fmt}"
        assert not RAW_KEY.findall(page.inner_text("body"))
        settle(page)
        shot(page, f"history-{size}")
        page.add_style_tag(content=".site-header { position: static !important; }")  # not over the hands' shots
        for n, item in ((1, one), (2, two)):
            item.screenshot(path=str(SHOTS / f"history-hand{n}-{size}.png"), animations="disabled")

        # the replayer: the straddle in the pot from the first step, the second run its own step, stacks at the end
        page.goto(f"{server}/rooms/{code}/hands/1")
        page.wait_for_selector("#replay[data-ready='1']")
        put = posted + sum(e["amount"] for e in events if e.get("type") == "action")
        assert page.inner_text("#replay-pot") == f"{put:,}", "the pre-flop street: the blinds, the straddle, the bets"
        page.click("#mode-action")  # back to the deal alone: the blinds and the straddle
        while page.is_enabled("#replay-prev"):
            page.click("#replay-prev")
        assert page.inner_text("#replay-pot") == f"{posted:,}" == "70"
        row = page.inner_text(f"#replay-seats li[data-seat='{straddle['seat']}']")
        assert f"{first['events'][0]['stacks'][straddle['seat']] - 40:,}" in row, "the straddler's stack"
        assert page.locator("#replay-board2").is_hidden()
        settle(page)
        shot(page, f"replay-deal-{size}")
        page.click("#mode-street")
        names = []
        while page.is_enabled("#replay-next"):
            page.click("#replay-next")
            names.append(page.inner_text("#replay-street"))
            if names[-1] == "第 2 次發牌":
                assert page.locator("#replay-board2").is_visible()
                assert page.locator("#replay-board2 .card").count() == 5
                assert page.is_visible("#replay-run1") and page.is_visible("#replay-run2")
                settle(page)
                shot(page, f"replay-second-run-{size}")
        assert "第 2 次發牌" in names and names[-1] == "攤牌與結果"
        rows = page.locator("#replay-seats li").all()
        stacks = {int(x.get_attribute("data-seat") or -1): x.inner_text() for x in rows}
        assert sorted(stacks) == [s for s, chips in enumerate(first["events"][0]["stacks"]) if chips > 0]
        for seat, row in stacks.items():
            assert f"{final['seats'][seat]['stack']:,}" in row, (seat, row)
        lines = page.inner_text("#replay-actions")
        assert "第 1 次 · 底池" in lines and "第 2 次 · 底池" in lines
        settle(page)
        shot(page, f"replay-end-{size}")

        # the table page offers the whole table's downloads once a hand was dealt
        page.goto(f"{server}/rooms/{code}")
        page.wait_for_selector("#room[data-version]")
        page.wait_for_selector("#table-downloads", state="visible")
        message = page.inner_text("#hand-message")  # hand 2, held by the host's pause
        assert "其他人都棄牌；亮出" in message and "不必亮牌" not in message, message
        assert "逾時，自動棄牌。" in message, message
        page.locator("#hand-message").scroll_into_view_if_needed()
        settle(page)
        shot(page, f"table-result-{size}", full=False)
        page.locator("#table-downloads").scroll_into_view_if_needed()
        settle(page)
        shot(page, f"table-downloads-{size}", full=False)

        # the same story in English
        ctx.add_cookies([{"name": "tp_lang", "value": "en", "url": server}])
        page.goto(f"{server}/rooms/{code}/history")
        page.wait_for_selector("#hand-list li[data-hand='2']")
        for item in (one, two):
            item.locator("details summary").click()
        text1, text2 = one.inner_text(), two.inner_text()
        assert f"{first['names'][straddle['seat']]}: straddle {straddle['amount']}" in text1 and "Blinds 10/20" in text1
        assert "Run 1 · pot" in text1 and "Run 2 · pot" in text1 and "Run 2 · flop" in text1
        assert "ran out of time and was folded." in text2 and "shown after winning uncontested" in text2
        assert not RAW_KEY.findall(page.inner_text("body"))
        page.add_style_tag(content=".site-header { position: static !important; }")
        one.screenshot(path=str(SHOTS / f"history-hand1-en-{size}.png"), animations="disabled")
        assert problems == [], problems
    finally:
        ctx.close()
