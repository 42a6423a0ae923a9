"""One member's numbers for one hand, read from the events that member's seat saw (``events_for``).

* **net**: chips at the end of the hand minus chips at its start;
* **VPIP** (voluntarily put chips in pot): a call, bet, raise or all-in before the flop (blinds do not count);
* **PFR** (pre-flop raise): a bet or raise before the flop, or an all-in above the bet level
  (:mod:`taiwan_poker.rules.replay`: its total beat the largest blind posted or the last raise);
* **showdown**: the member's hand was shown at the end; **won** at showdown: and it took (part of) a pot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.actions import ActionKind
from ..rules.replay import replay

VOLUNTARY = frozenset({ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.ALLIN})


@dataclass(frozen=True, slots=True)
class HandStats:
    net: int
    vpip: bool
    pfr: bool
    showdown: bool
    won_showdown: bool

    @property
    def result(self) -> str:
        """``won``, ``lost`` or ``even``."""
        return "won" if self.net > 0 else "lost" if self.net < 0 else "even"

    def to_json(self) -> dict[str, object]:
        return {"net": self.net, "result": self.result, "vpip": self.vpip, "pfr": self.pfr,
                "showdown": self.showdown, "won_showdown": self.won_showdown}


def hand_stats(events: Sequence[Mapping[str, Any]], seat: int) -> HandStats | None:
    """The seat's numbers in a finished hand, or None while it is still being played."""
    if not any(e.get("type") == "hand_started" for e in events):
        return None
    hand = replay(events)
    if hand.end_stacks is None:
        return None
    mine = [a for a in hand.actions if a.street == 0 and a.seat == seat and a.kind in VOLUNTARY]
    showdown = any(s.seat == seat for s in hand.shown)
    return HandStats(net=hand.end_stacks[seat] - hand.start_stacks[seat], vpip=bool(mine),
                     pfr=any(a.aggressive for a in mine), showdown=showdown,
                     won_showdown=showdown and any(seat in p.winners for p in hand.pots))


@dataclass(frozen=True, slots=True)
class SessionStats:
    hands: int
    vpip: float | None  # share of hands, 0..1
    pfr: float | None
    showdowns: int
    showdowns_won: int
    net: int

    def to_json(self) -> dict[str, object]:
        return {"hands": self.hands, "vpip": None if self.vpip is None else round(self.vpip, 4),
                "pfr": None if self.pfr is None else round(self.pfr, 4), "showdowns": self.showdowns,
                "showdowns_won": self.showdowns_won, "net": self.net}


def session_stats(hands: Sequence[HandStats]) -> SessionStats:
    """Totals over several hands."""
    n = len(hands)
    return SessionStats(hands=n, vpip=sum(h.vpip for h in hands) / n if n else None,
                        pfr=sum(h.pfr for h in hands) / n if n else None,
                        showdowns=sum(h.showdown for h in hands), showdowns_won=sum(h.won_showdown for h in hands),
                        net=sum(h.net for h in hands))
