"""A six-player sit-and-go in the browser (Debian's Chromium, a phone's viewport, both languages): a guest starts
it against five bots from the home page with one-minute levels, the level rises on screen when the server's clock
(moved on by the test through ``TP_TEST_CLOCK_FILE``, never by sleeping) passes its deadline, the guest goes
away and is blinded off until busted, and the shareable results page lists every place.

Every wait is for a condition (a selector, the room's state); the clock is the test's to move.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server_process import ServerProcess

from .conftest import PageWatch
from .test_bots_e2e import shot, state
from .test_tables_e2e import PHONE, no_raw_keys


class FakeClock:
    """The server's clock, from a file the server reads at each reading: the real one plus the seconds written, or
    (``stopped``) a clock that moves only when the test moves it (nothing on the table's clock, such as the next
    hand's deal, happens behind a slow test's back)."""

    def __init__(self, path: Path, stopped: bool = False) -> None:
        self.path = path
        self.origin = time.time() if stopped else None
        self.ahead = 0.0
        self._write()

    def _write(self) -> None:
        self.path.write_text(str(self.ahead) if self.origin is None else f"@{self.origin + self.ahead}")

    def advance(self, seconds: float) -> None:
        self.ahead += seconds
        self._write()


@pytest.fixture(scope="module")
def clocked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, FakeClock]]:
    tmp = tmp_path_factory.mktemp("sng-server")
    clock = FakeClock(tmp / "clock")
    process = ServerProcess(tmp / "data", tmp / "server.log",
                            env={"TP_TEST_CLOCK_FILE": str(clock.path), "TP_BOT_PAUSE_SECONDS": "0,0"})
    yield process.start(timeout=180), clock
    process.stop()


def until(ready: Any, what: str, timeout: float = 60, step: Any = None) -> Any:
    """Poll ``ready()`` until it gives something true (``step()`` between tries, e.g. moving the clock on)."""
    deadline = time.monotonic() + timeout
    while not (value := ready()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        if step is not None:
            step()
        time.sleep(0.1)
    return value


def test_a_guest_plays_a_six_player_sit_and_go_on_a_phone_and_shares_the_results(
        clocked: tuple[str, FakeClock], browser: Any) -> None:
    server, clock = clocked
    ctx = browser.new_context(viewport=PHONE, locale="zh-TW", bypass_csp=True)  # see conftest.context
    try:
        watch = PageWatch(ctx.new_page())
        p = watch.page
        p.set_default_timeout(20_000)
        p.goto(f"{server}/")
        p.wait_for_selector("#solo-form")
        p.check("input[name=solo-seats][value='6']")
        p.check("input[name=solo-format][value='turbo']")
        p.check("input[name=solo-level][value='beginner']")

        def one_minute_levels(route: Any) -> None:  # the form's preset, with levels of a minute for the test
            body = json.loads(route.request.post_data or "{}")
            assert body["tournament"] == {"preset": "turbo"} and body["bots"] == 5 and body["seats"] == 6
            body["tournament"]["minutes"] = 1
            route.continue_(post_data=json.dumps(body))

        p.route("**/api/rooms", lambda route: one_minute_levels(route) if route.request.method == "POST"
                else route.continue_())
        p.click("#solo-start")
        p.wait_for_url("**/rooms/*")
        code = p.inner_text("#room-code").strip()
        p.wait_for_selector("#room[data-status='playing']")

        # level 1 on screen in zh-TW, then the server's clock passes its deadline and level 2 shows
        p.wait_for_selector("#sng-bar[data-level='1']")
        assert "第 1 級" in p.inner_text("#sng-level") and "下一級" in p.inner_text("#sng-next")
        assert "剩" in p.inner_text("#sng-left")
        shot(p, "sng-level1-zh-phone")
        clock.advance(60)
        p.wait_for_selector("#sng-bar[data-level='2']")
        assert "15/30" in p.inner_text("#sng-level")
        shot(p, "sng-level2-zh-phone")
        no_raw_keys(p)

        # English: the same bar in the other language
        p.click(".lang-switch")
        p.wait_for_selector("html[lang='en'] #sng-bar[data-level='2']")
        assert "Level 2" in p.inner_text("#sng-level") and "left" in p.inner_text("#sng-left")
        shot(p, "sng-level2-en-phone")
        no_raw_keys(p)

        # the guest goes away: blinded off, never removed, as the levels rise on the moved clock
        p.wait_for_selector("#away-btn:not([hidden])")
        p.click("#away-btn")
        me = until(lambda: (s := state(ctx, server, code))["you"] is not None and s, "the guest's seat")["you"]
        until(lambda: any(pl["seat"] == me and pl["away"] for pl in state(ctx, server, code)["players"]), "away")

        def busted() -> bool:
            results = ctx.request.get(f"{server}/api/rooms/{code}/results").json()
            return any(x["place"] is not None and x["seat"] == me for x in results["places"])

        until(busted, "the guest to bust", timeout=120, step=lambda: clock.advance(20))
        s = state(ctx, server, code)
        assert s["players"][0]["left"] is False and any(pl["seat"] == me for pl in s["players"]), "never removed"

        def finished() -> dict[str, Any] | None:
            results: dict[str, Any] = ctx.request.get(f"{server}/api/rooms/{code}/results").json()
            return results if results["finished"] else None

        results = until(finished, "the bots to play it out", timeout=120, step=lambda: clock.advance(20))
        assert sorted(x["place"] for x in results["places"])[0] == 1 and len(results["places"]) == 6
        assert sum(x["payout"] for x in results["places"]) == results["prize_pool"] == 600

        # the results page, shareable, in both languages
        for lang, title in (("en", "Tournament results"), ("zh-TW", "錦標賽結果")):
            if lang == "zh-TW":
                p.click(".lang-switch")
                p.wait_for_selector("html[lang='zh-TW']")
            p.goto(f"{server}/rooms/{code}/results")
            p.wait_for_selector("#results-table")
            assert title in p.inner_text("h1")
            assert p.locator("#results-table tbody tr").count() == 6
            assert p.locator("#results-table tbody tr[data-place='1']").count() >= 1
            shot(p, f"sng-results-{lang}-phone", full=True)
            no_raw_keys(p)
        problems = [x for x in watch.problems if "page error" in x or "console error" in x]
        assert problems == []
    finally:
        ctx.close()


def test_members_register_for_a_sit_and_go_from_the_lobby_and_the_creator_starts_it(
        clocked: tuple[str, FakeClock], browser: Any) -> None:
    from .test_tables_e2e import Player

    server, _ = clocked
    host, friend = Player(browser, server, "阿明", PHONE), Player(browser, server, "小華", PHONE)
    try:
        p = host.page
        p.goto(f"{server}/lobby")
        p.wait_for_selector("#create-form")
        p.check("input[name=seats][value='4']")
        p.select_option("#create-format", "turbo")
        with p.expect_request(lambda r: r.url.endswith("/api/rooms") and r.method == "POST") as req:
            p.click("#create-room")
        body = req.value.post_data_json
        assert body["tournament"] == {"preset": "turbo"} and "stack" not in body and "blinds" not in body
        p.wait_for_url("**/rooms/*")
        code = p.inner_text("#room-code").strip()
        p.wait_for_selector("#sng-bar[data-level='1']")
        assert host.state(code)["stack"] == 1500
        status, _ = friend.post(f"/api/rooms/{code}/join")  # registers by sitting down
        assert status == 200
        p.wait_for_selector("#deal-btn:not([hidden])")
        p.click("#deal-btn")  # the creator starts it with two of four seats taken
        p.wait_for_selector("#room[data-status='playing']")
        s = host.state(code)
        assert s["tournament"]["begun"] and s["tournament"]["field"] == 2 and s["tournament"]["prize_pool"] == 200
        status, _ = friend.post(f"/api/rooms/{code}/leave")  # leaving a running sit-and-go: away, not gone
        assert status == 200
        assert any(pl["name"] == "小華" and pl["away"] and not pl["left"] for pl in host.state(code)["players"])
    finally:
        host.close()
        friend.close()
