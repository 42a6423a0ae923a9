"""What each seat (or a spectator) may know: the only way state leaves the core.

A seat sees its own private burn(s) and hole cards, the public board, bets,
stacks and pots; opponents' hole cards only once shown at showdown.  A private
burn is in no other view, ever; dealer burns and the shoe order are in no view.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from .events import Event, event_to_json, visible_to
from .hand import RUNS, Hand
from .strength import strength


def _faces(cards: tuple[Card | None, ...] | list[Card | None]) -> list[str | None]:
    """Cards as labels with their deck (``Jc:2``): two J♣ are two physical cards, and a view says which."""
    return [c.label if c is not None else None for c in cards]


def view(hand: Hand, seat: int | None = None) -> dict[str, Any]:
    """The hand as ``seat`` may see it (``None``: a spectator, public information only)."""
    out = public_view(hand)
    out.update(seat_part(hand, seat))
    return out


def public_view(hand: Hand) -> dict[str, Any]:
    """What everyone may see of the hand (a spectator's view)."""
    b = hand.betting
    players = set(hand.players)
    shown = {e.seat: e for e in hand.shown}
    shown2 = {e.seat: e for e in hand.shown2}
    mucked = set(hand.mucked)
    volunteered = hand.volunteered
    seats = []
    for s in range(b.n):
        entry: dict[str, Any] = {
            "seat": s, "stack": b.stacks[s], "bet": b.bets[s], "contributed": b.contrib[s],
            "in_hand": s in players, "folded": s in players and b.folded[s],
            "allin": s in players and not b.folded[s] and b.stacks[s] == 0 and not hand.complete,
        }
        if s in shown:
            ev = shown[s]
            entry["shown"] = {"hole": _faces(ev.hole), "category": ev.category.value, "best": _faces(ev.best)}
        if s in shown2:  # the same hole cards on the second run's board
            run2 = shown2[s]
            entry["shown2"] = {"category": run2.category.value, "best": _faces(run2.best)}
        if s in mucked:
            entry["mucked"] = True  # that they mucked, never what
        if s in volunteered:
            entry["showed"] = _faces(volunteered[s])  # what an uncontested winner chose to show
        seats.append(entry)
    pots: list[dict[str, Any]] = [
        {"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners), "shares": list(p.shares)}
        for p in hand.pots
    ]
    out: dict[str, Any] = {
        "hand_no": hand.hand_no, "version": hand.version, "button": hand.button,
        "small_blind_seat": hand.sb_seat, "big_blind_seat": hand.bb_seat,
        "street": hand.street.value, "complete": hand.complete, "to_act": hand.to_act,
        "board": _faces(hand.board), "pot": hand.pot, "current_bet": b.current_bet, "seats": seats,
        "returned": [{"seat": e.seat, "amount": e.amount} for e in hand.returned],
        "pots": pots,
        "straddle_seat": hand.straddle_seat,
        "runs": hand.runs,  # 0: not asked (or not decided), 1 or 2: how many times the board is dealt
        "first_shower": hand.first_shower,  # who showed first at a showdown where hands may be mucked
        "pending": None,
    }
    if hand.runs == 2:
        out["board2"] = _faces(hand.board2)
        for pot, run in zip(pots, hand.pot_runs, strict=True):
            pot["run"] = run
    pending = hand.pending
    if pending is not None:
        waiting: dict[str, Any] = {"kind": pending.kind, "seats": list(pending.seats)}
        if pending.kind == RUNS:
            waiting["answers"] = {str(k): v for k, v in hand.runs_answers.items()}
        out["pending"] = waiting
    return out


def seat_part(hand: Hand, seat: int | None) -> dict[str, Any]:
    """What only ``seat`` may see, added to :func:`public_view`: its own cards and burn, and its options."""
    out: dict[str, Any] = {}
    if seat is not None and hand.dealt_in(seat):
        hole = hand.hole_cards(seat)
        you: dict[str, Any] = {"seat": seat, "hole": _faces(hole), "burns": _faces(hand.private_burns(seat)),
                               "strength": strength(hole, hand.board, hand.rules.ranking)}
        if hand.runs == 2:
            you["strength2"] = strength(hole, hand.board2, hand.rules.ranking)
        pending = hand.pending
        if pending is not None and seat in pending.seats:
            you["choice"] = pending.kind  # "runs": agree or decline; "show": show or muck
        pots = hand.pots
        if hand.complete and not hand.shown and len(pots) == 1 and pots[0].winners == (seat,):
            you["may_show"] = True  # an uncontested winner may show one or both cards
        out["you"] = you
    if seat is not None and hand.to_act == seat:
        out["legal"] = hand.legal().to_json()
    return out


def event_view(event: Event, version: int, seat: int | None) -> dict[str, Any]:
    """One event as ``seat`` may see it: its content, or only its version when outside its audience."""
    if visible_to(event, seat):
        out = event_to_json(event)  # cards as labels with their deck, as in view()
        out["version"] = version
        return out
    return {"version": version}


def events_for(hand: Hand, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
    """The events from ``since`` on as ``seat`` may see them (gap-free versions, private content hidden)."""
    return [event_view(ev, since + i, seat) for i, ev in enumerate(hand.events_since(since))]
