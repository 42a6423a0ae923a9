"""Hands as PHH, the Poker Hand History format that pokerkit reads, written from one viewer's visible events.

The exporter reads only :func:`~taiwan_poker.rules.views.events_for` of the
viewer's seat (or a spectator's), the same fail-closed events a browser gets:
a card the viewer may not see is never in the input, so it is written
``????`` as PHH allows.

Players are listed as PHH numbers them: ``p1`` is the first seat after the
button and the last is the button (heads-up, ``p1`` is the big blind and
``p2`` the button, whose blind pokerkit posts reversed).  Multi-deck identity
and private burns have no PHH field; they go in user-defined fields (names
starting with ``_``), which a reader that knows one deck ignores:

* ``_decks``: decks in the shoe;
* ``_hole_decks``: each player's hole cards' deck numbers (0 where unknown);
* ``_board_decks``: the deck number of each board card, in dealing order;
* ``_private_burns``: each player's private burn (``????`` unless it is the viewer's);
* ``_private_burn_decks``: their deck numbers (0 where unknown);
* ``_table``: the table's code; ``_seats``: our seat numbers (0-based) of p1, p2, …;
* ``_runs``: 2 when the board was run twice (written only then).

``blinds_or_straddles`` holds every forced bet of the hand at its player: the
small and big blinds of the hand's own stakes and, when under the gun
straddled, the straddle (``[10, 20, 40, 0]``).

**Run it twice.** PHH has no action for choosing the number of runouts, so a
reader learns it from ``_runs``: the second run's cards follow the first run's
river as more ``d db`` actions (the streets dealt again, as pokerkit deals
them), and a reader selects two runouts when the showdown asks (pokerkit:
``state.select_runout_count(2)`` for each player asked, with
``Automation.RUNOUT_COUNT_SELECTION`` left out of the hand history's
automations).  Each run pays half of every pot, the first the odd chip, as
ours does.

A time-out is written as its action with the commentary ``# timed out``; a
winner who showed cards without a showdown, as a commentary (PHH shows cards
only at a showdown).  A player who left mid-hand folded out of turn, which PHH
cannot say; such a fold is written as a comment at the point it happened.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card
from ..rules.actions import ActionKind
from ..rules.replay import (
    BlindPost,
    Mucked,
    SeatLeft,
    SecondDealt,
    ShownAfter,
    ShownHand,
    StraddlePost,
    StreetAction,
    StreetDealt,
    VisibleHand,
    replay,
)


def _face(card: Card | None) -> str:
    return "??" if card is None else card.face_str


def _deck(card: Card | None) -> int:
    return 0 if card is None else card.deck


def hand_phh(events: Sequence[Mapping[str, Any]], *, names: Sequence[str], small_blind: int, big_blind: int,
             decks: int, table: str = "", hand_no: int | None = None) -> str:
    """One hand in PHH (TOML) from a viewer's events (``events_for``); ``names`` by seat, the blinds the hand's."""
    hand = replay(events)
    stacks = hand.start_stacks
    n = len(stacks)
    order = [s for s in ((hand.button + 1 + i) % n for i in range(n)) if stacks[s] > 0]  # p1 .. pN (the button)
    player = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    actions: list[str] = []
    for step in hand.steps:
        if isinstance(step, StreetAction):
            timed_out = " # timed out" if step.timeout else ""
            if step.kind is ActionKind.FOLD:
                actions.append(f"{player[step.seat]} f{timed_out}")
            elif step.answerable:
                actions.append(f"{player[step.seat]} cbr {step.to}{timed_out}")
            else:  # a check or call, or an all-in nobody can answer (PHH calls, the excess comes back)
                actions.append(f"{player[step.seat]} cc{timed_out}")
        elif isinstance(step, SeatLeft):
            actions.append(f"# {player[step.seat]} left the table: folded out of turn")
        elif isinstance(step, StreetDealt | SecondDealt):
            actions.append("d db " + "".join(c.face_str for c in step.cards))
        elif isinstance(step, ShownHand):
            actions.append(f"{player[step.seat]} sm " + "".join(c.face_str for c in step.hole))
        elif isinstance(step, Mucked):
            actions.append(f"{player[step.seat]} sm")
        elif isinstance(step, ShownAfter):
            actions.append(f"# {player[step.seat]} showed " + "".join(c.face_str for c in step.cards))
    hole = {s: hand.hole(s) for s in order}
    burns = {s: next(iter(hand.burns(s)), None) for s in order}
    deals = [f"d dh {player[s]} " + "".join(_face(c) for c in hole[s]) for s in order]
    fields: list[tuple[str, Any]] = [
        ("variant", "NT"),
        ("antes", [0] * len(order)),
        ("blinds_or_straddles", _forced_bets(hand, order, small_blind, big_blind)),
        ("min_bet", big_blind),
        ("starting_stacks", [stacks[s] for s in order]),
        ("actions", deals + actions),
        ("players", [names[s] for s in order]),
    ]
    if hand_no is not None:
        fields.append(("hand", hand_no))
    if hand.end_stacks is not None:
        fields.append(("finishing_stacks", [hand.end_stacks[s] for s in order]))
    fields += [
        ("_table", table),
        ("_seats", order),
        ("_decks", decks),
        ("_hole_decks", [[_deck(c) for c in hole[s]] for s in order]),
        ("_board_decks", [_deck(c) for s in hand.steps if isinstance(s, StreetDealt | SecondDealt) for c in s.cards]),
        ("_private_burns", [_face(burns[s]) + ("" if burns[s] is not None else "??") for s in order]),
        ("_private_burn_decks", [_deck(burns[s]) for s in order]),
    ]
    if hand.runs > 1:
        fields.append(("_runs", hand.runs))
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields)


def _forced_bets(hand: VisibleHand, order: Sequence[int], small_blind: int, big_blind: int) -> list[int]:
    """``blinds_or_straddles`` in PHH order: each blind and the straddle at the player who posted it, at the
    hand's stakes (pokerkit posts a short stack's all-in for less itself); heads-up reversed, as PHH says the
    button's small blind is."""
    out = [0] * len(order)
    for step in hand.steps:
        if isinstance(step, BlindPost):
            out[order.index(step.seat)] = big_blind if step.big else small_blind
        elif isinstance(step, StraddlePost):
            out[order.index(step.seat)] = step.amount
    return out[::-1] if len(order) == 2 else out


def _toml(value: Any) -> str:
    """A TOML value: strings, integers and (nested) arrays of them are all PHH needs; JSON writes them the same."""
    if isinstance(value, bool):  # pragma: no cover - no boolean fields
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False)


def match_phh(hands: Sequence[str]) -> str:
    """Several hands in one file, as pokerkit's ``HandHistory.loads_all`` reads them (``[1]``, ``[2]``, …)."""
    return "\n".join(f"[{i + 1}]\n{text}" for i, text in enumerate(hands))
