"""Hands as PokerStars-style text, written from one viewer's visible events (``events_for``), like the PHH export.

A card the viewer may not see is never in the input, so it cannot be written.
Cards are written by face (``[Ah Kd]``) with their deck numbers after them
(``decks 1 2``): two A♥ of a multi-deck shoe are two physical cards.  The
viewer's private burn is written as its own line; nobody else's ever is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

STREET_HEADERS = {"flop": "FLOP", "turn": "TURN", "river": "RIVER"}


def _cards(labels: Sequence[str | None]) -> str:
    known = [c for c in labels if c is not None]
    faces = " ".join(c.split(":")[0] for c in known)
    decks = " ".join(c.split(":")[1] if ":" in c else "?" for c in known)
    return f"[{faces}] (decks {decks})"


def hand_text(events: Sequence[dict[str, Any]], *, names: Sequence[str], small_blind: int, big_blind: int,
              decks: int, table: str, hand_no: int, viewer: int | None) -> str:
    """One hand as text; ``viewer`` is the seat whose events these are (None: a spectator's)."""
    start = next(e for e in events if e.get("type") == "hand_started")
    stacks = start["stacks"]
    n = len(stacks)
    name = {s: names[s] or f"Seat {s + 1}" for s in range(n)}
    lines = [
        f"Taiwan Poker Hand #{table}-{hand_no}: Hold'em No Limit ({small_blind}/{big_blind}) - {decks} decks",
        f"Table '{table}' {n}-max Seat #{start['button'] + 1} is the button",
    ]
    lines += [f"Seat {s + 1}: {name[s]} ({stacks[s]} in chips)" for s in range(n) if stacks[s] > 0]
    board: list[str] = []
    level = 0
    holes_dealt = False
    dealt: list[str] = []  # the viewer's cards, written after the blinds as PokerStars does
    summary: list[str] = []
    pot_total = 0
    for e in events:
        kind = e.get("type")
        if kind == "blind_posted":
            which = "big" if e["big"] else "small"
            lines.append(f"{name[e['seat']]}: posts {which} blind {e['amount']}")
            level = max(level, e["amount"])
        elif kind == "private_cards" and e["seat"] == viewer:
            dealt.append(f"Dealt to {name[e['seat']]} {_cards(e['hole'])}")
            if e.get("burn"):
                dealt.append(f"Private burn of {name[e['seat']]} {_cards([e['burn']])}")
        elif kind == "private_burn" and e["seat"] == viewer:
            lines.append(f"Private burn of {name[e['seat']]} {_cards([e['card']])}")
        elif kind in ("action", "seat_folded", "board_dealt", "hand_shown", "pot_awarded") and not holes_dealt:
            lines += ["*** HOLE CARDS ***", *dealt]
            holes_dealt = True
        if kind == "action":
            lines.append(f"{name[e['seat']]}: {_action(e, level)}" + (" (timed out)" if e.get("timeout") else ""))
            level = max(level, e["to"])
        elif kind == "seat_folded":
            lines.append(f"{name[e['seat']]}: folds (left the table)")
        elif kind == "board_dealt":
            header = STREET_HEADERS.get(e["street"], str(e["street"]).upper())
            before = f" {_cards(board)}" if board else ""
            board += e["cards"]
            lines.append(f"*** {header} ***{before} {_cards(e['cards'])}")
            level = 0
        elif kind == "chips_returned":
            lines.append(f"Uncalled bet ({e['amount']}) returned to {name[e['seat']]}")
        elif kind == "hand_shown":
            if "*** SHOW DOWN ***" not in lines:
                lines.append("*** SHOW DOWN ***")
            category = str(e["category"]).replace("_", " ")
            lines.append(f"{name[e['seat']]}: shows {_cards(e['hole'])} ({category})")
            summary.append(f"Seat {e['seat'] + 1}: {name[e['seat']]} showed {_cards(e['hole'])}")
        elif kind == "pot_awarded":
            pot_total += e["amount"]
            for w, share in zip(e["winners"], e["shares"], strict=True):
                lines.append(f"{name[w]} collected {share} from pot")
        elif kind == "hand_ended":
            end = e["stacks"]
            summary += [f"Seat {s + 1}: {name[s]} finished with {end[s]}" for s in range(n) if stacks[s] > 0]
    lines.append("*** SUMMARY ***")
    lines.append(f"Total pot {pot_total}" + (f" | Board {_cards(board)}" if board else ""))
    lines += summary
    return "\n".join(lines) + "\n"


def _action(e: dict[str, Any], level: int) -> str:
    what, to, amount = e["kind"], e["to"], e["amount"]
    if what == "fold":
        return "folds"
    if what == "check":
        return "checks"
    if what == "call" or (what == "allin" and to <= level):
        return f"calls {amount}" + (" and is all-in" if e.get("allin") else "")
    if what == "bet" or (what == "allin" and level == 0):
        return f"bets {to}" + (" and is all-in" if e.get("allin") else "")
    return f"raises {to - level} to {to}" + (" and is all-in" if e.get("allin") else "")


def match_text(hands: Sequence[str]) -> str:
    """Several hands in one file, separated by blank lines as PokerStars writes them."""
    return "\n\n".join(hands)
