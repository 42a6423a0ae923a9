"""What a member (or a spectator) may see of a table: the only way table state leaves the core.

Built on the hand's own :func:`~taiwan_poker.rules.views.view`, which already
hides other seats' hole cards until shown and every private burn but one's
own.  Seats are matched to members hand by hand (``TableState.lineups``), so
a seat that changed hands never shows its new occupant the old one's cards.
"""

from __future__ import annotations

from typing import Any

from ..rules.events import ActionTaken, BoardDealt
from ..rules.hand import Hand
from ..rules.views import events_for, public_view, seat_part, view
from .machine import legal_for
from .state import TableState


def last_actions(hand: Hand) -> dict[str, dict[str, Any]]:
    """Each seat's latest decision on the current street (public information), keyed by seat number."""
    out: dict[str, dict[str, Any]] = {}
    for ev in hand.events:
        if isinstance(ev, BoardDealt):
            out = {}
        elif isinstance(ev, ActionTaken):
            out[str(ev.seat)] = {"kind": ev.kind.value, "to": ev.to, "amount": ev.amount, "allin": ev.allin,
                                 "timeout": ev.timeout}
    return out


def players(state: TableState) -> list[dict[str, Any]]:
    """Everyone at the table now, then those who left (public)."""
    stacks = state.stacks()
    out: list[dict[str, Any]] = [
        {"seat": i, "name": s.name, "left": False, "away": s.away, "stack": stacks[i],
         "creator": s.member == state.creator, "bot": s.bot is not None, "level": s.bot, "bank": s.bank,
         "busted": state.started and stacks[i] == 0 and not state.hand_running}
        for i, s in enumerate(state.seats) if s is not None
    ]
    out += [{"seat": d.seat, "name": d.name, "left": True, "away": False, "stack": 0,
             "creator": d.member == state.creator, "bot": d.bot is not None, "level": d.bot, "bank": 0,
             "busted": False} for d in state.departed]
    return out


def summary(state: TableState) -> list[dict[str, Any]]:
    """Every player who held chips at this table, with the chips they hold now or took away when they left
    (bots removed included), largest first; the chips add up to every chip that entered the table."""
    stacks = state.stacks()
    rows = [{"seat": i, "name": s.name, "bot": s.bot is not None, "left": False, "chips": stacks[i]}
            for i, s in enumerate(state.seats) if s is not None]
    rows += [{"seat": d.seat, "name": d.name, "bot": d.bot is not None, "left": True, "chips": d.took}
             for d in state.departed if d.during_match or d.took]
    return sorted(rows, key=lambda r: -int(r["chips"]))


def public_table_view(state: TableState) -> dict[str, Any]:
    """What every seat and spectator sees alike (a shell may build it once per version and share it)."""
    rules = state.rules
    out: dict[str, Any] = {
        "status": state.phase.value,
        "decks": rules.decks,
        "seats": rules.seats,
        "stack": rules.starting_stack,
        "blinds": [rules.small_blind, rules.big_blind],
        "clock": rules.action_clock,
        "time_bank": rules.time_bank,
        "players": players(state),
        "you": None,
        "spectator": True,
        "creator": False,
        "hand": None,
        "match": None,
        "coach": state.coach_on,  # the same for everyone at the table
    }
    hand = state.hand
    if hand is not None:
        hv = public_view(hand)
        hv["last_actions"] = last_actions(hand)
        out["hand"] = hv
    if state.started:
        left = [d.seat for d in state.departed if d.during_match]
        out["match"] = {
            "stacks": list(state.stacks()),
            "hands_played": len(state.hands),
            "over": state.over,
            "winner": state.winner,
            "rematch": state.rematch,
            "left": left,  # seats whose players left during the match, in order
            "forfeit": state.forfeit,  # the seat whose leaving ended it, if it ended that way
            "summary": summary(state),  # everyone who held chips: what they hold or took away
            "chips": state.bought_in,  # every chip that entered the table (the summary's total)
        }
    return out


def table_view(state: TableState, member: int | None, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The table as ``member`` (None: a spectator) may see it now (the shell adds its code and clock).

    ``public``: :func:`public_table_view` of this very state, when the caller already has it (it is not changed).
    """
    out = dict(public if public is not None else public_table_view(state))
    seat = state.seat_of(member)
    out["you"] = seat
    out["spectator"] = seat is None
    out["creator"] = member is not None and member == state.creator
    # a player who left this match may not take a seat in it again (the page offers them none)
    out["left_match"] = seat is None and state.started and any(d.member == member for d in state.departed)
    out["busted"] = seat is not None and state.started and not state.hand_running and state.stacks()[seat] == 0
    hand = state.hand
    if hand is not None:
        in_hand = state.seat_in_hand(member, len(state.hands) - 1)  # who held the seat when it was dealt
        private = seat_part(hand, in_hand)
        private.pop("legal", None)
        legal = legal_for(state, in_hand)
        if legal is not None:
            engine = hand.legal()
            private["legal"] = {**engine.to_json(), "actions": legal, "allin_to": engine.allin_to}
        if private:
            out["hand"] = {**out["hand"], **private}
    return out


def history(state: TableState, member: int | None) -> list[dict[str, Any]]:
    """Every hand as ``member`` saw it (their own cards in the hands they played; public information otherwise)."""
    out = []
    for i, hand in enumerate(state.hands):
        seat = state.seat_in_hand(member, i)
        out.append({"hand_no": hand.hand_no, "final": view(hand, seat), "events": events_for(hand, seat)})
    return out


def names_in_hand(state: TableState, index: int) -> list[str]:
    """The name of the player in each seat when hand ``index`` (0-based) was dealt ("" for an empty seat)."""
    names = {s.member: s.name for s in state.seats if s is not None}
    names.update({d.member: d.name for d in state.departed if d.member not in names})
    return [names.get(m, "") if m is not None else "" for m in state.lineups[index]]


def hand_events(state: TableState, member: int | None, index: int) -> list[dict[str, Any]]:
    """Hand ``index`` (0-based) as ``member`` saw it: the visible events of the seat they played, if any."""
    return events_for(state.hands[index], state.seat_in_hand(member, index))
