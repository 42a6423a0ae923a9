"""One member's numbers for one hand, read from the events that member's seat saw (``events_for``).

* **net**: chips at the end of the hand minus chips at its start;
* **VPIP** (voluntarily put chips in pot): a call, bet, raise or all-in before the flop (blinds do not count);
* **PFR** (pre-flop raise): a bet, raise or all-in above the bet to call before the flop;
* **showdown**: the member's hand was shown at the end; **won** at showdown: and it took (part of) a pot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

VOLUNTARY = frozenset({"call", "bet", "raise", "allin"})


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


def hand_stats(events: Sequence[dict[str, Any]], seat: int) -> HandStats | None:
    """The seat's numbers in a finished hand, or None while it is still being played."""
    start = next((e for e in events if e.get("type") == "hand_started"), None)
    end = next((e for e in events if e.get("type") == "hand_ended"), None)
    if start is None or end is None:
        return None
    preflop = True
    level = 0
    vpip = pfr = False
    shown: set[int] = set()
    winners: set[int] = set()
    for e in events:
        kind = e.get("type")
        if kind == "blind_posted":
            level = max(level, int(e["amount"]))
        elif kind == "board_dealt":
            preflop = False
        elif kind == "action" and preflop:
            if e["seat"] == seat and e["kind"] in VOLUNTARY:
                vpip = True
                pfr = pfr or e["kind"] in ("bet", "raise") or (e["kind"] == "allin" and e["to"] > level)
            level = max(level, int(e["to"]))
        elif kind == "hand_shown":
            shown.add(e["seat"])
        elif kind == "pot_awarded":
            winners.update(e["winners"])
    showdown = seat in shown
    return HandStats(net=int(end["stacks"][seat]) - int(start["stacks"][seat]), vpip=vpip, pfr=pfr,
                     showdown=showdown, won_showdown=showdown and seat in winners)


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
