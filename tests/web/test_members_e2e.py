"""Member tables end to end: two members in two browser contexts (Debian's Chromium) against the real server.

They sign in locally, open and join a room by code, play a hand through the page's buttons (checking the
page shows exactly the state the API gives that seat, and never the opponent's hole cards before the
showdown), play the match out with all-ins, see the result and the rematch; a third member watches with
public information only; a server with a 3-second action clock shows the time-out button working.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.server_process import ServerProcess

from .conftest import PageWatch, screenshot

CATEGORY_ZH = {"five_of_a_kind": "五條", "straight_flush": "同花順", "four_of_a_kind": "四條", "full_house": "葫蘆",
               "flush": "同花", "straight": "順子", "three_of_a_kind": "三條", "two_pair": "兩對", "one_pair": "一對",
               "high_card": "高牌"}


@pytest.fixture(scope="module")
def quick_clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second server whose action clock is 3 seconds (``TP_ACTION_CLOCK_SECONDS``), to see it run out."""
    tmp = tmp_path_factory.mktemp("quick")
    server = ServerProcess(tmp / "data", tmp / "server.log", {"TP_ACTION_CLOCK_SECONDS": "3"})
    yield server.start()
    server.stop()


class Member:
    """One member: a browser context of their own, one page, and the API as that page sees it."""

    def __init__(self, browser: Any, base: str, name: str, *, no_websocket: bool = False) -> None:
        # bypass_csp: wait_for_function uses eval(), which the app's CSP forbids (see conftest.context)
        self.ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-TW", bypass_csp=True)
        if no_websocket:  # a browser whose WebSocket never connects: the page must fall back to polling
            self.ctx.add_init_script("window.WebSocket = class { constructor() { throw new Error('blocked'); } };")
        self.watch = PageWatch(self.ctx.new_page())
        self.page = self.watch.page
        self.page.set_default_timeout(15_000)
        self.base, self.name = base, name

    def sign_in(self, shot: str | None = None) -> None:
        p = self.page
        p.goto(self.base + "/signin")
        assert "本機測試登入" in p.inner_text("#local-badge")
        if shot:
            screenshot(p, shot)
        p.fill("#local-name", self.name)
        p.click("#local-submit")
        p.wait_for_url("**/lobby")
        p.wait_for_function(f"document.getElementById('lobby-hello').textContent.includes({self.name!r})")
        assert p.inner_text("#nav-member") == self.name

    def api(self, path: str) -> Any:
        return self.page.evaluate("p => fetch(p, {credentials: 'same-origin'}).then(r => r.json())", path)

    def state(self, code: str) -> dict[str, Any]:
        s: dict[str, Any] = self.api(f"/api/rooms/{code}")
        return s

    def version(self) -> int:
        return int(self.page.get_attribute("#room", "data-version") or -1)

    def wait_version(self, version: int) -> None:
        """Wait until the page shows at least ``version`` (pushed by the server, not fetched by the test)."""
        self.page.wait_for_function(f"Number(document.getElementById('room').dataset.version) >= {version}")

    def faces(self, selector: str) -> list[str]:
        out: list[str] = self.page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.label)")
        return out

    def problems(self) -> list[str]:
        return [x for x in self.watch.problems if not x.startswith("HTTP 4")]

    def close(self) -> None:
        self.ctx.close()


def _check_page_matches_api(m: Member, code: str) -> dict[str, Any]:
    """The page shows the seat's own view exactly: pot, stacks, own cards and burn; nothing of the opponent's."""
    s = m.state(code)
    m.wait_version(s["version"])
    hand = s["hand"]
    you = s["you"]
    p = m.page
    assert int(p.get_attribute("#pot", "data-chips") or -1) == hand["pot"]
    assert int(p.get_attribute(f"#seat-{you} .stack-num", "data-chips") or -1) == hand["seats"][you]["stack"]
    assert int(p.get_attribute(f"#seat-{1 - you} .stack-num", "data-chips") or -1) == hand["seats"][1 - you]["stack"]
    assert m.faces(f"#seat-{you} .seat-hole [data-face]") == hand["you"]["hole"]
    assert m.faces("#my-burn [data-face]") == hand["you"]["burns"]
    assert "私人燒牌" in p.inner_text("#my-burn-box") and "只有你看得到" in p.inner_text("#my-burn-box")
    assert m.faces("#board [data-face]") == [c for c in hand["board"] if c]
    opponent = hand["seats"][1 - you]
    if "shown" not in opponent:
        # before a showdown the opponent's hole cards are face down and not in the page at all
        assert m.faces(f"#seat-{1 - you} .seat-hole [data-face]") == []
        everything = Counter(m.faces("[data-face]"))
        mine = Counter(hand["you"]["hole"] + hand["you"]["burns"] + [c for c in hand["board"] if c])
        assert everything == mine, (everything, mine)
    return s


def _act(m: Member, selector: str, *, double: bool = False) -> None:
    """Press one of the seat's action buttons (as a person would) and wait for the table to move on."""
    before = m.version()
    m.page.wait_for_selector(f"{selector}:not([disabled])", state="visible")
    if double:
        m.page.dblclick(selector)
    else:
        m.page.click(selector)
    m.page.wait_for_function(f"Number(document.getElementById('room').dataset.version) > {before}")


def _to_act(players: dict[int, Member], code: str) -> tuple[Member, Member, dict[str, Any]]:
    s = players[0].state(code)
    seat = s["hand"]["to_act"]
    return players[seat], players[1 - seat], s


def _open_room(a: Member, b: Member, *, via_link: bool = False, bank: int | None = None) -> str:
    """A creates a room with 2 decks (and a time bank of ``bank`` seconds); B joins by typing the code (in lower
    case), or opens the shared link."""
    a.page.check("input[name=decks][value='2']")
    if bank is not None:
        a.page.fill("#create-bank", str(bank))
    a.page.click("#create-room")
    a.page.wait_for_url("**/rooms/*")
    code = a.page.inner_text("#room-code").strip()
    a.page.wait_for_selector("#room[data-status='waiting']")
    assert a.page.is_visible("#share-link") and a.page.input_value("#share-link").endswith(f"/rooms/{code}")
    a.page.click("#copy-link")
    a.page.wait_for_function("document.getElementById('copy-status').textContent === '已複製'")
    if via_link:
        b.page.goto(a.page.input_value("#share-link"))
        b.page.wait_for_selector("#join-btn", state="visible")
        assert b.page.is_visible("#spectator-note")
        b.page.click("#join-btn")
    else:
        b.page.fill("#join-code", code.lower())
        b.page.click("#join-room")
        b.page.wait_for_url(f"**/rooms/{code}")
        # the code opens the table; the member picks the empty seat on the oval (issue 45: a choice of seat)
        b.page.click("#seat-1 .sit-btn")
    for m in (a, b):
        m.page.wait_for_selector("#room[data-status='playing']")
    return code


def _deal_next(players: dict[int, Member], code: str) -> None:
    """Press "deal the next hand now" (unless the server's own 6-second pause already dealt it)."""
    m = players[0]
    if m.state(code)["hand"]["complete"]:
        with contextlib.suppress(PlaywrightTimeout):
            m.page.click("#next-btn:not([disabled])", timeout=5000)
    deadline = time.monotonic() + 10
    while (s := m.state(code))["hand"]["complete"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert s["hand"] and not s["hand"]["complete"]
    for p in players.values():
        p.wait_version(s["version"])


def test_two_members_play_a_match_through_the_pages(server: str, browser: Any) -> None:
    a, b = Member(browser, server, "小明"), Member(browser, server, "Alice")
    spectator = Member(browser, server, "觀眾", no_websocket=True)
    try:
        a.sign_in("member-signin")
        for m in (b, spectator):
            m.sign_in()
        sockets: list[Any] = []  # B's WebSockets, passed through to the server so the test can drop one

        def through(ws: Any) -> None:
            sockets.append(ws)
            ws.connect_to_server()

        b.page.route_web_socket(re.compile(r"/ws/rooms/"), through)
        code = _open_room(a, b)
        players = {a.state(code)["you"]: a, b.state(code)["you"]: b}
        assert sorted(players) == [0, 1]
        for m in players.values():
            _check_page_matches_api(m, code)

        # hand 1 — preflop: the small blind types an amount below the minimum (the box keeps it, the button is
        # disabled and says why), then raises to 60
        actor, other, s = _to_act(players, code)
        legal = actor.state(code)["hand"]["legal"]
        assert other.page.is_hidden("#actions")
        assert actor.page.inner_text("#act-call") == f"跟注 {legal['call_amount']}"
        actor.page.fill("#raise-amount", "5")
        actor.page.locator("#raise-amount").blur()
        assert actor.page.input_value("#raise-amount") == "5" and actor.page.is_disabled("#act-raise")
        assert f"最少 {legal['min_raise_to']}" in actor.page.inner_text("#size-error")
        actor.page.fill("#raise-amount", "60")
        assert actor.page.inner_text("#act-raise") == "加注到 60"
        _act(actor, "#act-raise")
        other.wait_version(actor.version())
        assert other.state(code)["hand"]["current_bet"] == 60
        # the big blind calls with a double click: one call, never two
        _act(other, "#act-call", double=True)
        time.sleep(0.3)
        s = other.state(code)
        assert s["hand"]["street"] == "flop" and [x["contributed"] for x in s["hand"]["seats"]] == [60, 60]
        for m in players.values():
            _check_page_matches_api(m, code)

        # a third member opens the room: a spectator with public information only
        sp = spectator.page
        sp.goto(f"{server}/rooms/{code}")
        sp.wait_for_selector("#room[data-status='playing']")
        assert sp.is_visible("#spectator-note") and sp.is_hidden("#join-box") and sp.is_hidden("#actions")
        assert sp.get_attribute("#room", "data-conn") == "polling"
        assert a.page.get_attribute("#room", "data-conn") == "live"
        assert sp.is_hidden("#my-burn-box")
        board = [c for c in spectator.state(code)["hand"]["board"] if c]
        assert Counter(spectator.faces("[data-face]")) == Counter(board)
        assert sp.locator("#table .card.back").count() == 4
        screenshot(sp, "member-spectator")

        # B's connection drops: the page falls back to polling, reconnects by itself and catches up
        b.page.wait_for_selector("#room[data-conn='live']")
        assert len(sockets) == 1
        sockets[0].close()
        actor, other, _ = _to_act(players, code)
        _act(actor, "#act-check")
        b.wait_version(actor.version())
        b.page.wait_for_selector("#room[data-conn='live']")
        assert len(sockets) == 2

        # check it down to the showdown (the big blind checks first after the flop)
        while not (s := a.state(code))["hand"]["complete"]:
            actor, other, _ = _to_act(players, code)
            _check_page_matches_api(actor, code)
            _check_page_matches_api(other, code)
            _act(actor, "#act-check")
        for m in players.values():
            m.wait_version(s["version"])
            st = m.state(code)
            you, hand = st["you"], st["hand"]
            opp = hand["seats"][1 - you]["shown"]
            assert m.faces(f"#seat-{1 - you} .seat-hole [data-face]") == opp["hole"]
            assert m.faces(f"#seat-{1 - you} .seat-five [data-face]") == opp["best"]
            assert m.page.inner_text(f"#seat-{1 - you} .cat") == CATEGORY_ZH[opp["category"]]
            assert m.page.inner_text(f"#seat-{you} .cat") == CATEGORY_ZH[hand["seats"][you]["shown"]["category"]]
            # the winner's best five are highlighted (hole cards and board together make five)
            highlighted = m.faces("#table .seat-cards .card.hl") + m.faces("#board .card.hl")
            assert 5 <= len(highlighted) <= 7
            assert m.page.inner_text("#hand-message")
        screenshot(a.page, "member-showdown")
        # the spectator (polling every 2 s) now sees both shown hands, still no burn
        spectator.wait_version(s["version"])
        assert len(spectator.faces("#table [data-face]")) == 5 + 4 + 10 and sp.is_hidden("#my-burn-box")

        # the same table in English (the language switch keeps the room), then back
        b.page.click(".lang-switch")
        b.page.wait_for_selector("html[lang='en'] #room[data-status='playing']")
        b.wait_version(s["version"])
        message = b.page.inner_text("#hand-message")
        assert "Pot" in b.page.inner_text("#table") and ("won" in message or "Split pot" in message), message
        assert not re.search(r"\b(?:room|action|member|history|lobby|signin)\.[a-z_.]+", b.page.inner_text("body"))
        screenshot(b.page, "member-showdown-en")
        b.page.click(".lang-switch")
        b.page.wait_for_selector("html[lang='zh-TW'] #room[data-status='playing']")

        # phone width, mid-hand, the seat to act
        _deal_next(players, code)
        actor, _, _ = _to_act(players, code)
        actor.page.set_viewport_size({"width": 390, "height": 844})
        _check_page_matches_api(actor, code)
        assert actor.page.is_visible("#act-call") and actor.page.is_visible("#act-raise")
        screenshot(actor.page, "member-table-phone")
        actor.page.set_viewport_size({"width": 1280, "height": 900})
        # quick sizes: ½ pot and pot raise to (call first, then the pot that makes) within min..max, and the max
        hand = actor.state(code)["hand"]
        legal, pot, cb = hand["legal"], hand["pot"], hand["current_bet"]
        lo, hi = legal["min_raise_to"], legal["max_raise_to"]
        after_call = pot + legal["call_amount"]
        for size, expected in (("half", cb + after_call // 2), ("pot", cb + after_call), ("max", hi)):
            actor.page.click(f"#sizing .quick [data-size='{size}']")
            assert int(actor.page.input_value("#raise-amount")) == min(hi, max(lo, expected)), size
            assert actor.page.input_value("#raise-range") == actor.page.input_value("#raise-amount")

        # the match: whoever may call calls, otherwise goes all-in, until someone has no chips
        for _hand in range(20):
            while not (s := a.state(code))["hand"]["complete"]:
                actor, _, _ = _to_act(players, code)
                _check_page_matches_api(actor, code)
                if actor.page.is_visible("#act-call"):
                    _act(actor, "#act-call")
                else:
                    if actor.page.is_hidden("#act-allin"):
                        _act(actor, "#act-check")
                        continue
                    assert actor.page.inner_text("#act-allin").startswith("全下")
                    screenshot(actor.page, "member-allin-choice")
                    _act(actor, "#act-allin")
            if s["match"]["over"]:
                break
            _deal_next(players, code)
        s = a.state(code)
        assert s["match"]["over"] and sorted(s["match"]["stacks"]) == [0, 4000]
        winner = players[s["match"]["winner"]]
        for m in players.values():
            m.wait_version(s["version"])
            m.page.wait_for_selector("#result", state="visible")
            assert m.page.is_visible("#rematch-btn")
        assert "你贏得這場比賽" in winner.page.inner_text("#result-title")
        screenshot(winner.page, "member-match-won")
        loser = a if winner is b else b
        screenshot(loser.page, "member-match-lost")

        # rematch: a new room; the other player is offered the way there
        winner.page.click("#rematch-btn")
        winner.page.wait_for_url(lambda url: "/rooms/" in url and code not in url)
        winner.page.wait_for_selector("#room[data-status='waiting']")
        new_code = winner.page.inner_text("#room-code").strip()
        assert new_code != code
        loser.page.wait_for_selector("#rematch-link", state="visible")
        assert new_code in loser.page.inner_text("#rematch-link")

        # history: every hand, own cards, the actions
        a.page.goto(f"{server}/rooms/{code}/history")
        a.page.wait_for_selector(".hand-item")
        assert a.page.locator(".hand-item").count() == s["match"]["hands_played"]
        assert a.page.locator(".hand-item[data-hand='1'] [data-face]").count() >= 2 + 1 + 5
        a.page.click(".hand-item[data-hand='1'] summary")
        assert "加注到 60" in a.page.inner_text(".hand-item[data-hand='1'] .event-list")
        screenshot(a.page, "member-history")

        # the lobby lists the rooms with their state
        a.page.goto(f"{server}/lobby")
        a.page.wait_for_selector(f".room-item[data-code='{code}']")
        assert a.page.get_attribute(f".room-item[data-code='{code}']", "data-status") == "over"
        screenshot(a.page, "member-lobby")
        for m in (a, b, spectator):
            assert not [x for x in m.problems() if "page error" in x or "console error" in x], m.problems()
    finally:
        for m in (a, b, spectator):
            m.close()


def _watch_timeout_button(m: Member) -> None:
    """Note in the page the first moment the time-out button shows, and the clock's words then: the server applies
    the same time-out itself a second later, and on a loaded machine that second can pass between two polls."""
    m.page.evaluate("""() => {
      const btn = document.getElementById('timeout-btn');
      window.__timeoutSeen = null;
      const look = () => { if (!btn.hidden && window.__timeoutSeen == null)
        window.__timeoutSeen = document.getElementById('clock-text').textContent; };
      new MutationObserver(look).observe(btn, { attributes: true });
      look();
    }""")


def _seen_timeout_button(m: Member) -> str:
    """Wait until the watched time-out button has shown; the clock's words at that moment."""
    m.page.wait_for_function("window.__timeoutSeen != null", timeout=8000)
    return str(m.page.evaluate("window.__timeoutSeen"))


def _press_timeout(m: Member) -> None:
    """Press time-out; the server applies the same time-out itself a second after the button appears, so the
    press may find it applied already (``applied`` false, nothing changed): either way the turn is timed out."""
    version = m.state(m.page.inner_text("#room-code").strip())["version"]
    # when the server got there first the button is gone: the click times out and the response never comes,
    # which Playwright reports by cancelling its wait (a BaseException, not an Exception)
    with contextlib.suppress(Exception, asyncio.CancelledError):
        with m.page.expect_response(lambda r: r.url.endswith("/timeout"), timeout=3000) as resp:
            m.page.click("#timeout-btn", timeout=2000)
        assert resp.value.json()["applied"] in (True, False)
    m.page.wait_for_function(f"Number(document.getElementById('room').dataset.version) > {version}")


def test_the_clock_runs_out_and_the_time_out_button_works(quick_clock_server: str, browser: Any) -> None:
    base = quick_clock_server
    a, b = Member(browser, base, "阿明"), Member(browser, base, "Bob")
    try:
        for m in (a, b):
            m.sign_in()
        a.page.goto(f"{base}/rooms/ZZZZZZ")  # no such room: a clear message, no table
        a.page.wait_for_selector("#room[data-status='missing']")
        assert "找不到這個房間" in a.page.inner_text("#room-error") and a.page.is_hidden("#table")
        a.page.goto(f"{base}/lobby")
        code = _open_room(a, b, via_link=True, bank=2)  # a 3-s clock, then a 2-s time bank
        assert b.page.is_hidden("#join-box") and b.page.is_hidden("#spectator-note")
        players = {a.state(code)["you"]: a, b.state(code)["you"]: b}
        assert a.state(code)["time_bank"] == 2
        # preflop the small blind faces the big blind: its time-out folds; the other player presses the button
        actor, other, s = _to_act(players, code)
        sb = s["hand"]["to_act"]
        other.page.wait_for_selector("#clock", state="visible")
        _watch_timeout_button(other)
        other.page.wait_for_selector("#clock.bank", timeout=8000)  # the clock ran out: the time bank runs
        assert "時間銀行" in other.page.inner_text("#clock-text")
        assert "時間已到" in _seen_timeout_button(other)
        _press_timeout(other)
        s = other.state(code)
        assert s["hand"]["complete"] and s["hand"]["seats"][sb]["folded"]
        assert next(p for p in s["players"] if p["seat"] == sb)["bank"] == 0, "the time-out used up the bank"
        other.wait_version(s["version"])
        screenshot(other.page, "member-timeout-fold")
        # next hand: the small blind calls, then the big blind's time-out checks (the seat to act presses it)
        _deal_next(players, code)
        actor, other, s = _to_act(players, code)
        _watch_timeout_button(players[1 - s["hand"]["to_act"]])  # the big blind's page, before its clock starts
        _act(actor, "#act-call")
        actor, other, s = _to_act(players, code)
        assert s["hand"]["street"] == "preflop" and "check" in actor.state(code)["hand"]["legal"]["actions"]
        assert "時間已到" in _seen_timeout_button(actor)
        _press_timeout(actor)
        s = actor.state(code)
        assert s["hand"]["street"] == "flop" and not s["hand"]["complete"]
        history = actor.api(f"/api/rooms/{code}/history")["hands"]
        timed = [e for h in history for e in h["events"] if e.get("type") == "action" and e.get("timeout")]
        # that player's second time-out in a row (after the fold in hand 1) marks them away: their flop turn is
        # checked at once, with no clock
        assert [e["kind"] for e in timed] == ["fold", "check", "check"]
        assert next(p for p in actor.state(code)["players"] if p["seat"] == s["you"])["away"]
        # leaving is explicit: it forfeits the match in progress, and the other player sees the result
        b.page.click("#leave-btn")
        b.page.click("#leave-yes")
        b.page.wait_for_url("**/lobby")
        b.page.wait_for_selector(f".room-item[data-code='{code}']")
        assert "已離席" in b.page.inner_text(f".room-item[data-code='{code}']")
        a.page.wait_for_selector("#result", state="visible")
        assert "Bob 離席，視同認輸" in a.page.inner_text("#result-text")
        assert "你贏得這場比賽" in a.page.inner_text("#result-title")
        for m in (a, b):  # only the unknown room's 404 on purpose
            errors = [x for x in m.problems() if ("page error" in x or "console error" in x) and "404" not in x]
            assert errors == [], errors
    finally:
        for m in (a, b):
            m.close()
