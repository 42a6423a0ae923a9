"""Accessibility at 0 (issue 45): axe-core 4 finds no violation on any page or any state of the room.

axe-core comes from the PyPI package ``axe-playwright-python`` (its bundled ``axe.min.js``, MPL-2.0), injected
into every page of the test's browser contexts; every rule axe has runs, the experimental ones included
(``label-content-name-mismatch`` among them), at 360×640, 390×844, 1280×800 and 1920×1080, in zh-TW and English.
One server and one browser serve the whole module; a page is loaded once per language and audited at each width
(the viewport resized, the layout settled).

* The pages: home, rules, odds, calculators (an example loaded, an equity run), lab (a hand dealt), practice (an
  answer given), lobby, sign-in, my history, a table's history, a hand's replay, a shared replay and the error page.
* The room, a heads-up member table with run it twice, show or muck and spectators' chat: the player to act
  (playing), the same with the chat open, the host with the host panel open, the opponent waiting, a spectator,
  the show-or-muck choice (the player asked and the other), the run-it-twice choice (asked, and answered while the
  other decides), and the match over (the winner and a spectator).

A state of the room is held still while it is audited: the page gets that seat's state as the server sent it when
the state was reached (``GET /api/rooms/{code}`` answered from the copy, the socket's state pushes dropped, its
chat passed on), so a choice's 10-second window or a bot cannot move the table on between two widths.

Screenshots ``test-output/screenshots/a11y-<page or state>-<lang>-<width>.png`` at 360 and 1280 px; a report of
every violation found (``test-output/a11y-report.json``) whatever the outcome.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import SCREENSHOTS, PageWatch
from .test_table_layout import settle

SIZES = {"360": (360, 640), "390": (390, 844), "1280": (1280, 800), "1920": (1920, 1080)}
SHOT_SIZES = ("360", "1280")
LANGS = ("zh-TW", "en")
LANG_TAG = {"zh-TW": "zh", "en": "en"}
REPORT = SCREENSHOTS.parent / "a11y-report.json"

# every rule axe knows up to WCAG AA, best practices and the experimental ones included (AAA's enhanced contrast
# and the like left out); each violation as rule, impact and its nodes' targets
AXE_RUN = """async () => {
  window.scrollTo(0, 0);  // nothing partly under the sticky header (axe's target-size counts that as obscured)
  const rules = Object.fromEntries(axe.getRules().map((r) => [r.ruleId, {enabled: !r.tags.includes("wcag2aaa")}]));
  const res = await axe.run(document, {rules, resultTypes: ["violations"]});
  return res.violations.map((v) => ({rule: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), html: n.html.slice(0, 160),
                                why: n.failureSummary.slice(0, 300)}))}));
}"""


def axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    script: str = AXE_SCRIPT
    return script


class Audit:
    """Runs axe on pages and collects every violation, named by where it was found."""

    def __init__(self) -> None:
        self.found: list[dict[str, Any]] = []
        self.checked: list[str] = []
        self.times: list[float] = []

    def run(self, page: Any, name: str, lang: str, prepare: Callable[[Any], None] | None = None) -> None:
        """Audit the open page at every width (``prepare`` redone after each resize: a panel opened, say)."""
        for size, (w, h) in SIZES.items():
            page.set_viewport_size({"width": w, "height": h})
            if prepare is not None:
                prepare(page)
            settle(page)
            where = f"{name} {lang} {size}"
            self.checked.append(where)
            t0 = time.monotonic()
            for v in page.evaluate(AXE_RUN):
                self.found.append({"where": where, **v})
            self.times.append(time.monotonic() - t0)
            if size in SHOT_SIZES:
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"a11y-{name}-{LANG_TAG[lang]}-{size}.png"), full_page=True,
                                animations="disabled")

    def report(self, label: str) -> str:
        by_rule: dict[str, int] = {}
        for v in self.found:
            by_rule[v["rule"]] = by_rule.get(v["rule"], 0) + len(v["nodes"])
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        old = json.loads(REPORT.read_text()) if REPORT.exists() else {}
        old[label] = {"checked": self.checked, "nodes_by_rule": by_rule, "violations": self.found}
        REPORT.write_text(json.dumps(old, ensure_ascii=False, indent=1))
        lines = [f"{rule}: {n} nodes" for rule, n in sorted(by_rule.items())]
        for v in self.found[:40]:
            lines.append(f"{v['where']} {v['rule']} ({v['impact']}): "
                         + "; ".join(f"{n['target']} {n['why']}" for n in v["nodes"][:3]))
        return "\n".join(lines)


class Member:
    """A member (or a guest, or nobody signed in) in a browser context of their own, axe injected in every page."""

    def __init__(self, browser: Any, base: str, name: str | None, guest: bool = False) -> None:
        # bypass_csp: axe is evaluated in the page, which the app's Content-Security-Policy forbids
        self.ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-TW", bypass_csp=True)
        self.ctx.add_init_script(axe_script())
        self.watch = PageWatch(self.ctx.new_page())
        self.page = self.watch.page
        self.page.set_default_timeout(15_000)
        self.base, self.name, self.code = base, name, ""
        self.frozen: dict[str, Any] | None = None
        if name is not None or guest:
            path, data = ("/api/auth/guest", {}) if guest else ("/api/auth/local", {"name": name})
            r = self.ctx.request.post(base + path, data=data, headers={"X-CSRF-Token": "signin"})
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
        """From now on the room page is drawn from ``self.frozen``: the state GET is answered from it and the
        socket's state pushes are dropped (its chat lines are passed on)."""
        state_url = f"{self.base}/api/rooms/{self.code}"
        self.page.route(lambda url: url.split("?")[0] == state_url,
                        lambda route: route.fulfill(json=self.frozen) if self.frozen is not None
                        else route.continue_())

        def socket(ws: Any) -> None:
            server = ws.connect_to_server()

            def down(message: str | bytes) -> None:
                if self.frozen is not None and isinstance(message, str):
                    if json.loads(message).get("type") == "state":
                        return
                ws.send(message)

            server.on_message(down)

        self.page.route_web_socket("**/ws/rooms/**", socket)

    def open_room(self, lang: str, frozen: dict[str, Any]) -> None:
        self.frozen = frozen
        self.goto(lang, f"/rooms/{self.code}")
        self.page.wait_for_function(f"Number(document.getElementById('room').dataset.version) >= {frozen['version']}")

    def close(self) -> None:
        self.ctx.close()


@pytest.fixture(scope="module")
def audit_browser(browser: Any) -> Any:
    return browser


def wait_for(m: Member, ready: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while not ready(s := m.state()):
        assert time.monotonic() < deadline, s
        time.sleep(0.05)
    return s


def act(m: Member, kind: str) -> None:
    s = m.state()
    res = m.post("/actions", {"version": s["version"], "action": {"kind": kind}})
    assert res["applied"], res


def legal(s: dict[str, Any]) -> list[str]:
    return list(s["hand"]["legal"]["actions"])


class Table:
    """A heads-up member table of Alice (its host) and Bob with run it twice, show or muck and spectators' chat;
    Dan watches. ``views`` keeps each named state as each reader's copy of it."""

    def __init__(self, browser: Any, base: str) -> None:
        self.alice = Member(browser, base, "Alice 主")
        self.bob = Member(browser, base, "Bob")
        self.dan = Member(browser, base, "Dan")
        self.everyone = [self.alice, self.bob, self.dan]
        made = self.alice.call("POST", "/api/rooms", {
            "seats": 2, "decks": 2, "stack": 1000, "blinds": [10, 20], "run_twice": True, "show_or_muck": True,
            "spectator_chat": True})
        for m in self.everyone:
            m.code = made["code"]
        self.bob.post("/join", {})
        wait_for(self.alice, lambda x: x["hand"] is not None)
        self.seats = {self.alice.state()["you"]: self.alice, self.bob.state()["you"]: self.bob}

    def actor(self, s: dict[str, Any]) -> Member:
        return self.seats[s["hand"]["to_act"]]

    def other(self, m: Member) -> Member:
        return self.bob if m is self.alice else self.alice

    def deal(self) -> dict[str, Any]:
        s = self.alice.state()
        if s["hand"]["complete"]:
            self.alice.call("POST", f"/api/rooms/{self.alice.code}/next", {"version": s["version"]})
        return wait_for(self.alice, lambda x: x["hand"] is not None and not x["hand"]["complete"])

    def play(self, until: Callable[[dict[str, Any]], bool], move: Callable[[dict[str, Any]], str]) -> dict[str, Any]:
        for _ in range(40):
            s = self.alice.state()
            if until(s):
                return s
            hand = s["hand"]
            if hand["complete"] or hand["pending"] is not None or hand["to_act"] is None:
                time.sleep(0.05)
                continue
            actor = self.actor(s)
            act(actor, move(actor.state()))
        raise AssertionError("the hand did not get there")

    def close(self) -> None:
        for m in self.everyone:
            m.close()


@pytest.fixture(scope="module")
def table(audit_browser: Any, server: str) -> Iterator[Table]:
    t = Table(audit_browser, server)
    yield t
    t.close()


def passive(s: dict[str, Any]) -> str:
    return "check" if "check" in legal(s) else "call"


def test_every_state_of_the_room_has_no_axe_violation(table: Table) -> None:
    audit = Audit()
    t = table
    for m in t.everyone:
        m.hold()
    for m, text in ((t.alice, "你好"), (t.bob, "hello <b>all</b>"), (t.dan, "good luck")):
        m.post("/chat", {"text": text})
    states: list[tuple[str, Member, dict[str, Any], Callable[[Any], None] | None]] = []

    def chat_open(page: Any) -> None:
        if not page.eval_on_selector("#chat-box", "d => d.open"):
            page.click("#chat-box summary")

    def host_open(page: Any) -> None:
        if not page.eval_on_selector("#host-panel", "d => d.open"):
            page.click("#host-panel summary")

    # playing: the player to act, with the chat open, the host's panel, the one waiting, a spectator
    s = t.deal()
    actor = t.actor(s)
    states += [("room-playing", actor, actor.state(), None), ("room-chat", actor, actor.state(), chat_open),
               ("room-host-panel", t.alice, t.alice.state(), host_open),
               ("room-waiting", t.other(actor), t.other(actor).state(), None),
               ("room-spectator", t.dan, t.dan.state(), chat_open)]

    # show or muck: checked down until a showdown asks one player
    shown = None
    for _ in range(12):
        s = t.play(lambda x: x["hand"]["complete"] or x["hand"]["pending"] is not None, passive)
        pending = s["hand"]["pending"]
        if pending is not None and pending["kind"] == "show":
            asked = t.seats[pending["seats"][0]]
            shown = [("room-show-choice", asked, asked.state(), None),
                     ("room-show-waiting", t.other(asked), t.other(asked).state(), None)]
            asked.post("/showdown", {"version": s["version"], "show": False})
            break
        t.deal()
    assert shown is not None, "no show-or-muck choice in 12 hands"
    states += shown

    # run it twice: all in and called; asked, then answered while the other decides; the match played out
    runs = None
    for _ in range(30):
        s = t.deal()
        s = t.play(lambda x: x["hand"]["complete"] or x["hand"]["pending"] is not None,
                   lambda x: "allin" if "allin" in legal(x) else "call")
        pending = s["hand"]["pending"]
        if pending is not None and pending["kind"] == "runs":
            first, second = (t.seats[x] for x in pending["seats"])
            got = [("room-runs-choice", first, first.state(), None)]
            first.post("/runs", {"version": s["version"], "agree": True})
            wait_for(second, lambda x: x["version"] > s["version"])
            got.append(("room-runs-answered", first, first.state(), None))
            runs = runs or got
            second.post("/runs", {"version": second.state()["version"], "agree": False})
        elif pending is not None:  # show or muck: muck
            t.seats[pending["seats"][0]].post("/showdown", {"version": s["version"], "show": False})
        s = wait_for(t.alice, lambda x: x["hand"]["complete"])
        if s["match"]["over"]:
            break
    assert runs is not None and s["match"]["over"], "no run-it-twice choice, or no end, in 30 all-in hands"
    states += runs
    states += [("room-match-over", t.alice, t.alice.state(), None), ("room-over-spectator", t.dan, t.dan.state(), None)]

    for name, m, frozen, prepare in states:
        for lang in LANGS:
            m.open_room(lang, frozen)
            audit.run(m.page, name, lang, prepare)
    print("axe seconds", sum(audit.times), len(audit.times))
    report = audit.report("room")
    assert audit.found == [], report


def played(t: Table) -> None:
    """At least one finished hand at the table (for its history, the replay and the member's history)."""
    s = t.alice.state()
    if s["hand"]["hand_no"] == 1 and not s["hand"]["complete"]:
        t.play(lambda x: x["hand"]["complete"] or x["hand"]["pending"] is not None, lambda x: "fold")
        wait_for(t.alice, lambda x: x["hand"]["complete"] or x["hand"]["hand_no"] > 1)


def calculators_used(page: Any) -> None:
    """An example in the outs calculator, an equity run to its table."""
    page.click("#outs-example")
    page.wait_for_function("document.getElementById('outs-next').textContent !== '–'")
    page.click("#eq-run")
    page.wait_for_selector("#eq-table-wrap", state="visible", timeout=60_000)


def practice_answered(page: Any) -> None:
    page.click(".scenario .choice >> nth=0")
    page.wait_for_selector(".scenario .feedback:not([hidden])")
    page.wait_for_selector("#drill-choices button")


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_has_no_axe_violation(table: Table, audit_browser: Any, server: str, lang: str) -> None:
    audit = Audit()
    played(table)
    code = table.alice.code
    share = table.alice.post("/hands/1/share")["url"]
    visitor = Member(audit_browser, server, None)
    try:
        pages: list[tuple[str, Member, str, str, Callable[[Any], None] | None]] = [
            ("home", visitor, "/", "#solo-form", None),
            ("rules", visitor, "/rules", "main h1", None),
            ("odds", visitor, "/odds", "table.heat", None),
            ("calculators", visitor, "/calculators", "#picker button", calculators_used),
            ("lab", visitor, "/lab", "#lab-hole .card:not(.slot)", None),
            ("practice", visitor, "/practice", "#drill-choices button", practice_answered),
            ("signin", visitor, "/signin", "main h1", None),
            ("shared-replay", visitor, share, "#replay-seats li", None),
            ("error", visitor, "/no-such-page", "main h1", None),
            ("lobby", table.alice, "/lobby", "#room-list li", None),
            ("my-history", table.alice, "/history", "#mine-list li", None),
            ("table-history", table.alice, f"/rooms/{code}/history", "#hand-list li", None),
            ("replay", table.alice, f"/rooms/{code}/hands/1", "#replay-seats li", None),
        ]
        for name, m, path, ready, use in pages:
            m.goto(lang, path)
            m.page.wait_for_selector(ready)
            if use is not None:
                use(m.page)
            audit.run(m.page, name, lang)
    finally:
        visitor.close()
    report = audit.report(f"pages-{lang}")
    assert audit.found == [], report
