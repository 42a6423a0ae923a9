"""A checker that a payload sent to one member holds no card that member may not see at that moment.

It walks the payload, finds every string that is a card (``As``, ``As:2``) and
accepts it only where that seat is entitled to it: the public board (both runs'
boards when the board is run twice), its own hole cards and private burn, hands
shown at showdown and cards an uncontested winner chose to show — each compared
with the server's own truth (the engine's hand); a mucked hand's cards nowhere.
Anything else that looks like a card is a leak.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from taiwan_poker.rules import Hand

CARD = re.compile(r"^(10|[2-9TJQKA])[shdc](:\d)?$", re.IGNORECASE)


def card_strings(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every card-like string in a JSON-like value, with its path."""
    if isinstance(obj, str):
        if CARD.match(obj):
            yield path, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(k, str) and CARD.match(k):
                yield (*path, k), k
            yield from card_strings(v, (*path, k))
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            yield from card_strings(v, (*path, i))


def faces(cards: Any) -> list[str | None]:
    """Cards as the views write them: labels with the deck (``Jc:2``)."""
    return [c.label if c is not None else None for c in cards]


def check_hand_view(hand_view: dict[str, Any], seat: int | None, truth: Hand, where: str = "") -> None:
    """Assert a hand view for ``seat`` (None = spectator) shows only what that seat may see, and shows it truly."""
    shown = {e.seat: e for e in truth.shown}
    assert hand_view["board"] == faces(truth.board), f"{where}: board differs from the truth"
    you = hand_view.get("you")
    if you is not None:
        assert seat is not None and you["seat"] == seat, f"{where}: a 'you' block for another seat"
        assert you["hole"] == faces(truth.hole_cards(seat)), f"{where}: own hole cards wrong"
        assert you["burns"] == faces(truth.private_burns(seat)), f"{where}: own burn wrong"
    shown2 = {e.seat: e for e in truth.shown2}
    volunteered = truth.volunteered
    assert hand_view.get("board2", []) == (faces(truth.board2) if truth.runs == 2 else []), \
        f"{where}: the second run's board differs from the truth"
    for path, card in card_strings(hand_view):
        head = path[0]
        if head in ("board", "board2"):
            continue
        if head == "you" and seat is not None:
            continue
        if head == "seats" and len(path) >= 3 and path[2] in ("shown", "shown2", "showed"):
            s = hand_view["seats"][path[1]]["seat"]
            known = {"shown": shown, "shown2": shown2, "showed": volunteered}[path[2]]
            assert s in known, f"{where}: seat {s}'s cards shown to {seat} without a showdown or a show: {card}"
            assert s not in truth.mucked, f"{where}: a mucked hand's card {card} was sent to {seat}"
            continue
        raise AssertionError(f"{where}: card {card} at {path} is not visible to seat {seat}")
    for entry in hand_view["seats"]:
        if "shown" in entry:
            ev = shown[entry["seat"]]
            assert entry["shown"]["hole"] == faces(ev.hole), f"{where}: shown hand differs from the truth"
        if "showed" in entry:
            assert entry["showed"] == faces(volunteered[entry["seat"]]), f"{where}: a shown card differs"
        if entry["seat"] in truth.mucked:
            assert entry.get("mucked") is True and "shown" not in entry, f"{where}: a muck not shown as one"


def check_events(events: list[dict[str, Any]], seat: int | None, truth: Hand, where: str = "") -> None:
    """Assert a seat's event stream carries hidden content only for events whose audience includes it."""
    from taiwan_poker.rules.events import visible_to

    assert len(events) == len(truth.events), f"{where}: event stream is not gap-free"
    for i, (ev_view, ev) in enumerate(zip(events, truth.events, strict=True)):
        assert ev_view["version"] == i
        if not visible_to(ev, seat):
            assert set(ev_view) == {"version"}, f"{where}: event {i} content leaked to seat {seat}"


def check_room_state(state: dict[str, Any], seat: int | None, truth: Hand | None, where: str = "") -> None:
    """A whole room payload (as the service or the web layer sends it)."""
    if truth is None:
        assert not list(card_strings(state)), f"{where}: cards in a room without a hand"
        return
    outside = {k: v for k, v in state.items() if k != "hand"}
    assert not list(card_strings(outside)), f"{where}: cards outside the hand view"
    check_hand_view(state["hand"], seat, truth, where)
