"""Learning from a hand in the browser (Debian's Chromium): a member plays a hand against a bot with the coach on,
reads the coach's panel on their turn, opens the review after the hand, steps through the replayer and downloads
the hand's PHH; then opens their history page. Photographed at 390×844 and 1280×800 (``TP_SHOTS13``, by default
/tmp/shots13); on their turn the board, pot, clock and action buttons stay in view and the coach covers none."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .conftest import SCREENSHOTS
from .test_bots_e2e import check_or_call, my_turn_or_over, settle, wait_state
from .test_tables_e2e import DESKTOP, PHONE, Player, assert_table_in_view_while_acting

SHOTS = Path(os.environ.get("TP_SHOTS13") or SCREENSHOTS / "learning")


def shot(page: Any, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full, animations="disabled")


def coach_clear_of_the_table(page: Any) -> None:
    """The coach panel sits below the action buttons and overlaps neither them nor the table."""
    boxes = page.evaluate("""() => Object.fromEntries(['#coach-panel', '#actions', '#table'].map((s) => {
      const r = document.querySelector(s).getBoundingClientRect(); return [s, {top: r.top, bottom: r.bottom}]; }))""")
    assert boxes["#coach-panel"]["top"] >= boxes["#actions"]["bottom"] - 1, boxes
    assert boxes["#coach-panel"]["top"] >= boxes["#table"]["bottom"] - 1, boxes


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_coach_review_replayer_and_download_of_a_hand_against_a_bot(server: str, browser: Any, size: str) -> None:
    m = Player(browser, server, f"學習者{size}", viewport=PHONE if size == "phone" else DESKTOP)
    try:
        p = m.page
        status, room = m.post("/api/rooms", {"seats": 2, "decks": 2, "bots": 1})
        assert status == 200, room
        code = room["code"]
        m.open(code)
        assert m.state(code)["coach"] is True  # on by default at a table with bots
        p.wait_for_function("document.getElementById('coach-status').textContent.includes('教練：開')")
        coached = False
        for _ in range(12):
            s = wait_state(m.ctx, server, code, my_turn_or_over(1))
            if s["match"]["over"] or s["hand"]["hand_no"] > 1 or s["hand"]["complete"]:
                break
            m.wait_version(s["version"])
            p.wait_for_selector("#actions", state="visible")
            p.wait_for_selector("#coach-panel[data-ready='1']", state="visible", timeout=20_000)
            text = p.inner_text("#coach-panel")
            assert "建議" in text and "勝率" in text and "跟注價格" in text
            settle(p)
            assert_table_in_view_while_acting(p)
            coach_clear_of_the_table(p)
            if not coached or (s["hand"]["board"] and len([c for c in s["hand"]["board"] if c]) == 3):
                shot(p, f"coach-{size}{'-flop' if coached else ''}")
                if coached:  # on the flop: the outs with their formula
                    p.click(".coach-formula summary")
                    assert "O / N" in p.inner_text(".coach-formula")
                    shot(p, f"coach-formula-{size}")
            coached = True
            check_or_call(p)
        assert coached
        s = wait_state(m.ctx, server, code, lambda s: s["hand"]["complete"] or s["hand"]["hand_no"] > 1)
        if s["hand"]["hand_no"] == 1:
            p.wait_for_selector("#review-link", state="visible")
            shot(p, f"hand-over-{size}")
        p.goto(f"{server}/rooms/{code}/hands/1#review")

        # the review: each decision with its equity, price and mark
        p.wait_for_selector("#review[data-ready='1']")
        rows = p.locator("#review-rows tr")
        assert rows.count() >= 1
        assert p.locator("#review-rows .mark").first.inner_text() in ("✓ 好", "？ 可議", "✗ 失誤")
        shot(p, f"review-{size}", full=True)

        # the replayer, street by street: own cards always, the board growing
        p.evaluate("window.scrollTo(0, 0)")
        assert p.get_attribute("#replay", "data-step") == "0"
        assert p.locator("#replay-hole .card").count() == 2 and p.locator("#replay-burn .card").count() == 1
        steps = 1
        while p.is_enabled("#replay-next"):
            before = p.locator("#replay-board .card").count()
            p.click("#replay-next")
            steps += 1
            assert p.get_attribute("#replay", "data-step") == str(steps - 1)
            assert p.locator("#replay-board .card").count() >= before
            if steps == 2:
                shot(p, f"replayer-{size}")
        p.click("#replay-prev")
        assert p.get_attribute("#replay", "data-step") == str(steps - 2)

        # ... and action by action (issue 23): from the start, one action or card at a time, the latest marked
        p.click("#mode-action")
        assert p.get_attribute("#replay", "data-mode") == "action"
        assert p.get_attribute("#mode-action", "aria-pressed") == "true"
        assert "下一步" in p.inner_text("#replay-next")
        while p.is_enabled("#replay-prev"):
            p.click("#replay-prev")
        assert p.get_attribute("#replay", "data-step") == "0" and p.locator("#replay-actions li.latest").count() == 0
        actions, acted = 1, 0
        while p.is_enabled("#replay-next"):
            p.click("#replay-next")
            actions += 1
            assert p.get_attribute("#replay", "data-step") == str(actions - 1)
            assert p.locator("#replay-actions li.latest").count() == 1  # this step's own line
            if p.get_attribute("#replay-actions li.latest", "data-kind"):  # an action: its seat is marked
                assert p.locator("#replay-seats .replay-seat.acting").count() == 1
                acted += 1
                if acted == 2:
                    shot(p, f"replayer-action-{size}")
        assert actions > steps and acted >= 2  # finer than the streets: at least the blinds' answers
        p.click("#mode-street")  # back by street, at the same point of the hand: the last step
        assert p.get_attribute("#replay", "data-step") == str(steps - 1)

        # the PHH download holds the hand
        with p.expect_download() as download:
            p.click("#dl-phh")
        body = Path(download.value.path()).read_text(encoding="utf-8")
        assert 'variant = "NT"' in body and "hand = 1" in body

        # a share link to the public replay
        p.click("#share-btn")
        p.wait_for_selector("#share-out", state="visible")
        url = p.input_value("#share-url")
        assert "/share/" in url

        # the member's history: numbers with their definitions and the chart
        p.goto(f"{server}/history")
        p.wait_for_selector("#mine-list li")
        assert p.locator("#match-chart svg").count() == 1
        shot(p, f"history-{size}", full=True)
        p.goto(url)
        p.wait_for_selector("#replay[data-ready='1']")
        assert p.locator("#replay-hole .card").count() == 0  # a shared hand shows nobody's private cards
        shot(p, f"shared-{size}")
        assert m.errors() == [], m.errors()
    finally:
        m.close()
