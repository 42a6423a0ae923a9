"""Habits (issue 22: "a plain bully beats the strongest level"; ranges that "never adapt"): what a table has seen
a player do before the flop, counted from public actions, and the strongest level re-raising a player who
folds to re-raises too often."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from taiwan_poker.bots.levels import policy_of
from taiwan_poker.bots.table_turn import bot_move
from taiwan_poker.rules import Action, ActionKind, Hand, RuleSet
from taiwan_poker.rules.replay import replay
from taiwan_poker.rules.views import events_for
from taiwan_poker.strategy.habits import PRIOR_FOLD_TO_RERAISE, Habits, count_hand
from taiwan_poker.strategy.policy import strategy
from taiwan_poker.strategy.seat import SeatView, seat_view
from taiwan_poker.strategy.table_habits import habits_at, with_habits
from taiwan_poker.tables import Act, Deal, Open, TableState, decide, fold
from taiwan_poker_lab.arena import Memory, duplicate_heads_up, play_to_end
from taiwan_poker_lab.exploiters import EXPLOITERS

from .spots import play


def _hand(seed: int, moves: list[str], seats: int = 2) -> Hand:
    return play(Hand.start(RuleSet(decks=2, seats=seats), [2000] * seats, 0, rng=random.Random(seed)), *moves)


def test_a_hand_counts_raises_by_level_and_the_fold_to_a_reraise() -> None:
    hand = _hand(1, ["raise 60", "raise 180", "fold"])  # heads-up: the button opens, the big blind re-raises
    counts = count_hand(replay(events_for(hand, None)).actions)
    button, blind = counts[0], counts[1]
    assert button.spots == (1, 0, 1) and button.raises == (1, 0, 0) and button.folds == (0, 0, 1)
    assert button.reraised == (1, 0) and button.folded == (1, 0)
    assert blind.spots == (0, 1, 0) and blind.raises == (0, 1, 0) and blind.reraised == (0, 0)
    total = button + button
    assert total.raises == (2, 0, 0) and total.folded == (2, 0)


def test_rates_start_at_the_prior_and_follow_the_counts() -> None:
    assert Habits().fold_to_reraise(0) == PRIOR_FOLD_TO_RERAISE[0]
    folder = Habits(reraised=(200, 30), folded=(200, 0))
    assert folder.fold_to_reraise(0) > 0.95 and folder.fold_to_reraise(1) < 0.2  # an open, a re-raise
    assert Habits(spots=(100, 0, 0), raises=(100, 0, 0)).raise_rate(0) > 0.9


def _facing_open_with_a_fold() -> tuple[SeatView, float]:
    """The big blind heads-up facing a 3x open with a hand the tables mostly fold."""
    for seed in range(200):
        hand = _hand(seed, ["raise 60"])
        v = seat_view(hand, hand.to_act)
        fold_p = strategy(v).probability(v, Action(ActionKind.FOLD))
        if fold_p > 0.9:
            return v, fold_p
    raise AssertionError("no folding hand found")


def test_the_strongest_level_reraises_an_opener_who_folds_to_reraises() -> None:
    v, fold_p = _facing_open_with_a_fold()
    bully = Habits(spots=(60, 0, 0), raises=(60, 0, 0), reraised=(50, 0), folded=(48, 0))
    exploited = strategy(replace(v, habits=(bully, None)))
    assert exploited.probability(v, Action(ActionKind.FOLD)) == 0.0
    reraise = [p for a, p in exploited.choices if a.kind in (ActionKind.RAISE, ActionKind.ALLIN)]
    assert sum(reraise) >= fold_p - 1e-9
    # an opener who never folds to a re-raise is not re-raised light: the tables' fold stands
    caller = Habits(spots=(60, 0, 0), raises=(60, 0, 0), reraised=(50, 0), folded=(0, 0))
    sound = strategy(replace(v, habits=(caller, None)))
    assert sound.probability(v, Action(ActionKind.FOLD)) == fold_p


def test_a_match_remembers_each_players_habits() -> None:
    memory = Memory()
    bully, strong = EXPLOITERS["bully"], policy_of("strong")
    for seed in range(6):
        hand = _hand(seed, [])
        play_to_end(hand, [bully, strong], [random.Random(seed)] * 2, habits=memory.habits([bully, strong]))
        memory.add(hand, [bully, strong])
    seen = memory.seen[bully]
    assert sum(seen.raises) >= 6  # the bully raised every hand it could
    # and the duplicate matches keep one memory for the whole match
    tally = duplicate_heads_up(RuleSet(decks=2, seats=2), strong, bully, 4, seed=1)
    assert tally.hands == 8


def test_a_table_counts_its_players_habits_over_its_hands() -> None:
    rng = random.Random(4)
    rules = RuleSet(decks=2, seats=2, starting_stack=20000)
    state: TableState = fold(decide(None, Open(rules, 1, "Alice", ("strong",)), rng))
    alice = state.seat_of(1)
    assert alice is not None
    raised = checked = after = 0
    while len(state.hands) < 12 and state.hand is not None:
        hand = state.hand
        if hand.complete:
            state = fold(decide(state, Deal(1), rng), state)  # Alice deals the next hand
            continue
        seat = hand.to_act
        assert seat is not None
        occupant = state.seats[seat]
        assert occupant is not None
        if occupant.bot is None:  # Alice opens every pot to 3x and folds to any re-raise
            v = seat_view(hand, seat)
            if len(state.hands) >= 2 and v.street > 0:  # after the flop too (issue 22: the strategy reads them)
                seen_after = with_habits(state, v).habits
                assert seen_after and seen_after[seat] is not None and seen_after[seat].raises[0] >= 1
                after += 1
            if v.street == 0 and v.can(ActionKind.RAISE) and v.raises_on(0) == 0:
                action, raised = Action(ActionKind.RAISE, 60), raised + 1
            elif v.can(ActionKind.CHECK):
                action = Action(ActionKind.CHECK)
            else:
                action = Action(ActionKind.FOLD)
            state = fold(decide(state, Act(1, action), rng), state)
        else:
            v = seat_view(hand, seat)
            if len(state.hands) >= 2 and v.street == 0 and v.raises_on(0) >= 1:
                # the view a bot or the coach gets facing Alice's open carries what the table saw of her
                seen_now = with_habits(state, v).habits
                alice_now = state.lineups[-1].index(1)
                assert seen_now and seen_now[alice_now] is not None and seen_now[alice_now].raises[0] >= 1
                checked += 1
            move = bot_move(state, rng)
            assert move is not None
            state = fold(decide(state, move, rng), state)
    last = len(state.hands) - 1
    seen = habits_at(state, last)[state.lineups[last].index(1)]
    assert seen is not None and seen.raises[0] >= 1 and sum(seen.spots) >= seen.raises[0]
    # the view a bot or the coach gets facing Alice's open carries them
    hand = state.hand
    assert raised >= 2 and checked >= 1 and after >= 1


def test_a_hand_counts_big_bets_and_overbets_by_street_and_whether_a_bet_was_faced() -> None:
    """After the flop, each decision counts by street, unbet or facing a bet; a bet or raise of 1.5 pots over the
    call is big, of 4 pots an overbet (the frequency floor reads these: issue 22, item 3)."""
    hand = _hand(3, ["raise 50", "call", "check", "bet 40", "allin", "fold"])  # the flop: a 0.4-pot bet, a jam
    counts = count_hand(replay(events_for(hand, None)).actions)
    button, blind = counts[0], counts[1]
    assert button.street_spots == (1, 1, 0, 0, 0, 0) and button.big_bets == (0,) * 12  # 0.4 pots: not big
    assert blind.street_spots == (1, 1, 0, 0, 0, 0)
    assert blind.big_bets == (0, 0, 0, 1) + (0,) * 8  # facing the bet on the flop: an overbet
    big = count_hand(replay(events_for(_hand(3, ["raise 50", "call", "check", "bet 150"]), None)).actions)[0]
    assert big.big_bets == (1,) + (0,) * 11  # 1.5 pots into 100, nobody had bet: big, not an overbet
    # the rates: the prior alone, and a player seen jamming half its unbet flop decisions
    assert Habits().big_rate(1, False, 20.0) == 0.02 and Habits().big_rate(1, False, 2.0) == pytest.approx(0.06)
    assert Habits().big_rate(2, True, 1.0) == 1.0  # a smaller bet: the counts bound nothing
    jammer = Habits(street_spots=(200, 0, 0, 0, 0, 0), big_bets=(0, 100) + (0,) * 10)
    assert jammer.big_rate(1, False, 20.0) == pytest.approx(100.2 / 210)
    assert jammer.big_rate(1, True, 20.0) == 0.02 and jammer.big_rate(2, False, 20.0) == 0.02


def test_a_showdown_after_a_big_bet_counts_whether_the_big_bettor_won() -> None:
    """The table counts, for a player who bet big in a hand that reached the showdown, whether it won there (the
    frequency floor trusts a big bettor's range as wide by these: issue 22, item 3); a hand folded to the big
    bet counts nothing."""
    from taiwan_poker.strategy.table_habits import hand_counts, showdown_wins

    called = _hand(5, ["raise 50", "call", "check", "allin", "call"])  # the button jams the flop, called
    assert called.complete
    story = replay(events_for(called, None))
    wins = showdown_wins(story.pots)
    assert set(wins) == {0, 1} and (wins[0] != wins[1] or all(wins.values()))  # a split pot: both won a share
    counts = hand_counts(called)
    assert counts[0].big_shown == (1, int(wins[0]), 0, 0, 0, 0)  # a flop jam: counted on the flop
    assert counts[1].big_shown == (0,) * 6  # the caller bet nothing
    folded = hand_counts(_hand(5, ["raise 50", "call", "check", "allin", "fold"]))
    assert folded[0].big_shown == (0,) * 6
    assert (counts[0] + counts[0]).big_shown == (2, 2 * int(wins[0]), 0, 0, 0, 0)


def test_a_hand_shown_down_after_a_big_bet_counts_its_strength_on_that_streets_board() -> None:
    """Issue 22, item 3 (LBR jams the flop and turn with anything, and its wins at the showdown, which depend on
    how tightly it was called, were too slow to tell): for a player who bet big in a hand it showed down, the
    table counts the strength of its hand on the board of that street (its equity against one random hand
    there), the same every time it is read; a hand folded to the big bet shows nothing and counts nothing."""
    from taiwan_poker.strategy.particles import shown_strength
    from taiwan_poker.strategy.table_habits import hand_counts

    called = _hand(5, ["raise 50", "call", "check", "allin", "call"])
    story = replay(events_for(called, None))
    hole = [c.index for c in story.hole(0) if c is not None]
    flop = [c.index for c in story.board[:3]]
    strength = shown_strength(hole, flop, 2)
    assert 0.0 < strength < 1.0 and strength == shown_strength(hole, flop, 2)
    assert hand_counts(called)[0].big_strength == (1, round(1000 * strength), 0, 0, 0, 0)
    assert hand_counts(called)[1].big_strength == (0,) * 6  # the caller bet nothing
    assert hand_counts(_hand(5, ["raise 50", "call", "check", "allin", "fold"]))[0].big_strength == (0,) * 6
    # the measure itself: a set on a dry flop is strong there, seven-deuce on ace-king-queen is not
    assert shown_strength([12, 13], [14, 23, 2], 2) > 0.9 > 0.3 > shown_strength([20, 1], [48, 47, 42], 2)
    weak, strong = Habits(big_strength=(40, 40 * 450, 0, 0, 0, 0)), Habits(big_strength=(0, 0, 40, 40 * 900, 0, 0))
    assert weak.big_bet_strength(1, 2) < Habits().big_bet_strength(1, 2) < strong.big_bet_strength(1, 2)
    assert strong.big_bet_strength(1) == Habits().big_bet_strength(1)  # the flop saw none
    assert weak.big_bet_strength(3) == strong.big_bet_strength(3) == Habits().big_bet_strength(3)


def test_showdowns_after_big_bets_are_counted_on_the_street_of_the_big_bet() -> None:
    """Issue 22 (LBR jams the flop and turn with hands that keep some equity, and the river only with hands that
    win: its calls on the river lost nearly every showdown, and the record taught the strategy to fold flop jams
    it was ahead of): the table counts a showdown after a big bet on the street of that bet, so a river value
    jammer's record says nothing about its flop jams."""
    from taiwan_poker.strategy.table_habits import hand_counts, showdown_wins

    river = _hand(5, ["call", "check", "check", "check", "check", "check", "check", "allin", "call"])
    assert river.complete
    won = int(showdown_wins(replay(events_for(river, None)).pots)[0])
    assert hand_counts(river)[0].big_shown == (0, 0, 0, 0, 1, won)
    river_jammer = Habits(big_shown=(0, 0, 0, 0, 40, 38))
    assert river_jammer.big_shown_on(3) == (40, 38) and river_jammer.big_shown_on(1) == (0, 0)
    twice = river_jammer + Habits(big_shown=(2, 1, 0, 0, 0, 0))
    assert twice.big_shown == (2, 1, 0, 0, 40, 38)


def test_a_showdown_after_a_river_bet_of_any_size_counts_whether_the_bettor_won() -> None:
    """Issue 22 (LBR bets the river only with hands that win: Strong called its river all-ins of under four pots
    with hands that held 0–11 % against its cards): for a player who bet or raised on the river, of any size, in a
    hand that reached the showdown, the table counts whether it won; a river bet folded to counts nothing, and
    neither does a showdown after bets on earlier streets only."""
    from taiwan_poker.strategy.table_habits import hand_counts, showdown_wins

    line = ["call", "check", "check", "check", "check", "check", "check", "bet 20"]
    called = _hand(5, [*line, "call"])
    assert called.complete
    won = int(showdown_wins(replay(events_for(called, None)).pots)[0])
    counts = hand_counts(called)
    assert counts[0].river_shown == (1, won) and counts[1].river_shown == (0, 0)
    assert counts[0].big_shown == (0,) * 6  # half the pot: not a big bet
    assert hand_counts(_hand(5, [*line, "fold"]))[0].river_shown == (0, 0)
    # the same deal, as long a story to its showdown: its own counts, not the cached ones of the hand above
    flop_only = _hand(5, ["call", "check", "check", "bet 40", "call", "check", "check", "check", "check"])
    assert flop_only.complete and flop_only.version == called.version
    assert hand_counts(flop_only)[0].river_shown == (0, 0)
    assert hand_counts(flop_only)[0].after_raises == (1, 0)
    assert (Habits(river_shown=(3, 2)) + Habits(river_shown=(1, 1))).river_shown == (4, 3)


def test_folds_to_a_bet_after_the_flop_are_counted() -> None:
    folded = count_hand(replay(events_for(_hand(3, ["raise 50", "call", "check", "bet 60", "fold"]), None)).actions)
    assert folded[1].after_folds == 1 and folded[0].after_folds == 0
    assert Habits(after_spots=(0, 90), after_folds=90).fold_after() > 0.9 > Habits().fold_after()
