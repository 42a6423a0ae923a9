"""Issue 45's evening, in Chromium against the real server: a four-player home game on two phones and two desktops
in both languages, whose books add up and whose every hand's histories tell it as the table did.

Alice hosts at 1280×800 (Chinese), Bob plays on a 390×844 phone (English), Carol on a 360×740 phone (Chinese) and
Dan at 1920×1080 (English). The moves go through the API with each player's own cookies; the pages show the table
to each of them (screenshots at every step: ``test-output/screenshots/home-*.png``) and are used for what a player
clicks: the host's approval of a returning player, the books and the end of the match. The evening has a straddle
taken and one declined, a board run twice, a rebuy, a top-up, a host's adjustment, a leaver who comes back, a
time-out and a winner showing one card. After each hand, for every player dealt in and a spectator: the JSON
(what the replayer draws), the table history's entry, the text and the PHH (replayed by pokerkit) agree with the
live hand (``tests/history/agreement.py``: posts, actions, pots of every run, stacks and names). At the end the
books add up, on the page and in the CSV.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.history.agreement import LiveHand, check_histories
from tests.server_process import ServerProcess

from .test_host_table_e2e import Player
from .test_sit_and_go_e2e import FakeClock

CLOCK = 120  # seconds to act (time bank 0): room to act on a busy machine; the time-out is the moved clock's


@pytest.fixture(scope="module")
def evening_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, FakeClock]]:
    tmp = tmp_path_factory.mktemp("home-game")
    clock = FakeClock(tmp / "clock", stopped=True)  # the next hand is dealt by the test, never by the 6 s wait
    process = ServerProcess(tmp / "data", tmp / "server.log", {"TP_ACTION_CLOCK_SECONDS": str(CLOCK),
                                                                "TP_TEST_CLOCK_FILE": str(clock.path)})
    yield process.start(timeout=60), clock
    process.stop()


class Evening:
    """The table, its players by seat, and each hand as the live table showed it."""

    def __init__(self, players: list[Player], host: Player) -> None:
        self.players, self.host = players, host
        self.hands: dict[int, LiveHand] = {}

    @property
    def code(self) -> str:
        return self.host.code

    def view(self, p: Player | None = None) -> dict[str, Any]:
        return (p or self.host).state()

    def by_seat(self) -> dict[int, Player]:
        return {s: p for p in self.players if (s := p.state()["you"]) is not None}

    def seen(self) -> dict[str, Any]:
        view = self.view()
        hand = view["hand"]
        if hand is not None and hand["hand_no"] not in self.hands:
            self.hands[hand["hand_no"]] = LiveHand.dealt(view)
        if hand is not None and hand["complete"]:
            self.hands[hand["hand_no"]].ended(view)
        return view

    def act(self, kind: str, to: int | None = None) -> None:
        view = self.view()
        seat = view["hand"]["to_act"]
        p = self.by_seat()[seat]
        action = {"kind": kind} if to is None else {"kind": kind, "to": to}
        res = p.post("/actions", {"version": p.state()["version"], "action": action})
        assert res["applied"], res
        self.hands[view["hand"]["hand_no"]].moved(self.seen(), seat, timed_out=False)

    def passive(self) -> None:
        p = self.by_seat()[self.view()["hand"]["to_act"]]
        legal = p.state()["hand"]["legal"]["actions"]
        self.act("check" if "check" in legal else "call")

    def deal(self) -> dict[str, Any]:
        view = self.view()
        if view["hand"] is None or view["hand"]["complete"]:
            self.host.post("/next", {"version": view["version"]})
        return self.seen()

    def answer_choices(self, agree: bool) -> None:
        """Everyone asked answers the offer to run it twice (or shows at a showdown choice)."""
        while (hand := self.view()["hand"])["pending"] is not None:
            seat = hand["pending"]["seats"][0]
            p = self.by_seat()[seat]
            kind = hand["pending"]["kind"]
            body = {"version": p.state()["version"], **({"agree": agree} if kind == "runs" else {"show": True})}
            p.post("/runs" if kind == "runs" else "/showdown", body)
        self.seen()

    def check_hand(self, hand_no: int, spectator: Player) -> None:
        """Every history of the hand, for each player dealt in and a spectator, against the live hand."""
        live = self.hands[hand_no]
        assert live.pots, f"hand {hand_no} is not over"
        for p in [*self.players, spectator]:
            seat = next((s for s, name in live.names.items() if name == p.name), None)
            if seat is None and p is not spectator:
                continue
            base = f"{p.base}/api/rooms/{self.code}"
            data = p.ctx.request.get(f"{base}/hands/{hand_no}.json").json()
            entry = p.ctx.request.get(f"{base}/history").json()["hands"][hand_no - 1]
            text = p.ctx.request.get(f"{base}/hands/{hand_no}.txt").text()
            phh = p.ctx.request.get(f"{base}/hands/{hand_no}.phh").text()
            check_histories(live, data, entry, text, phh, seat)


def wait_for(p: Player, ready: Any, within: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while not ready(s := p.state()):
        assert time.monotonic() < deadline, s
        time.sleep(0.1)
    return s


def test_a_home_game_on_phones_and_desktops_keeps_true_books(evening_server: tuple[str, FakeClock],
                                                            browser: Any) -> None:
    base, clock = evening_server
    alice = Player(browser, base, "Alice", (1280, 800), "zh-TW")
    bob = Player(browser, base, "Bob", (390, 844), "en")
    carol = Player(browser, base, "Carol", (360, 740), "zh-TW")
    dan = Player(browser, base, "Dan", (1920, 1080), "en")
    rail = Player(browser, base, "Rail", (390, 844), "en")
    everyone = [alice, bob, carol, dan]
    night = Evening(everyone, alice)
    try:
        status, made = alice.call("POST", "/api/rooms", {"seats": 4, "stack": 2000, "blinds": [10, 20],
                                                         "rebuys": True, "straddle": True, "run_twice": True,
                                                         "time_bank": 0})
        assert status == 200, made
        for p in [*everyone, rail]:
            p.code = made["code"]
        bob.post("/join", {"seat": 1})
        dan.post("/join", {"seat": 3})
        # the straddle is the player's choice: Dan, under the gun in hand 1 (seat 0 the button), takes it
        assert dan.post("/straddle", {"choice": "next"})["straddle"]["choice"] == "next"
        carol.post("/join", {"seat": 2})  # the table is full: hand 1 is dealt
        s = night.seen()
        for p in [*everyone, rail]:
            p.open()
        hand = s["hand"]
        assert hand["straddle_seat"] == 3 and hand["seats"][3]["bet"] == 40
        alice.shot("home-straddle")
        dan.shot("home-straddle")
        # hand 1: called round to the straddler, then checked down to the showdown
        while night.view()["hand"]["to_act"] is not None:
            night.passive()
        night.answer_choices(True)
        night.check_hand(1, rail)

        # hand 2: under the gun declines; two players all in, both agree to run it twice
        utg_seat = (night.view()["hand"]["big_blind_seat"] + 2) % 4  # the next hand's under the gun
        utg = night.by_seat()[utg_seat]
        if utg.state()["straddle"]["choice"] != "off":
            utg.post("/straddle", {"choice": "off"})
        s = night.deal()
        assert s["hand"]["straddle_seat"] is None, "under the gun declined: no straddle"
        night.act("allin")
        while night.view()["hand"]["to_act"] is not None:
            seat = night.view()["hand"]["to_act"]
            legal = night.by_seat()[seat].state()["hand"]["legal"]["actions"]
            night.act("call" if ("call" in legal and len(night.hands[2].moves) == 1) else "fold")
        night.answer_choices(True)
        assert night.view()["hand"]["runs"] == 2, "both agreed: the board is run twice"
        for p in everyone:
            p.wait_version(night.view()["version"])
        bob.shot("home-run-twice")
        carol.shot("home-run-twice")
        night.check_hand(2, rail)

        # between hands: whoever went broke rebuys, one below the start tops up, the host adjusts a stack
        s = night.view()
        for p in everyone:
            me = p.state()
            if me["may_buy"]:
                p.post("/buy", {})
        rows = {r["name"]: r for r in alice.ctx.request.get(f"{base}/api/rooms/{night.code}/ledger").json()["players"]}
        assert any(r["rebuy_count"] or r["top_up_count"] for r in rows.values()), rows
        target = next(p for p in (bob, carol, dan) if p.state()["you"] is not None)
        seat = target.state()["you"]
        stack = next(x["stack"] for x in alice.state()["players"] if x["seat"] == seat and not x["left"])
        alice.post(f"/players/{seat}/stack", {"stack": stack + 250})

        # hand 3: the first to act lets the clock run out (the server folds or checks for them); the rest fold to
        # a raise and the winner shows one card
        s = night.deal()
        late_seat = s["hand"]["to_act"]
        clock.advance(CLOCK + 30)  # the server's clock passes the late player's deadline and its grace
        after = wait_for(alice, lambda x: x["hand"]["to_act"] != late_seat, within=30)
        night.hands[3].moved(night.seen(), late_seat, timed_out=True)
        assert after["hand"]["last_actions"][str(late_seat)]["timeout"]
        raised = False
        while night.view()["hand"]["to_act"] is not None:
            seat = night.view()["hand"]["to_act"]
            legal = night.by_seat()[seat].state()["hand"]["legal"]
            if not raised and "raise" in legal["actions"]:
                night.act("raise", legal["min_raise_to"])
                raised = True
            else:
                night.act("fold" if "fold" in legal["actions"] else "check")
        night.seen()
        winner = night.view()["hand"]["pots"][0]["winners"][0]
        if night.view()["hand"]["seats"][winner].get("may_show", True):
            shown = night.by_seat()[winner].post("/show", {"cards": [0]})
            assert shown["hand"]["seats"][winner]["showed"]
        night.seen()
        night.check_hand(3, rail)

        # a leaver comes back: Bob leaves with his chips, asks to sit again, the host approves on her page
        took = next(x["stack"] for x in alice.state()["players"] if x["name"] == "Bob" and not x["left"])
        bob.post("/leave")
        bob.open()
        bob.page.wait_for_selector("#join-box", state="visible")
        bob.shot("home-left")
        bob.page.click("#join-btn")
        alice.page.wait_for_selector("#request-box li[data-request]", state="visible")
        alice.page.click("#request-box .req-approve")
        wait_for(alice, lambda x: any(p["name"] == "Bob" and not p["left"] for p in x["players"]))
        books = alice.ctx.request.get(f"{base}/api/rooms/{night.code}/ledger").json()
        bob_row = next(r for r in books["players"] if r["name"] == "Bob")
        assert bob_row["buy_ins"] == 2 and bob_row["took"] == took, bob_row

        # hand 4: checked down, histories checked
        night.deal()
        while night.view()["hand"]["to_act"] is not None or night.view()["hand"]["pending"] is not None:
            if night.view()["hand"]["pending"] is not None:
                night.answer_choices(False)
                continue
            night.passive()
        night.seen()
        night.check_hand(4, rail)

        # the books: open on every page, they add up; the host ends the match from her panel; the CSV agrees
        for p in everyone:
            p.page.click("#books-panel > summary")
            p.wait("document.querySelectorAll('#books-body tbody tr').length === 4")
            p.shot("home-books", full=True)
        books = alice.ctx.request.get(f"{base}/api/rooms/{night.code}/ledger").json()
        totals = books["totals"]
        assert totals["balanced"] and totals["paid_in"] == totals["on_table"] + totals["took"]
        assert sum(r["net"] for r in books["players"]) == -totals["pot"]
        alice.page.once("dialog", lambda d: d.accept())
        alice.page.click("#host-panel > summary")
        alice.page.click("#end-btn")
        for p in everyone:
            p.wait("!document.getElementById('result').hidden")
            p.shot("home-over")
        sheet = list(csv.DictReader(io.StringIO(alice.ctx.request.get(
            f"{base}/api/rooms/{night.code}/ledger.csv").text())))
        players = [r for r in sheet if r["name"] != "TOTAL"]
        assert {r["name"] for r in players} == {"Alice", "Bob", "Carol", "Dan"}
        assert sum(int(r["net"]) for r in players) == 0
        total = next(r for r in sheet if r["name"] == "TOTAL")
        paid = int(total["buy_in"]) + int(total["rebuys"]) + int(total["top_ups"]) + int(total["adjusted"])
        assert paid == int(total["chips"]) + int(total["took"])
        for p in [*everyone, rail]:
            assert p.errors() == [], (p.name, p.errors())
    finally:
        for p in [*everyone, rail]:
            p.ctx.close()
