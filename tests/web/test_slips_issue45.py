"""The small slips of issue 45 (finding 11), each checked in Debian's Chromium.

* The outs calculator gives "at least one of the next two cards" only while two cards are to come: not on a
  four-card board (the turn's river is the next card, and the only one).
* The preflop heat map fits a 360-px phone: no column cut off, no percent wider than its cell.
* During a run-it-twice or show-or-muck choice the table says once what it waits for, and the seconds once: for
  the player asked, the one who has answered and the one not asked.
* "(spectators read it too)" is said once above the chat, not on every line.
* Your own seat keeps the felt's width on a phone whatever it holds: between hands, waiting for another player's
  choice, as while you act (it shrank to its content and moved right).
* The private burn's label sits inside its box, clear of the dashed border, at 360 and 390 px.

The room's states come from ``room_states.reach_states`` (a heads-up member table), each page drawn from its
reader's copy of the state; screenshots ``test-output/screenshots/slips45-*.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import SCREENSHOTS
from .room_states import RoomState, Table, reach_states
from .test_page_slips import new_context, shot
from .test_table_layout import settle

LANGS = ("zh-TW", "en")
PHONES = ({"width": 360, "height": 640}, {"width": 390, "height": 844})


def shot_path(name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"


@pytest.fixture(scope="module")
def room(browser: Any, server: str) -> Iterator[dict[str, RoomState]]:
    t = Table(browser, server)
    try:
        yield reach_states(t)
    finally:
        t.close()


def look(state: RoomState, lang: str, size: dict[str, int]) -> Any:
    page = state.member.page
    page.set_viewport_size(size)
    state.member.open_room(lang, state.frozen, state.coach)
    if state.prepare is not None:
        state.prepare(page)
    settle(page)
    return page


@pytest.mark.parametrize("lang", LANGS)
def test_the_outs_calculator_says_next_two_cards_only_while_two_are_to_come(browser: Any, server: str,
                                                                             lang: str) -> None:
    ctx = new_context(browser, server, lang, {"width": 1280, "height": 800})
    try:
        p = ctx.new_page()
        p.goto(f"{server}/calculators")
        p.wait_for_selector("#picker button")
        p.click("#outs-example")  # A♥ Q♥ on J♥ 8♥ 4♠ 2♦: the river is the only card to come
        p.wait_for_function("document.getElementById('outs-next').textContent === '22.45%'")
        assert p.is_visible("#outs-next") and p.is_hidden("#outs-two-box")
        words = "接下來兩張" if lang == "zh-TW" else "next two"
        assert words not in p.inner_text("#outs .result"), "a four-card board has one card to come"
        shot(p, f"slips45-outs-turn-{lang}")
        p.click("#outs-clear")
        for face in ("Ah", "Qh", "Jh", "8h", "4s"):  # the hole cards, then the flop
            p.click(f".pick[data-face='{face}']")
        p.wait_for_function("document.querySelectorAll('#picked-board .card').length === 3")
        p.wait_for_selector("#outs-two-box", state="visible")
        assert words in p.inner_text("#outs-two-box")
        p.click(".pick[data-face='2d']")  # the turn
        p.wait_for_selector("#outs-two-box", state="hidden")
    finally:
        ctx.close()


def test_the_preflop_heat_map_fits_a_phone(browser: Any, server: str) -> None:
    for lang in LANGS:
        ctx = new_context(browser, server, lang)
        try:
            p = ctx.new_page()
            p.goto(f"{server}/odds")
            p.wait_for_selector("table.heat")
            settle(p)
            fit = p.evaluate("""() => {
              const box = document.querySelector('.heat-scroll'), table = box.querySelector('table');
              const cut = [...table.querySelectorAll('td, th')].filter((c) => c.scrollWidth > c.clientWidth + 1)
                .map((c) => c.textContent);
              return {scroll: box.scrollWidth, width: box.clientWidth, right: table.getBoundingClientRect().right,
                      view: innerWidth, cut};
            }""")
            assert fit["scroll"] <= fit["width"] + 1 and fit["right"] <= fit["view"], fit
            assert fit["cut"] == [], fit["cut"]
            p.locator("#heat").screenshot(path=str(shot_path(f"slips45-heat-{lang}-360")))
        finally:
            ctx.close()


# the lines under the board and in the choice bar a reader sees (not those left to screen readers)
SEEN_LINES = """() => ['#hand-message', '#clock-text', '#choice-text', '#choice-left'].map((sel) => {
  const e = document.getElementById(sel.slice(1));
  const r = e.getBoundingClientRect();
  return e.getClientRects().length && r.width > 2 && r.height > 2 && getComputedStyle(e).visibility !== 'hidden'
    ? e.textContent.trim() : '';
}).filter(Boolean)"""
WAITING = re.compile(r"等待|[Ww]aiting")
SECONDS = re.compile(r"\d+\s*(秒|s\b)")


@pytest.mark.parametrize("lang", LANGS)
def test_a_choice_is_waited_for_in_one_line(room: dict[str, RoomState], lang: str) -> None:
    for name in ("room-show-choice", "room-show-waiting", "room-runs-choice", "room-runs-answered"):
        for size in (PHONES[0], {"width": 1280, "height": 800}):
            page = look(room[name], lang, size)
            lines = page.evaluate(SEEN_LINES)
            waiting = [x for x in lines if WAITING.search(x)]
            seconds = [x for x in lines if SECONDS.search(x)]
            assert len(waiting) <= 1 and len(seconds) == 1, (name, size, lines)
            if name in ("room-show-waiting", "room-runs-answered"):
                assert len(waiting) == 1, (name, size, lines)
            shot(page, f"slips45-{name}-{lang}-{size['width']}")


@pytest.mark.parametrize("lang", LANGS)
def test_the_spectators_note_is_said_once_above_the_chat(room: dict[str, RoomState], lang: str) -> None:
    page = look(room["room-chat"], lang, {"width": 1280, "height": 800})
    page.wait_for_selector("#chat-list .chat-line >> nth=2")
    words = "觀眾也看得到" if lang == "zh-TW" else "pectators read"
    assert page.inner_text("#chat-panel").count(words) == 1, page.inner_text("#chat-panel")
    assert page.locator("#chat-list .chat-line").count() == 3


SEAT = """() => { const r = document.querySelector('#ring-bottom .seat-box').getBoundingClientRect();
  return [Math.round(r.left), Math.round(r.right)]; }"""


def test_your_seat_keeps_the_felts_width_on_a_phone(room: dict[str, RoomState]) -> None:
    for size in PHONES:
        acting = look(room["room-playing"], "zh-TW", size).evaluate(SEAT)
        for name in ("room-waiting", "room-between-hands", "room-show-waiting"):
            page = look(room[name], "zh-TW", size)
            assert page.evaluate(SEAT) == acting, (name, size, page.evaluate(SEAT), acting)
            shot(page, f"slips45-seat-{name}-{size['width']}")


BURN = """() => {
  const box = document.getElementById('my-burn-box'), label = document.getElementById('burn-label');
  const b = box.getBoundingClientRect(), l = label.getBoundingClientRect(), cs = getComputedStyle(box);
  const card = box.querySelector('.card').getBoundingClientRect();
  return {gap: l.top - (b.top + parseFloat(cs.borderTopWidth)), under: card.top - l.bottom,
          left: l.left - (b.left + parseFloat(cs.borderLeftWidth)),
          right: b.right - parseFloat(cs.borderRightWidth) - l.right};
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_private_burn_label_sits_inside_its_box(room: dict[str, RoomState], lang: str) -> None:
    for size in PHONES:
        page = look(room["room-playing"], lang, size)
        where = page.evaluate(BURN)
        assert where["gap"] >= 3 and where["under"] >= 0 and where["left"] >= 0 and where["right"] >= 0, (size, where)
        page.locator("#ring-bottom").screenshot(path=str(shot_path(f"slips45-burn-{lang}-{size['width']}")))
