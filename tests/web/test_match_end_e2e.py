"""An end for every match (issue 21), in Chromium against the real server: "you are out" with the ways on,
removing a bot that holds chips asks first and says how many, a leaver is told to ask the host to sit again, and the
summary lists everyone who held chips (the leaver and the removed bot included) adding up to the chips that
entered the table."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import screenshot
from tests.web.test_members_e2e import Member


def _post(m: Member, path: str, body: dict[str, Any] | None = None, method: str = "POST") -> Any:
    return m.page.evaluate(
        """([p, b, method]) => fetch(p, {method, credentials: 'same-origin', headers: {'Content-Type':
           'application/json', 'X-CSRF-Token': document.cookie.split('; ').find(c => c.startsWith('tp_csrf='))
           .slice(8)}, body: b === null ? undefined : JSON.stringify(b)}).then(r => r.json())""",
        [path, body, method])


def _play_to_between_hands(players: list[Member], code: str, move: Any) -> dict[str, Any]:
    """Play the running hand out through the API, each member choosing by ``move(state)``; bots play themselves."""
    for _ in range(200):
        s = players[0].state(code)
        if (s["match"] and s["match"]["over"]) or s["hand"] is None or s["hand"]["complete"]:
            return s
        to_act = s["hand"]["to_act"]
        actor = next((m for m in players if m.state(code)["you"] == to_act), None)
        if actor is None:  # a bot's turn
            players[0].page.wait_for_timeout(100)
            continue
        mine = actor.state(code)
        _post(actor, f"/api/rooms/{code}/actions", {"version": mine["version"], "action": move(mine)})
    raise AssertionError("the hand did not end")


def _call_down(s: dict[str, Any]) -> dict[str, str]:
    legal = s["hand"]["legal"]["actions"]
    return {"kind": "check" if "check" in legal else "call"}


def test_a_removed_bot_with_chips_and_a_leaver_are_in_the_summary_and_the_leaver_gets_no_seat(
        server: str, browser: Any) -> None:
    alice, bob = Member(browser, server, "Alice 主"), Member(browser, server, "Bob 客")
    try:
        for m in (alice, bob):
            m.sign_in()
        made = _post(alice, "/api/rooms", {"seats": 4, "decks": 2, "stack": 3000, "blinds": [25, 50]})
        code = made["code"]
        for _ in range(2):
            _post(alice, f"/api/rooms/{code}/bots", {"level": "beginner"})
        _post(bob, f"/api/rooms/{code}/join", {})  # the table is full: hand 1 is dealt
        s = _play_to_between_hands([alice, bob], code, _call_down)
        bot = next(p for p in s["players"] if p["bot"] and not p["left"] and p["stack"] > 0)
        alice.page.goto(f"{server}/rooms/{code}")
        alice.page.wait_for_selector("#room[data-status='playing']")
        asked: list[str] = []

        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept()

        alice.page.on("dialog", answer)
        alice.page.click(f"#seat-{bot['seat']} .bot-remove")
        alice.page.wait_for_function(
            f"!document.querySelector('#seat-{bot['seat']}') || "
            f"!document.querySelector('#seat-{bot['seat']}').textContent.includes({bot['name']!r})")
        assert asked and f"{bot['stack']:,}" in asked[0] and bot["name"] in asked[0], asked
        bob_chips = next(p["stack"] for p in alice.state(code)["players"] if p["name"] == "Bob 客" and not p["left"])
        assert _post(bob, f"/api/rooms/{code}/leave", {})["ok"]
        bob.page.goto(f"{server}/rooms/{code}")
        bob.page.wait_for_selector("#room[data-version]")
        # a player who left may ask the host to sit again (a new buy-in), and the page says so (issue 45)
        assert bob.page.is_visible("#join-box"), "a leaver is told how to come back"
        assert "桌主" in (bob.page.text_content("#join-text") or ""), bob.page.text_content("#join-text")
        assert (bob.page.text_content("#join-btn") or "").strip() == "請求入座"
        assert _post(alice, f"/api/rooms/{code}/leave", {})["ok"]  # the last member leaves: bots do not play on
        bob.page.wait_for_selector("#result", state="visible")
        text = bob.page.inner_text("#result-text")
        screenshot(bob.page, "match-end-summary-leaver-and-removed-bot")
        assert f"Bob 客（已離開） {bob_chips:,}" in text and f"{bot['name']}（已離開） {bot['stack']:,}" in text, text
        total = sum(int(x.replace(",", "")) for x in re.findall(r" ([\d,]+)(?= ·|，共)", text))
        assert total == 12_000 and "共 12,000 籌碼" in text, text
    finally:
        for m in (alice, bob):
            m.close()


def test_a_member_who_goes_broke_is_told_they_are_out_with_the_ways_on(server: str, browser: Any) -> None:
    players = [Member(browser, server, n) for n in ("甲", "乙", "丙")]
    try:
        for m in players:
            m.sign_in()
        code = _post(players[0], "/api/rooms", {"seats": 3, "decks": 2, "stack": 200, "blinds": [5, 10]})["code"]
        for m in players[1:]:
            _post(m, f"/api/rooms/{code}/join", {})
        _post(players[0], f"/api/rooms/{code}/next", {"version": players[0].state(code)["version"]})
        broke = None
        for _ in range(60):  # 甲 and 乙 go all-in or call every hand; 丙 folds: one of the first two goes broke
            s = players[0].state(code)
            out = [m for m in players if m.state(code)["busted"]]
            if out and not s["match"]["over"]:
                broke = out[0]
                break
            if s["match"]["over"]:
                raise AssertionError("the match ended before anyone was out while it went on")
            if s["hand"]["complete"]:
                _post(players[0], f"/api/rooms/{code}/next", {"version": s["version"]})
                continue
            actor = next(m for m in players if m.state(code)["you"] == s["hand"]["to_act"])
            mine = actor.state(code)
            legal = mine["hand"]["legal"]["actions"]
            kind = "fold" if actor is players[2] and "fold" in legal else "allin" if "allin" in legal else \
                "call" if "call" in legal else "check"
            _post(actor, f"/api/rooms/{code}/actions", {"version": mine["version"], "action": {"kind": kind}})
        assert broke is not None
        for size in ({"width": 390, "height": 844}, {"width": 1280, "height": 800}):
            broke.page.set_viewport_size(size)
            broke.page.goto(f"{server}/rooms/{code}")
            broke.page.wait_for_selector("#out-box", state="visible")
            box = broke.page.locator("#out-box").bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
            assert "你出局了" in broke.page.inner_text("#out-box")
            for button in ("#out-watch", "#out-new", "#out-lobby"):
                assert broke.page.is_visible(button)
            screenshot(broke.page, f"you-are-out-{size['width']}x{size['height']}")
        broke.page.click("#out-watch")
        assert broke.page.is_hidden("#out-box"), "watching closes the note; the table stays in view"
    finally:
        for m in players:
            m.close()
