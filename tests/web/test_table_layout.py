"""The table fits the screen: every seat, the board, the pots, your cards and the buttons in view at once.

A guest plays against beginner bots (``POST /api/rooms`` with bots in every other seat; the test server gives the
bots no pause) at 2, 4 and 6 seats. At 360×640, 390×844, 1280×800 and 1920×1080, in zh-TW and English, the page
is opened at that size:

* while it is the guest's turn: every seat panel with its name, chips, bet and tags (position, status, last
  action), the board, the pot line and the pots, the guest's own cards and private burn, and the action buttons
  lie inside the viewport, below the sticky header, and nothing covers them (``document.elementFromPoint`` at the
  centre of each answers the element itself or something inside it); no name, chip count, bet or tag is cut off;
* at a showdown (the guest steps away at once, which pauses a table with no member present, so the shown hands
  stay on it): the same, every shown hand (hole cards and category) included, and the "I'm back" button too.

A heads-up match played out all-in at a phone's sizes: the end-of-match banner with its rematch button is in view
without scrolling, over a table that still fits. Viewport screenshots land in ``test-output/screenshots/``
as ``layout-<seats>-seats-<acting|showdown>-<lang>-<size>.png`` and ``layout-match-over-<lang>-<size>.png``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import SCREENSHOTS, PageWatch

SIZES = {"360x640": (360, 640), "390x844": (390, 844), "1280x800": (1280, 800), "1920x1080": (1920, 1080)}
PHONES = ("360x640", "390x844")
LANGS = ("zh-TW", "en")
LANG_TAG = {"zh-TW": "zh", "en": "en"}

# Everything a player must see at once, measured in the page: each element's box against the viewport (below the
# header's bottom when the header is sticky) and what document.elementFromPoint finds at its centre.
LAYOUT_PROBLEMS = """(extra) => {
  const W = innerWidth, H = innerHeight;
  const header = document.querySelector(".site-header").getBoundingClientRect();
  const top = Math.max(0, header.bottom);
  const shown = (e) => e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  const problems = [];
  const seen = [];
  const check = (e, name, text = false) => {
    if (!shown(e)) return;
    const r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return;  // left to screen readers
    seen.push(name);
    const where = {top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left),
                   right: Math.round(r.right), viewTop: Math.round(top), width: W, height: H};
    if (r.top < top - 1 || r.bottom > H + 1 || r.left < -1 || r.right > W + 1) {
      problems.push({name, why: "out of view", ...where});
      return;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!(hit && (hit === e || e.contains(hit))))
      problems.push({name, why: "covered", by: hit ? `${hit.tagName}.${hit.className}` : null, ...where});
    if (text && e.scrollWidth > e.clientWidth + 1) problems.push({name, why: "cut off", text: e.textContent});
  };
  document.querySelectorAll("#table .seat-box").forEach((box) => {
    const id = box.id;
    check(box, id);
    check(box.querySelector(".seat-name"), `${id} name`, true);
    check(box.querySelector(".stack-num"), `${id} chips`, true);
    check(box.querySelector(".seat-bet"), `${id} bet`, true);
    box.querySelectorAll(".seat-tags .tag").forEach((t) => check(t, `${id} tag ${t.textContent}`, true));
    check(box.querySelector(".seat-hole"), `${id} cards`);
    check(box.querySelector(".seat-best .cat"), `${id} hand`, true);
    check(box.querySelector(".burn-box"), `${id} burn`);
  });
  for (const sel of ["#board", "#pot-line", "#pots", ...extra]) check(document.querySelector(sel), sel);
  return {problems, seen, scrollY};
}"""


def settle(page: Any) -> None:
    """Fonts in, two animation frames drawn: the page has laid itself out (and scrolled) for what it has."""
    page.evaluate("() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => "
                  "requestAnimationFrame(r))))")


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), animations="disabled")


class Guest:
    """A guest at a table of bots: one browser context, the API for the moves the page is not tested on."""

    def __init__(self, browser: Any, base: str, seats: int, **table: Any) -> None:
        # bypass_csp: wait_for_function uses eval(), which the app's CSP forbids (see conftest.context)
        self.ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-TW", bypass_csp=True)
        self.watch = PageWatch(self.ctx.new_page())
        self.page = self.watch.page
        self.page.set_default_timeout(15_000)
        self.base = base
        r = self.ctx.request.post(f"{base}/api/auth/guest", data={}, headers={"X-CSRF-Token": "signin"})
        assert r.ok, r.text()
        status, created = self.post("/api/rooms", {"seats": seats, "bots": seats - 1, "level": "beginner", **table})
        assert status == 200, created
        self.code: str = created["code"]

    def post(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        token = next(c["value"] for c in self.ctx.cookies() if c["name"] == "tp_csrf")
        r = self.ctx.request.post(self.base + path, data=body if body is not None else {},
                                  headers={"X-CSRF-Token": token})
        return r.status, r.json()

    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = self.ctx.request.get(f"{self.base}/api/rooms/{self.code}", max_retries=2).json()
        return data

    def wait(self, ready: Callable[[dict[str, Any]], bool], timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while not ready(s := self.state()):
            assert time.monotonic() < deadline, s
            time.sleep(0.05)
        return s

    def act(self, s: dict[str, Any], kind: str) -> None:
        status, res = self.post(f"/api/rooms/{self.code}/actions",
                                {"version": s["version"], "key": f"{time.time_ns()}", "action": {"kind": kind}})
        assert status == 200, res

    def open(self, lang: str, size: str, version: int) -> None:
        """The table page opened at this size and in this language, drawn for ``version`` or later."""
        self.ctx.add_cookies([{"name": "tp_lang", "value": lang, "url": self.base}])
        w, h = SIZES[size]
        self.page.set_viewport_size({"width": w, "height": h})
        self.page.goto(f"{self.base}/rooms/{self.code}")
        self.page.wait_for_selector(f"html[lang='{lang}'] #room[data-version]")
        self.page.wait_for_function(f"Number(document.getElementById('room').dataset.version) >= {version}")
        settle(self.page)

    def errors(self) -> list[str]:
        return [x for x in self.watch.problems if "page error" in x or "console error" in x]


def my_turn(s: dict[str, Any]) -> bool:
    hand = s["hand"]
    return bool(hand and not hand["complete"] and hand["to_act"] == s["you"])


def shown_seats(s: dict[str, Any]) -> list[int]:
    return [x["seat"] for x in s["hand"]["seats"] if x.get("shown")]


def assert_in_view(page: Any, extra: list[str], what: str) -> dict[str, Any]:
    res: dict[str, Any] = page.evaluate(LAYOUT_PROBLEMS, extra)
    assert res["problems"] == [], (what, res["problems"])
    return res


def showdown_then_away(g: Guest) -> dict[str, Any]:
    """Check or call every decision until a hand ends with two or more hands shown, then step away at once: with
    no member present the table pauses, so that showdown stays on the table."""
    for _ in range(40):
        s = g.wait(lambda x: x["hand"] is not None and (x["hand"]["complete"] or my_turn(x)))
        hand = s["hand"]
        if not hand["complete"]:
            legal = hand["legal"]["actions"]
            g.act(s, "check" if "check" in legal else "call" if "call" in legal else "allin")
            continue
        if len(shown_seats(s)) >= 2:
            assert g.post(f"/api/rooms/{g.code}/away")[0] == 200
            s = g.wait(lambda x: x["status"] == "paused" and x["hand"]["complete"])
            if len(shown_seats(s)) >= 2:  # this showdown, or the bots' own in the hand dealt meanwhile
                return s
            assert g.post(f"/api/rooms/{g.code}/back")[0] == 200
            s = g.state()
        if s["hand"]["complete"] and not s["match"]["over"]:
            g.post(f"/api/rooms/{g.code}/next", {"version": s["version"]})  # no 6-second wait (or already dealt)
        assert not s["match"]["over"], "the match ended before a showdown"
    raise AssertionError("no showdown in 40 hands")


@pytest.fixture(params=[2, 4, 6], ids=lambda n: f"{n}-seats")
def seats(request: pytest.FixtureRequest) -> int:
    n: int = request.param
    return n


def test_every_seat_is_in_view_while_you_act_and_at_showdown(server: str, browser: Any, seats: int) -> None:
    g = Guest(browser, server, seats)
    try:
        # your turn: the page, opened at each size, shows the whole table and the action bar at once
        s = g.wait(my_turn)
        for lang in LANGS:
            for size in SIZES:
                g.open(lang, size, s["version"])
                g.page.wait_for_selector("#actions", state="visible")
                settle(g.page)
                res = assert_in_view(g.page, ["#actions .action-main", "#act-raise", "#raise-amount", "#clock"],
                                     f"acting {seats} seats {lang} {size}")
                assert len([x for x in res["seen"] if x.startswith("seat-") and " " not in x]) == seats
                assert "#actions .action-main" in res["seen"] and f"seat-{s['you']} burn" in res["seen"]
                # who bet what, and each player's last action, on every screen
                for seat in s["hand"]["seats"]:
                    if seat["bet"] > 0:
                        assert f"seat-{seat['seat']} bet" in res["seen"], (seat, size)
                shot(g.page, f"layout-{seats}-seats-acting-{LANG_TAG[lang]}-{size}")
        assert g.state()["settled"] == s["settled"], "the table moved on while it was your turn"

        # a showdown: every shown hand in view (and the way back from being away)
        s = showdown_then_away(g)
        shown = shown_seats(s)
        for lang in LANGS:
            for size in SIZES:
                g.open(lang, size, s["version"])
                g.page.wait_for_selector("#away-box", state="visible")
                g.page.wait_for_selector(f"#seat-{shown[0]} .seat-best", state="visible")
                settle(g.page)
                res = assert_in_view(g.page, ["#back-btn", "#hand-message"], f"showdown {seats} seats {lang} {size}")
                for seat in shown:
                    assert {f"seat-{seat} cards", f"seat-{seat} hand"} <= set(res["seen"]), (seat, size)
                assert "#back-btn" in res["seen"]
                shot(g.page, f"layout-{seats}-seats-showdown-{LANG_TAG[lang]}-{size}")
        assert g.errors() == [], g.errors()
    finally:
        g.ctx.close()


def test_the_end_of_the_match_and_its_rematch_button_are_in_view_on_a_phone(server: str, browser: Any) -> None:
    # heads-up with the smallest stack (10 big blinds): all-in every hand until one player has every chip
    g = Guest(browser, server, 2, stack=200, blinds=[10, 20])
    try:
        for _ in range(200):  # steps (an action or the next hand): a fold to the all-in only moves the blinds
            s = g.wait(lambda x: x["match"]["over"] or my_turn(x) or x["hand"]["complete"])
            if s["match"]["over"]:
                break
            if s["hand"]["complete"]:
                g.post(f"/api/rooms/{g.code}/next", {"version": s["version"]})
                g.wait(lambda x, n=s["hand"]["hand_no"]: x["match"]["over"] or x["hand"]["hand_no"] > n)
                continue
            legal = s["hand"]["legal"]["actions"]
            g.act(s, "allin" if "allin" in legal else "call" if "call" in legal else "check")
        assert s["match"]["over"], "no winner in 200 steps of all-in hands"
        for lang in LANGS:
            for size in PHONES:
                g.open(lang, size, s["version"])
                g.page.wait_for_selector("#result", state="visible")
                settle(g.page)
                res = assert_in_view(g.page, ["#result", "#rematch-btn"], f"match over {lang} {size}")
                assert {"#result", "#rematch-btn"} <= set(res["seen"])
                shot(g.page, f"layout-match-over-{LANG_TAG[lang]}-{size}")
        assert g.errors() == [], g.errors()
    finally:
        g.ctx.close()
