"""The app on the phone (issue 48, point 3), in Chromium against the real server.

With the network cut by the browser's offline mode, the rules, odds, calculators, lab and practice pages load
from the service worker and do their work on the device; a table page says it is offline, and a table opened
offline gets the offline page. The device's answers (static/js/offline.js) agree with the server's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from taiwan_poker.cards import Card
from taiwan_poker.evaluate import evaluate
from tests.web.conftest import CHROMIUM

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


@pytest.fixture()
def sw_context(browser: Any) -> Iterator[Any]:
    # bypass_csp only for Playwright's own waits (tests/web/test_csp.py loads the pages with the policy enforced)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-TW", bypass_csp=True,
                              service_workers="allow")
    yield ctx
    ctx.close()


def installed_page(ctx: Any, server: str) -> Any:
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(server + "/")
    # the worker has installed (every offline page and file cached) and activated, and controls the page
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    return page


def test_the_learning_pages_work_offline_from_the_service_worker(sw_context: Any, server: str) -> None:
    page = installed_page(sw_context, server)
    build = page.get_attribute('meta[name="tp-build"]', "content")
    assert page.evaluate("caches.keys()") == [f"tp-{build}"]
    sw_context.set_offline(True)
    assert page.evaluate("navigator.onLine") is False

    for path, name in (("/rules", "rules"), ("/odds", "odds"), ("/odds?decks=5", "odds"),
                       ("/calculators", "calculators"), ("/lab", "lab"), ("/practice", "practice"), ("/", "home")):
        page.goto(server + path)
        assert page.get_attribute("body", "data-page") == name, path
        assert page.locator("h1").first.is_visible()
        assert page.locator("#app-offline").count() == 0  # learning pages have no "you are offline" banner

    # the lab deals on the device: two hole cards and a burn, then the flop with the best hand named
    page.goto(server + "/lab")
    page.wait_for_selector("#lab-offline:not([hidden])")
    assert page.locator("#lab-hole .card").count() == 2 and page.locator("#lab-burn .card").count() == 1
    page.click("#lab-next")
    page.wait_for_function("document.querySelectorAll('#lab-board .card:not(.slot)').length === 3")
    assert page.get_attribute("#lab-best-cat", "data-category")
    assert page.locator("#lab-error").is_hidden()

    # the calculators count on the device
    page.goto(server + "/calculators")
    page.click("#outs-example")
    page.wait_for_function("document.getElementById('outs-next').textContent.includes('%')")
    assert page.text_content("#outs-outs") == "22"  # A♥Q♥ on J♥8♥4♠2♦ from two decks: 26 hearts, 4 seen
    assert "%" in (page.text_content("#pot-result") or "")
    assert page.locator("#outs-error").is_hidden()

    # the practice room grades from the cached answers
    page.goto(server + "/practice")
    page.locator(".scenario .choice").first.click()
    page.wait_for_selector(".scenario .feedback:not([hidden])")
    page.wait_for_function("document.querySelectorAll('#drill-choices .choice').length > 0")
    page.locator("#drill-choices .choice").first.click()
    page.wait_for_selector("#drill-feedback:not([hidden])")
    assert page.get_attribute("#score", "data-answered") == "2"


def test_a_table_page_says_it_is_offline_and_a_table_opened_offline_gets_the_offline_page(sw_context: Any,
                                                                                           server: str) -> None:
    page = installed_page(sw_context, server)
    code = page.evaluate("""async () => {
      const g = await fetch("/api/auth/guest", {method: "POST", headers: {"X-CSRF-Token": "signin"}});
      if (!g.ok) throw new Error("guest " + g.status);
      const csrf = document.cookie.split("; ").find((c) => c.startsWith("tp_csrf=")).slice(8);
      const r = await fetch("/api/rooms", {method: "POST", headers: {"X-CSRF-Token": csrf,
        "Content-Type": "application/json"}, body: JSON.stringify({seats: 2, bots: 1, level: "beginner"})});
      return (await r.json()).code;
    }""")
    page.goto(f"{server}/rooms/{code}")
    assert page.get_attribute("body", "data-online-only") is not None
    assert page.locator("#app-offline").count() == 0
    sw_context.set_offline(True)
    page.wait_for_selector("#app-offline:not([hidden])")
    text = page.text_content("#app-offline") or ""
    assert "連線中斷" in text and "牌桌只能在線上進行" in text
    sw_context.set_offline(False)
    page.wait_for_selector("#app-offline", state="hidden")

    sw_context.set_offline(True)
    page.goto(f"{server}/rooms/{code}")
    assert page.get_attribute("body", "data-page") == "offline"
    assert "目前沒有網路連線" in (page.text_content("h1") or "")


def test_a_new_build_on_the_server_is_offered_as_a_reload_and_its_answers_are_not_used(sw_context: Any,
                                                                                       server: str) -> None:
    """A page whose scripts are of another build than the server's answers (the server was deployed while it
    was open or cached) never uses those answers: it offers to reload into the new version."""
    page = installed_page(sw_context, server)
    page.goto(server + "/lab")
    page.wait_for_selector("#lab-hole .card")
    page.route("**/api/lab/hands", lambda route: route.fulfill(
        status=201, content_type="application/json", headers={"X-TP-Build": "9.9.9+newer"},
        body=json.dumps({"id": "x"})))
    page.click("#lab-deal")
    page.wait_for_selector("#app-update:not([hidden])")
    assert "新版本" in (page.text_content("#app-update") or "")
    assert page.locator("#app-update button").is_visible()
    page.wait_for_selector("#lab-error:not([hidden])")


def test_the_manifest_makes_the_site_installable_full_screen(server: str) -> None:
    m = httpx.get(server + "/manifest.webmanifest", timeout=10)
    assert m.headers["content-type"].startswith("application/manifest+json")
    body = m.json()
    assert body["display"] == "fullscreen" and body["start_url"] == "/" and body["scope"] == "/"
    assert body["name"].startswith("台灣撲克")
    sizes = {(i["sizes"], i["purpose"]) for i in body["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in body["icons"]:
        r = httpx.get(server + icon["src"], timeout=10)
        assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
        w, h = int.from_bytes(r.content[16:20], "big"), int.from_bytes(r.content[20:24], "big")
        assert f"{w}x{h}" == icon["sizes"]
    home = httpx.get(server + "/", timeout=10).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in home
    sw = httpx.get(server + "/sw.js", timeout=10)
    assert sw.headers["cache-control"] == "no-cache" and sw.headers["x-tp-build"] in sw.text


def test_the_devices_evaluator_and_counts_agree_with_the_servers(sw_context: Any, server: str) -> None:
    page = sw_context.new_page()
    page.goto(server + "/calculators")
    rng = random.Random(48)
    hands = []
    for _ in range(400):
        decks = rng.randint(1, 6)
        shoe = [Card(r, s, d) for d in range(1, decks + 1) for r in range(13) for s in range(4)]
        hands.append(rng.sample(shoe, rng.choice((5, 6, 7))))
    mine = page.evaluate("""async (hands) => {
      const o = await import("/static/js/offline.js");
      return hands.map((h) => { const e = o.evaluate(h.map(([r, s, d]) => o.card(r, s, d)));
        return [e.category, e.cards.map((c) => c.rank)]; });
    }""", [[[c.rank, c.suit, c.deck] for c in h] for h in hands])
    for h, (category, ranks) in zip(hands, mine, strict=True):
        v = evaluate(h)
        assert (category, tuple(ranks)) == (v.category.value, v.ranks), h
    cases = [{"decks": 2, "hole": ["Ah", "Qh"], "board": ["Jh", "8h", "4s", "2d"], "burn": None, "target": "suit:h"},
             {"decks": 3, "hole": ["As", "As"], "board": ["Kd", "7c", "2s"], "burn": "Ad", "target": "rank:A"},
             {"decks": 6, "hole": ["Td"], "board": [], "burn": "Td", "target": "face:Td"}]
    for body in cases:
        server_answer = httpx.post(server + "/api/calc/outs", json=body, timeout=10).json()
        device = page.evaluate("async (b) => (await import('/static/js/offline.js')).outs(b)", body)
        for key in ("known", "unseen", "outs", "seen_targets", "next_card", "two_cards", "formula_next", "formula_two"):
            assert device[key] == server_answer[key], (body, key)
        assert [(r["state"], r["formula"]) for r in device["by_burn"]] == \
            [(r["state"], r["formula"]) for r in server_answer["by_burn"]]
    pot = httpx.post(server + "/api/calc/pot-odds", json={"pot": 60, "bet": 20}, timeout=10).json()
    assert page.evaluate("async () => (await import('/static/js/offline.js')).potOdds(60, 20)") == pot
