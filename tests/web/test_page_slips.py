"""Slips found by new users on a phone and a laptop (issue 21), each checked in Debian's Chromium.

* A guest (``/api/me``: ``member.guest``) sees in the lobby only what a guest can use: the "play against bots"
  form and a note on signing in, not the new-table and join-by-code forms that would answer 403.
* The home page describes member tables as they are (2 to 6 seats, chosen stack, blinds and decks, bots), not as
  the first version's heads-up 2,000 chips at 10/20, and links to the lobby.
* The match chart's axis name sits on no hand number (the server's SVG, measured in the browser, wide and narrow).
* Nothing is cut on a 360-px phone: an empty seat's label, the player's own name, the practice room's score box
  (its words are never broken in the middle).
* An English drill about one exact card says "Each deck holds the 10 of diamonds once", not "There are 1 of".
"""

from __future__ import annotations

from typing import Any

import pytest

from taiwan_poker.history.chart import match_chart
from taiwan_poker.trainer.drills import generate_drill
from taiwan_poker.trainer.next_card import TargetKind

from .conftest import SCREENSHOTS, PageWatch

PHONE = {"width": 360, "height": 640}
LANGS = ("zh-TW", "en")


def new_context(browser: Any, base: str, lang: str, viewport: dict[str, int] = PHONE) -> Any:
    # bypass_csp: wait_for_function uses eval(), which the app's CSP forbids (see conftest.context)
    ctx = browser.new_context(viewport=viewport, locale="zh-TW", bypass_csp=True)
    ctx.add_cookies([{"name": "tp_lang", "value": lang, "url": base}])
    return ctx


def shot(page: Any, name: str, full: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full, animations="disabled")


def cut(page: Any, selector: str) -> list[str]:
    """The texts of the elements matching ``selector`` that do not fit their own box."""
    out: list[str] = page.eval_on_selector_all(
        selector, "els => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)")
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_a_guest_sees_in_the_lobby_only_what_a_guest_can_use(server: str, browser: Any, lang: str) -> None:
    ctx = new_context(browser, server, lang, {"width": 1280, "height": 800})
    try:
        watch = PageWatch(ctx.new_page())
        p = watch.page
        r = ctx.request.post(f"{server}/api/auth/guest", data={}, headers={"X-CSRF-Token": "signin"})
        assert r.ok, r.text()
        assert ctx.request.get(f"{server}/api/me").json()["member"]["guest"] is True
        p.goto(f"{server}/lobby")
        p.wait_for_function("document.getElementById('lobby-hello').textContent.includes('Guest')")
        assert p.locator("#create-form").count() == 0 and p.locator("#join-form").count() == 0
        assert p.is_visible("#solo-form") and p.is_visible("#solo-start")
        note = p.inner_text("#lobby-guest")
        assert ("訪客只能與電腦對戰" if lang == "zh-TW" else "Guests play against bots only") in note
        assert p.get_attribute("#lobby-guest a", "href") == "/signin?next=/lobby"
        hello = p.inner_text("#lobby-hello")
        assert ("開始對戰" if lang == "zh-TW" else "Start playing") in hello  # not "create a table and share its code"
        shot(p, f"slips-lobby-guest-{lang}-desktop", full=True)
        p.set_viewport_size(PHONE)
        shot(p, f"slips-lobby-guest-{lang}-phone", full=True)
        bad = [x for x in watch.problems if "page error" in x or "console error" in x or "HTTP 4" in x]
        assert bad == [], bad
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_describes_member_tables_as_they_are(server: str, browser: Any, lang: str) -> None:
    ctx = new_context(browser, server, lang, {"width": 1280, "height": 800})
    try:
        p = ctx.new_page()
        p.goto(f"{server}/")
        text = p.inner_text("main")
        for stale in ("雙人無限注", "每人 2,000", "Heads-up no-limit", "2,000 chips each"):
            assert stale not in text, stale
        row = p.locator("table.data tbody tr").last.inner_text()
        assert ("2 至 6 人" if lang == "zh-TW" else "2 to 6 players") in row
        assert ("電腦" if lang == "zh-TW" else "bots") in row
        tile = p.locator("a.link-tile[href='/lobby']")
        assert tile.count() == 1 and ("2 至 6 人" if lang == "zh-TW" else "2 to 6 players") in tile.inner_text()
    finally:
        ctx.close()


def test_the_match_chart_axis_name_overlaps_no_hand_number(server: str, browser: Any) -> None:
    nets = [100, -50, 300, -20, 40, 60, -300, 10, 500, -100, 30, 20]
    svgs = [match_chart(nets[:n], nets[:n], title="t", chips_label="c", ev_label="e", hands_label=label)
            for n in (2, 6, 12) for label in ("手數", "hands")]
    ctx = browser.new_context(viewport={"width": 800, "height": 900}, bypass_csp=True)
    try:
        for width in (760, 330):
            p = ctx.new_page()
            p.goto(f"{server}/rules")  # the app's stylesheet, then the charts in its chart box
            p.set_viewport_size({"width": width + 40, "height": 900})
            p.eval_on_selector("main", "(m, svgs) => { m.replaceChildren(); for (const s of svgs) { "
                               "const d = document.createElement('div'); d.className = 'chart-box'; d.innerHTML = s; "
                               "m.append(d); } }", svgs)
            overlaps = p.evaluate("""() => [...document.querySelectorAll('.match-chart')].flatMap((svg, k) => {
              const boxes = [...svg.querySelectorAll('text.tick, text.axis')]
                .map((t) => [t.textContent, t.getBoundingClientRect()]);
              const out = [];
              for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
                const [a, r] = boxes[i], [b, q] = boxes[j];
                if (r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom) out.push([k, a, b]);
              }
              return out;
            })""")
            assert overlaps == [], (width, overlaps)
            p.locator(".chart-box").first.screenshot(path=str(SCREENSHOTS / f"slips-chart-{width}.png"))
            p.close()
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_is_cut_on_a_small_phone(server: str, browser: Any, lang: str) -> None:
    ctx = new_context(browser, server, lang)
    try:
        p = ctx.new_page()
        # the practice room's score box: its name and value each on one line, the note under them
        p.goto(f"{server}/practice")
        p.wait_for_selector("#score-value")
        lines = p.evaluate("""() => ['.score-label', '#score-value'].map((s) => {
          const e = document.querySelector('#score ' + s), h = parseFloat(getComputedStyle(e).lineHeight) || 24;
          return [s, e.getBoundingClientRect().height <= h * 1.5];
        })""")
        assert all(one for _, one in lines), lines
        box = p.evaluate("() => document.getElementById('score').getBoundingClientRect().right")
        assert box <= PHONE["width"]
        p.locator("#score").screenshot(path=str(SCREENSHOTS / f"slips-score-{lang}-phone.png"))

        # a table of six with one bot: empty seats and the player's own (long) name in full
        r = ctx.request.post(f"{server}/api/auth/local", data={"name": "Charlotte Wellington"},
                             headers={"X-CSRF-Token": "signin"})
        assert r.ok, r.text()
        token = next(c["value"] for c in ctx.cookies() if c["name"] == "tp_csrf")
        created = ctx.request.post(f"{server}/api/rooms", data={"seats": 6, "bots": 1, "level": "beginner"},
                                   headers={"X-CSRF-Token": token}).json()
        p.goto(f"{server}/rooms/{created['code']}")
        p.wait_for_selector("#table .seat-box.empty .seat-name")
        empty = p.locator("#table .seat-box.empty .seat-name")
        assert empty.count() == 4
        assert set(empty.all_inner_texts()) == {"空位" if lang == "zh-TW" else "Empty seat"}
        assert cut(p, "#table .seat-name") == []
        assert "Charlotte Wellington" in p.inner_text("#table .seat-box.mine .seat-name")
        p.locator("#table").screenshot(path=str(SCREENSHOTS / f"slips-empty-seats-{lang}-phone.png"))
    finally:
        ctx.close()


def test_an_english_drill_counts_one_exact_card_in_good_english(server: str, browser: Any) -> None:
    seed = next(s for s in range(1000) if generate_drill(s).target.kind is TargetKind.FACE)
    ctx = new_context(browser, server, "en", {"width": 1280, "height": 800})
    try:
        p = ctx.new_page()
        p.route("**/api/practice/drill", lambda route: route.continue_(url=f"{server}/api/practice/drill?seed={seed}"))
        p.goto(f"{server}/practice")
        p.wait_for_selector("#drill-choices .choice")
        p.locator("#drill-choices .choice").first.click()
        p.wait_for_selector("#drill-feedback", state="visible")
        text = p.inner_text("#drill-feedback")
        assert "There are 1 of" not in text and "Each deck holds the " in text and " once, " in text, text
    finally:
        ctx.close()
