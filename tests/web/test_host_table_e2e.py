"""The host's table (issue 23) in Chromium: a four-player home game through the pages, against the real server.

Alice hosts at 1280×800 in Chinese, Bob (390×844, English), Carol (390×844, Chinese) and Dan (1280×800, English)
play; the set-up and the moves the test is not about go through the API with each member's own cookies, and the
page is used for what must be clicked:

* approval and seat choice: Dan, watching, clicks an empty seat on the oval; Alice sees the request above the
  table and lets him sit there;
* a straddle (the player under the gun chose it) on the straddler's seat; the hand is played with the keyboard
  (R types a raise, F folds, C calls),
  the shortcuts not firing while typing in the chat; each player's own hand in words in their language; the turn's
  beep and buzz (Web Audio and navigator.vibrate, counted) and the sound switch remembered across a reload;
* show or muck: a losing hand at a showdown is mucked with the page's button, the seat marked on every page;
* an uncontested winner shows one card from the page, which the others then see;
* run it twice: an all-in (A) and a call (C), both players agree on the page; both boards are drawn and the pots
  named by run on every page;
* the host pauses and resumes, adjusts a stack, raises the blinds, removes a player (asked first, with the stack),
  from the host's panel; every entry in the table's log, in each reader's language;
* a busted player rebuys from the "you are out" box;
* table talk: a line with markup shown as text, a reaction to it, a mute (the muted player's next line reaches
  the others only), the host's deletion and silence;
* after every event the chips add up: the seats, the pot and what leavers took equal ``match.chips`` (starting
  stacks, rebuys and adjustments), and so does the summary; the final banner's total says the same.

The layout guarantee of test_table_layout.py holds with the new bars: every seat, the board(s), the pots and the
choice bar in view, nothing covering them. Screenshots: ``test-output/screenshots/host-*.png``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from .conftest import SCREENSHOTS, PageWatch
from .test_table_layout import LAYOUT_PROBLEMS, settle

# the turn's alert, counted: every oscillator the page starts and every vibration it asks for
ALERT_COUNTER = """
window.__alerts = {beep: 0, buzz: 0};
const start = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__alerts.beep += 1; return start.call(this); };
Object.defineProperty(navigator, "vibrate",
                      {configurable: true, value: () => { window.__alerts.buzz += 1; return true; }});
"""


class Player:
    """A member in a browser context of their own, at one screen size and in one language."""

    def __init__(self, browser: Any, base: str, name: str, size: tuple[int, int], lang: str) -> None:
        # bypass_csp: wait_for_function uses eval(), which the app's CSP forbids (see conftest.context)
        self.ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="zh-TW",
                                       bypass_csp=True)
        self.ctx.add_cookies([{"name": "tp_lang", "value": lang, "url": base}])
        self.ctx.add_init_script(ALERT_COUNTER)
        self.watch = PageWatch(self.ctx.new_page())
        self.page = self.watch.page
        self.page.set_default_timeout(15_000)
        self.base, self.name, self.lang, self.size = base, name, lang, size
        r = self.ctx.request.post(f"{base}/api/auth/local", data={"name": name}, headers={"X-CSRF-Token": "signin"})
        assert r.ok, r.text()
        self.code = ""

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        token = next(c["value"] for c in self.ctx.cookies() if c["name"] == "tp_csrf")
        r = self.ctx.request.fetch(self.base + path, method=method, data=body,
                                   headers={"X-CSRF-Token": token})
        return r.status, r.json()

    def post(self, path: str, body: Any = None, method: str = "POST") -> Any:
        status, data = self.call(method, f"/api/rooms/{self.code}{path}", body if body is not None else {})
        assert status == 200, (self.name, path, data)
        return data

    def state(self) -> dict[str, Any]:
        # a poll may meet a kept-alive connection the server closes as idle (RFC 9112 9.3.1: a client retries an
        # idempotent request then, as browsers do; Playwright retries ECONNRESET only when asked)
        data: dict[str, Any] = self.ctx.request.get(f"{self.base}/api/rooms/{self.code}", max_retries=2).json()
        return data

    def open(self) -> None:
        self.page.goto(f"{self.base}/rooms/{self.code}")
        self.page.wait_for_selector("#room[data-version]")

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(f"Number(document.getElementById('room').dataset.version) >= {version}")

    def wait(self, js: str) -> None:
        self.page.wait_for_function(js)

    def alerts(self) -> dict[str, int]:
        out: dict[str, int] = self.page.evaluate("window.__alerts")
        return out

    def shot(self, name: str, full: bool = False) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        tag = {"zh-TW": "zh", "en": "en"}[self.lang]
        self.page.screenshot(path=str(SCREENSHOTS / f"host-{name}-{tag}-{self.size[0]}x{self.size[1]}.png"),
                             full_page=full, animations="disabled")

    def errors(self) -> list[str]:
        return [x for x in self.watch.problems if not x.startswith(("HTTP 4", "console error: Failed to load"))]


# every shown hand's name on the page replaced by the longest one, its run kept (the page draws them afresh on its
# next push)
LONGEST_RUN_NAMES = """(name) => document.querySelectorAll("#table .seat-best .cat:not([hidden])").forEach((c) => {
  const last = c.lastChild;  // the hand's name after its run's number and words
  if (last && last.nodeType === Node.TEXT_NODE) last.textContent = name; else c.append(name);
})"""


def chips_add_up(s: dict[str, Any]) -> None:
    """Every chip that entered the table is somewhere: behind at a seat, in the pot, or taken away."""
    m = s["match"]
    assert m is not None
    hand = s["hand"]
    pot = hand["pot"] if hand is not None and not hand["complete"] else 0
    seated = sum(p["stack"] for p in s["players"] if not p["left"])
    assert m["chips"] == m["bought_in"] + m["rebought"] + m["adjusted"], m
    if m["summary"] is None:  # a plain match so far (nobody left, no rebuy or adjustment): the stacks say it all
        assert seated + pot == m["chips"], (seated, pot, m)
        return
    took = sum(r["chips"] for r in m["summary"] if r["left"])
    assert seated + pot + took == m["chips"], (seated, pot, took, m)
    assert sum(r["chips"] for r in m["summary"]) + pot == m["chips"], m["summary"]


def by_seat(players: list[Player]) -> dict[int, Player]:
    return {s: p for p in players if (s := p.state()["you"]) is not None}


def act(p: Player, kind: str, to: int | None = None) -> dict[str, Any]:
    s = p.state()
    action: dict[str, Any] = {"kind": kind, **({"to": to} if to is not None else {})}
    res = p.post("/actions", {"version": s["version"], "action": action})
    assert res["applied"], res
    return res["state"]  # type: ignore[no-any-return]


def legal(s: dict[str, Any]) -> list[str]:
    return list(s["hand"]["legal"]["actions"])


def passive(s: dict[str, Any]) -> str:
    return "check" if "check" in legal(s) else "call"


def play(seats: dict[int, Player], until: Callable[[dict[str, Any]], bool],
         move: Callable[[Player, dict[str, Any]], str | None], limit: int = 60) -> dict[str, Any]:
    """Play the running hand through the API (each actor's move chosen by ``move``) until ``until(state)``."""
    host = next(iter(seats.values()))
    for _ in range(limit):
        s = host.state()
        chips_add_up(s)
        if until(s):
            return s
        hand = s["hand"]
        if hand is None or hand["complete"] or hand["pending"] is not None or hand["to_act"] is None:
            time.sleep(0.05)
            continue
        actor = seats[hand["to_act"]]
        actor.wait_version(s["version"])  # the page has drawn its turn (and sounded it)
        mine = actor.state()
        kind = move(actor, mine)
        if kind is None:
            return s
        act(actor, kind)
    raise AssertionError("the hand did not get there")


def decline(p: Player, kind: str, version: object) -> None:
    """The player's answer to the choice it is asked: run it once, or muck."""
    show = kind == "show"
    p.post("/showdown" if show else "/runs", {"version": version, **({"show": False} if show else {"agree": False})})


def finish_alone(p: Player, timeout: float = 45) -> dict[str, Any]:
    """The others have left: the match ends once the hand in progress, if the server had dealt one before the
    pause, is done; the last player answers its own turn or show-or-muck choice there, as its page would ask.
    A host who went broke earlier (an all-in of the run-twice hand lost) is left at a table waiting a minute for
    their rebuy (docs/rules.md, Rebuys): they end the match with the host's control instead of waiting."""
    deadline = time.monotonic() + timeout
    while not (s := p.state())["match"]["over"]:
        assert time.monotonic() < deadline, json.dumps({k: s.get(k) for k in ("players", "match", "paused", "status",
                                                                           "hand", "you", "version")})
        hand = s["hand"]
        if s["status"] == "rebuys" and s["host"] and (hand is None or hand["complete"]):
            p.post("/end", {})
            continue
        if hand is not None and not hand["complete"]:
            pending = hand["pending"]
            if pending is not None and s["you"] in pending["seats"]:
                decline(p, pending["kind"], s["version"])
                continue
            if pending is None and hand["to_act"] == s["you"]:
                act(p, passive(s))
                continue
        time.sleep(0.05)
    return s


def deal(host: Player) -> dict[str, Any]:
    """Deal the next hand now (the server would after 6 s)."""
    s = host.state()
    if s["hand"] is None or s["hand"]["complete"]:
        status, res = host.call("POST", f"/api/rooms/{host.code}/next", {"version": s["version"]})
        assert status in (200, 409), res
    deadline = time.monotonic() + 10
    while (s := host.state())["hand"] is None or s["hand"]["complete"]:
        assert time.monotonic() < deadline, s
        time.sleep(0.05)
    chips_add_up(s)
    return s


def wait_for(p: Player, ready: Callable[[dict[str, Any]], bool], timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while not ready(s := p.state()):
        assert time.monotonic() < deadline, s
        time.sleep(0.05)
    return s


def turn_passed(p: Player, before: dict[str, Any]) -> dict[str, Any]:
    """The state once the move of the seat to act in ``before`` is in (another seat to act, another street, a
    choice asked or the hand over), not once any version moved: a player's seed for the next hand is an event of
    its own and may arrive first."""
    seat, street = before["hand"]["to_act"], before["hand"]["street"]
    return wait_for(p, lambda x: x["hand"]["complete"] or x["hand"]["pending"] is not None
                    or x["hand"]["to_act"] != seat or x["hand"]["street"] != street)


def in_view(p: Player, extra: list[str], what: str) -> dict[str, Any]:
    settle(p.page)
    res: dict[str, Any] = p.page.evaluate(LAYOUT_PROBLEMS, extra)
    if res["problems"]:
        p.shot(f"failed-{what.replace(' ', '-').replace('?', '')}")
    assert res["problems"] == [], (what, p.name, res["problems"])
    return res


def key(p: Player, letter: str) -> None:
    """A keyboard shortcut pressed on the table (nothing focused that takes text)."""
    p.page.evaluate("document.activeElement && document.activeElement.blur && document.activeElement.blur()")
    p.page.keyboard.press(letter)


def test_a_home_game_through_every_control_of_the_hosts_table(server: str, browser: Any) -> None:
    alice = Player(browser, server, "Alice 主", (1280, 800), "zh-TW")
    bob = Player(browser, server, "Bob", (390, 844), "en")
    carol = Player(browser, server, "Carol", (390, 844), "zh-TW")
    dan = Player(browser, server, "Dan", (1280, 800), "en")
    everyone = [alice, bob, carol, dan]
    try:
        _, made = alice.call("POST", "/api/rooms", {
            "seats": 4, "decks": 2, "stack": 2000, "blinds": [10, 20], "rebuys": True, "approval": True,
            "straddle": True, "run_twice": True, "show_or_muck": True})
        for p in everyone:
            p.code = made["code"]
        assert alice.state()["host"] is True

        # --- asking to sit and seat choice: Bob names seat 3, Carol takes the first free seat (both approved through
        # the API); Dan picks seat 2 on the oval and Alice lets him sit from the notice above her table
        assert bob.post("/join", {"seat": 3})["requested"] is True
        carol.post("/join", {})
        for r in alice.state()["requests"]:
            alice.post(f"/requests/{r['id']}", {"approve": True})
        assert (bob.state()["you"], carol.state()["you"]) == (3, 1)
        # the straddle is the player's choice: Bob, under the gun in hand 1 (seat 0 the button), takes it
        assert bob.post("/straddle", {"choice": "next"})["straddle"]["choice"] == "next"
        alice.open()
        dan.open()
        dan.page.wait_for_selector("#seat-2 .sit-btn", state="visible")
        assert dan.page.is_hidden("#seat-1 .sit-btn") and "host approves" in dan.page.inner_text("#join-text")
        dan.shot("seat-choice")
        dan.page.click("#seat-2 .sit-btn")
        dan.wait("document.getElementById('join-text').textContent.includes('waiting for the host')")
        alice.page.wait_for_selector("#request-box li[data-request]", state="visible")
        assert "Dan 請求入座（座位 3）" in alice.page.inner_text("#request-box")
        in_view(alice, ["#request-box"], "the request to sit")
        alice.shot("request")
        alice.page.click("#request-box .req-approve")
        s = wait_for(alice, lambda x: x["hand"] is not None)  # the table is full: hand 1 is dealt
        assert dan.state()["you"] == 2
        seats = by_seat(everyone)
        for p in (bob, carol):
            p.open()
        for p in everyone:
            p.wait_version(s["version"])
        chips_add_up(s)

        # --- hand 1: the straddle, played with the keyboard ------------------------------------------------------
        hand = s["hand"]
        straddler = hand["straddle_seat"]
        assert straddler is not None and hand["seats"][straddler]["bet"] == 40
        for p in everyone:
            tag = p.page.inner_text(f"#seat-{straddler} .seat-tags")
            assert ("搶先注" if p.lang == "zh-TW" else "Straddle") in tag, (p.name, tag)
            mine = p.state()["hand"]["you"]["strength"]
            assert p.page.inner_text("#my-strength") == (mine["zh"] if p.lang == "zh-TW" else mine["en"])
        first = seats[hand["to_act"]]
        first.page.wait_for_selector("#actions", state="visible")
        in_view(first, ["#actions .action-main", "#act-raise"], "acting after a straddle")
        first.shot("straddle-to-act")
        # typing in the chat never acts: the letters go into the line
        if first.page.is_visible("#chat-box summary") and not first.page.eval_on_selector("#chat-box", "d => d.open"):
            first.page.click("#chat-box summary")
        first.page.fill("#chat-input", "")
        first.page.type("#chat-input", "fcra")
        assert first.page.input_value("#chat-input") == "fcra" and first.state()["settled"] == s["settled"]
        first.page.fill("#chat-input", "")
        # R: the amount box, typed and sent with Enter; the next full raise after a 40 straddle is to 80
        assert first.state()["hand"]["legal"]["min_raise_to"] == 80
        key(first, "r")
        assert first.page.evaluate("document.activeElement.id") == "raise-amount"
        first.page.keyboard.press("Control+A")
        first.page.keyboard.type("120")
        first.page.keyboard.press("Enter")
        # the raise itself, not a version moved by a player's seed (an inert event) arriving first
        s = wait_for(first, lambda x: x["hand"]["seats"][x["you"]]["bet"] != s["hand"]["seats"][s["you"]]["bet"])
        assert s["hand"]["seats"][s["you"]]["bet"] == 120, s["hand"]
        chips_add_up(s)
        # F folds (the small and the big blind), C calls (the straddler, last to act before the flop)
        for expected in ("fold", "fold", "call"):
            s = alice.state()
            actor = seats[s["hand"]["to_act"]]
            actor.wait_version(s["version"])
            actor.page.wait_for_selector("#actions", state="visible")
            key(actor, "f" if expected == "fold" else "c")
            turn_passed(alice, s)
            last = actor.state()["hand"]["last_actions"].get(str(actor.state()["you"]))
            assert last is None or last["kind"] == expected, last  # a new street clears the last actions
            chips_add_up(actor.state())
        s = alice.state()
        assert s["hand"]["street"] == "flop" and sorted(x["seat"] for x in s["hand"]["seats"]
                                                         if x["in_hand"] and not x["folded"]) == sorted(
            [straddler, first.state()["you"]])
        # the sound switch, off and remembered across a reload
        dan.page.click("#sound-toggle")
        dan.open()
        assert dan.page.get_attribute("#sound-toggle", "aria-pressed") == "false"
        assert dan.page.get_attribute("#vibrate-toggle", "aria-pressed") == "true"
        dan.page.click("#sound-toggle")  # on again (and the page is pressed: it may sound)

        # --- show or muck: check it down; a losing hand that may be mucked is mucked from its page ---------------
        mucked = None
        for _ in range(12):
            s = play(seats, lambda x: x["hand"]["complete"] or x["hand"]["pending"] is not None,
                     lambda p, x: passive(x))
            pending = s["hand"]["pending"]
            if pending and pending["kind"] == "show" and mucked is None:
                loser = seats[pending["seats"][0]]
                loser.wait_version(s["version"])
                loser.page.wait_for_selector("#show-no", state="visible")
                assert loser.page.is_visible("#show-yes") and loser.page.is_visible("#choice-left")
                in_view(loser, ["#choice-bar"], "show or muck")
                loser.shot("show-or-muck")
                loser.page.click("#show-no")
                wait_for(alice, lambda x, asked=pending["seats"][0]: x["hand"]["pending"] is None
                         or asked not in x["hand"]["pending"]["seats"])
                s = alice.state()
                mucked = pending["seats"][0]
                assert s["hand"]["seats"][mucked].get("mucked") is True and "shown" not in s["hand"]["seats"][mucked]
                for p in everyone:
                    p.wait_version(s["version"])
                    if p is not loser:
                        assert p.page.locator(f"#seat-{mucked} .seat-hole [data-face]").count() == 0
                    word = "蓋牌" if p.lang == "zh-TW" else "Mucked"
                    assert word in p.page.inner_text(f"#seat-{mucked} .seat-tags")
                chips_add_up(s)
                for other in (s["hand"]["pending"] or {}).get("seats", []):  # a second losing hand: mucked too
                    seats[other].post("/showdown", {"version": seats[other].state()["version"], "show": False})
            if mucked is not None:
                break
            s = play(seats, lambda x: x["hand"]["complete"], lambda p, x: passive(x))
            deal(alice)
        assert mucked is not None, "no showdown with a hand to muck in 12 hands"
        deal(alice)

        # --- an uncontested pot: everyone folds to a raise; the winner shows one card; the host pauses meanwhile --
        s = alice.state()
        raiser = seats[s["hand"]["to_act"]]
        act(raiser, "raise", raiser.state()["hand"]["legal"]["min_raise_to"])
        alice.page.click("#host-panel summary")
        alice.page.click("#pause-btn")  # a hand in play is played out; then no hand is dealt until resumed
        wait_for(alice, lambda x: x["paused"] is not None)  # the click's request applied before the folds
        s = play(seats, lambda x: x["hand"]["complete"], lambda p, x: "fold")
        assert s["paused"] == {"by": "Alice 主"}
        raiser.wait_version(s["version"])
        raiser.page.wait_for_selector("#show-card-0", state="visible")
        assert raiser.page.is_visible("#show-both")
        raiser.shot("uncontested-show")
        before = s["version"]
        raiser.page.click("#show-card-0")
        s = wait_for(alice, lambda x: x["version"] > before)  # the click's request is on its way, not yet applied
        card = raiser.state()["hand"]["you"]["hole"][0]
        rseat = raiser.state()["you"]
        assert s["hand"]["seats"][rseat]["showed"] == [card]
        for p in everyone:
            p.wait_version(s["version"])
            if p is raiser:  # their own page shows both their cards, as always
                continue
            assert p.page.locator(f"#seat-{rseat} .seat-hole [data-face]").count() == 1
            assert p.page.get_attribute(f"#seat-{rseat} .seat-hole [data-face]", "data-label") == card
        for p in everyone:  # each had a turn since pressing something on the page: a beep and a buzz
            beeps = p.alerts()
            assert beeps["beep"] >= 1 and beeps["buzz"] >= 1, (p.name, beeps)
        raiser.page.wait_for_selector("#show-card-0", state="hidden")
        assert raiser.page.is_visible("#show-card-1"), "the other card may still be shown"
        for p in everyone:
            p.page.wait_for_selector("#pause-box", state="visible")
        assert "Alice 主 paused the table" in bob.page.inner_text("#pause-box")
        in_view(bob, ["#pause-box"], "paused")
        bob.shot("paused")
        time.sleep(0.3)
        assert alice.state()["hand"]["hand_no"] == s["hand"]["hand_no"], "no hand is dealt while paused"

        # --- table talk: markup shown as text, a reaction, a mute, the host's deletion and silence ---------------
        for p in (bob, carol):
            if not p.page.eval_on_selector("#chat-box", "d => d.open"):
                p.page.click("#chat-box summary")
        bob.page.fill("#chat-input", "hello <b>all</b>")
        bob.page.press("#chat-input", "Enter")
        line = "#chat-list .chat-line .chat-text"
        for p in everyone:
            p.page.wait_for_selector(f"{line}:text('hello <b>all</b>')")
            assert p.page.locator("#chat-list b").count() == 0, "a message is text, never markup"
        carol.page.click("#chat-list .chat-line.text .chat-react")
        carol.page.click("#chat-reactions button[data-reaction='👍']")
        for p in everyone:
            p.page.wait_for_selector("#chat-list .chat-line.reaction .chat-reaction:text('👍')")
        dan.page.click("#chat-mutes summary")
        dan.page.click("#chat-mute-list button[data-seat='3']")
        dan.wait("document.querySelector(\"#chat-mute-list button[data-seat='3']\")"
                 ".getAttribute('aria-pressed') === 'true'")
        bob.page.fill("#chat-input", "second line")
        bob.page.press("#chat-input", "Enter")
        alice.page.wait_for_selector(f"{line}:text('second line')")
        carol.page.wait_for_selector(f"{line}:text('second line')")
        time.sleep(0.5)
        assert dan.page.locator(f"{line}:text('second line')").count() == 0, "Dan muted Bob"
        assert dan.page.locator(f"{line}:text('hello')").count() == 0, "a muted player's lines are hidden"
        carol.shot("chat")
        alice.page.once("dialog", lambda d: d.accept())
        alice.page.click("#chat-list .chat-line.text[data-seat='3'] .chat-del")
        for p in (alice, bob, carol):
            p.page.wait_for_selector(f"{line}:text('hello')", state="detached")
        alice.page.click("#host-players button.hp-silence[data-seat='3']")
        bob.page.wait_for_selector("#chat-note", state="visible")
        assert "silenced" in bob.page.inner_text("#chat-note") and bob.page.is_hidden("#chat-form")
        chips_add_up(alice.state())

        # --- the host's panel (while paused): a stack adjusted, the blinds raised, a player removed --------------
        victim = bob
        vseat = 3
        alice.page.fill(f"#host-players input[data-seat='{vseat}']", "30")
        alice.page.click(f"#host-players button.hp-stack-set[data-seat='{vseat}']")
        alice.wait(f"document.querySelector('#seat-{vseat} .stack-num').dataset.chips === '30'")
        s = alice.state()
        assert s["match"]["adjusted"] < 0
        chips_add_up(s)
        alice.page.fill("#stakes-sb", "20")
        alice.page.fill("#stakes-bb", "40")
        alice.page.click("#stakes-save")
        alice.wait("document.getElementById('room-rules').textContent.includes('20 / 40')")
        assert alice.state()["blinds"] == [20, 40]
        asked: list[str] = []

        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept()

        alice.page.once("dialog", answer)
        carol_chips = next(x for x in alice.state()["players"] if x["name"] == "Carol")["stack"]
        alice.page.click("#host-players button.hp-remove[data-seat='1']")
        alice.wait("!document.querySelector('#host-players li[data-seat=\"1\"]')")
        assert asked and "Carol" in asked[0] and f"{carol_chips:,}" in asked[0], asked
        s = alice.state()
        row = next(r for r in s["match"]["summary"] if r["name"] == "Carol")
        assert row["removed"] is True and row["chips"] == carol_chips
        chips_add_up(s)
        carol.page.wait_for_selector("#spectator-note", state="visible")
        # a removed player sits again only if the host lets them: the page offers to ask (a new buy-in)
        carol.page.wait_for_selector("#join-box", state="visible")
        assert "桌主" in (carol.page.text_content("#join-text") or "") and \
            (carol.page.text_content("#join-btn") or "").strip() == "請求入座"
        seats = by_seat([alice, bob, dan])
        alice.page.click("#log-panel summary")
        log = alice.page.inner_text("#log-list")
        for words in ("Alice 主 暫停了牌桌", "把 Bob（座位 4）的籌碼從", "改為 30", "盲注 20/40",
                      "讓 Carol（座位 2）離桌", "刪除了 Bob 的一則訊息", "禁止 Bob 發言", "Alice 主 讓 Dan 入座"):
            assert words in log, (words, log)
        alice.shot("host-panel", full=True)
        dan.page.click("#log-panel summary")
        assert "Alice 主 set Bob's stack (seat 4) from" in dan.page.inner_text("#log-list")
        alice.page.click("#resume-btn")
        for p in (alice, bob, dan):
            p.page.wait_for_selector("#pause-box", state="hidden")

        # --- run it twice: an all-in (A) and a call (C); both agree on their pages --------------------------------
        s = deal(alice)
        assert s["hand"]["seats"][s["hand"]["big_blind_seat"]]["bet"] in (40, 30)  # Bob's 30 is all in
        pusher = seats[s["hand"]["to_act"]]
        if pusher is victim:  # the short stack has nothing to run twice for: fold it, deal again
            act(victim, "fold")
            play(seats, lambda x: x["hand"]["complete"], lambda p, x: "fold")
            s = deal(alice)
            pusher = seats[s["hand"]["to_act"]]
        pusher.wait_version(s["version"])
        pusher.page.wait_for_selector("#actions", state="visible")
        key(pusher, "a")
        turn_passed(alice, s)
        caller = None
        for _ in range(4):
            s = alice.state()
            if s["hand"]["pending"] is not None or s["hand"]["complete"]:
                break
            actor = seats[s["hand"]["to_act"]]
            if caller is None and actor is not victim:
                caller = actor
                letter = "c" if "call" in legal(actor.state()) else "a"  # a call of all one has is an all-in
                actor.wait_version(s["version"])
                actor.page.wait_for_selector("#act-call" if letter == "c" else "#act-allin", state="visible")
                key(actor, letter)
                turn_passed(alice, s)
            else:
                act(actor, "fold")
        s = alice.state()
        assert caller is not None and s["hand"]["pending"]["kind"] == "runs", s["hand"]
        deciders = [seats[x] for x in s["hand"]["pending"]["seats"]]  # Bob too when his blind put him all in
        assert pusher in deciders and caller in deciders
        for p in deciders:
            p.wait_version(s["version"])
            p.page.wait_for_selector("#runs-yes", state="visible")
            assert p.page.is_visible("#choice-left")
        in_view(caller, ["#choice-bar", "#runs-yes"], "run it twice?")
        caller.shot("runs-ask")
        for p in deciders[:-1]:
            p.page.click("#runs-yes")
            p.page.wait_for_selector("#runs-yes", state="hidden")
            assert p.page.is_visible("#choice-bar")  # "waiting for the others"
        deciders[-1].page.click("#runs-yes")
        deadline = time.monotonic() + 10
        while not (s := alice.state())["hand"]["complete"]:
            assert time.monotonic() < deadline, s["hand"]
            time.sleep(0.05)
        assert s["hand"]["runs"] == 2, s["hand"]
        chips_add_up(s)
        for p in (alice, bob, dan):
            p.wait_version(s["version"])
            assert p.page.locator("#board2 [data-face]").count() == 5 and p.page.is_visible("#run1-label")
            runs = p.page.eval_on_selector_all("#pots .pot-item", "xs => xs.map(x => x.dataset.run)")
            assert set(runs) == {"1", "2"}, runs
            names = p.page.inner_text("#pots")
            assert ("第 2 次" if p.lang == "zh-TW" else "Run 2") in names, names
            in_view(p, ["#boards", "#board2"], "both runs")
            p.shot("run-twice")
            # whatever the hands were, the longest names a run can show still fit every seat (CI once drew a
            # "Run 1 Three of a kind" wider than a phone's third of a row)
            p.page.evaluate(LONGEST_RUN_NAMES, "Three of a kind" if p.lang == "en" else "同花順")
            in_view(p, ["#boards", "#board2"], "both runs, longest hand names")
            p.shot("run-twice-longest-names")

        # --- a bust and a rebuy: Bob (30 chips) goes all in until he loses it; he buys back in from his page -----
        for _ in range(200):  # each all-in is about even: a few hands (Bob once won 8 in a row; 60 steps ran out)
            s = alice.state()
            if next(x for x in s["players"] if x["seat"] == vseat)["stack"] == 0 and s["hand"]["complete"]:
                break
            if s["hand"]["complete"]:
                deal(alice)
                continue

            def bust_move(p: Player, x: dict[str, Any]) -> str:
                if p is victim:
                    return "allin" if "allin" in legal(x) else passive(x)
                return passive(x) if p is alice else "fold"

            s = play(seats, lambda x: x["hand"]["complete"] or x["hand"]["pending"] is not None, bust_move)
            pending = s["hand"]["pending"]
            if pending is not None:  # run it twice? once; show? muck: from the first seat asked (the loop asks again)
                asked = seats[pending["seats"][0]]
                decline(asked, pending["kind"], asked.state()["version"])
        s = alice.state()
        assert next(x for x in s["players"] if x["seat"] == vseat)["stack"] == 0, "Bob never went broke"
        alice.page.click("#pause-btn")  # hold the next hand while Bob decides
        wait_for(alice, lambda x: x["paused"] is not None)
        victim.wait_version(alice.state()["version"])
        victim.page.wait_for_selector("#out-rebuy", state="visible")
        assert "2,000" in victim.page.inner_text("#out-rebuy")
        in_view(victim, ["#out-box", "#out-rebuy"], "you are out, with a rebuy")
        victim.shot("rebuy")
        victim.page.click("#out-rebuy")
        victim.page.wait_for_selector("#out-box", state="hidden")
        s = alice.state()
        assert next(x for x in s["players"] if x["seat"] == vseat)["stack"] == 2000
        assert s["match"]["rebought"] == 2000
        assert next(r for r in s["match"]["summary"] if r["name"] == "Bob")["rebuys"] == 1
        chips_add_up(s)
        alice.wait("document.getElementById('log-list').textContent.includes('Bob 重買 2,000 籌碼')")

        # --- the end: the others leave; the banner's summary adds up to every chip that entered --------------------
        for p in (bob, dan):
            p.post("/leave", {})
        s = finish_alone(alice)
        chips_add_up(s)
        alice.page.wait_for_selector("#result", state="visible")
        text = alice.page.inner_text("#result-text")
        assert f"共 {s['match']['chips']:,} 籌碼" in text, text
        total = sum(int(x.replace(",", "")) for x in re.findall(r" ([\d,]+)(?= ·|，共)", text))
        assert total == s["match"]["chips"] == 8000 + 2000 + s["match"]["adjusted"], text
        alice.shot("summary")
        for p in everyone:
            assert p.errors() == [], (p.name, p.errors())
    finally:
        for p in everyone:
            p.ctx.close()
