"""Member tables of 3 and 6 seats end to end: every member in a browser context of their own (Debian's Chromium).

Six members go all-in for three different amounts, so the page shows a main pot and two side pots (checked
against the state while the last player decides, and against the server's pots at the showdown), with the board,
pot and clock in view above the action buttons at 390×844 and 1280×800, in both languages. Three members create
a table from the lobby, deal the first hand before it is full, step away and come back, size a raise by typing
(nothing is changed behind their back), are asked before folding a free check, one leaves in the middle of a hand
(the hand goes on, no chip is lost) and the other two play the match out. Tables are set up through the API
where the page is not what is being tested.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import SCREENSHOTS, PageWatch, screenshot

RAW_KEY = re.compile(r"\b(?:room|action|member|history|lobby|signin|error|js)\.[a-z_]+(?:\.[a-z_]+)*\b")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


class Player:
    """One member: a browser context and page of their own, signed in through the API."""

    def __init__(self, browser: Any, base: str, name: str, viewport: dict[str, int] = DESKTOP) -> None:
        # bypass_csp: wait_for_function uses eval(), which the app's CSP forbids (see conftest.context)
        self.ctx = browser.new_context(viewport=viewport, locale="zh-TW", bypass_csp=True)
        self.watch = PageWatch(self.ctx.new_page())
        self.page = self.watch.page
        self.page.set_default_timeout(15_000)
        self.base, self.name = base, name
        r = self.ctx.request.post(f"{base}/api/auth/local", data={"name": name}, headers={"X-CSRF-Token": "signin"})
        assert r.ok, r.text()

    def csrf(self) -> str:
        return next(c["value"] for c in self.ctx.cookies() if c["name"] == "tp_csrf")

    def post(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        headers = {"X-CSRF-Token": self.csrf()}
        # max_retries: a keep-alive connection the server closed as idle just as the request went out is reset
        # (ECONNRESET) before the app reads the request, and a browser sends such a request again (as state() does)
        r = (self.ctx.request.post(self.base + path, data=body, headers=headers, max_retries=2) if body is not None
             else self.ctx.request.post(self.base + path, headers=headers, max_retries=2))
        return r.status, r.json()

    def state(self, code: str) -> dict[str, Any]:
        data: dict[str, Any] = self.ctx.request.get(f"{self.base}/api/rooms/{code}", max_retries=2).json()
        return data

    def act_api(self, code: str, action: dict[str, Any]) -> dict[str, Any]:
        s = self.state(code)
        status, res = self.post(f"/api/rooms/{code}/actions", {"version": s["version"], "key": f"{time.time_ns()}",
                                                                "action": action})
        assert status == 200 and res["applied"], res
        out: dict[str, Any] = res["state"]
        return out

    def open(self, code: str) -> None:
        self.page.goto(f"{self.base}/rooms/{code}")
        self.page.wait_for_selector("#room[data-version]")

    def version(self) -> int:
        return int(self.page.get_attribute("#room", "data-version") or -1)

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(f"Number(document.getElementById('room').dataset.version) >= {version}")

    def act(self, selector: str) -> None:
        """Press an action button and wait until the table moved on."""
        before = self.version()
        self.page.click(f"{selector}:not([disabled])")
        self.page.wait_for_function(f"Number(document.getElementById('room').dataset.version) > {before}")

    def errors(self) -> list[str]:
        return [x for x in self.watch.problems if "page error" in x or "console error" in x]

    def close(self) -> None:
        self.ctx.close()


def live_pots(hand: dict[str, Any]) -> list[tuple[int, list[int]]]:
    """The pots while a hand runs: one per all-in level of the players still in it, then the rest above."""
    seats = hand["seats"]
    live = [x for x in seats if x["in_hand"] and not x["folded"]]
    levels = sorted({x["contributed"] for x in live if x["allin"]})
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    for level in levels:
        amount = sum(max(0, min(x["contributed"], level) - prev) for x in seats)
        pots.append((amount, [x["seat"] for x in live if not x["allin"] or x["contributed"] >= level]))
        prev = level
    rest = sum(max(0, x["contributed"] - prev) for x in seats)
    if rest:
        pots.append((rest, [x["seat"] for x in live if not x["allin"]]))
    return pots


def page_pots(page: Any) -> list[dict[str, str]]:
    out: list[dict[str, str]] = page.eval_on_selector_all("#pots .pot-item", "els => els.map(e => ({...e.dataset}))")
    return out


def assert_table_in_view_while_acting(page: Any) -> None:
    """With the action buttons in view, the board, pot and clock are in the viewport and nothing covers them."""
    boxes = page.evaluate("""() => {
      const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
      const covered = (sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !(hit && hit.closest(sel)); };
      return {header: box('.site-header'), actions: box('#actions .action-main'), board: box('#board'),
              pot: box('#pot-line'), clock: box('#clock'), width: innerWidth, height: innerHeight,
              covered: ['#board', '#pot-line', '#clock'].filter(covered)};
    }""")
    top, bottom = boxes["header"]["bottom"], boxes["height"]
    for name in ("actions", "board", "pot", "clock"):
        b = boxes[name]
        assert top - 1 <= b["top"] and b["bottom"] <= bottom + 1, (name, boxes)
        assert b["left"] >= 0 and b["right"] <= boxes["width"] + 1, (name, boxes)
    assert boxes["covered"] == [], boxes


def deal_next(m: Player, code: str) -> None:
    """Press "deal the next hand now" (unless the server's own 6-second pause dealt it first)."""
    s = m.state(code)
    m.wait_version(s["version"])
    with contextlib.suppress(PlaywrightTimeout):
        m.page.click("#next-btn:not([disabled])", timeout=3000)
    deadline = time.monotonic() + 10
    while (s := m.state(code))["hand"]["complete"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not s["hand"]["complete"]


def no_raw_keys(page: Any) -> None:
    text = page.inner_text("body")
    assert RAW_KEY.findall(text) == [], RAW_KEY.findall(text)


def view_shot(page: Any, name: str) -> None:
    """What the viewport shows now (the ``screenshot`` helper scrolls to the top for the whole page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-view.png"), animations="disabled")


def test_six_players_all_in_for_three_amounts_make_two_side_pots(server: str, browser: Any) -> None:
    names = ["小明", "Alice", "Bob", "陳大文", "Charlotte", "Dan"]
    players = [Player(browser, server, n) for n in names]
    try:
        status, created = players[0].post("/api/rooms", {"seats": 6, "decks": 2, "stack": 200, "blinds": [5, 10]})
        assert status == 200
        code = created["code"]
        for p in players[1:]:
            assert p.post(f"/api/rooms/{code}/join")[0] == 200
        by_seat = {p.state(code)["you"]: p for p in players}
        assert sorted(by_seat) == list(range(6))

        # hand 1 (the full table dealt it by itself) sets the stacks apart: the first to act raises, all fold
        s = players[0].state(code)
        assert s["status"] == "playing" and s["hand"]["hand_no"] == 1
        raiser = s["hand"]["to_act"]
        while not s["hand"]["complete"]:
            seat = s["hand"]["to_act"]
            s = by_seat[seat].act_api(code, {"kind": "raise", "to": 30} if seat == raiser else {"kind": "fold"})
        stacks = s["match"]["stacks"]
        assert sorted(stacks) == [190, 195, 200, 200, 200, 215]
        assert by_seat[0].post(f"/api/rooms/{code}/next", {"version": s["version"]})[0] == 200

        # hand 2: the 190, 195 and the first 200 in turn go all-in, the 215 (the big blind, last to act) calls
        for p in players:
            p.open(code)
        s = players[0].state(code)
        hand = s["hand"]
        caller = stacks.index(215)
        assert hand["hand_no"] == 2 and hand["big_blind_seat"] == caller
        order = [(hand["to_act"] + i) % 6 for i in range(6)]
        allins = {next(seat for seat in order if stacks[seat] == level) for level in (190, 195, 200)}
        while (seat := players[0].state(code)["hand"]["to_act"]) != caller:
            p = by_seat[seat]
            p.wait_version(players[0].state(code)["version"])
            p.act("#act-allin" if seat in allins else "#act-fold")

        # the caller decides: a main pot and two side pots on the table, as the state's contributions make them
        c = by_seat[caller]
        s = c.state(code)
        c.wait_version(s["version"])
        c.page.wait_for_selector("#actions", state="visible")
        expected = live_pots(s["hand"])
        assert [a for a, _ in expected] == [580, 10, 5] and sum(a for a, _ in expected) == s["hand"]["pot"]
        shown = page_pots(c.page)
        assert [(int(x["amount"]), [int(v) for v in x["eligible"].split(",")]) for x in shown] == expected
        assert "主池" in c.page.inner_text("#pots") and "邊池 2" in c.page.inner_text("#pots")
        assert c.page.inner_text("#act-allin") == "全下（到 215）"
        # 1280×800: the page brought the action bar into view with the board, pot and clock above it
        c.page.wait_for_function("window.scrollY > 0")
        assert_table_in_view_while_acting(c.page)
        view_shot(c.page, "tables-6-allin-desktop")
        screenshot(c.page, "tables-6-allin-desktop")
        # 390×844: the same on a phone (the page opened at that size scrolls itself there)
        c.page.set_viewport_size(PHONE)
        c.open(code)
        c.page.wait_for_selector("#actions", state="visible")
        c.page.wait_for_function("window.scrollY > 0")
        assert_table_in_view_while_acting(c.page)
        assert len(page_pots(c.page)) == 3
        view_shot(c.page, "tables-6-allin-phone")
        screenshot(c.page, "tables-6-allin-phone")
        # a spectator's view of the same spot would be public; an opponent's cards are backs
        other = by_seat[next(iter(allins))]
        assert other.page.locator(f"#seat-{caller} .seat-hole .card.back").count() == 2

        c.act("#act-call")
        s = c.state(code)
        hand = s["hand"]
        assert hand["complete"] and [p["amount"] for p in hand["pots"]] == [760, 15, 10]
        # everyone else steps away at once: the table pauses instead of dealing the next hand in 6 s
        for seat, p in by_seat.items():
            if seat != caller:
                assert p.post(f"/api/rooms/{code}/away")[0] == 200
        s = c.state(code)
        assert s["status"] == "paused" and sum(s["match"]["stacks"]) == 1200
        for p in players:
            p.wait_version(s["version"])
        # the showdown: each pot with its winners and shares (odd chips included) as the server split them
        settled = page_pots(c.page)
        assert [(int(x["amount"]), x["winners"], x["shares"]) for x in settled] == [
            (p["amount"], ",".join(map(str, p["winners"])), ",".join(map(str, p["shares"]))) for p in hand["pots"]]
        shown_stacks = [int(c.page.get_attribute(f"#seat-{seat} .stack-num", "data-chips") or -1) for seat in range(6)]
        assert shown_stacks == s["match"]["stacks"]
        assert "暫停" in c.page.inner_text("#hand-message") and "暫停" in c.page.inner_text("#room-status")
        assert c.page.locator("#table .seat-box.away").count() == 5
        assert c.page.is_hidden("#actions") and c.page.is_hidden("#next-btn")
        screenshot(c.page, "tables-6-showdown-phone")
        c.page.set_viewport_size(DESKTOP)
        screenshot(c.page, "tables-6-showdown-desktop")
        # an away player is offered the way back
        back = by_seat[(caller + 1) % 6]
        back.page.wait_for_selector("#away-box", state="visible")
        assert "我回來了" in back.page.inner_text("#back-btn")

        no_raw_keys(c.page)
        # the same table in English
        c.page.click(".lang-switch")
        c.page.wait_for_selector("html[lang='en'] #room[data-status='paused']")
        c.wait_version(s["version"])
        text = c.page.inner_text("#table")
        assert "Main pot" in text and "Side pot 2" in text and "Paused" in text
        no_raw_keys(c.page)
        screenshot(c.page, "tables-6-showdown-en-desktop")
        c.page.set_viewport_size(PHONE)
        no_raw_keys(c.page)
        screenshot(c.page, "tables-6-showdown-en-phone")
        for p in players:
            assert p.errors() == [], (p.name, p.errors())
    finally:
        for p in players:
            p.close()


def test_three_players_create_deal_away_leave_and_finish(server: str, browser: Any) -> None:
    a, b, c = (Player(browser, server, n) for n in ("阿明", "Beth", "小華"))
    try:
        # a first visit to the lobby is a welcome, not a welcome back
        a.page.goto(f"{server}/lobby")
        a.page.wait_for_function("document.getElementById('lobby-hello').textContent.includes('阿明')")
        hello = a.page.inner_text("#lobby-hello")
        assert "歡迎" in hello and "歡迎回來" not in hello
        # a new table for 4, 300 chips, blinds 5/10; a stack under the limits is refused with the reason
        a.page.check("input[name=seats][value='4']")
        a.page.fill("#create-stack", "50")
        assert a.page.is_disabled("#create-room") and "100 至 1,000,000" in a.page.inner_text("#create-error")
        a.page.fill("#create-stack", "150")  # the default big blind is 20: 150 is not 10 big blinds
        assert "至少要 10 個大盲（200）" in a.page.inner_text("#create-error")
        a.page.fill("#create-sb", "5")
        a.page.fill("#create-bb", "1.5")
        assert "大盲請輸入整數" in a.page.inner_text("#create-error")
        a.page.fill("#create-bb", "10")
        a.page.fill("#create-stack", "300")
        assert a.page.is_hidden("#create-error")
        screenshot(a.page, "tables-lobby-create")
        a.page.click("#create-room")
        a.page.wait_for_url("**/rooms/*")
        a.page.wait_for_selector("#room[data-status='waiting']")
        code = a.page.inner_text("#room-code").strip()
        rules = a.page.inner_text("#room-rules")
        assert "4 人桌" in rules and "盲注 5 / 10" in rules and "起始 300" in rules
        assert a.page.is_hidden("#deal-btn")

        # B joins by code; C opens the link and takes the free seat
        b.page.goto(f"{server}/lobby")
        b.page.fill("#join-code", code)
        b.page.click("#join-room")
        b.page.wait_for_url(f"**/rooms/{code}")
        b.page.click("#seat-1 .sit-btn")  # the code opens the table; B picks a seat on the oval (seat 2 of four)
        a.page.wait_for_selector("#deal-btn", state="visible")  # two seated: the creator may deal
        b.page.wait_for_selector("#room[data-status='waiting']")
        assert b.page.is_hidden("#deal-btn") and "桌主" in b.page.inner_text("#hand-message")
        c.open(code)
        c.page.wait_for_selector("#join-btn", state="visible")
        c.page.click("#join-btn")
        c.page.wait_for_selector("#away-btn", state="visible")
        seat = {m.name: m.state(code)["you"] for m in (a, b, c)}
        by_seat = {seat[m.name]: m for m in (a, b, c)}

        # C steps away and comes back; the others see it
        c.page.click("#away-btn")
        c.page.wait_for_selector("#away-box", state="visible")
        a.page.wait_for_selector(f"#seat-{seat['小華']} .tag.away")
        view_shot(c.page, "tables-3-away-desktop")
        c.page.click("#back-btn")
        c.page.wait_for_selector("#away-box", state="hidden")
        a.page.wait_for_selector(f"#seat-{seat['小華']} .tag.away", state="detached")

        # the creator deals the first hand of a table that is not full
        a.page.click("#deal-btn")
        for m in (a, b, c):
            m.page.wait_for_selector("#room[data-status='playing']")
        s = a.state(code)
        first = by_seat[s["hand"]["to_act"]]
        # the lobby: whose turn it is, the seats taken and the blinds
        for m in (first, next(x for x in (a, b, c) if x is not first)):
            lobby = m.ctx.new_page()
            lobby.goto(f"{server}/lobby")
            item = lobby.wait_for_selector(f".room-item[data-code='{code}']")
            assert "3/4" in item.inner_text() and "盲注 5/10" in item.inner_text()
            assert (item.get_attribute("data-your-turn") == "true") == (m is first)
            assert ("輪到你" in item.inner_text()) == (m is first)
            if m is first:
                screenshot(lobby, "tables-lobby-your-turn")
            lobby.close()
        legal = first.state(code)["hand"]["legal"]
        lo, hi = legal["min_raise_to"], legal["max_raise_to"]
        assert (lo, hi) == (20, 300)
        p = first.page
        p.wait_for_selector("#actions", state="visible")
        # typed amounts are never changed behind the player's back; out of range: the button is off and says why
        for typed, reason in (("15", "最少 20"), ("12.5", "整數"), ("5,000", "最多 300"), ("", "請輸入金額")):
            p.fill("#raise-amount", typed)
            p.locator("#raise-amount").blur()
            assert p.input_value("#raise-amount") == typed
            assert p.is_disabled("#act-raise") and reason in p.inner_text("#size-error"), typed
        p.fill("#raise-amount", "40")
        assert p.inner_text("#act-raise") == "加注到 40" and p.is_hidden("#size-error")
        assert "最少 20" in p.inner_text("#size-hint") and "最多 300" in p.inner_text("#size-hint")
        # Enter sends exactly the amount the button shows
        with p.expect_request(lambda r: r.url.endswith("/actions")) as req:
            p.press("#raise-amount", "Enter")
        assert json.loads(req.value.post_data or "{}")["action"] == {"kind": "raise", "to": 40}
        answer = req.value.response()  # the raise is applied before the others are asked to call
        assert answer is not None and answer.status == 200
        # the others call, through their pages
        while (s := a.state(code))["hand"]["street"] == "preflop":
            m = by_seat[s["hand"]["to_act"]]
            m.wait_version(s["version"])
            m.act("#act-call")
        assert s["hand"]["pot"] == 120

        # on the flop the first to act could check: folding asks first, and cancelling sends nothing
        m = by_seat[s["hand"]["to_act"]]
        m.wait_version(s["version"])
        m.page.click("#act-fold")
        m.page.wait_for_selector("#fold-confirm", state="visible")
        assert "免費過牌" in m.page.inner_text("#fold-confirm")
        screenshot(m.page, "tables-3-fold-confirm-desktop")
        m.page.click("#fold-no")
        assert m.page.is_hidden("#fold-confirm") and m.state(code)["settled"] == s["settled"]
        m.act("#act-check")

        # a player who is not to act leaves in the middle of the hand: folded at once, the hand goes on
        s = a.state(code)
        leaver = next(x for x in (a, b, c) if seat[x.name] != s["hand"]["to_act"] and x is not a)
        behind = s["hand"]["seats"][seat[leaver.name]]["stack"]
        leaver.page.click("#leave-btn")
        leaver.page.click("#leave-yes")
        leaver.page.wait_for_url("**/lobby")
        rest = [x for x in (a, b, c) if x is not leaver]
        s = a.state(code)
        assert not s["hand"]["complete"] and s["hand"]["pot"] == 120
        assert s["hand"]["seats"][seat[leaver.name]]["folded"]
        for m in rest:
            m.wait_version(s["version"])
            assert "已離席" in m.page.inner_text(f"#seat-{seat[leaver.name]}")
        rest[0].page.set_viewport_size(PHONE)
        screenshot(rest[0].page, "tables-3-after-leave-phone")
        rest[0].page.set_viewport_size(DESKTOP)
        # a spectator may take the free seat in the middle of the match (they play from the next hand)
        d = Player(browser, server, "Dora")
        try:
            d.open(code)
            d.page.wait_for_selector("#join-btn", state="visible")
            assert "下一手" in d.page.inner_text("#join-text")
            d.page.click("#join-btn")
            d.page.wait_for_selector("#leave-box", state="visible")
            assert d.state(code)["you"] is not None
            assert "1 手" in d.page.inner_text("#hand-no") and d.page.locator(".seat-box.mine .card").count() == 0
            d.page.click("#leave-btn")  # and leaves before it: nothing to fold, their 300 go with them
            d.page.click("#leave-yes")
            d.page.wait_for_url("**/lobby")
            assert d.errors() == []
        finally:
            d.close()
        while not (s := a.state(code))["hand"]["complete"]:
            m = by_seat[s["hand"]["to_act"]]
            m.wait_version(s["version"])
            m.act("#act-check")
        # no chip lost: the two left at the table hold everything but what the leaver took
        assert sum(s["match"]["stacks"]) == 900 - behind

        # one of the two steps away: fewer than two players are here, so the table pauses until they are back
        rest[1].wait_version(s["version"])
        rest[1].page.click("#away-btn")
        rest[0].page.wait_for_selector("#room[data-status='paused']")
        assert "暫停" in rest[0].page.inner_text("#hand-message") and rest[0].page.is_hidden("#next-btn")
        assert rest[1].page.is_visible("#away-box")
        rest[1].page.click("#back-btn")
        rest[0].page.wait_for_selector("#room[data-status='playing']")
        rest[1].page.wait_for_selector("#away-box", state="hidden")

        # the two play on, all-in every hand, until one has every chip
        for _ in range(12):
            if s["match"]["over"]:
                break
            if s["hand"]["complete"]:
                deal_next(rest[0], code)
            while not (s := a.state(code))["hand"]["complete"]:
                m = by_seat[s["hand"]["to_act"]]
                m.wait_version(s["version"])
                m.act("#act-call" if m.page.is_hidden("#act-allin") else "#act-allin")
        assert s["match"]["over"] and sorted(s["match"]["stacks"])[-1] == 900 - behind
        for m in rest:
            m.wait_version(s["version"])
            m.page.wait_for_selector("#result", state="visible")
            # the match is over: no live button is left on the table
            live = ("#actions", "#timeout-btn", "#next-btn", "#deal-btn", "#away-btn", "#leave-box", "#fold-confirm")
            assert [sel for sel in live if not m.page.is_hidden(sel)] == []
            assert "手" in m.page.inner_text("#result-text") and "視同認輸" not in m.page.inner_text("#result-text")
        winner = by_seat[s["match"]["winner"]]
        assert "你贏得這場比賽" in winner.page.inner_text("#result-title")
        screenshot(winner.page, "tables-3-match-over-desktop")
        winner.page.set_viewport_size(PHONE)
        screenshot(winner.page, "tables-3-match-over-phone")
        for m in (a, b, c):
            assert m.errors() == [], (m.name, m.errors())
    finally:
        for m in (a, b, c):
            m.close()
