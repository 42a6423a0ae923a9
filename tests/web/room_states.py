"""The states of a member table, reached through the API and held still for a browser to look at.

A heads-up table of Alice (its host) and Bob with run it twice, show or muck and spectators' chat; Dan watches;
Eve plays five bots at a six-seat table of her own.
``reach_states`` plays it through the API and keeps, for each state worth a look, the state as one reader's own
view (``GET /api/rooms/{code}`` with that member's cookies). ``Member.open_room`` then draws the page from that
copy: the state GET is answered from it and the socket's state pushes are dropped (its chat lines are passed on),
so a choice's 10-second window, a clock or a deal cannot move the table on while the page is looked at (the
coach's advice, where kept, is answered from its copy too).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from .conftest import PageWatch


def axe_script() -> str:
    """axe-core 4 as the PyPI package ``axe-playwright-python`` ships it (``axe.min.js``, MPL-2.0)."""
    from axe_playwright_python.base import AXE_SCRIPT

    script: str = AXE_SCRIPT
    return script


class Member:
    """A member (or nobody signed in) in a browser context of their own; axe-core is injected into every page."""

    def __init__(self, browser: Any, base: str, name: str | None) -> None:
        # bypass_csp: axe and wait_for_function are evaluated in the page, which the app's CSP forbids
        self.ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-TW", bypass_csp=True)
        self.ctx.add_init_script(axe_script())
        self.watch = PageWatch(self.ctx.new_page())
        self.page = self.watch.page
        self.page.set_default_timeout(15_000)
        self.base, self.name, self.code = base, name, ""
        self.frozen: dict[str, Any] | None = None
        self.frozen_coach: dict[str, Any] | None = None
        if name is not None:
            r = self.ctx.request.post(f"{base}/api/auth/local", data={"name": name},
                                      headers={"X-CSRF-Token": "signin"})
            assert r.ok, r.text()

    def call(self, method: str, path: str, body: Any = None) -> Any:
        token = next(c["value"] for c in self.ctx.cookies() if c["name"] == "tp_csrf")
        r = self.ctx.request.fetch(self.base + path, method=method, data=body if body is not None else {},
                                   headers={"X-CSRF-Token": token})
        assert r.ok, (self.name, path, r.text())
        return r.json()

    def post(self, path: str, body: Any = None) -> Any:
        return self.call("POST", f"/api/rooms/{self.code}{path}", body)

    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = self.ctx.request.get(f"{self.base}/api/rooms/{self.code}", max_retries=2).json()
        return data

    def goto(self, lang: str, path: str) -> None:
        self.ctx.add_cookies([{"name": "tp_lang", "value": lang, "url": self.base}])
        self.page.goto(self.base + path)
        self.page.wait_for_selector(f"html[lang='{lang}']")

    def hold(self) -> None:
        """From now on the room page is drawn from ``self.frozen`` (once set): the state GET is answered from it
        and the socket's state pushes are dropped; everything else (chat, log, coach) goes through."""
        state_url = f"{self.base}/api/rooms/{self.code}"
        self.page.route(lambda url: url.split("?")[0] == state_url,
                        lambda route: route.fulfill(json=self.frozen) if self.frozen is not None
                        else route.continue_())
        self.page.route(lambda url: url.split("?")[0] == f"{state_url}/coach",
                        lambda route: route.fulfill(json=self.frozen_coach)
                        if self.frozen_coach is not None and route.request.method == "GET" else route.continue_())

        def socket(ws: Any) -> None:
            server = ws.connect_to_server()

            def down(message: str | bytes) -> None:
                if self.frozen is not None and isinstance(message, str) and json.loads(message).get("type") == "state":
                    return
                ws.send(message)

            server.on_message(down)

        self.page.route_web_socket("**/ws/rooms/**", socket)

    def open_room(self, lang: str, frozen: dict[str, Any], coach: dict[str, Any] | None = None) -> None:
        """The room page in ``lang``, drawn from ``frozen`` (after ``hold``), the coach answering ``coach``."""
        self.frozen, self.frozen_coach = frozen, coach
        self.goto(lang, f"/rooms/{self.code}")
        self.page.wait_for_function(f"Number(document.getElementById('room').dataset.version) >= {frozen['version']}")

    def close(self) -> None:
        self.ctx.close()


def wait_for(m: Member, ready: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while not ready(s := m.state()):
        assert time.monotonic() < deadline, s
        time.sleep(0.05)
    return s


def legal(s: dict[str, Any]) -> list[str]:
    return list(s["hand"]["legal"]["actions"])


def passive(s: dict[str, Any]) -> str:
    return "check" if "check" in legal(s) else "call"


def shove(s: dict[str, Any]) -> str:
    return "allin" if "allin" in legal(s) else "call"


class Table:
    """The heads-up table of Alice and Bob, Dan watching; the first hand dealt."""

    def __init__(self, browser: Any, base: str) -> None:
        self.alice = Member(browser, base, "Alice 主")
        self.bob = Member(browser, base, "Bob")
        self.dan = Member(browser, base, "Dan")
        self.eve = Member(browser, base, "Eve")
        self.everyone = [self.alice, self.bob, self.dan, self.eve]
        made = self.alice.call("POST", "/api/rooms", {
            "seats": 2, "decks": 2, "stack": 1000, "blinds": [10, 20], "run_twice": True, "show_or_muck": True,
            "spectator_chat": True})
        for m in (self.alice, self.bob, self.dan):
            m.code = made["code"]
        self.eve.code = self.eve.call("POST", "/api/rooms", {"seats": 6, "bots": 5, "level": "beginner"})["code"]
        self.before = {"alice": self.alice.state(), "dan": self.dan.state()}  # one seat of two taken
        self.bob.post("/join", {})
        wait_for(self.alice, lambda x: x["hand"] is not None)
        self.seats = {self.alice.state()["you"]: self.alice, self.bob.state()["you"]: self.bob}

    def other(self, m: Member) -> Member:
        return self.bob if m is self.alice else self.alice

    def deal(self) -> dict[str, Any]:
        """A hand in play: the next one dealt now if the last is over."""
        s = self.alice.state()
        if s["hand"]["complete"]:
            self.alice.call("POST", f"/api/rooms/{self.alice.code}/next", {"version": s["version"]})
        return wait_for(self.alice, lambda x: not x["hand"]["complete"])

    def play(self, until: Callable[[dict[str, Any]], bool], move: Callable[[dict[str, Any]], str]) -> dict[str, Any]:
        """Each player to act moves (``move`` of their own view) until ``until`` holds."""
        for _ in range(40):
            s = self.alice.state()
            if until(s):
                return s
            hand = s["hand"]
            if hand["complete"] or hand["pending"] is not None or hand["to_act"] is None:
                time.sleep(0.05)
                continue
            actor = self.seats[hand["to_act"]]
            mine = actor.state()
            res = actor.post("/actions", {"version": mine["version"], "action": {"kind": move(mine)}})
            assert res["applied"], res
        raise AssertionError("the hand did not get there")

    def close(self) -> None:
        for m in self.everyone:
            m.close()


def chat_open(page: Any) -> None:
    if not page.eval_on_selector("#chat-box", "d => d.open"):
        page.click("#chat-box summary")


def host_open(page: Any) -> None:
    if not page.eval_on_selector("#host-panel", "d => d.open"):
        page.click("#host-panel summary")


def settings_open(page: Any) -> None:
    if not page.eval_on_selector("#settings-box", "d => d.open"):
        page.click("#settings-box summary")


def books_open(page: Any) -> None:
    """The table's books open, their table drawn (read from the server)."""
    if not page.eval_on_selector("#books-panel", "d => d.open"):
        page.click("#books-panel summary")
    page.wait_for_selector("#books-body table")


def coach_shown(page: Any) -> None:
    page.wait_for_selector("#coach-body", state="visible")


class RoomState(NamedTuple):
    name: str
    member: Member
    frozen: dict[str, Any]
    prepare: Callable[[Any], None] | None = None  # done on the page before each look (a panel opened)
    coach: dict[str, Any] | None = None  # the coach's advice as it was


def hand_over(s: dict[str, Any]) -> bool:
    return bool(s["hand"]["complete"] or s["hand"]["pending"] is not None)


def reach_states(t: Table) -> dict[str, RoomState]:
    """Play the table through every state worth a look, keeping each as its reader's view.

    ``room-bots`` (Eve to act against five bots), ``room-before-deal`` (the host alone, the table's settings open),
    ``room-free-seat`` (a spectator who may sit), ``room-playing`` (the player to act), ``room-chat`` (the same, the
    chat open with three lines), ``room-host-panel``, ``room-waiting`` (the other player), ``room-spectator``;
    ``room-between-hands`` (a player who folded, the hand over), ``room-books`` (the same, the books open);
    ``room-coach`` (the player to act, the coach on);
    ``room-paused-away`` (the host paused the table, the player stepped away); ``room-show-choice`` and
    ``room-show-waiting`` (show or muck: the player asked and the other); ``room-runs-choice`` and
    ``room-runs-answered`` (run it twice: asked, then agreed while the other decides); ``room-match-over`` and
    ``room-over-spectator``.
    """
    for m in t.everyone:
        m.hold()
    for m, text in ((t.alice, "你好"), (t.bob, "hello <b>all</b>"), (t.dan, "good luck")):
        m.post("/chat", {"text": text})
    got: dict[str, RoomState] = {}
    eve = wait_for(t.eve, lambda x: x["hand"] is not None and x["hand"]["to_act"] == x["you"])
    got["room-bots"] = RoomState("room-bots", t.eve, eve, coach_shown,  # a table of bots has the coach on
                                 t.eve.call("GET", f"/api/rooms/{t.eve.code}/coach"))

    def keep(name: str, m: Member, prepare: Callable[[Any], None] | None = None) -> None:
        got[name] = RoomState(name, m, m.state(), prepare)

    got["room-before-deal"] = RoomState("room-before-deal", t.alice, t.before["alice"], settings_open)
    got["room-free-seat"] = RoomState("room-free-seat", t.dan, t.before["dan"])
    s = t.deal()
    actor = t.seats[s["hand"]["to_act"]]
    keep("room-playing", actor)
    keep("room-chat", actor, chat_open)
    keep("room-host-panel", t.alice, host_open)
    keep("room-waiting", t.other(actor))
    keep("room-spectator", t.dan, chat_open)
    t.play(lambda x: x["hand"]["complete"], lambda x: "fold")
    keep("room-between-hands", actor)
    keep("room-books", actor, books_open)
    t.alice.post("/coach", {"on": True})  # between hands
    s = t.deal()
    actor = t.seats[s["hand"]["to_act"]]
    got["room-coach"] = RoomState("room-coach", actor, actor.state(), coach_shown,
                                  actor.call("GET", f"/api/rooms/{actor.code}/coach"))
    t.play(lambda x: x["hand"]["complete"], lambda x: "fold")
    t.alice.post("/coach", {"on": False})
    t.alice.post("/pause")
    t.bob.post("/away")
    keep("room-paused-away", t.bob)
    t.bob.post("/back")
    t.alice.post("/resume")

    # checked down until a showdown asks the losing hand to show or muck: about every hand (a chop asks no one,
    # nor does a loser who is away); a fresh clone once saw twelve hands in a row ask no one under the full suite
    for _ in range(40):
        s = t.play(hand_over, passive)
        pending = s["hand"]["pending"]
        if pending is not None and pending["kind"] == "show":
            asked = t.seats[pending["seats"][0]]
            keep("room-show-choice", asked)
            keep("room-show-waiting", t.other(asked))
            asked.post("/showdown", {"version": s["version"], "show": False})
            break
        t.deal()
    assert "room-show-choice" in got, "no show-or-muck choice in 40 hands"

    for _ in range(30):  # all in and called until one player has every chip; the first time, both run it twice
        t.deal()
        s = t.play(hand_over, shove)
        pending = s["hand"]["pending"]
        if pending is not None and pending["kind"] == "runs":
            first, second = (t.seats[x] for x in pending["seats"])
            if "room-runs-choice" not in got:
                keep("room-runs-choice", first)
            first.post("/runs", {"version": s["version"], "agree": True})
            wait_for(second, lambda x, v=s["version"]: x["version"] > v)
            if "room-runs-answered" not in got:
                keep("room-runs-answered", first)
            second.post("/runs", {"version": second.state()["version"], "agree": False})
        elif pending is not None:  # show or muck: muck
            t.seats[pending["seats"][0]].post("/showdown", {"version": s["version"], "show": False})
        if wait_for(t.alice, lambda x: x["hand"]["complete"])["match"]["over"]:
            break
    assert "room-runs-choice" in got and t.alice.state()["match"]["over"], "no run-it-twice, or no end, in 30 hands"
    keep("room-match-over", t.alice)
    keep("room-over-spectator", t.dan)
    return got
