"""Provable fairness at a real table, in Chromium on a phone (issue 47): the page sends this browser's seed, which
goes into the next hand's shoe; once a hand is over the page checks the player's own cards against the shoe
committed before the deal and says "verified"; a changed card is shown as a failure; after the match the page
recomputes every hand's shoe from the revealed seeds. Both languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from taiwan_poker.cli import app as cli
from tests.web.conftest import screenshot
from tests.web.test_match_end_e2e import _post
from tests.web.test_members_e2e import Member

PHONE = {"width": 390, "height": 844}


def _until(m: Member, code: str, ready: Any, what: str) -> dict[str, Any]:
    """The room state once ``ready(state)`` holds (the bot and the server's timer move meanwhile)."""
    for _ in range(300):
        s = m.state(code)
        if ready(s):
            return s
        m.page.wait_for_timeout(100)
    raise AssertionError(f"never: {what}")


def _fold_when_asked(m: Member, code: str, s: dict[str, Any]) -> None:
    hand = s["hand"]
    if hand and not hand["complete"] and hand["to_act"] == s["you"]:
        legal = hand["legal"]["actions"]
        _post(m, f"/api/rooms/{code}/actions",
              {"version": s["version"], "action": {"kind": "check" if "check" in legal else "fold"}})


def test_a_player_on_a_phone_sees_their_cards_verified_and_after_the_match_the_whole_match(
        server: str, browser: Any, tmp_path: Path) -> None:
    me = Member(browser, server, "Fay 驗")
    try:
        me.sign_in()
        me.page.set_viewport_size(PHONE)
        code = _post(me, "/api/rooms", {"seats": 2, "decks": 3, "bots": 1, "level": "beginner"})["code"]
        me.page.goto(f"{server}/rooms/{code}")
        me.page.wait_for_selector("#room[data-status='playing']")
        s = _until(me, code, lambda s: s["seed_sent"], "the page sent this browser's seed for hand 2")
        seat = s["you"]
        # play hand 1 out; the page checks it once it is over
        s = _until(me, code, lambda s: (_fold_when_asked(me, code, s), s["hand"]["hand_no"] >= 2)[1],
                   "hand 2 dealt")
        me.page.wait_for_selector("#fair-link[data-ok='1']")
        assert (me.page.text_content("#fair-link") or "").strip() == "✓ 已驗證"
        me.page.click("#fair-link")
        me.page.wait_for_selector("#fair-result[data-ok='1']")
        assert "第 1 手" in (me.page.text_content("#fair-result") or "")
        screenshot(me.page, "fairness-verified-zh-phone")
        # hand 2's shoe took this browser's seed
        s = _until(me, code, lambda s: (_fold_when_asked(me, code, s), s["hand"]["complete"])[1], "hand 2 over")
        record = me.api(f"/api/rooms/{code}/hands/2.json")["fairness"]
        assert str(seat) in record["player_seeds"] and "server_seed" not in record
        # the match ends between hands: pause, play out what is dealt, end
        _post(me, f"/api/rooms/{code}/pause", {})
        _until(me, code, lambda s: (_fold_when_asked(me, code, s), s["hand"]["complete"])[1], "no hand running")
        assert _post(me, f"/api/rooms/{code}/end", {})["match"]["over"]
        me.page.wait_for_selector("#fair-match-result[data-ok='1']", timeout=30_000)
        hands = me.state(code)["hand"]["hand_no"]  # every hand dealt, each with its shoe
        assert f"{hands} 副牌靴" in (me.page.text_content("#fair-match-result") or "")
        assert (me.page.text_content("#fair-link") or "").strip() == "✓ 整場已驗證"
        assert me.page.text_content("#fair-next") == "—", "no next hand after the match"
        me.page.locator("#fair-panel").scroll_into_view_if_needed()
        screenshot(me.page, "fairness-match-zh-phone")
        # the CLI and the browser agree on this table's export, hand by hand
        exported = me.api(f"/api/rooms/{code}/hands.json")
        browser_reports = me.page.evaluate(
            "async (doc) => { const f = await import('/static/js/fairness.js'); const out = [];"
            " for (const r of f.recordsIn(doc)) out.push(await f.verifyRecord(r)); return out; }", exported)
        path = tmp_path / "match.json"
        path.write_text(json.dumps(exported))
        result = CliRunner().invoke(cli, ["verify", str(path), "--json"])
        assert result.exit_code == 0, result.output
        cli_reports = json.loads(result.output)
        assert len(cli_reports) == len(browser_reports) == hands
        assert [(r["hand_id"], r["ok"], r["seed"], r["shoe"], len(r["openings"])) for r in cli_reports] == \
            [(r["hand_id"], r["ok"], r["seed"], r["shoe"], len(r["openings"])) for r in browser_reports]

        # English, and a hand whose card was changed on its way: the page says it failed
        me.ctx.add_cookies([{"name": "tp_lang", "value": "en", "url": server}])

        def tamper(route: Any) -> None:
            doc = route.fetch().json()
            o = doc["fairness"]["openings"][0]
            o["card"] = "As:1" if o["card"] != "As:1" else "As:2"
            route.fulfill(status=200, content_type="application/json", body=json.dumps(doc))

        last = me.state(code)["hand"]["hand_no"]
        me.page.route(f"**/api/rooms/{code}/hands/{last}.json", tamper)
        me.page.goto(f"{server}/rooms/{code}")
        me.page.wait_for_selector("#fair-link[data-ok='0']")
        assert (me.page.text_content("#fair-link") or "").strip() == "✗ Not verified"
        me.page.click("#fair-link")
        me.page.wait_for_selector("#fair-result[data-ok='0']")
        failed = me.page.text_content("#fair-result") or ""
        assert f"Hand {last} failed to verify" in failed and "do not match the commitment" in failed, failed
        me.page.wait_for_selector("#fair-match-result[data-ok='1']", timeout=30_000)
        assert "Whole match verified" in (me.page.text_content("#fair-match-result") or "")
        screenshot(me.page, "fairness-failed-en-phone")
        assert me.watch.problems == [], me.watch.problems
    finally:
        me.ctx.close()
