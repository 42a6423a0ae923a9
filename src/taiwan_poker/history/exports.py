"""One export pipeline for played hands: a hand as one viewer saw it, then PHH, text or JSON.

:func:`hand_record` takes a hand from the table's state through the
fail-closed views only (the viewer's seat's visible events and final view, or
a spectator's); each format renders records, and a match is the records of
every hand joined. No format reads the table state itself, so none can show
more than the record holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..rules.ruleset import RuleSet
from ..rules.views import view
from ..tables.fair import fairness_record
from ..tables.state import TableState
from ..tables.views import hand_events, names_in_hand
from .hand_text import hand_text, match_text
from .phh import hand_phh, match_phh


class Format(StrEnum):
    PHH = "phh"
    TEXT = "txt"
    JSON = "json"


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as one viewer saw it (``seat`` None: public information only)."""

    table: str | None  # None: the hand is shared on its own and does not lead to its table
    hand_no: int
    seat: int | None
    names: list[str]  # each seat's player when the hand was dealt
    rules: RuleSet  # the hand's own (its stakes, its straddle), not the table's now
    complete: bool
    events: list[dict[str, Any]]
    final: dict[str, Any]
    fairness: dict[str, Any] | None = None  # the cards this viewer saw, opened against the committed shoe
    event: str | None = None  # a sit-and-go's hand: the tournament's name (PHH ``event``)
    level: int | None = None  # ... and the blind level it was dealt at, from 1 (PHH ``level``)

    def to_json(self) -> dict[str, Any]:
        rules = self.rules
        out = {"table": self.table, "hand_no": self.hand_no, "seat": self.seat, "decks": rules.decks,
               "blinds": [rules.small_blind, rules.big_blind], "straddle": rules.straddle, "names": self.names,
               "complete": self.complete, "final": self.final, "events": self.events}
        if self.fairness is not None:
            out["fairness"] = self.fairness
        if self.event is not None:
            out.update(event=self.event, level=self.level, ante=rules.ante)
        return out


def hand_record(state: TableState, table: str | None, member: int | None, index: int) -> HandRecord:
    """Hand ``index`` (0-based) as ``member`` (None: a spectator) saw it."""
    hand = state.hands[index]
    seat = state.seat_in_hand(member, index)
    deal = next((d for d in state.deals if d.hand_no == hand.hand_no), None)  # None: dealt before issue 47
    fairness = fairness_record(hand.rules.decks, deal, hand, seat, state.revealed) if deal is not None else None
    event, level = tournament_of(state, table, hand.rules.big_blind)
    return HandRecord(table=table, hand_no=hand.hand_no, seat=seat, names=names_in_hand(state, index),
                      rules=hand.rules, complete=hand.complete, events=hand_events(state, member, index),
                      final=view(hand, seat), fairness=fairness, event=event, level=level)


def tournament_of(state: TableState, table: str | None, big_blind: int) -> tuple[str | None, int | None]:
    """A sit-and-go hand's tournament name and blind level (from 1; a schedule's big blinds rise, so the hand's
    big blind names its level); (None, None) at a cash table."""
    t = state.tournament
    if t is None:
        return None, None
    levels = [i + 1 for i, lv in enumerate(t.settings.schedule.levels) if lv.big == big_blind]
    name = f"Taiwan Poker sit-and-go {table}" if table else "Taiwan Poker sit-and-go"
    return name, levels[0] if levels else None


def _phh(r: HandRecord) -> str:
    return hand_phh(r.events, names=r.names, small_blind=r.rules.small_blind, big_blind=r.rules.big_blind,
                    decks=r.rules.decks, table=r.table or "", hand_no=r.hand_no, event=r.event, level=r.level)


def _text(r: HandRecord) -> str:
    return hand_text(r.events, names=r.names, small_blind=r.rules.small_blind, big_blind=r.rules.big_blind,
                     decks=r.rules.decks, table=r.table or "", hand_no=r.hand_no, viewer=r.seat, event=r.event,
                     level=r.level)


TEXT_FORMATS: dict[Format, tuple[Callable[[HandRecord], str], Callable[[Sequence[str]], str]]] = {
    Format.PHH: (_phh, match_phh),
    Format.TEXT: (_text, match_text),
}


def render_text(records: Sequence[HandRecord], fmt: Format, *, single: bool) -> str:
    """The records as PHH or text: a PHH hand's own document when ``single``, else a match's (a text file is
    always a match file, of one hand or more)."""
    one, many = TEXT_FORMATS[fmt]
    texts = [one(r) for r in records]
    return texts[0] if single and fmt is Format.PHH else many(texts)


def render_json(records: Sequence[HandRecord], *, table: str | None, single: bool) -> dict[str, Any]:
    """The records as JSON: one hand's object when ``single``, else ``{"table": ..., "hands": [...]}``."""
    if single:
        return records[0].to_json()
    return {"table": table, "hands": [r.to_json() for r in records]}
