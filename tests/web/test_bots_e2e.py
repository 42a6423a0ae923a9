"""Bot opponents in the browser (Debian's Chromium): one-click solo tables and the creator's bot controls.

A member starts a 3-seat table against beginner bots from the lobby and plays a whole hand with the action
buttons while the bots act by themselves (the test server gives them no pause); a visitor who is not signed in
starts a heads-up game from the home page as a guest; the creator of a 4-seat table adds a bot and removes it
before the first hand. The solo form and the solo table are photographed at 390×844 and 1280×800 in both
languages (``TP_SHOTS`` names the folder; by default the other browser tests' screenshots folder), and at each
size the board, pot, clock and action buttons are in view, uncovered, while it is the player's turn.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from .conftest import SCREENSHOTS, PageWatch
from .test_tables_e2e import DESKTOP, PHONE, Player, assert_table_in_view_while_acting, no_raw_keys

SHOTS = Path(os.environ.get("TP_SHOTS") or SCREENSHOTS)
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def shot(page: Any, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full, animations="disabled")


def settle(page: Any) -> None:
    """Two animation frames: the page has drawn (and scrolled) for what it last received."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def state(ctx: Any, base: str, code: str) -> dict[str, Any]:
    data: dict[str, Any] = ctx.request.get(f"{base}/api/rooms/{code}", max_retries=2).json()
    return data


def wait_state(ctx: Any, base: str, code: str, ready: Any, timeout: float = 20) -> dict[str, Any]:
    """The room state once ``ready(state)`` holds (the bots act on the server meanwhile)."""
    deadline = time.monotonic() + timeout
    while not ready(s := state(ctx, base, code)):
        assert time.monotonic() < deadline, s
        time.sleep(0.05)
    return s


def my_turn_or_over(hand_no: int) -> Any:
    def ready(s: dict[str, Any]) -> bool:
        hand = s["hand"]
        return s["match"]["over"] or hand["hand_no"] > hand_no or hand["complete"] or hand["to_act"] == s["you"]
    return ready


def press(page: Any, selector: str) -> None:
    before = int(page.get_attribute("#room", "data-version") or -1)
    page.click(f"{selector}:not([disabled])")
    page.wait_for_function(f"Number(document.getElementById('room').dataset.version) > {before}")


def check_or_call(page: Any) -> None:
    """The cheapest way to stay in the hand: check when free, else call (all-in when that is all there is)."""
    page.wait_for_selector("#actions", state="visible")
    for sel in ("#act-check", "#act-call", "#act-allin"):
        if page.is_visible(sel):
            press(page, sel)
            return
    raise AssertionError("no check, call or all-in on offer")


def wait_page_version(page: Any, version: int) -> None:
    page.wait_for_function(f"Number(document.getElementById('room').dataset.version) >= {version}")


def test_a_member_plays_a_solo_table_from_the_lobby(server: str, browser: Any) -> None:
    m = Player(browser, server, "阿傑")
    try:
        p = m.page
        p.goto(f"{server}/lobby")
        p.wait_for_function("document.getElementById('lobby-hello').textContent.includes('阿傑')")
        form = p.locator("#solo-form")
        assert "與電腦對戰" in form.inner_text() and "新手（鬆散被動）" in form.inner_text()
        assert p.is_checked("input[name=solo-seats][value='2']")
        assert p.is_checked("input[name=solo-level][value='solid']")
        assert p.locator("#solo-guest").count() == 0  # the lobby is for members: no guest note
        p.check("input[name=solo-seats][value='3']")
        p.check("input[name=solo-level][value='beginner']")
        form.scroll_into_view_if_needed()
        shot(p, "bots-lobby-form-zh-desktop")

        with p.expect_request(lambda r: r.url.endswith("/api/rooms") and r.method == "POST") as req:
            p.click("#solo-start")
        assert req.value.post_data_json == {"seats": 3, "decks": 2, "bots": 2, "level": "beginner"}
        p.wait_for_url("**/rooms/*")
        code = p.inner_text("#room-code").strip()
        p.wait_for_selector("#room[data-status='playing']")  # the full table dealt its first hand at once
        s = m.state(code)
        assert [(x["name"], x["bot"], x["level"]) for x in s["players"]] == [
            ("阿傑", False, None), ("Bot 2", True, "beginner"), ("Bot 3", True, "beginner")]
        # the bots wear a badge with their level; the player's own seat does not
        badges = p.locator(".seat-box.bot .tag.bot")
        assert badges.count() == 2
        assert all(t == "🤖 新手（鬆散被動）" for t in badges.all_inner_texts())
        assert p.locator(".seat-box.mine .tag.bot").count() == 0
        assert p.inner_text("#seat-1 .avatar") == "🤖"

        # the first hand, to its end: the player presses the buttons, the bots answer by themselves
        pressed = 0
        shots_taken = False
        while True:
            s = wait_state(m.ctx, server, code, my_turn_or_over(1))
            if s["match"]["over"] or s["hand"]["hand_no"] > 1 or s["hand"]["complete"]:
                break
            m.wait_version(s["version"])
            # mid-hand nobody may seat or remove a bot
            assert p.is_hidden("#bot-box") and p.locator(".bot-remove:visible").count() == 0
            if not shots_taken:
                shots_taken = True
                photograph_the_turn(m, code)
            check_or_call(p)
            pressed += 1
        assert pressed >= 1
        s = state(m.ctx, server, code)
        assert s["hand"]["hand_no"] > 1 or s["hand"]["complete"] or s["match"]["over"]
        assert m.errors() == [], m.errors()
    finally:
        m.close()


def photograph_the_turn(m: Player, code: str) -> None:
    """The player's turn at 1280×800 and 390×844, in zh-TW and then English: the table in view, nothing covered."""
    p = m.page
    for lang in ("zh", "en"):
        if lang == "en":
            p.click(".lang-switch")
            p.wait_for_selector("html[lang='en'] #room[data-version]")
        for size, viewport in SIZES.items():
            p.set_viewport_size(viewport)
            m.open(code)  # opened at this size: the page scrolls itself to the action bar
            p.wait_for_selector("#actions", state="visible")
            settle(p)
            assert_table_in_view_while_acting(p)
            no_raw_keys(p)
            # the level's name in the reader's language; a phone's small seats drop the style in brackets
            badge = {("zh", "desktop"): "🤖 新手（鬆散被動）", ("zh", "phone"): "🤖 新手",
                     ("en", "desktop"): "🤖 Beginner (loose-passive)", ("en", "phone"): "🤖 Beginner"}[lang, size]
            assert p.locator(".seat-box.bot .tag.bot").all_inner_texts() == [badge, badge]
            shot(p, f"bots-solo-table-{lang}-{size}")
    p.click(".lang-switch")  # back to zh-TW, at the desktop size
    p.wait_for_selector("html[lang='zh-TW'] #room[data-version]")
    p.set_viewport_size(DESKTOP)
    m.open(code)
    p.wait_for_selector("#actions", state="visible")


def test_a_visitor_plays_heads_up_against_a_bot_as_a_guest(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=PHONE, locale="zh-TW", bypass_csp=True)  # see conftest.context
    try:
        watch = PageWatch(ctx.new_page())
        p = watch.page
        p.set_default_timeout(15_000)
        p.goto(f"{server}/")
        p.wait_for_selector("#solo-form")
        assert p.is_visible("#solo-guest") and "訪客只能與電腦對戰" in p.inner_text("#solo-guest")
        assert p.get_attribute("#solo-guest a", "href") == "/signin?next=/lobby"
        for lang in ("zh", "en"):
            if lang == "en":
                p.click(".lang-switch")
                p.wait_for_selector("html[lang='en'] #solo-form")
                assert "guests play against bots only" in p.inner_text("#solo-guest")
            for size, viewport in SIZES.items():
                p.set_viewport_size(viewport)
                p.locator("#solo-form").scroll_into_view_if_needed()
                shot(p, f"bots-home-form-{lang}-{size}")
            no_raw_keys(p)
        p.click(".lang-switch")
        p.wait_for_selector("html[lang='zh-TW'] #solo-form")
        p.set_viewport_size(PHONE)

        # defaults: heads-up, solid, 2 decks; the click signs in as a guest, then opens the table
        assert p.is_checked("input[name=solo-seats][value='2']") and p.is_checked("input[name=solo-decks][value='2']")
        with p.expect_request(lambda r: r.url.endswith("/api/rooms") and r.method == "POST") as req:
            p.click("#solo-start")
        assert req.value.post_data_json == {"seats": 2, "decks": 2, "bots": 1, "level": "solid"}
        assert req.value.headers.get("x-csrf-token")
        p.wait_for_url("**/rooms/*")
        me = ctx.request.get(f"{server}/api/me").json()
        assert me["member"]["guest"] is True
        code = p.inner_text("#room-code").strip()
        p.wait_for_selector("#room[data-status='playing']")
        assert p.locator(".seat-box.bot .tag.bot").inner_text() == "🤖 穩健"  # a phone: the name without its style
        assert p.get_attribute(".seat-box.bot .tag.bot", "title") == "電腦玩家，程度：穩健（緊凶）"

        # the guest acts with the buttons; the bot answers by itself
        s = wait_state(ctx, server, code, my_turn_or_over(1))
        assert s["hand"]["to_act"] == s["you"], "heads-up, one of the first two decisions of a hand is the guest's"
        wait_page_version(p, s["version"])
        p.wait_for_selector("#actions", state="visible")
        settle(p)
        assert_table_in_view_while_acting(p)
        check_or_call(p)
        wait_state(ctx, server, code, lambda x: x["version"] > s["version"])
        # a guest may not join another member's table
        host = Player(browser, server, "Host")
        try:
            status, created = host.post("/api/rooms", {"seats": 3})
            assert status == 200
            token = next(c["value"] for c in ctx.cookies() if c["name"] == "tp_csrf")
            r = ctx.request.post(f"{server}/api/rooms/{created['code']}/join", headers={"X-CSRF-Token": token})
            assert r.status == 403 and r.json()["error"]["code"] == "guest_not_allowed"
            assert "訪客" in r.json()["error"]["message"]
        finally:
            host.close()
        problems = [x for x in watch.problems if "page error" in x or "console error" in x]
        assert problems == [], problems
    finally:
        ctx.close()


def test_the_creator_adds_a_bot_and_removes_it_before_the_first_hand(server: str, browser: Any) -> None:
    a, b = Player(browser, server, "小美"), Player(browser, server, "Ben")
    try:
        status, created = a.post("/api/rooms", {"seats": 4, "decks": 3})
        assert status == 200
        code = created["code"]
        a.open(code)
        p = a.page
        p.wait_for_selector("#bot-box", state="visible")
        assert p.is_hidden("#deal-btn")  # alone at the table: nothing to deal yet
        # another member watching sees no bot controls
        b.open(code)
        assert b.page.is_hidden("#bot-box")

        p.select_option("#bot-level", "strong")
        with p.expect_request(lambda r: r.url.endswith(f"/api/rooms/{code}/bots") and r.method == "POST") as req:
            p.click("#bot-add")
        assert req.value.post_data_json == {"level": "strong"}
        p.wait_for_selector(".seat-box.bot .tag.bot")
        s = a.state(code)
        bot = next(x for x in s["players"] if x["bot"])
        assert bot["level"] == "strong" and s["status"] == "waiting" and s["match"] is None
        box = f"#seat-{bot['seat']}"
        # a 4-seat table's seats are small: the level's name without its style, which the title gives in full
        assert p.inner_text(f"{box} .tag.bot") == "🤖 高手"
        assert p.get_attribute(f"{box} .tag.bot", "title") == "電腦玩家，程度：高手（均衡策略、依下注大小讀牌）"
        p.wait_for_selector("#deal-btn", state="visible")  # two seated: the creator may deal
        assert p.is_visible("#bot-box")  # two seats are still free
        # the spectator sees the bot too, without a remove button
        b.wait_version(s["version"])
        assert b.page.locator(f"{box} .tag.bot").count() == 1 and b.page.is_hidden(f"{box} .bot-remove")
        shot(p, "bots-add-desktop")
        p.set_viewport_size(PHONE)
        shot(p, "bots-add-phone", full=True)
        p.set_viewport_size(DESKTOP)

        p.click(f"{box} .bot-remove")
        p.wait_for_selector(".seat-box.bot", state="detached")
        s = a.state(code)
        assert [x["name"] for x in s["players"] if not x["left"]] == ["小美"]
        assert p.is_hidden("#deal-btn") and p.is_visible("#bot-box")
        assert p.is_hidden("#room-error")
        # removing a seat that holds no bot: the server's reason, in the reader's language
        r = a.ctx.request.delete(f"{a.base}/api/rooms/{code}/bots/{bot['seat']}", headers={"X-CSRF-Token": a.csrf()})
        assert r.status == 409 and r.json()["error"]["code"] == "no_bot"
        assert r.json()["error"]["message"] == "這個座位沒有電腦玩家。"
        assert a.errors() == [] and b.errors() == []
    finally:
        a.close()
        b.close()
