"""What compiling the table machine with mypyc (setup.py) asks of its classes, checked on whichever build runs:
a hand's copy and its pickle carry every attribute, and the error codes stay the contract's."""

from __future__ import annotations

import pickle
import random

from taiwan_poker.errors import BadStacksError, IllegalActionError, MissingCardsError, TaiwanPokerError
from taiwan_poker.rules import CALL, CHECK, FOLD, Action, ActionKind, Hand, RuleSet
from taiwan_poker.rules.betting import Betting
from taiwan_poker.rules.events import Street
from taiwan_poker.rules.simulate import play_out, random_action


def attributes(cls: type) -> tuple[str, ...]:
    """The instance attributes of ``cls``: its ``__slots__`` in Python, mypyc's record of them when compiled."""
    names = getattr(cls, "__slots__", None) or getattr(cls, "__mypyc_attrs__", None)
    assert names, cls
    return tuple(n for n in names if not n.startswith("__"))


def mid_hand(seed: int) -> Hand:
    """A six-seat hand to the turn: a raise, then calls and checks (the button folds when ``seed`` is odd)."""
    hand = Hand.start(RuleSet(decks=2, seats=6, run_twice=True), [2000, 1500, 2500, 800, 2000, 3000],
                      rng=random.Random(seed))
    hand.act(Action(ActionKind.RAISE, 60))
    while hand.street in (Street.PREFLOP, Street.FLOP):
        kinds = hand.legal().actions
        fold = seed % 2 and hand.to_act == hand.button and ActionKind.CHECK not in kinds
        hand.act(FOLD if fold else CHECK if ActionKind.CHECK in kinds else CALL)
    return hand


def test_a_forked_hand_has_every_attribute_of_the_hand_and_none_of_its_containers() -> None:
    """``Hand.fork`` and ``Betting.fork`` name each attribute (a compiled class cannot be copied by its slots):
    every one is there, equal, and no list or dict is shared, so a move tried on the copy leaves the hand."""
    hand = mid_hand(3)
    for original, copy, cls in ((hand, hand.fork(), Hand), (hand.betting, hand.betting.fork(), Betting)):
        for name in attributes(cls):
            mine, theirs = getattr(original, name), getattr(copy, name)
            if isinstance(mine, Betting):
                continue  # forked itself, checked as the second pair
            assert mine == theirs, name
            assert not isinstance(mine, list | dict) or mine is not theirs, f"{cls.__name__}.{name} is shared"
    assert not hand.complete
    tried = hand.fork()
    before = hand.to_json()
    tried.act(random_action(tried.legal(), random.Random(1)))
    assert hand.to_json() == before and tried.version > hand.version


def test_a_hand_pickles_as_its_log_and_comes_back_equal() -> None:
    """Pickled hands cross processes (the coach's steadiness test): replaying the log gives the same hand."""
    for seed in range(6):
        hand = mid_hand(seed)
        back = pickle.loads(pickle.dumps(hand))
        assert back.to_json() == hand.to_json() and back.legal() == hand.legal()
        finished = play_out(hand.fork(), random.Random(seed))
        assert pickle.loads(pickle.dumps(finished)).to_json() == finished.to_json()


def test_the_error_classes_keep_their_contract_codes() -> None:
    """A ``code`` set in a compiled subclass would not be seen by its instances: the classes live in errors.py."""
    for cls, code in ((BadStacksError, "bad_stacks"), (MissingCardsError, "missing_cards"),
                      (IllegalActionError, "illegal_action")):
        error = cls("message")
        assert isinstance(error, TaiwanPokerError) and error.code == code and error.to_json()["code"] == code
