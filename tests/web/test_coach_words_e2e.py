"""The coach speaks plainly (issue 45, finding 9), in Debian's Chromium at 360 and 1280 pixels in both languages.

At a solo table against bots the coach line names the strategy's top three actions as times in 100 ("…" when
more follow), never as a percentage, beside the equity labelled as one; the panel lists every action with a bar
under a one-line legend that says what the numbers are. The review of the hand gives each mark its reason, so a
good mark beside chips given up says why. Screenshots in ``test-output/screenshots/coach_words``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from taiwan_poker.history.review import Why
from taiwan_poker.web.i18n import catalogue

from .conftest import SCREENSHOTS
from .test_bots_e2e import check_or_call, settle, wait_state
from .test_tables_e2e import Player

SHOTS = SCREENSHOTS / "coach_words"
MIX = [{"action": "raise", "to": 60, "probability": 0.4}, {"action": "call", "to": None, "probability": 0.3},
       {"action": "fold", "to": None, "probability": 0.2}, {"action": "bet", "to": 100, "probability": 0.1}]


def shot(page: Any, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full, animations="disabled")


def times(words: dict[str, str], p: float) -> str:
    return words["coach.times"].replace("{n}", str(round(100 * p)))


def check_coach(page: Any, words: dict[str, str], advice: dict[str, Any]) -> None:
    """The bar's line and the panel say the strategy as times in 100 and the equity as a labelled percentage."""
    line = page.inner_text("#coach-line-text")
    action_part, _, reason = line.partition(" · ")
    mix = advice["mix"]
    assert "%" not in action_part, line  # a frequency never reads like an equity
    counts = [int(n) for n in re.findall(r"(\d+)(?:/100| in 100)", action_part)]
    assert counts == [round(100 * m["probability"]) for m in mix[:3]], (line, mix)
    assert action_part.endswith("…") == (len(mix) > 3), line
    assert re.search(rf"{re.escape(words['coach.word.equity'])} \d+\.\d%", reason), line  # a labelled percentage
    assert page.inner_text("#coach-action") and page.is_visible("#coach-legend")
    assert "100" in page.inner_text("#coach-legend")
    assert page.locator("#coach-mix li").count() == len(mix)
    assert page.locator("#coach-mix .mix-times").all_inner_texts() == [times(words, m["probability"]) for m in mix]


@pytest.mark.parametrize(("lang", "width"), [("zh-TW", 360), ("en", 1280), ("en", 360), ("zh-TW", 1280)])
def test_the_coach_line_the_legend_and_the_reviews_reasons(server: str, browser: Any, lang: str, width: int) -> None:
    words = catalogue(lang)
    m = Player(browser, server, f"教練{lang}{width}", viewport={"width": width, "height": 800})
    m.ctx.add_cookies([{"name": "tp_lang", "value": lang, "url": server}])
    tag = f"{lang}-{width}"
    try:
        p = m.page
        status, room = m.post("/api/rooms", {"seats": 3, "decks": 2, "bots": 2, "level": "strong"})
        assert status == 200, room
        code = room["code"]
        coach_url = f"{server}/api/rooms/{code}/coach"

        def four(route: Any) -> None:  # the first turn's advice with a mix of four actions: three named, then "…"
            body = route.fetch().json()
            if body.get("advice"):
                body["advice"]["mix"] = MIX
            route.fulfill(json=body)

        p.route(coach_url, four)
        m.open(code)
        coached, first = 0, 0
        while True:  # to the end of a hand, once the coach spoke twice
            s = wait_state(m.ctx, server, code, lambda s: s["match"]["over"] or s["hand"]["complete"] or (
                s["hand"]["to_act"] == s["you"]))
            n = s["hand"]["hand_no"]
            if s["match"]["over"] or (s["hand"]["complete"] and coached > 1):
                break
            if s["hand"]["complete"]:
                wait_state(m.ctx, server, code, lambda s, n=n: s["hand"]["hand_no"] > n or s["match"]["over"])
                continue
            first = first or n
            m.wait_version(s["version"])
            p.wait_for_selector("#coach-panel[data-ready='1']", state="visible", timeout=20_000)
            if coached:  # the same advice the page drew: the coach is a function of the spot
                check_coach(p, words, m.ctx.request.get(coach_url).json()["advice"])
            else:
                check_coach(p, words, {"mix": MIX})
                p.unroute(coach_url)
            settle(p)
            if coached < 2:
                shot(p, f"coach-{tag}-{coached}")
                p.locator("#coach-panel").scroll_into_view_if_needed()
                shot(p, f"coach-panel-{tag}-{coached}")
            coached += 1
            check_or_call(p)
        assert coached > 1, "one decision: the real advice was never compared"

        # the review: every mark with its reason in words
        p.goto(f"{server}/rooms/{code}/hands/{first}#review")
        p.wait_for_selector("#review[data-ready='1']")
        rows = p.locator("#review-rows tr")
        assert rows.count() >= 1
        reasons = {words[f"review.why.{w.value}"] for w in Why} | {words["review.why.first_choice_cost"]}
        for i in range(rows.count()):
            why = rows.nth(i).locator(".why").inner_text()
            assert any(r in why for r in reasons), why
        assert p.is_visible(".review-legend")
        shot(p, f"review-{tag}", full=True)
        p.locator("#review").screenshot(path=str(SHOTS / f"review-table-{tag}.png"), animations="disabled")

        # the words themselves, for a mix of four and for each mark and reason (the page's own module)
        got = p.evaluate("""async (mix) => {
          const c = await import("/static/js/coach_text.js");
          const text = (nodes) => nodes.filter(Boolean).map((n) => n.textContent).join("|");
          const mark = (mark, why, loss, cost) => text(c.reviewMark({ mark, why, loss, loss_bb: loss / 20,
            probability: 0.35, mix, cost }));
          return { three: c.mixText(mix, 3), all: c.mixText(mix),
                   goodInMix: mark("good", "in_mix", 44, null), goodSmall: mark("good", "small_loss", 12, null),
                   goodFirstCost: mark("good", "first_choice", 0, 480) };
        }""", MIX)
        assert got["three"].endswith(words["coach.mix_more"]) and got["three"].count(times(words, 0.1)) == 0
        assert all(times(words, x["probability"]) in got["all"] for x in MIX)
        assert "…" not in got["all"] and "%" not in got["all"]
        assert words["review.why.in_mix"] in got["goodInMix"] and "44" in got["goodInMix"]
        assert words["review.why.small_loss"] in got["goodSmall"]
        assert words["review.why.first_choice_cost"] in got["goodFirstCost"] and "480" in got["goodFirstCost"]
        assert m.errors() == [], m.errors()
    finally:
        m.close()
