"""Real-browser tests: Debian's Chromium through Playwright against the real server."""

from __future__ import annotations

import re

import pytest

from taiwan_poker.cards import parse_cards
from taiwan_poker.evaluate import evaluate

from .conftest import PageWatch, screenshot

PAGES = [("home", "/"), ("rules", "/rules"), ("odds", "/odds"), ("calculators", "/calculators"), ("lab", "/lab"),
         ("practice", "/practice")]


def _labels(page: object, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.label)")  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "path"), PAGES)
def test_page_loads_cleanly(server: str, page: PageWatch, name: str, path: str) -> None:
    p = page.page
    p.goto(server + path)
    p.wait_for_load_state("networkidle")
    assert p.locator("h1").first.is_visible()
    assert p.get_attribute("html", "lang") == "zh-TW"
    assert "所有籌碼僅供練習" in p.inner_text("footer")
    # every user-facing key resolved: no raw catalogue keys on the page
    text = p.inner_text("body")
    assert not re.search(r"\b(?:common|rules|lab|calc|practice|drill|home|odds)\.[a-z_]+(?:\.[a-z_0-9]+)*\b", text)
    screenshot(p, f"{name}-desktop")
    assert page.problems == []


def test_lab_plays_to_the_river_and_matches_the_engine(server: str, page: PageWatch) -> None:
    p = page.page
    p.goto(server + "/lab")
    p.wait_for_function("document.querySelectorAll('#lab-hole .card:not(.slot)').length === 2")  # dealt on arrival
    p.select_option("#lab-decks", "4")
    p.click("#lab-deal")
    p.wait_for_function("document.getElementById('lab-total').textContent === '208'")
    assert p.inner_text("#lab-used") == "3"
    assert len(_labels(p, "#lab-burn .card")) == 1
    for street, board_count, used in (("翻牌", 3, 7), ("轉牌", 4, 9), ("河牌", 5, 11)):
        p.wait_for_selector("#lab-next:not([disabled])")
        p.click("#lab-next")
        p.wait_for_function(f"document.querySelectorAll('#lab-board .card:not(.slot)').length === {board_count}")
        assert street in p.inner_text("#lab-street")
        assert p.inner_text("#lab-used") == str(used)
        assert p.inner_text("#lab-remaining") == str(4 * 52 - used)
        hole = _labels(p, "#lab-hole .card")
        board = _labels(p, "#lab-board .card:not(.slot)")
        engine = evaluate(parse_cards(hole + board, 4))
        shown_best = _labels(p, "#lab-best .card")
        assert sorted(shown_best) == sorted(c.label for c in engine.best)
        assert p.get_attribute("#lab-best-cat", "data-category") == engine.category.value
        assert p.inner_text("#lab-best-cat") == engine.category.zh
        highlighted = _labels(p, "#lab-hole .card.hl") + _labels(p, "#lab-board .card.hl")
        assert sorted(highlighted) == sorted(shown_best)
    # dealer burns are face down and never in the page
    assert p.locator("#lab-dealer-burns .card.back").count() == 3
    assert p.locator("#lab-dealer-burns [data-label]").count() == 0
    assert p.is_disabled("#lab-next")
    screenshot(p, "lab-river")
    assert page.problems == []


def test_practice_scenarios_and_score(server: str, page: PageWatch) -> None:
    p = page.page
    p.goto(server + "/practice")
    p.wait_for_load_state("networkidle")
    assert p.inner_text("#score-value") == "尚未作答"
    answers = {"pot_odds": "20", "draw_price": "fold", "value_raise": "call"}  # the last one wrong on purpose
    for i, (scenario, choice) in enumerate(answers.items(), start=1):
        p.click(f"#scenario-{scenario} .choice[data-choice='{choice}']")
        p.wait_for_function(f"document.getElementById('score').dataset.answered === '{i}'")
        assert p.is_visible(f"#scenario-{scenario} .feedback")
    assert p.get_attribute("#scenario-pot_odds", "data-answered") == "right"
    assert p.inner_text("#scenario-pot_odds .feedback .verdict") == "答對了。"
    assert p.inner_text("#scenario-value_raise .feedback .verdict") == "不對。正確答案：加注。"
    assert "20/100" in p.inner_text("#scenario-pot_odds .feedback")
    assert "22/97" in p.inner_text("#scenario-draw_price .feedback")
    assert p.get_attribute("#scenario-value_raise", "data-answered") == "wrong"
    assert "100" in p.inner_text("#scenario-value_raise .feedback")
    assert p.inner_text("#score-value") == "2 / 3（67%）"
    # the drill: answer, see the exact explanation, the score moves
    p.wait_for_selector("#drill-choices .choice")
    p.click("#drill-choices .choice >> nth=0")
    p.wait_for_function("document.getElementById('score').dataset.answered === '4'")
    assert "N =" in p.inner_text("#drill-feedback")
    screenshot(p, "practice-answered")
    p.reload()
    p.wait_for_function("document.getElementById('score').dataset.answered === '4'")
    assert page.problems == []


def test_calculator_reproduces_the_spec_heart_draw(server: str, page: PageWatch) -> None:
    p = page.page
    p.goto(server + "/calculators")
    p.click("#outs-example")
    p.wait_for_function("document.getElementById('outs-next').textContent === '22.45%'")
    assert p.inner_text("#outs-next-frac") == "22/98"
    # the spec's table: the same cards under three states of private information
    states = p.locator("#outs-states tbody tr").all_inner_texts()
    assert [s.split("\t")[1:] for s in states] == [["22/98", "22.45%"], ["21/97", "21.65%"], ["22/97", "22.68%"]]
    # your burn is a heart: click the 7♥ into the burn group
    p.click(".group-pick[data-group='burn']")
    p.click(".pick[data-face='7h']")
    p.wait_for_function("document.getElementById('outs-next').textContent === '21.65%'")
    assert p.inner_text("#outs-next-frac") == "21/97"
    # your burn is not a heart
    p.click("#picked-burn .card")
    p.click(".pick[data-face='7c']")
    p.wait_for_function("document.getElementById('outs-next').textContent === '22.68%'")
    assert p.inner_text("#outs-next-frac") == "22/97"
    p.fill("#pot-p", "60")
    p.fill("#pot-b", "20")
    p.wait_for_function("document.getElementById('pot-result').textContent === '20.00%'")
    screenshot(p, "calculators-heart-draw")
    assert page.problems == []


def test_language_switch_changes_the_page_and_persists(server: str, page: PageWatch) -> None:
    p = page.page
    p.goto(server + "/rules")
    assert p.inner_text("h1") == "台灣撲克規則"
    p.click("a.lang-switch")
    p.wait_for_load_state("networkidle")
    assert p.url.endswith("/rules")
    assert p.get_attribute("html", "lang") == "en"
    assert p.inner_text("h1") == "Taiwan Poker rules"
    p.reload()
    assert p.inner_text("h1") == "Taiwan Poker rules"
    p.goto(server + "/lab")
    p.wait_for_function("document.querySelectorAll('#lab-hole .card:not(.slot)').length === 2")
    assert p.inner_text("#lab-deal") == "Deal a new hand"
    assert "preflop" in p.inner_text("#lab-street")
    screenshot(p, "lab-english")
    p.click("a.lang-switch")
    p.wait_for_load_state("networkidle")
    assert p.get_attribute("html", "lang") == "zh-TW"
    assert page.problems == []


def test_four_colour_switch_persists(server: str, page: PageWatch) -> None:
    p = page.page
    p.goto(server + "/rules")
    p.click(".four-toggle")
    assert "four-colour" in (p.get_attribute("html", "class") or "")
    p.reload()
    assert "four-colour" in (p.get_attribute("html", "class") or "")
    assert p.get_attribute(".four-toggle", "aria-pressed") == "true"


def test_keyboard_deals_at_the_lab_table(server: str, page: PageWatch) -> None:
    p = page.page
    p.goto(server + "/lab")
    p.wait_for_function("document.querySelectorAll('#lab-hole .card:not(.slot)').length === 2")
    p.focus("#lab-next")
    p.keyboard.press("Enter")
    p.wait_for_function("document.querySelectorAll('#lab-board .card:not(.slot)').length === 3")
    labels = p.eval_on_selector_all("#lab-board .card[role=img]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert all(re.fullmatch(r"第 \d 副 \S+ \S+", a) for a in labels)


@pytest.mark.parametrize(("name", "path"), PAGES)
def test_phone_width_has_no_horizontal_scroll(server: str, browser: object, name: str, path: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-TW",  # type: ignore[attr-defined]
                              is_mobile=True, has_touch=True, device_scale_factor=2,
                              bypass_csp=True)  # wait_for_function uses eval(): see conftest.context
    try:
        p = ctx.new_page()
        watch = PageWatch(p)
        p.goto(server + path)
        p.wait_for_load_state("networkidle")
        if name == "lab":
            for _ in range(3):
                p.click("#lab-next")
            p.wait_for_function("document.querySelectorAll('#lab-board .card:not(.slot)').length === 5")
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} is {width}px wide on a 390px phone"
        screenshot(p, f"{name}-phone")
        assert watch.problems == []
    finally:
        ctx.close()


def test_odds_page_tables_and_heat_map(server: str, page: PageWatch) -> None:
    p = page.page
    p.goto(server + "/odds?decks=3#heat")
    assert p.locator("table.heat tbody td[style]").count() == 169 + 13
    five = p.locator("#five tr[data-category='five_of_a_kind'] td").all_inner_texts()
    assert five[2] == "0.001427%"
    assert "6.7961%" in p.inner_text("#starting tr[data-row='pocket_pair']")
    p.click("#heat .seg-btn >> text=1")
    p.wait_for_url(re.compile(r"decks=1"))
    assert p.locator("table.heat tr.identical td.na").count() == 13
    screenshot(p, "odds-one-deck")
    assert page.problems == []


def test_equity_calculator_runs(server: str, page: PageWatch) -> None:
    p = page.page
    p.goto(server + "/calculators#equity")
    p.click("#eq-run")
    p.wait_for_selector("#eq-form[data-done='1']", timeout=30_000)
    rows = p.locator("#eq-table tbody tr").all_inner_texts()
    assert len(rows) == 2 and "Ah Qh" in rows[0]
    assert "精確值" in p.inner_text("#eq-method")
    p.fill("#eq-board", "")
    p.fill("#eq-burn", "")
    p.select_option("#eq-precision", "0.005")
    p.click("#eq-run")
    p.wait_for_selector("#eq-form[data-done='1']", timeout=60_000)
    assert "估計值" in p.inner_text("#eq-method")
    p.fill("#eq-opps", "QQ++")
    p.click("#eq-run")
    p.wait_for_selector("#eq-error:not([hidden])")
    assert "QQ++" in p.inner_text("#eq-error")
    screenshot(p, "calculators-equity")
    assert [x for x in page.problems if "HTTP 400" not in x and "status of 400" not in x] == []  # the bad range
