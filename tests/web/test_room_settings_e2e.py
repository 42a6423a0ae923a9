"""The creator changes a table's settings on the room page before the first hand (Debian's Chromium).

The creator of a 3-seat table opens "table settings" (collapsed by default, prefilled from the room state), makes
it 4 seats, 3 decks, a 3,000 stack and blinds 25/50, and the page shows them; a stack under 10 big blinds is
refused with the lobby's reason, and fewer seats than players seated with the server's. Another member sees the
settings read-only and no form, and once the creator deals the first hand the form is gone. Screenshots at
390×844 and 1280×800 go to /tmp/shots_settings/ (the form must fit a phone).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .test_tables_e2e import DESKTOP, PHONE, Player, no_raw_keys

SHOTS = Path("/tmp/shots_settings")


def shot(page: Any, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full, animations="disabled")


def fits_width(page: Any) -> None:
    """Nothing of the page (the settings form above all) is wider than the viewport."""
    over = page.evaluate("""() => {
      const w = document.documentElement.clientWidth;
      const wide = [...document.querySelectorAll('#settings-box, #settings-box *')]
        .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > w + 1)
        .map((e) => e.id || e.className || e.tagName);
      return {scroll: document.documentElement.scrollWidth, width: w, wide};
    }""")
    assert over["scroll"] <= over["width"] + 1 and over["wide"] == [], over


def test_creator_changes_settings_until_the_first_hand(server: str, browser: Any) -> None:
    people = (("阿明", DESKTOP), ("Beth", PHONE), ("小華", DESKTOP))
    a, b, c = (Player(browser, server, n, viewport=v) for n, v in people)
    try:
        status, made = a.post("/api/rooms", {"seats": 3})
        assert status == 200, made
        code = made["code"]
        a.open(code)
        page = a.page
        page.wait_for_selector("#settings-box", state="visible")
        assert page.get_attribute("#settings-box", "open") is None  # collapsed until asked for
        shot(page, "collapsed-desktop", full=False)
        page.click("#settings-box summary")
        # prefilled with the table's current settings
        assert page.is_checked("#settings-seats input[value='3']")
        assert page.is_checked("#settings-decks input[value='2']")
        assert page.input_value("#settings-stack") == "2000"
        assert (page.input_value("#settings-sb"), page.input_value("#settings-bb")) == ("10", "20")
        assert "100 至 1,000,000" in page.inner_text("#settings-stack-hint")
        no_raw_keys(page)

        # a stack under 10 big blinds: the lobby's reason, and nothing is sent
        page.check("#settings-seats input[value='4']")
        page.check("#settings-decks input[value='3']")
        page.fill("#settings-sb", "25")
        page.fill("#settings-bb", "50")
        page.fill("#settings-stack", "400")
        assert "至少要 10 個大盲（500）" in page.inner_text("#settings-error")
        assert page.is_disabled("#settings-save")
        assert page.get_attribute("#settings-stack", "aria-invalid") == "true"
        shot(page, "refused-desktop", full=False)

        page.fill("#settings-stack", "3000")
        assert page.is_hidden("#settings-error")
        before = a.version()
        page.click("#settings-save:not([disabled])")
        a.wait_version(before + 1)
        page.wait_for_function("document.getElementById('room-rules').textContent.includes('3,000')")
        rules = page.inner_text("#room-rules")
        assert all(x in rules for x in ("4 人桌", "3 副牌", "盲注 25 / 50", "起始 3,000")), rules
        # the new rules may come over the socket before the save's own answer, which writes the status
        page.wait_for_function("document.getElementById('settings-status').textContent.includes('已儲存')")
        s = a.state(code)
        assert (s["seats"], s["decks"], s["stack"], s["blinds"]) == (4, 3, 3000, [25, 50])
        assert len(page.query_selector_all("#table .seat-box")) == 4
        # the form shows the saved settings
        assert page.is_checked("#settings-seats input[value='4']")
        assert page.is_checked("#settings-decks input[value='3']")
        assert page.input_value("#settings-stack") == "3000"

        # two more members sit down (3 of 4: nothing is dealt yet); the second sees the settings read-only
        for m in (b, c):
            status, res = m.post(f"/api/rooms/{code}/join", {})
            assert status == 200, res
        b.open(code)
        b.page.wait_for_function("document.getElementById('room-rules').textContent.includes('3,000')")
        assert "4 人桌" in b.page.inner_text("#room-rules")
        assert b.page.is_hidden("#settings-box")
        assert b.page.query_selector("#settings-box[hidden]") is not None
        shot(b.page, "member-phone")

        # fewer seats than players seated: the server says no, in the reader's language, next to the form
        page.wait_for_function("document.querySelectorAll('#table .seat-box:not(.empty)').length === 3")
        page.check("#settings-seats input[value='2']")
        page.click("#settings-save:not([disabled])")
        page.wait_for_selector("#settings-error", state="visible")
        refusal = page.inner_text("#settings-error")
        assert "已有玩家坐在第 3 個座位，座位數至少要 3。" in refusal, refusal
        assert a.state(code)["seats"] == 4
        assert page.is_visible("#settings-form")
        shot(page, "server-refused-desktop", full=False)
        page.check("#settings-seats input[value='4']")

        # the form fits a phone, opened, and the desktop
        shot(page, "creator-desktop")
        page.set_viewport_size(PHONE)
        page.locator("#settings-box").scroll_into_view_if_needed()
        fits_width(page)
        shot(page, "creator-phone")
        page.locator("#settings-box").screenshot(path=str(SHOTS / "form-phone.png"))
        page.set_viewport_size(DESKTOP)

        # the creator deals the first hand: the settings are fixed and the form is gone
        page.click("#deal-btn:not([disabled])")
        page.wait_for_function("document.getElementById('room').dataset.status === 'playing'")
        page.wait_for_selector("#settings-box", state="hidden")
        assert a.state(code)["hand"] is not None
        status, res = a.post(f"/api/rooms/{code}/settings", {"decks": 2, "seats": 4, "stack": 2000, "blinds": [10, 20]})
        assert status == 409 and res["error"]["code"] == "table_started", res
        shot(page, "after-deal-desktop", full=False)
        # the only console error is the refused request's 400 (the seats the server said no to)
        for m in (a, b):
            errors = [x for x in m.errors() if "status of 400" not in x]
            assert errors == [], m.watch.problems
    finally:
        for m in (a, b, c):
            m.close()
