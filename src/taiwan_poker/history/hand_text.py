"""Hands as PokerStars-style text, written from one viewer's visible events (``events_for``), like the PHH export.

A card the viewer may not see is never in the input, so it cannot be written.
Cards are written by face (``[Ah Kd]``) with their deck numbers after them
(``decks 1 2``): two A♥ of a multi-deck shoe are two physical cards.  The
viewer's private burn is written as its own line; nobody else's ever is.

Every chip that went in is on a line (the blinds, the straddle, each action),
so the lines add up to the summary's total pot.  A board run twice is written
as PokerStars writes one: ``*** FIRST FLOP ***`` .. ``*** SECOND RIVER ***``,
then each run's showdown with the pots it paid, and both boards in the
summary.  The header gives the hand's own stakes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card
from ..rules.actions import ActionKind
from ..rules.replay import (
    STREET_NAMES,
    AntePost,
    BlindPost,
    ChipsBack,
    ExtraBurn,
    Mucked,
    PotWon,
    PrivateDeal,
    SeatLeft,
    SecondDealt,
    SecondShown,
    ShownAfter,
    ShownHand,
    StraddlePost,
    StreetAction,
    StreetDealt,
    replay,
)

RUN_NAMES = ("", "FIRST ", "SECOND ")  # a street's or showdown's name on a board run twice, by run


def _cards(cards: Sequence[Card | None]) -> str:
    known = [c for c in cards if c is not None]
    faces = " ".join(c.face_str for c in known)
    decks = " ".join(str(c.deck) for c in known)
    return f"[{faces}] (decks {decks})"


def hand_text(events: Sequence[Mapping[str, Any]], *, names: Sequence[str], small_blind: int, big_blind: int,
              decks: int, table: str, hand_no: int, viewer: int | None, event: str | None = None,
              level: int | None = None) -> str:
    """One hand as text; ``viewer`` is the seat whose events these are (None: a spectator's); a sit-and-go's hand
    names its tournament (``event``) and blind level."""
    hand = replay(events)
    stacks = hand.start_stacks
    n = len(stacks)
    name = {s: names[s] or f"Seat {s + 1}" for s in range(n)}
    runs = hand.runs
    lines = [
        f"Taiwan Poker Hand #{table}-{hand_no}: " + (f"{event}, Level {level} " if event is not None else "")
        + f"Hold'em No Limit ({small_blind}/{big_blind}) - {decks} decks",
        f"Table '{table}' {n}-max Seat #{hand.button + 1} is the button",
    ]
    lines += [f"Seat {s + 1}: {name[s]} ({stacks[s]} in chips)" for s in range(n) if stacks[s] > 0]
    twice = next((s.street for s in hand.steps if isinstance(s, SecondDealt)), len(STREET_NAMES))  # first run twice
    board: list[Card] = []
    board2: list[Card] = []  # the second run's board: the cards dealt before the all-in, then its own
    holes_dealt = False
    showdown = 0  # the run whose showdown is being written (0: none yet)
    pots_of_run: dict[int, int] = {}
    dealt: list[str] = []  # the viewer's cards, written after the blinds as PokerStars does
    summary: list[str] = []
    for step in hand.steps:
        if isinstance(step, AntePost):
            lines.append(f"{name[step.seat]}: posts the ante {step.amount}")
        elif isinstance(step, BlindPost):
            lines.append(f"{name[step.seat]}: posts {'big' if step.big else 'small'} blind {step.amount}")
        elif isinstance(step, StraddlePost):
            lines.append(f"{name[step.seat]}: posts straddle {step.amount}")
        elif isinstance(step, PrivateDeal) and step.seat == viewer:
            dealt.append(f"Dealt to {name[step.seat]} {_cards(step.hole)}")
            if step.burn is not None:
                dealt.append(f"Private burn of {name[step.seat]} {_cards([step.burn])}")
        elif isinstance(step, ExtraBurn) and step.seat == viewer:
            lines.append(f"Private burn of {name[step.seat]} {_cards([step.card])}")
        elif not isinstance(step, AntePost | BlindPost | StraddlePost | PrivateDeal | ExtraBurn) and not holes_dealt:
            lines += ["*** HOLE CARDS ***", *dealt]
            holes_dealt = True
        if isinstance(step, StreetAction):
            lines.append(f"{name[step.seat]}: {_action(step)}" + (" (timed out)" if step.timeout else ""))
        elif isinstance(step, SeatLeft):
            lines.append(f"{name[step.seat]}: folds (left the table)")
        elif isinstance(step, StreetDealt | SecondDealt):
            second = isinstance(step, SecondDealt)
            cards = board2 if second else board
            before = f" {_cards(cards)}" if cards else ""
            cards += step.cards
            if not second and step.street < twice:
                board2 += step.cards
            run = RUN_NAMES[2 if second else 1] if step.street >= twice else ""
            lines.append(f"*** {run}{STREET_NAMES[step.street].upper()} ***{before} {_cards(step.cards)}")
        elif isinstance(step, ChipsBack):
            lines.append(f"Uncalled bet ({step.amount}) returned to {name[step.seat]}")
        elif isinstance(step, ShownHand | SecondShown | PotWon | Mucked) and not showdown:
            showdown = 1
            lines.append(f"*** {RUN_NAMES[1] if runs > 1 else ''}SHOW DOWN ***")
        if isinstance(step, ShownHand):
            category = step.category.replace("_", " ")
            lines.append(f"{name[step.seat]}: shows {_cards(step.hole)} ({category})")
            summary.append(f"Seat {step.seat + 1}: {name[step.seat]} showed {_cards(step.hole)}")
        elif isinstance(step, SecondShown):
            if showdown < 2:
                showdown = 2
                lines.append(f"*** {RUN_NAMES[2]}SHOW DOWN ***")
            lines.append(f"{name[step.seat]}: shows {_cards(hand.hole(step.seat))} "
                         f"({step.category.replace('_', ' ')})")
        elif isinstance(step, Mucked):
            lines.append(f"{name[step.seat]}: mucks hand")
        elif isinstance(step, PotWon):
            index = pots_of_run.get(step.run, 0)
            pots_of_run[step.run] = index + 1
            pot = "pot" if len([p for p in hand.pots if p.run == step.run]) == 1 else \
                "main pot" if index == 0 else f"side pot-{index}"
            for w, share in zip(step.winners, step.shares, strict=True):
                lines.append(f"{name[w]} collected {share} from {pot}")
        elif isinstance(step, ShownAfter):
            lines.append(f"{name[step.seat]}: shows {_cards(step.cards)}")
            summary.append(f"Seat {step.seat + 1}: {name[step.seat]} showed {_cards(step.cards)}")
    if hand.end_stacks is not None:
        end = hand.end_stacks
        summary += [f"Seat {s + 1}: {name[s]} finished with {end[s]}" for s in range(n) if stacks[s] > 0]
    lines.append("*** SUMMARY ***")
    total = f"Total pot {sum(p.amount for p in hand.pots)}"
    if runs > 1:
        lines += [total, "Hand was run twice", f"FIRST Board {_cards(board)}", f"SECOND Board {_cards(board2)}"]
    else:
        lines.append(total + (f" | Board {_cards(board)}" if board else ""))
    lines += summary
    return "\n".join(lines) + "\n"


def _action(a: StreetAction) -> str:
    allin = " and is all-in" if a.allin else ""
    what = a.effect
    if what is ActionKind.FOLD:
        return "folds"
    if what is ActionKind.CHECK:
        return "checks"
    if what is ActionKind.CALL:
        return f"calls {a.amount}{allin}"
    if what is ActionKind.BET:
        return f"bets {a.to}{allin}"
    return f"raises {a.to - a.level_before} to {a.to}{allin}"


def match_text(hands: Sequence[str]) -> str:
    """Several hands in one file, separated by blank lines as PokerStars writes them."""
    return "\n\n".join(hands)
