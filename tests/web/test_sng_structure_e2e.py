"""A sit-and-go's structure edited in the lobby (issue 46), in the browser (Debian's Chromium) at a phone's width in
both languages: the creator picks a format, the section is filled in from the server's preset and default payouts,
they change the minutes, a level's blinds, the antes, the breaks, the levels themselves and the payouts, and the
table opened has exactly that schedule and those payouts (read back through the API). A big blind below its small
blind and payouts that do not add up to 100 show the localized message next to the field and open nothing; a body
the page would never send (altered on its way) is refused by the server, whose message lands in the section.

Screenshots ``test-output/screenshots/sng-structure-<lang>-<390|1280>[-error].png``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from taiwan_poker.tables.schedules import BASE_LEVELS, DEFAULT_PAYOUTS, PRESET, with_antes

from .conftest import SCREENSHOTS
from .test_tables_e2e import DESKTOP, PHONE, Player, no_raw_keys

WORDS = {
    "zh-TW": {"cell": "第 3 級 大盲", "small": "第 3 級：小盲須至少 1", "sum": "合計須為 100（現在是 90）",
              "rising": "第 2 級：大盲須大於上一級的大盲", "total": "合計 100%", "title": "獎金分配（坐滿 4 人時）"},
    "en": {"cell": "Level 3 big blind", "small": "Level 3: the small blind must be at least 1",
           "sum": "must add up to 100 (now 90)", "rising": "Level 2: the big blind must be higher",
           "total": "Total 100%", "title": "Payouts (a full table of 4)"},
}


def shot(page: Any, name: str) -> None:
    """The create form (the page's sticky header kept out of the way of the picture)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#create-form").screenshot(path=str(SCREENSHOTS / f"{name}.png"), animations="disabled",
                                            style=".site-header { position: static !important; }")


def no_page_scroll(page: Any) -> None:
    """Nothing wider than the screen: the level table scrolls inside its own box."""
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def cell(page: Any, level: int, what: str) -> Any:
    return page.locator("#sng-levels tr").nth(level - 1).locator(f"input[data-what='{what}']")


def posts(page: Any) -> list[dict[str, Any]]:
    """The bodies the page sends to open a table, collected as they go out."""
    sent: list[dict[str, Any]] = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data or "{}"))
            if r.method == "POST" and r.url.endswith("/api/rooms") else None)
    return sent


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_the_creator_edits_a_sit_and_go_structure_and_the_table_has_exactly_it(
        server: str, browser: Any, lang: str) -> None:
    words = WORDS[lang]
    host = Player(browser, server, "結構" if lang == "zh-TW" else "Structure", PHONE)
    try:
        p = host.page
        host.ctx.add_cookies([{"name": "tp_lang", "value": lang, "url": server}])
        sent = posts(p)
        p.goto(f"{server}/lobby")
        p.wait_for_selector(f"html[lang='{lang}'] #create-form")
        assert p.locator("#sng-structure").is_hidden()  # a cash table has no structure
        assert p.locator("#create-stack").is_visible() and p.locator("#create-bb").is_visible()
        p.fill("#create-stack", "1")  # a cash stack that could not be: a sit-and-go does not read it
        p.check("input[name=seats][value='4']")
        p.select_option("#create-format", "regular")
        # the stack and blinds are the structure's: the cash fields go away
        assert p.locator("#create-stack").is_hidden() and p.locator("#create-bb").is_hidden()
        p.click("#sng-structure summary")

        # filled in from the server's preset and default payouts, every input named
        regular = PRESET["regular"].schedule
        assert p.input_value("#sng-minutes") == str(regular.minutes)
        assert p.locator("#sng-levels tr").count() == len(regular.levels)
        assert p.input_value("#sng-ante-from") == "5"
        assert cell(p, 3, "big").get_attribute("aria-label") == words["cell"]
        assert [p.input_value(f"#sng-pay-{i}") for i in range(1, 5)] == ["70", "30", "0", "0"]
        assert words["title"] in (p.text_content("#sng-payouts-title") or "")
        p.check("input[name=seats][value='6']")  # the default follows the seats until the creator changes it
        assert [p.input_value(f"#sng-pay-{i}") for i in range(1, 3)] == [str(x) for x in DEFAULT_PAYOUTS[6]]
        p.check("input[name=seats][value='4']")
        no_page_scroll(p)
        shot(p, f"sng-structure-{lang}-390")

        # a big blind under its small blind: the message by the table, the cell marked, nothing sent
        cell(p, 3, "big").fill("10")
        p.wait_for_selector("#sng-levels-error:not([hidden])")
        assert words["small"] in p.inner_text("#sng-levels-error")
        assert [cell(p, 3, x).get_attribute("aria-invalid") for x in ("small", "big")] == ["true", "true"]
        assert p.is_disabled("#create-room")
        cell(p, 3, "big").press("Enter")
        no_raw_keys(p)
        shot(p, f"sng-structure-{lang}-390-error")

        # the creator's structure: 4-minute levels, level 3 at 25/60, antes from level 3, a 7-minute break every 4
        # levels, the last level taken off and a new one added from the keyboard, and 50/30/20
        cell(p, 3, "big").fill("60")
        p.fill("#sng-minutes", "4")
        p.select_option("#sng-ante-from", "3")
        p.fill("#sng-break-every", "4")
        p.fill("#sng-break-minutes", "7")
        p.locator("#sng-levels tr").last.locator(".sng-remove").click()
        p.focus("#sng-add-level")
        p.keyboard.press("Enter")
        assert p.locator("#sng-levels tr").count() == len(regular.levels)
        for place, value in ((1, "50"), (2, "30"), (3, "10")):
            p.fill(f"#sng-pay-{place}", value)
        p.wait_for_selector("#sng-payouts-error:not([hidden])")
        assert words["sum"] in p.inner_text("#sng-payouts-error") and p.is_disabled("#create-room")
        p.fill("#sng-pay-3", "20")
        assert words["total"] in p.inner_text("#sng-payouts-total")
        p.check("input[name=seats][value='5']")  # typed payouts stay when the seats change
        assert p.input_value("#sng-pay-3") == "20"
        p.check("input[name=seats][value='4']")
        assert p.is_enabled("#create-room") and p.locator("#sng-structure .error:not([hidden])").count() == 0
        assert sent == [], "nothing is sent while the form is wrong"

        blinds = [*BASE_LEVELS[:-1], (15000, 30000)]
        blinds[2] = (25, 60)
        levels = [list(x) for x in with_antes(blinds, 3)]

        # the server is the judge: a body the page would not send (altered on its way) opens nothing, and its
        # message, in the page's language, lands in the section
        def altered(route: Any) -> None:
            body = json.loads(route.request.post_data or "{}")
            body["tournament"]["levels"][1] = [20, 20, 0]
            route.continue_(post_data=json.dumps(body))

        p.route("**/api/rooms", lambda route: altered(route) if route.request.method == "POST" else route.continue_())
        p.click("#create-room")
        p.wait_for_selector("#sng-error:not([hidden])")
        assert words["rising"] in p.inner_text("#sng-error")
        assert host.ctx.request.get(f"{server}/api/rooms").json()["rooms"] == []
        p.unroute("**/api/rooms")
        p.set_viewport_size(DESKTOP)
        no_page_scroll(p)
        shot(p, f"sng-structure-{lang}-1280")
        p.set_viewport_size(PHONE)

        p.fill("#sng-minutes", "5")
        p.fill("#sng-minutes", "4")  # any edit clears the server's message
        assert p.locator("#sng-error").is_hidden()
        p.click("#create-room")
        p.wait_for_url("**/rooms/*")
        body = sent[-1]["tournament"]
        assert body == {"preset": "regular", "minutes": 4, "break_every": 4, "break_minutes": 7, "levels": levels,
                        "payouts": {"4": [50, 30, 20]}}
        code = p.inner_text("#room-code").strip()
        s = host.state(code)
        assert s["stack"] == PRESET["regular"].stack
        assert s["tournament"]["preset"] == "regular"
        assert s["tournament"]["schedule"] == {"levels": levels, "minutes": 4, "break_every": 4, "break_minutes": 7}
        for _ in range(3):  # a full field of 4: the payouts of 400 points are 50/30/20
            assert host.post(f"/api/rooms/{code}/bots", {})[0] == 200
        sng = host.state(code)["tournament"]
        assert sng["field"] == 4 and sng["prize_pool"] == 400 and sng["payouts"] == [200, 120, 80, 0]
        problems = [x for x in host.watch.problems if "page error" in x or "console error" in x]
        assert problems == [] or all("HTTP 400" in x or "status of 400" in x for x in problems), problems
    finally:
        host.close()
