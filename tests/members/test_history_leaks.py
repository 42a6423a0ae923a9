"""Every export (PHH, text, JSON) and every share link, for every viewer, is checked against the server's truth:
no hole card of a seat that did not show, no private burn but the viewer's own, no dealer burn."""

from __future__ import annotations

import random
import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from taiwan_poker.rules import Hand
from tests.leaks import check_events, check_hand_view
from tests.members.conftest import client
from tests.members.test_no_leaks import truth_at
from tests.rooms.test_service import random_action

RUN = re.compile(r"(?<![A-Za-z0-9])((?:(?:10|[2-9TJQKA])[shdc])+)(?![A-Za-z0-9])")
PAIR = re.compile(r"(?:10|[2-9TJQKA])[shdc]")
MESSAGES = re.compile(r'<script id="i18n-[a-z]+" type="application/json">.*?</script>', re.DOTALL)


def text_faces(text: str) -> list[str]:
    """Every card face written in an export's text (PHH writes them run together: ``AhKd``)."""
    return [card for run in RUN.findall(text) for card in PAIR.findall(run)]


def allowed_faces(hand: Hand, seat: int | None) -> set[str]:
    """The faces a viewer may see: both boards (a board run twice), hands shown at showdown, cards an uncontested
    winner showed, and their own cards and burn."""
    cards = [*hand.board, *hand.board2, *(c for e in hand.shown for c in e.hole),
             *(c for shown in hand.volunteered.values() for c in shown)]
    if seat is not None and hand.dealt_in(seat):
        cards += [*hand.hole_cards(seat), *hand.private_burns(seat)]
    return {c.face_str for c in cards if c is not None}


def hidden_labels(hand: Hand, seat: int | None) -> set[str]:
    """Labels (with the deck) of the cards the viewer may not see."""
    shown = {e.seat for e in hand.shown}
    out: set[str] = set()
    for s in hand.players:
        if s != seat:
            out |= {c.label for c in hand.private_burns(s) if c is not None}
            if s not in shown:
                out |= {c.label for c in hand.hole_cards(s) if c is not None}
    visible = {c.label for c in (*hand.board, *hand.board2)} | {c.label for e in hand.shown for c in e.hole} \
        | {c.label for shown in hand.volunteered.values() for c in shown}
    if seat is not None and hand.dealt_in(seat):
        visible |= {c.label for c in (*hand.hole_cards(seat), *hand.private_burns(seat)) if c is not None}
    return out - visible


def check_text(text: str, hand: Hand, seat: int | None, where: str) -> None:
    ok = allowed_faces(hand, seat)
    for face in text_faces(text):
        assert face in ok, f"{where}: card {face} is not visible to seat {seat}"


def play(app: FastAPI, players: list[TestClient], code: str, rng: random.Random, hands: int) -> None:
    """Random (mostly passive) play until ``hands`` hands are finished or the match is over."""
    for _ in range(800):
        st = players[0].get(f"/api/rooms/{code}").json()
        if st["match"]["over"] or (st["hand"]["complete"] and st["match"]["hands_played"] >= hands):
            return
        if st["hand"]["complete"]:
            players[0].post(f"/api/rooms/{code}/next", json={"version": st["version"]})
            continue
        seat = st["hand"]["to_act"]
        me = next(c for c in players if c.get(f"/api/rooms/{code}").json()["you"] == seat)
        legal = me.get(f"/api/rooms/{code}").json()["hand"]["legal"]
        r = me.post(f"/api/rooms/{code}/actions", json={"version": st["version"], "action": random_action(legal, rng)})
        assert r.status_code == 200, r.text


@pytest.mark.parametrize("seats", [2, 3])
def test_no_export_or_share_link_holds_a_card_its_viewer_may_not_see(app: FastAPI, seats: int) -> None:
    seeds = iter(range(10_000))
    app.state.rooms.rng_factory = lambda: random.Random(500 + seats * 100 + next(seeds))
    players = [client(app, n) for n in ("Alice", "Bob", "Dora")[:seats]]
    code = players[0].post("/api/rooms", json={"decks": 2, "seats": seats}).json()["code"]
    for c in players[1:]:
        assert c.post(f"/api/rooms/{code}/join").status_code == 200
    if seats == 3:
        st = players[0].get(f"/api/rooms/{code}").json()
        if not st["match"]:
            players[0].post(f"/api/rooms/{code}/next", json={"version": st["version"]})
    play(app, players, code, random.Random(seats), hands=10)
    players[0].post(f"/api/rooms/{code}/pause")  # the host holds the next hand: the checks below take longer
    # than the showdown pause, after which the server would deal it (refused, and not needed, once it is over)
    viewers: list[tuple[TestClient, str]] = [(c, f"player {i}") for i, c in enumerate(players)]
    viewers += [(client(app, "Carol"), "member at no seat"), (client(app), "signed out")]
    final = truth_at(app, code, players[0].get(f"/api/rooms/{code}").json()["version"])
    shows = 0
    for n, hand in enumerate(final.hands, start=1):
        if not hand.complete:
            continue
        shows += len(hand.shown) > 0
        for viewer, who in viewers:
            you = viewer.get(f"/api/rooms/{code}").json()["you"]
            seat = final.seat_in_hand(final.seats[you].member, n - 1) if you is not None else None
            where = f"hand {n} to {who}"
            data = viewer.get(f"/api/rooms/{code}/hands/{n}.json").json()
            assert data["seat"] == seat
            check_hand_view(data["final"], seat, hand, f"{where} json")
            check_events(data["events"], seat, hand, f"{where} json")
            check_text(viewer.get(f"/api/rooms/{code}/hands/{n}.txt").text, hand, seat, f"{where} text")
            check_text(viewer.get(f"/api/rooms/{code}/hands/{n}.phh").text, hand, seat, f"{where} phh")
        sharer = next(c for c in players if c.post(f"/api/rooms/{code}/hands/{n}/share").status_code == 200)
        url = sharer.post(f"/api/rooms/{code}/hands/{n}/share").json()["url"]
        token = url.rsplit("/", 1)[1]
        for viewer, who in viewers:
            shared = viewer.get(f"/api/share/{token}").json()
            check_hand_view(shared["final"], None, hand, f"share of hand {n} to {who}")
            check_events(shared["events"], None, hand, f"share of hand {n} to {who}")
            assert shared["seat"] is None and shared["table"] is None
            page = MESSAGES.sub("", viewer.get(url).text)  # the catalogue's examples ("As:2") are not cards
            leaked = [label for label in hidden_labels(hand, None) if label in page]
            assert not leaked, f"share page of hand {n}: {leaked}"
    # whole-match exports, per player
    for i, viewer in enumerate(players):
        you = viewer.get(f"/api/rooms/{code}").json()["you"]
        everything = viewer.get(f"/api/rooms/{code}/hands.json").json()["hands"]
        texts = viewer.get(f"/api/rooms/{code}/hands.txt").text.split("\n\n\n")
        for n, (entry, hand) in enumerate(zip(everything, final.hands, strict=True)):
            seat = final.seat_in_hand(final.seats[you].member, n)
            check_hand_view(entry["final"], seat, hand, f"player {i} hands.json {n + 1}")
            check_events(entry["events"], seat, hand, f"player {i} hands.json {n + 1}")
        assert len(texts) >= 1
    assert shows >= 1, "at least one hand went to a showdown"


def test_the_export_checker_catches_a_leaked_card(app: FastAPI) -> None:
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    b.post(f"/api/rooms/{code}/join")
    hand = truth_at(app, code, a.get(f"/api/rooms/{code}").json()["version"]).hand
    text = a.get(f"/api/rooms/{code}/hands/1.txt").text
    check_text(text, hand, 0, "honest")
    opponent = "".join(c.face_str for c in hand.hole_cards(1))
    mine = {c.face_str for c in (*hand.hole_cards(0), *hand.private_burns(0))}
    if all(c.face_str in mine for c in hand.hole_cards(1)):  # pragma: no cover - the same faces by chance
        pytest.skip("the opponent holds the same faces")
    with pytest.raises(AssertionError):
        check_text(text + f"\nd dh p2 {opponent}\n", hand, 0, "tampered")
