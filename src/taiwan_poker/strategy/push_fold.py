"""Push or fold: the solved all-in-or-fold game of short stacks, for the bots and the coach in a sit-and-go.

**The game.**  The abstract preflop game of :mod:`.tree` with no sized raise
and no limp (:func:`push_fold_sizing`): a player the pot comes to unopened
goes all in or folds; a player facing one or more all-ins calls or folds; the
big blind whom everyone folds to wins the blinds.  Every player may call a
shove (the caps of the shipped tables on how many players may call an all-in
are lifted).  Stacks are equal, the blinds 0.5 and 1 big blind, no antes.

**The tables.**  Solved with the preflop solver (:mod:`taiwan_poker_lab.cfr`, the same
equity matrices and multi-way rule) for 2–6 decks, 2–6 players and stacks of
:data:`PUSH_FOLD_STACKS` big blinds by ``scripts/solve_push_fold.py``; shipped
as ``taiwan_poker/data/push_fold_strategy.npz`` (key
``d{decks}_p{players}_s{stack}``: the strategy per edge and class in the
tree's order, counts out of 255) and ``push_fold_strategy.json`` (how each
was solved: iterations, exploitability, seconds).

**The answer.**  :func:`push_fold` reads the nearest solved depth (on a log
scale) and the nearest deck count, walks the tree along what the positions
before the hero did (each one fold or all-in; after the first all-in, a call
and another all-in are the same abstract call) and returns the hero's
probabilities: ``fold`` and ``allin`` when the pot is unopened, ``fold`` and
``call`` when facing all-ins.  :func:`ranges_at` gives each player's range
there (the prior times the probabilities of what they did), for the coach's
equities.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..rules.actions import Action
from .classes import CLASSES, N_CLASSES, class_index, class_of_cards, class_weights
from .legal import allin, check_or_call, check_or_fold
from .preflop_seat import preflop_situation
from .seat import SeatView
from .tables import decode, fingerprint, node_starts, shipped, unpack
from .tree import POSITION_NAMES, GameSpec, Kind, Node, Sizing, Tree, build_tree

PUSH_FOLD_FILE = "push_fold_strategy.npz"
PUSH_FOLD_META = "push_fold_strategy.json"
PUSH_FOLD_FORMAT = 1
PUSH_FOLD_STACKS: tuple[float, ...] = (5.0, 10.0, 15.0, 20.0)
PUSH_FOLD_DECKS: tuple[int, ...] = (2, 3, 4, 5, 6)
MAX_PUSH_FOLD_BB = 20.0  # the deepest solved stack: the bots push or fold from the tables at this depth or less


class PushFoldError(ValueError):
    """A push-or-fold question the tables cannot answer (bad input, missing or mismatched data)."""


def push_fold_sizing(players: int) -> Sizing:
    """All-in or fold first in, call or fold facing all-ins, every player may call (no caps)."""
    return Sizing(open_to=(), threebet_ip=(), threebet_oop=(), fourbet=(), sized_raises=0, max_raises=1,
                  sb_limp=False, max_allin_players=players + 1)


def push_fold_spec(players: int, stack: float) -> GameSpec:
    return GameSpec(players, stack, push_fold_sizing(players))


def push_fold_key(decks: int, players: int, stack: float) -> str:
    return f"d{decks}_p{players}_s{stack:g}"


@dataclass(frozen=True, slots=True)
class PushFoldTable:
    """One solved push-or-fold game: its tree and the strategy per edge and class (counts out of 255)."""

    key: str
    decks: int
    tree: Tree
    counts: npt.NDArray[np.uint8]
    starts: npt.NDArray[np.int64]
    decision_row: dict[int, int]
    meta: dict[str, Any]

    def node_strategy(self, node: int) -> npt.NDArray[np.float32]:
        """``(actions, classes)`` probabilities at a decision node."""
        lo = int(self.starts[self.decision_row[node]])
        return decode(self.counts[lo : lo + len(self.tree.nodes[node].actions)])


@dataclass(frozen=True, slots=True)
class PushFoldSet:
    meta: dict[str, Any]
    arrays: dict[str, npt.NDArray[np.uint8]]


def read_push_fold(npz: bytes, meta_text: str) -> PushFoldSet:
    return PushFoldSet(*unpack(npz, meta_text, PUSH_FOLD_FORMAT, PushFoldError, "push-or-fold table"))


@cache
def load_push_fold() -> PushFoldSet:
    """The shipped push-or-fold tables (``taiwan_poker/data/push_fold_strategy.npz`` and ``.json``)."""
    return read_push_fold(*shipped(PUSH_FOLD_FILE, PUSH_FOLD_META, PushFoldError, "scripts/solve_push_fold.py"))


@cache
def push_fold_table(decks: int, players: int, stack: float) -> PushFoldTable:
    """One shipped table, its tree rebuilt and checked against the fingerprint it was solved on."""
    tables = load_push_fold()
    key = push_fold_key(decks, players, stack)
    if key not in tables.arrays:
        raise PushFoldError(f"no push-or-fold table {key}")
    tree = build_tree(push_fold_spec(players, stack))
    meta = tables.meta["tables"][key]
    if meta.get("fingerprint") != fingerprint(tree):
        raise PushFoldError(f"the push-or-fold table {key} was solved on another tree than this code builds")
    counts = tables.arrays[key]
    edges = sum(len(n.actions) for n in tree.nodes)
    if counts.shape != (edges, N_CLASSES):
        raise PushFoldError(f"the push-or-fold table {key} has shape {counts.shape}, not {(edges, N_CLASSES)}")
    decisions = [n.index for n in tree.nodes if not n.is_terminal]
    return PushFoldTable(key, decks, tree, counts, node_starts(tree), {n: i for i, n in enumerate(decisions)}, meta)


def nearest_push_fold_stack(stack_bb: float) -> float:
    """The solved depth nearest ``stack_bb`` on a log scale (ties: the deeper one)."""
    if not stack_bb > 0:
        raise PushFoldError(f"the stack must be positive, not {stack_bb}")
    return min(PUSH_FOLD_STACKS, key=lambda s: (abs(math.log(stack_bb / s)), -s))


def nearest_push_fold_decks(decks: int) -> int:
    """The solved deck count nearest ``decks`` (one deck reads two, seven or eight read six)."""
    if not 1 <= decks <= 8:
        raise PushFoldError(f"decks must be 1 to 8, not {decks}")
    return min(PUSH_FOLD_DECKS, key=lambda d: (abs(d - decks), -d))


@dataclass(frozen=True, slots=True)
class PushFoldAnswer:
    """The hero's probabilities at a push-or-fold decision and which table gave them."""

    decks: int  # of the table used
    players: int
    stack: float  # the solved depth used (big blinds)
    position: int
    hand: str
    facing: int  # all-ins (shoves and calls of them) before the hero: 0 unopened
    probabilities: tuple[tuple[str, float], ...]  # ("fold", p), ("allin", q) unopened; ("fold", p), ("call", q)
    node: int
    exploitability_mbb: float

    def probability(self, kind: str) -> float:
        return next((p for k, p in self.probabilities if k == kind), 0.0)

    @property
    def aggressive(self) -> str:
        """The action that is not a fold: ``allin`` unopened, ``call`` facing all-ins."""
        return "allin" if self.facing == 0 else "call"


def _walk(tree: Tree, position: int, before: Sequence[str]) -> Node:
    """The hero's node after the positions before it did ``before`` (each ``fold``, ``allin`` or ``call``)."""
    if len(before) != position:
        raise PushFoldError(f"position {position} comes after {position} actions, not {len(before)}")
    node = tree.nodes[0]
    for p, what in enumerate(before):
        if node.is_terminal or node.player != p:
            raise PushFoldError(f"no decision of position {p} after {list(before[:p])}")
        if what not in ("fold", "allin", "call"):
            raise PushFoldError(f"a push-or-fold action is fold, allin or call, not {what!r}")
        kind = Kind.FOLD if what == "fold" else None
        child = next((c for a, c in zip(node.actions, node.children, strict=True)
                      if (a.kind is Kind.FOLD) == (kind is Kind.FOLD)), None)
        if child is None:
            raise PushFoldError(f"position {p} cannot {what} here")
        node = tree.nodes[child]
    if node.is_terminal or node.player != position:
        raise PushFoldError(f"the hand is over before position {position} after {list(before)}")
    return node


def _checked(decks: int, players: int, stack_bb: float, position: int) -> PushFoldTable:
    if players not in POSITION_NAMES:
        raise PushFoldError(f"the tables cover 2 to 6 players, not {players}")
    if not 0 <= position < players:
        raise PushFoldError(f"position {position} is not 0..{players - 1}")
    return push_fold_table(nearest_push_fold_decks(decks), players, nearest_push_fold_stack(stack_bb))


def push_fold(decks: int, players: int, stack_bb: float, position: int, hand: str,
              before: Sequence[str] = ()) -> PushFoldAnswer:
    """The solved push-or-fold probabilities of ``hand`` (a class name such as ``AKs``, ``QQ=``) at ``position``
    (preflop order: 0 first to act, ``players - 1`` the big blind) with an effective stack of ``stack_bb`` big
    blinds, after the positions before it did ``before`` (one of ``fold``, ``allin``, ``call`` each).

    >>> push_fold(2, 6, 20, 0, "AA").probability("allin")
    1.0
    """
    table = _checked(decks, players, stack_bb, position)
    node = _walk(table.tree, position, before)
    try:
        column = class_index(hand)
    except ValueError as exc:
        raise PushFoldError(str(exc)) from None
    probs = table.node_strategy(node.index)[:, column]
    facing = sum(1 for w in before if w != "fold")
    labels = [("fold" if a.kind is Kind.FOLD else ("call" if facing else "allin")) for a in node.actions]
    out = tuple((label, float(p)) for label, p in zip(labels, probs, strict=True))
    return PushFoldAnswer(table.decks, players, float(table.tree.spec.stack), position, CLASSES[column], facing,
                          out, node.index, float(table.meta["exploitability_mbb"]))


def ranges_at(decks: int, players: int, stack_bb: float, position: int, before: Sequence[str] = ()
              ) -> dict[int, npt.NDArray[np.float64]]:
    """At the hero's node: per position that has acted and not folded, and per position still to act, the weights
    of its classes (the prior times the probabilities of its actions so far; not normalised)."""
    table = _checked(decks, players, stack_bb, position)
    node = _walk(table.tree, position, before)
    prior = class_weights(table.decks)
    out = {p: prior.astype(np.float64).copy() for p in range(players)}
    chain: list[int] = []
    n = node
    while n.parent >= 0:
        chain.append(n.index)
        n = table.tree.nodes[n.parent]
    for child in reversed(chain):
        parent = table.tree.nodes[table.tree.nodes[child].parent]
        i = parent.children.index(child)
        out[parent.player] = out[parent.player] * table.node_strategy(parent.index)[i].astype(np.float64)
    return {p: w for p, w in out.items() if not node.state.folded[p]}


def action_range(decks: int, players: int, stack_bb: float, position: int, before: Sequence[str], action: str
                 ) -> npt.NDArray[np.float64]:
    """The weights of the classes with which ``position`` takes ``action`` (``allin``/``call`` or ``fold``) after
    ``before``: its range so far times the probability of the action (not normalised)."""
    table = _checked(decks, players, stack_bb, position)
    node = _walk(table.tree, position, before)
    mine = ranges_at(decks, players, stack_bb, position, before)[position]
    i = 0 if action == "fold" else 1
    if node.actions[i].kind is not (Kind.FOLD if action == "fold" else node.actions[1].kind):
        raise PushFoldError(f"no {action} at this node")
    out: npt.NDArray[np.float64] = mine * table.node_strategy(node.index)[i].astype(np.float64)
    return out


@dataclass(frozen=True, slots=True)
class PushFoldSpot:
    """A seat's decision read as a spot of the push-or-fold game."""

    players: int
    position: int
    seats: tuple[int, ...]  # table seat of each position (preflop order)
    stack_bb: float  # effective stack at the start of the hand (big blinds)
    before: tuple[str, ...]  # what each position before the hero did: fold, allin or call
    hand: str

    @property
    def facing(self) -> int:
        return sum(1 for w in self.before if w != "fold")


def push_fold_spot(v: SeatView, max_bb: float = MAX_PUSH_FOLD_BB) -> PushFoldSpot | None:
    """The seat's decision as a push-or-fold spot, or None where the game does not cover it: after the flop, a
    straddle or more than six players, an effective stack above ``max_bb`` big blinds, the seat's second decision
    of the hand, or anything before it but folds, or one all-in raise followed by calls and all-ins (a limp, a
    raise that is not all in)."""
    if v.street != 0 or len(v.hole) != 2:
        return None
    sit = preflop_situation(v)
    if sit is None or sit.stack_bb > max_bb:
        return None
    before: list[str | None] = [None] * sit.hero
    opened = False
    for pos, name, _ in sit.history:
        if pos >= sit.hero or before[pos] is not None:
            return None  # the seat has acted already, or someone acts twice: not a first pass
        if name == "fold":
            before[pos] = "fold"
        elif not opened and name == "allin":
            before[pos], opened = "allin", True
        elif opened and name in ("call", "allin"):
            before[pos] = "call"
        else:
            return None
    if any(w is None for w in before):
        return None
    seats = tuple(sorted(sit.positions, key=lambda s: sit.positions[s]))
    return PushFoldSpot(sit.players, sit.hero, seats, sit.stack_bb, tuple(w for w in before if w is not None),
                        class_of_cards(v.hole[0], v.hole[1]))


def spot_answer(spot: PushFoldSpot, decks: int) -> PushFoldAnswer:
    return push_fold(decks, spot.players, spot.stack_bb, spot.position, spot.hand, spot.before)


def push_fold_choices(v: SeatView, max_bb: float = MAX_PUSH_FOLD_BB) -> list[tuple[Action, float]] | None:
    """The seat's legal actions with the push-or-fold tables' probabilities (None where they do not cover it):
    fold (a check where it may check) and all-in first in; fold and call facing all-ins."""
    spot = push_fold_spot(v, max_bb)
    if spot is None:
        return None
    answer = spot_answer(spot, v.decks)
    out: list[tuple[Action, float]] = []
    for kind, p in answer.probabilities:
        action = check_or_fold(v) if kind == "fold" else allin(v) if kind == "allin" else check_or_call(v)
        out.append((action, p))
    return out


__all__ = [
    "MAX_PUSH_FOLD_BB",
    "PUSH_FOLD_DECKS",
    "PUSH_FOLD_STACKS",
    "PushFoldAnswer",
    "PushFoldError",
    "PushFoldSpot",
    "action_range",
    "load_push_fold",
    "nearest_push_fold_decks",
    "nearest_push_fold_stack",
    "push_fold",
    "push_fold_choices",
    "push_fold_key",
    "push_fold_sizing",
    "push_fold_spec",
    "push_fold_spot",
    "push_fold_table",
    "ranges_at",
    "spot_answer",
]
