"""The players' habits at a table (:mod:`~taiwan_poker.strategy.habits`), from its earlier hands' public actions:
what a bot and the coach see of the others, as a player at the table would have."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..lru import LruMap
from ..rules.hand import Hand
from ..rules.replay import PotWon, StreetDealt, VisibleHand, replay
from ..rules.views import events_for
from ..tables import TableState
from .habits import Habits, count_hand
from .particles import shown_strength
from .seat import SeatView

HANDS = 300  # the most recent hands counted
_counts: LruMap[tuple[object, ...], dict[int, Habits]] = LruMap(4096, clock=lambda: 0.0)


def hand_counts(hand: Hand) -> dict[int, Habits]:
    """One finished hand's counts per seat from its public actions, kept: a hand's story does not change once it
    is over.  Kept by all of its events: two hands of one deal (the duplicate format plays each deal twice,
    the seats swapped) share their first events and often their length."""
    key = (hand.version, hash(tuple(hand.events)))
    hit = _counts.get(key)
    if hit is None:
        story = replay(events_for(hand, None))
        hit = count_hand(story.actions, showdown_wins(story.pots), shown_strengths(story, hand.rules.decks))
        _counts.put(key, hit)
    return hit


def shown_strengths(story: VisibleHand, decks: int) -> Callable[[int, int], float | None]:
    """``strength_of(seat, street)`` for :func:`~taiwan_poker.strategy.habits.count_hand`: the strength of the
    hand ``seat`` showed down, on the board as it stood on ``street`` (None when it showed nothing)."""
    shown = {s.seat: [c.index for c in s.hole] for s in story.shown}
    boards: dict[int, list[int]] = {}
    for step in story.steps:
        if isinstance(step, StreetDealt) and step.street not in boards:  # a second run of the board: not counted
            boards[step.street] = [c.index for c in step.cards]

    def strength_of(seat: int, street: int) -> float | None:
        board = [c for s in range(1, street + 1) for c in boards.get(s, [])]
        hole = shown.get(seat)
        if hole is None or len(hole) != 2 or len(board) != street + 2:
            return None
        return shown_strength(hole, board, decks)

    return strength_of


def showdown_wins(pots: Iterable[PotWon]) -> dict[int, bool]:
    """The seats that reached the showdown (could win a pot more than one could win; a mucked hand too), and
    whether each won a share of one."""
    contested = [p for p in pots if len(p.eligible) > 1]
    return {s: any(s in p.winners for p in contested) for p in contested for s in p.eligible}


def habits_at(state: TableState, index: int) -> tuple[Habits | None, ...]:
    """The habits of whoever sat in each seat in hand ``index`` (0-based), over the table's hands before it
    (none for a table whose lineups do not match its hands)."""
    if len(state.lineups) != len(state.hands):
        return ()
    seen: dict[int, Habits] = {}
    start = max(0, index - HANDS)
    for hand, lineup in zip(state.hands[start:index], state.lineups[start:index], strict=True):
        for seat, h in hand_counts(hand).items():
            who = lineup[seat] if seat < len(lineup) else None
            if who is not None:
                seen[who] = seen.get(who, Habits()) + h
    return tuple(seen.get(m) if m is not None else None for m in state.lineups[index])


def with_habits(state: TableState, view: SeatView) -> SeatView:
    """``view`` (of the hand being played) with the habits of whoever sits in each seat (:func:`habits_at`); a
    view before the flop facing no raise is returned as it is (nothing reads them there).  After the flop the
    strategy reads them (how far to trust a bet, big bets made too often): the live bots and the coach see what
    the review and the bench's matches see."""
    if not view.reads_habits or len(state.hands) < 2:
        return view
    return view.seeing(habits_at(state, len(state.hands) - 1))
