"""The browser's fairness check (web/static/js/fairness.js, the /verify page) against the published test vectors
and the server's own check (issue 47): WebCrypto only, nothing asked of the server."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from .conftest import PageWatch, screenshot

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "docs" / "fairness-vectors.json").read_text())

IN_PAGE = """async (v) => {
  const f = await import('/static/js/fairness.js');
  const d = v.hmac_drbg;
  const drbg = await f.HmacDrbg.create(f.unhex(d.entropy), f.unhex(d.nonce));
  await drbg.generate(128);
  const returned = f.hex(await drbg.generate(128));
  const s = v.shoe;
  const seeds = Object.fromEntries(Object.entries(s.player_seeds).map(([k, x]) => [Number(k), f.unhex(x)]));
  const mix = f.hex(await f.playerMix(seeds));
  const cards = await f.shuffledShoe(s.decks, f.unhex(s.server_seed), s.hand_id, await f.playerMix(seeds));
  const salt = await f.salts(f.unhex(s.server_seed), s.hand_id, cards.length);
  const leaves = [];
  for (let p = 0; p < cards.length; p++) leaves.push(await f.leaf(salt[p], p, cards[p]));
  return {returned, mix, first: cards.slice(0, 12), last: cards[cards.length - 1], salt0: f.hex(salt[0]),
          leaf0: f.hex(leaves[0]), root: f.hex(await f.merkleRoot(leaves)),
          seedHash: f.hex(await f.seedCommitment(f.unhex(s.server_seed))),
          record: await f.verifyRecord(v.record)};
}"""


def test_the_browser_gives_the_published_vectors_and_checks_records_as_the_server_does(
        page: PageWatch, server: str) -> None:
    p: Any = page.page
    p.goto(server + "/verify")
    got = p.evaluate(IN_PAGE, VECTORS)
    s = VECTORS["shoe"]
    assert got["returned"] == VECTORS["hmac_drbg"]["returned"], "HMAC_DRBG: NIST's returned bits"
    assert (got["mix"], got["seedHash"], got["first"], got["last"]) == (s["mix"], s["seed_hash"], s["first_cards"],
                                                                        s["last_card"])
    assert (got["salt0"], got["leaf0"], got["root"]) == (s["salt_0"], s["leaf_0"], s["root"])
    assert got["record"]["ok"] and got["record"]["shoe"] and got["record"]["seed"]
    broken = copy.deepcopy(VECTORS["record"])
    broken["openings"][0]["card"] = "As:1" if broken["openings"][0]["card"] != "As:1" else "As:2"
    bad = p.evaluate("async (r) => (await import('/static/js/fairness.js')).verifyRecord(r)", broken)
    assert not bad["ok"] and "whole shoe" in bad["problems"]


def test_the_verify_page_checks_a_pasted_match_in_both_languages(browser: Any, server: str) -> None:
    match = {"hands": [{"hand_no": 1, "fairness": VECTORS["record"]}]}
    for lang, width, ok_text in (("zh-TW", 360, "全部驗證通過"), ("en", 1280, "Everything verified")):
        ctx = browser.new_context(viewport={"width": width, "height": 800}, locale="zh-TW")  # CSP enforced
        ctx.add_cookies([{"name": "tp_lang", "value": lang, "url": server}])
        watch = PageWatch(ctx.new_page())
        page = watch.page
        page.goto(server + "/verify")
        page.fill("#verify-text", json.dumps(match))
        page.click("#verify-run")
        page.wait_for_selector("#verify-list li[data-ok='1']")
        assert ok_text in (page.text_content("#verify-status") or "")
        screenshot(page, f"verify-{lang}-{width}")
        broken = copy.deepcopy(match)
        broken["hands"][0]["fairness"]["openings"][1]["salt"] = "00" * 16
        page.fill("#verify-text", json.dumps(broken))
        page.click("#verify-run")
        page.wait_for_selector("#verify-list li[data-ok='0']")
        assert watch.problems == [], watch.problems
        ctx.close()
