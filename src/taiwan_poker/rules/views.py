"""What each seat (or a spectator) may know: the only way state leaves the core.

A seat sees its own private burn(s) and hole cards, the public board, bets,
stacks and pots; opponents' hole cards only once shown at showdown.  A private
burn is in no other view, ever; dealer burns and the shoe order are in no view.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from .events import Event, event_to_json, visible_to
from .hand import Hand


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
        seats.append(entry)
    return {
        "hand_no": hand.hand_no, "version": hand.version, "button": hand.button,
        "small_blind_seat": hand.sb_seat, "big_blind_seat": hand.bb_seat,
        "street": hand.street.value, "complete": hand.complete, "to_act": hand.to_act,
        "board": _faces(hand.board), "pot": hand.pot, "current_bet": b.current_bet, "seats": seats,
        "returned": [{"seat": e.seat, "amount": e.amount} for e in hand.returned],
        "pots": [
            {"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners), "shares": list(p.shares)}
            for p in hand.pots
        ],
    }


def seat_part(hand: Hand, seat: int | None) -> dict[str, Any]:
    """What only ``seat`` may see, added to :func:`public_view`: its own cards and burn, and its options."""
    out: dict[str, Any] = {}
    if seat is not None and hand.dealt_in(seat):
        out["you"] = {"seat": seat, "hole": _faces(hand.hole_cards(seat)), "burns": _faces(hand.private_burns(seat))}
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
