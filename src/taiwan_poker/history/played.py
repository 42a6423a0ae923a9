"""A member's played hands across tables, with their numbers, and the filters of the history page (pure)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .hand_stats import HandStats


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One finished hand the member played, with its numbers."""

    code: str
    hand_no: int
    started: dt.datetime | None
    stats: HandStats
    ev_net: int  # the net result with the all-in EV in place of the cards' verdict, where it applies
    allin: bool

    def to_json(self) -> dict[str, Any]:
        return {"table": self.code, "hand_no": self.hand_no,
                "started": self.started.isoformat() if self.started else None, **self.stats.to_json(),
                "ev_net": self.ev_net, "allin_ev": self.allin}


def filter_hands(hands: Sequence[PlayedHand], table: str | None = None, since: dt.date | None = None,
                 until: dt.date | None = None, result: str | None = None) -> list[PlayedHand]:
    """The hands at ``table``, dealt from ``since`` to ``until`` (whole days, UTC), with that ``result``."""
    out = []
    for h in hands:
        day = h.started.date() if h.started else None
        if table and h.code != table.upper():
            continue
        if since and (day is None or day < since):
            continue
        if until and (day is None or day > until):
            continue
        if result and h.stats.result != result:
            continue
        out.append(h)
    return out
