"""The table's books and a match that ends, in Chromium against the real server (issue 45, items 2 and 3).

Alice hosts a heads-up table with rebuys at 1280×800 in Chinese; Bob plays on a phone (360×740) in English. Bob
goes broke: both pages say whom the table waits for and count the minute down; Bob rebuys; the books (opened on
both pages) list the buy-ins, the rebuy and the host's adjustment with who made it, and add up, as does their
CSV; Alice ends the match from the host's panel and the result banner shows the books.
Screenshots: ``test-output/screenshots/books-*.png``.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from .test_host_table_e2e import Player, act


def bust(players: dict[str, Player]) -> str:
    """All in and call until one of them is broke; the broke player's name."""
    alice = players["Alice"]
    while True:
        s = alice.state()
        broke = [p["name"] for p in s["players"] if not p["left"] and p["stack"] == 0 and s["match"]]
        if broke and (s["hand"] is None or s["hand"]["complete"]):
            return broke[0]
        if s["hand"] is None or s["hand"]["complete"]:
            alice.post("/next", {"version": s["version"]})
            continue
        to_act = next(p["name"] for p in s["players"] if p["seat"] == s["hand"]["to_act"] and not p["left"])
        who = players[to_act]
        legal = who.state()["hand"]["legal"]["actions"]
        act(who, "allin" if "allin" in legal else "call")


def books_rows(p: Player) -> list[list[str]]:
    return p.page.eval_on_selector_all("#books-body tbody tr",
                                       "rows => rows.map(r => [...r.cells].map(c => c.textContent))")


def test_the_books_add_up_a_rebuy_table_waits_and_the_host_ends_the_match(server: str, browser: Any) -> None:
    alice = Player(browser, server, "Alice", (1280, 800), "zh-TW")
    bob = Player(browser, server, "Bob", (360, 740), "en")
    players = {"Alice": alice, "Bob": bob}
    try:
        status, made = alice.call("POST", "/api/rooms", {"seats": 2, "rebuys": True})
        assert status == 200, made
        alice.code = bob.code = made["code"]
        bob.post("/join")
        for p in (alice, bob):
            p.open()
        broke = bust(players)
        other = players["Alice" if broke == "Bob" else "Bob"]
        loser = players[broke]
        version = alice.state()["version"]
        for p in (alice, bob):
            p.wait_version(version)
        # both pages say whom the table waits for, and count the minute down
        alice.wait(f"document.getElementById('clock-text').textContent.includes('{broke}')")
        text = alice.page.text_content("#clock-text") or ""
        assert "重買" in text and "秒" in text, text
        bob.wait("/rebuy/.test(document.getElementById('clock-text').textContent)")
        alice.shot("books-waiting")
        loser.shot("books-waiting-broke")
        assert alice.state()["waiting_for"] == {"kind": "rebuys", "names": [broke]}
        loser.post("/buy", {})
        s = alice.state()
        assert s["status"] == "playing" and s["waiting_for"] is None
        # a hand later, the host takes 500 chips from the other player's stack
        alice.post("/next", {"version": s["version"]})
        while not (s := alice.state())["hand"]["complete"]:
            to_act = next(p["name"] for p in s["players"] if p["seat"] == s["hand"]["to_act"])
            act(players[to_act], "fold")
        alice.post("/pause", {})  # no next hand comes while the books are read (its blinds would be in the pot)
        seat = next(p["seat"] for p in s["players"] if p["name"] == other.name)
        stack = next(p["stack"] for p in s["players"] if p["name"] == other.name)
        alice.post(f"/players/{seat}/stack", {"stack": stack - 500})
        for p in (alice, bob):
            p.wait_version(alice.state()["version"])
            p.page.click("#books-panel > summary")
            p.wait("document.querySelectorAll('#books-body tbody tr').length === 2")
        rows = {r[0]: r for r in books_rows(alice)}
        assert set(rows) == {"Alice", "Bob"}
        assert "2,000" in rows[broke][2] and "1" in rows[broke][2], rows[broke]  # the rebuy, once
        assert "−500" in rows[other.name][4] and "Alice" in rows[other.name][4], rows[other.name]
        caption = alice.page.text_content("#books-body .books-balance") or ""
        assert "投入 5,500 = 桌上 5,500 + 帶走 0" in caption.replace("\u00a0", " "), caption
        bob_caption = bob.page.text_content("#books-body .books-balance") or ""
        assert "Paid in 5,500" in bob_caption, bob_caption
        alice.shot("books-open", full=True)
        bob.shot("books-open", full=True)
        # the CSV says the same
        r = alice.ctx.request.get(f"{server}/api/rooms/{alice.code}/ledger.csv")
        assert r.ok and r.headers["content-type"].startswith("text/csv")
        table = list(csv.DictReader(io.StringIO(r.text())))
        assert {row["name"] for row in table} == {"Alice", "Bob", "TOTAL"}
        assert sum(int(row["net"]) for row in table if row["name"] != "TOTAL") == 0, "no chip made or lost"
        assert next(row for row in table if row["name"] == other.name)["adjusted"] == "-500"
        # the host ends the match from the panel; the banner shows the books
        alice.page.once("dialog", lambda d: d.accept())
        alice.page.click("#host-panel > summary")
        alice.page.click("#end-btn")
        alice.wait("!document.getElementById('result').hidden")
        alice.page.click("#result-books-box > summary")  # the banner keeps the table in view: the books fold
        alice.wait("document.querySelectorAll('#result-books tbody tr').length === 2")
        bob.wait("!document.getElementById('result').hidden")
        assert "Alice" in (bob.page.text_content("#result-text") or "")
        alice.shot("books-ended", full=True)
        bob.shot("books-ended", full=True)
        for p in (alice, bob):
            assert p.errors() == [], p.errors()
    finally:
        for p in (alice, bob):
            p.ctx.close()
