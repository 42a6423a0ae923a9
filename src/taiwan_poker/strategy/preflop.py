"""Preflop decisions from the solved tables: a probability for each action of a hand in a real situation.

    >>> from taiwan_poker.strategy.preflop import distribution
    >>> distribution(2, 6, 100, "BB", [("UTG", "fold"), ("HJ", "fold"), ("CO", "raise", 2.5),
    ...                                 ("BTN", "fold"), ("SB", "fold")], "K9s")   # doctest: +SKIP
    [('fold', 1.0, 0.0), ('call', 2.5, 0.62), ('raise', 11.0, 0.38)]

**Which table.**  The nearest solved deck count (ties to the larger; every
count 2–6 is solved): one deck reads the two-deck table (the identical-card
classes simply never occur), seven or eight the six-deck one.
Players 2–6.  Stacks: the solved depth nearest on a log scale (10, 20, 40,
100, 200 big blinds; the boundaries are the geometric means 14.1, 28.3, 63.2
and 141.4 BB).  ``stack_bb`` is the effective stack at the
start of the hand (the smaller of the hero's stack and the largest other).

**Mapping the real history onto the abstract tree.**  Actions are read in
order; each must be the abstract node's player (or one the abstract game has
already folded, see below):

* a fold is a fold (a check when the abstract player may check);
* a check or call is a call;
* a raise (bet, all-in) to ``x`` is read as one of the abstract node's call,
  raise sizes and all-in by *pseudo-harmonic mapping* (Ganzfried & Sandholm
  2013) of its size as a fraction of the pot: between the abstract fractions
  ``A < f < B`` it becomes ``A`` with probability
  ``(B − f)(1 + A) / ((B − A)(1 + f))`` — deterministically the more likely one,
  or drawn with ``rng`` when one is given; a real all-in is the abstract all-in
  when that exists;
* a limp where the abstract game has none (only the small blind may limp) is
  read as a fold — the limper's chip stays in the pot as dead money and its
  later calls are skipped — unless the limper raises later, in which case it
  is read as the smallest open;
* an action by a player the abstract game has already folded (a call beyond
  the caller caps, a limper's later call) is skipped.

When a reading leads to a dead end (the abstract betting closes while the real
one goes on, e.g. a min-raise read as a call and then re-raised), the next
reading in order of preference is tried.

**The answer.**  The hero's abstract node's actions with the table's
probabilities for the hand class, their sizes carried back to the real
situation at the same fraction of the pot (clamped to a legal raise; a raise
that would use nearly the whole stack becomes all-in).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from ..cards import Card, parse_card
from ..lru import LruMap
from .classes import CLASSES, class_index, class_of_faces, class_weights
from .habits import Habits
from .tables import SolvedTable, load_tables, solved_table
from .tree import BIG_BLIND, POSITION_NAMES, SMALL_BLIND, Kind, Node

SOLVED_STACKS: tuple[float, ...] = (10.0, 20.0, 40.0, 100.0, 200.0)
ALLIN_SHARE = 0.9  # a translated raise to this share of the stack or more becomes all-in
NOT_ALLIN_SHARE = 0.4  # a real raise below this share of the stack is not read as the abstract all-in
READ_FLOOR = 0.02  # reading a player's range from their actions: each action counts as at least this likely
READ_TOP = 0.5  # ... and a raise counts so for the top half of hands only (see _strong_classes)
FOUND = 512  # decision points whose node in the tables is kept (asked once per hand held)
LOOSE_MARGIN = 0.02  # a player's habits widen a range read only when it takes an action this much more often


History = Sequence["PreflopAction | tuple[object, ...]"]


class PreflopLookupError(ValueError):
    """A situation the tables cannot answer (bad input, or no abstract node that matches the history)."""


@dataclass(frozen=True, slots=True)
class PreflopAction:
    """One real preflop action: who (position index in preflop order or name), what, and to which street total."""

    position: int | str
    kind: str  # fold, check, call, raise, bet, allin
    to_bb: float = 0.0


@dataclass(frozen=True, slots=True)
class ActionProbability:
    """One action of the answer: kind, street total in the real situation (big blinds), probability."""

    kind: str  # fold, check, call, raise, allin
    to_bb: float
    probability: float
    abstract_to_bb: float  # its size in the solved game


@dataclass(frozen=True, slots=True)
class Lookup:
    """The full answer: the distribution, and how the situation was read."""

    decks: int  # the table used
    players: int
    stack: float
    position: int
    hand: str
    actions: tuple[ActionProbability, ...]
    path: tuple[str, ...]  # the abstract actions matched, e.g. ("UTG fold", "HJ raise 2.5")
    notes: tuple[str, ...]  # every reading that was not one-to-one
    node: int  # the abstract decision node
    exploitability_mbb: float  # of the table used

    def as_tuples(self) -> list[tuple[str, float, float]]:
        return [(a.kind, a.to_bb, a.probability) for a in self.actions]


def positions(players: int) -> tuple[str, ...]:
    """Position names in preflop order (heads-up: SB — the button — then BB)."""
    if players not in POSITION_NAMES:
        raise PreflopLookupError(f"the tables cover 2 to 6 players, not {players}")
    return POSITION_NAMES[players]


def position_index(players: int, position: int | str) -> int:
    names = positions(players)
    if isinstance(position, int) and not isinstance(position, bool):
        if 0 <= position < players:
            return position
        raise PreflopLookupError(f"position {position} is not 0..{players - 1}")
    text = str(position).upper()
    if text == "BTN" and players == 2:
        text = "SB"
    if text not in names:
        raise PreflopLookupError(f"unknown position {position!r} at {players} players ({', '.join(names)})")
    return names.index(text)


def seat_position(seat: int, button: int, seats: Sequence[int]) -> int:
    """Preflop position index of ``seat`` given the button seat and the seats dealt in (in table order).

    Heads-up the button is the small blind (position 0).  Otherwise the small
    blind is the first seat after the button and position 0 (UTG) the third.
    """
    order = sorted(seats)
    n = len(order)
    if seat not in order or button not in order:
        raise PreflopLookupError("the seat and the button must be among the seats dealt in")
    b = order.index(button)
    if n == 2:
        return 0 if seat == button else 1
    # preflop order starts three seats after the button: UTG … BTN, SB, BB
    first = (b + 3) % n
    return (order.index(seat) - first) % n


def nearest_stack(stack_bb: float) -> float:
    """The solved depth nearest ``stack_bb`` on a log scale."""
    if not stack_bb > 0:
        raise PreflopLookupError(f"the stack must be positive, not {stack_bb}")
    return min(SOLVED_STACKS, key=lambda s: (abs(math.log(stack_bb / s)), s))


def table_decks(decks: int, players: int = 2, stack: float = 100.0) -> int:
    """The deck count of the table used: the nearest solved one for these players and stack (ties: more decks)."""
    if not 1 <= decks <= 8:
        raise PreflopLookupError(f"decks must be 1 to 8, not {decks}")
    return _nearest_decks(decks, players, float(stack))


@lru_cache(maxsize=256)
def _nearest_decks(decks: int, players: int, stack: float) -> int:
    """:func:`table_decks` once per argument (the shipped tables never change; every decision asks)."""
    solved = load_tables().decks_for(players, stack)
    if not solved:
        raise PreflopLookupError(f"no table for {players} players at {stack:g} BB")
    return min(solved, key=lambda d: (abs(d - decks), -d))


def hand_class(hand: str | Sequence[Card]) -> str:
    """The class of a hand given as a class name (``AKs``, ``QQ=``) or two cards (``"AsAs"``, ``"Ah Kh"``, Cards)."""
    if not isinstance(hand, str):
        cards = list(hand)
        if len(cards) != 2:
            raise PreflopLookupError("a hand has two cards")
        return class_of_faces(cards[0].face, cards[1].face)
    text = hand.replace(" ", "").replace(",", "")
    try:
        return CLASSES[class_index(text)]
    except ValueError:
        pass
    if len(text) == 4:
        try:
            a, b = parse_card(text[:2]), parse_card(text[2:])
        except ValueError:
            raise PreflopLookupError(f"cannot read the hand {hand!r}") from None
        return class_of_faces(a.face, b.face)
    raise PreflopLookupError(f"cannot read the hand {hand!r} (a class such as AKs or QQ=, or two cards such as AsKs)")


# --- the real betting state ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Real:
    contrib: tuple[float, ...]
    level: float
    increment: float

    @property
    def pot(self) -> float:
        return sum(self.contrib)

    def after(self, p: int, to: float) -> _Real:
        c = list(self.contrib)
        c[p] = max(c[p], to)
        level = max(self.level, c[p])
        return _Real(tuple(c), level, max(self.increment, level - self.level))


def _blinds(players: int) -> _Real:
    c = [0.0] * players
    sb = 0 if players == 2 else players - 2
    c[sb] = SMALL_BLIND
    c[players - 1] = BIG_BLIND
    return _Real(tuple(c), BIG_BLIND, BIG_BLIND)


def _fraction(to: float, level: float, contrib: float, pot: float) -> float:
    """A raise to ``to`` as a fraction of the pot after calling (0 for a call)."""
    return max(0.0, to - level) / max(pot + level - contrib, 1e-9)


def _phm(a: float, b: float, x: float) -> float:
    """Pseudo-harmonic mapping: the probability that ``x`` (between the fractions ``a < b``) is read as ``a``."""
    if b <= a:
        return 1.0
    return (b - x) * (1 + a) / ((b - a) * (1 + x))


@dataclass(frozen=True, slots=True)
class _Reading:
    child: int
    note: str | None


def _raise_readings(table: SolvedTable, node: Node, real: _Real, p: int, to: float, allin: bool,
                    stack: float, rng: random.Random | None) -> list[_Reading]:
    s = node.state
    pot_a = sum(s.contrib)
    f_real = _fraction(to, real.level, real.contrib[p], real.pot)
    options: list[tuple[float, int, str]] = []
    for a, child in zip(node.actions, node.children, strict=True):
        if a.kind is Kind.FOLD:
            continue
        frac = 0.0 if a.kind is Kind.CALL else _fraction(a.to, s.level, s.contrib[p], pot_a)
        options.append((frac, child, a.label(s.level, s.contrib[p])))
    options.sort()
    out: list[_Reading] = []
    if allin or to >= stack:
        out += [_Reading(c, None) for f, c, lab in options if lab == "allin"]
    below = [o for o in options if o[0] <= f_real]
    above = [o for o in options if o[0] > f_real]
    if not allin and to < NOT_ALLIN_SHARE * stack:
        # a raise that leaves most of the stack behind is not read as an all-in (which would leave the answer
        # only call or fold) while a smaller raise size is there; the all-in stays the last resort
        above = [o for o in above if o[2] != "allin"]
    if below and above:
        lo, hi = below[-1], above[0]
        pa = _phm(lo[0], hi[0], f_real)
        first_low = rng.random() < pa if rng is not None else pa >= 0.5
        pair = [lo, hi] if first_low else [hi, lo]
        exact = abs(pair[0][0] - f_real) <= 0.02 * max(f_real, 0.05)
        note = None if exact else f"read as {pair[0][2]} (pseudo-harmonic {pa if first_low else 1 - pa:.2f})"
        out.append(_Reading(pair[0][1], note))
        out.append(_Reading(pair[1][1], f"read as {pair[1][2]} (the other side of the pseudo-harmonic mapping)"))
    rest = sorted(options, key=lambda o: (o[0] == 0.0, abs(o[0] - f_real)))  # other raises before a call
    for o in rest:
        if all(r.child != o[1] for r in out):
            exact = not out and abs(o[0] - f_real) <= 0.02 * max(f_real, 0.05)
            out.append(_Reading(o[1], None if exact else f"read as {o[2]} (the nearest size)"))
    return out


@dataclass(slots=True)
class _Search:
    table: SolvedTable
    history: Sequence[tuple[int, str, float]]
    hero: int | None  # None: the end of the history may be any node (the betting closed, or anyone to act)
    stack: float
    rng: random.Random | None
    dead: set[tuple[int, int]]  # (history index, node) pairs known to lead nowhere


def _walk(
    sr: _Search, i: int, node: Node, real: _Real, path: tuple[str, ...], notes: tuple[str, ...]
) -> tuple[Node, _Real, tuple[str, ...], tuple[str, ...]] | None:
    if (i, node.index) in sr.dead:
        return None
    found = _step(sr, i, node, real, path, notes)
    if found is None:
        sr.dead.add((i, node.index))
    return found


def _step(
    sr: _Search, i: int, node: Node, real: _Real, path: tuple[str, ...], notes: tuple[str, ...]
) -> tuple[Node, _Real, tuple[str, ...], tuple[str, ...]] | None:
    table = sr.table
    names = positions(table.spec.players)
    if i == len(sr.history):
        if sr.hero is None or (node.terminal is None and node.player == sr.hero and table.stored(node.index)):
            return node, real, path, notes
        return None
    p, kind, to = sr.history[i]
    if kind == "call":
        to = real.level
    nxt = real if kind in ("fold", "check") else real.after(p, min(to, sr.stack))
    if node.terminal is not None or node.state.folded[p]:
        # the abstract game has this player out already (caps, a limp read as a fold): skip what it does
        if node.state.folded[p] and kind in ("fold", "check", "call"):
            note = f"{names[p]} {kind} skipped (out of the abstract hand)"
            return _walk(sr, i + 1, node, nxt, path, notes if kind == "fold" else (*notes, note))
        return None
    if node.player != p or not table.stored(node.index):
        return None  # not this player's turn here, or a node too rare to be shipped (its answer is unknown)
    s = node.state
    acts = node.actions
    readings: list[_Reading] = []
    by_kind = {a.kind: c for a, c in zip(acts, node.children, strict=True)}
    if kind == "fold":
        if Kind.FOLD in by_kind:
            readings.append(_Reading(by_kind[Kind.FOLD], None))
        elif Kind.CALL in by_kind:
            readings.append(_Reading(by_kind[Kind.CALL], "a fold with nothing to call read as a check"))
    elif kind in ("check", "call"):
        if Kind.CALL in by_kind:
            readings.append(_Reading(by_kind[Kind.CALL], None))
            if Kind.FOLD in by_kind:
                readings.append(_Reading(by_kind[Kind.FOLD], "read as a fold (the line is too rare to be shipped)"))
        elif s.raises == 0 and Kind.FOLD in by_kind:
            readings.append(_Reading(by_kind[Kind.FOLD], "limp read as a fold (its chip is dead money)"))
            raises = [(a.to, c) for a, c in zip(acts, node.children, strict=True) if a.kind is Kind.RAISE]
            if raises:
                readings.append(_Reading(min(raises)[1], "limp read as the smallest open"))
        elif Kind.FOLD in by_kind:
            readings.append(_Reading(by_kind[Kind.FOLD], "a call beyond the abstract game's caps read as a fold"))
    else:
        readings = _raise_readings(table, node, real, p, min(to, sr.stack), kind == "allin", sr.stack, sr.rng)
    for r in readings:
        a = acts[node.children.index(r.child)]
        label = f"{names[p]} {a.label(s.level, s.contrib[p])}"
        more = notes if r.note is None else (*notes, f"{names[p]} {kind}{f' {to:g}' if to else ''}: {r.note}")
        got = _walk(sr, i + 1, table.tree.nodes[r.child], nxt, (*path, label), more)
        if got is not None:
            return got
    return None


def _find(
    table: SolvedTable, history: Sequence[tuple[int, str, float]], hero: int | None, stack: float,
    rng: random.Random | None
) -> tuple[Node, _Real, tuple[str, ...], tuple[str, ...]]:
    search = _Search(table, history, hero, stack, rng, set())
    found = _walk(search, 0, table.tree.nodes[0], _blinds(table.spec.players), (), ())
    if found is None:
        raise PreflopLookupError("no abstract decision of this position matches the history")
    return found


_found: LruMap[tuple[object, ...], tuple[Node, _Real, tuple[str, ...], tuple[str, ...]]] = LruMap(
    FOUND, clock=lambda: 0.0)


def _normalise_history(players: int, history: History) -> list[tuple[int, str, float]]:
    out: list[tuple[int, str, float]] = []
    for item in history:
        pos: object
        kind: object
        to: object
        if isinstance(item, PreflopAction):
            pos, kind, to = item.position, item.kind, item.to_bb
        else:
            if not 2 <= len(item) <= 3:
                raise PreflopLookupError(f"a history item is (position, kind[, to_bb]), not {item!r}")
            pos, kind = item[0], item[1]
            to = item[2] if len(item) == 3 else 0.0
        kind = str(kind).lower()
        if kind == "bet":
            kind = "raise"
        if kind == "all-in":
            kind = "allin"
        if kind not in ("fold", "check", "call", "raise", "allin"):
            raise PreflopLookupError(f"unknown action {kind!r} (fold, check, call, raise, bet, allin)")
        if not isinstance(to, int | float):
            raise PreflopLookupError(f"the amount of {item!r} must be a number of big blinds")
        if kind == "raise" and not to > 0:
            raise PreflopLookupError(f"a raise needs its street total in big blinds: {item!r}")
        if not isinstance(pos, int | str):
            raise PreflopLookupError(f"a position is an index or a name, not {pos!r}")
        out.append((position_index(players, pos), kind, float(to)))
    return out


def lookup(
    decks: int,
    players: int,
    stack_bb: float,
    position: int | str,
    history: History,
    hand: str | Sequence[Card],
    *,
    rng: random.Random | None = None,
) -> Lookup:
    """The solved strategy's action probabilities for ``hand`` at ``position`` after ``history`` (module doc)."""
    positions(players)
    stack = nearest_stack(stack_bb)
    d = table_decks(decks, players, stack)
    hero = position_index(players, position)
    name = hand_class(hand)
    if name.endswith("=") and decks < 2:
        raise PreflopLookupError(f"{name} (two identical cards) needs two decks or more")
    table = solved_table(d, players, stack)
    if rng is None:  # the same node for every hand at this point: found once (LBR and the coach ask many)
        point = (d, players, stack, hero, stack_bb, tuple(history))
        hit = _found.get(point)
        if hit is None:
            hit = _find(table, _normalise_history(players, history), hero, stack_bb, None)
            _found.put(point, hit)
        node, real, path, notes = hit
    else:
        node, real, path, notes = _find(table, _normalise_history(players, history), hero, stack_bb, rng)
    probs = table.node_strategy(node.index)[:, class_index(name)]
    s = node.state
    pot_a = sum(s.contrib)
    mine = real.contrib[hero]
    merged: dict[tuple[str, float], list[float]] = {}
    for a, pr in zip(node.actions, probs, strict=True):
        if a.kind is Kind.FOLD:
            key = ("fold", mine)
        elif a.kind is Kind.CALL:
            key = ("check" if real.level <= mine else "call", min(real.level, stack_bb))
        elif a.kind is Kind.ALLIN:
            key = ("allin", stack_bb)
        else:
            frac = _fraction(a.to, s.level, s.contrib[hero], pot_a)
            to = real.level + frac * (real.pot + real.level - mine)
            to = max(to, real.level + max(real.increment, BIG_BLIND))
            to = round(to, 2)
            key = ("allin", stack_bb) if to >= ALLIN_SHARE * stack_bb else ("raise", to)
        slot = merged.setdefault(key, [0.0, a.to])
        slot[0] += float(pr)
    total = sum(v[0] for v in merged.values()) or 1.0
    actions = tuple(ActionProbability(k, t, v[0] / total, v[1]) for (k, t), v in merged.items())
    meta = table.meta
    return Lookup(d, players, stack, hero, name, actions, path, notes, node.index, float(meta["exploitability_mbb"]))


def distribution(
    decks: int,
    players: int,
    stack_bb: float,
    position: int | str,
    history: History,
    hand: str | Sequence[Card],
    *,
    rng: random.Random | None = None,
) -> list[tuple[str, float, float]]:
    """``[(kind, to_bb, probability), …]`` for the hand's decision (probabilities add up to 1; see :func:`lookup`)."""
    return lookup(decks, players, stack_bb, position, history, hand, rng=rng).as_tuples()


def _loosened(row: npt.NDArray[np.float64], rows: npt.NDArray[np.float64], i: int, kinds: list[bool],
              reach: npt.NDArray[np.float64], seen: float) -> npt.NDArray[np.float64]:
    """The probability of child ``i`` per class for a player seen taking its kind (``kinds``: the children of that
    kind) at rate ``seen``, more often than the tables' range here would: the extra hands come from the ones the
    tables play otherwise, in proportion (each class keeps its own mix within the kind)."""
    kind = rows[kinds].sum(axis=0)
    total = float(reach.sum())
    tables_rate = float((reach * kind).sum()) / total if total > 0 else 0.0
    if seen <= tables_rate + LOOSE_MARGIN or tables_rate >= 1.0:
        return row
    extra = (seen - tables_rate) / (1.0 - tables_rate)
    mass = float((reach * kind).sum())
    share = float((reach * row).sum()) / mass if mass > 0 else 1.0 / max(1, sum(kinds))
    out: npt.NDArray[np.float64] = row + extra * (1.0 - kind) * share
    return out


def _node_and_reach(
    decks: int, players: int, stack_bb: float, position: int | str | None, history: History, floor: float = 0.0,
    observed: Mapping[int, Habits] | None = None,
) -> tuple[SolvedTable, Node, _Real, npt.NDArray[np.float64]]:
    positions(players)
    stack = nearest_stack(stack_bb)
    d = table_decks(decks, players, stack)
    hero = None if position is None else position_index(players, position)
    table = solved_table(d, players, stack)
    node, real, _, _ = _find(table, _normalise_history(players, history), hero, stack_bb, None)
    reach = np.tile(class_weights(d), (players, 1))
    chain: list[int] = []
    n = node
    while n.parent >= 0:
        chain.append(n.index)
        n = table.tree.nodes[n.parent]
    strong = _strong_classes(d) if floor > 0 else None
    raises = 0
    for child in reversed(chain):
        parent = table.tree.nodes[table.tree.nodes[child].parent]
        i = parent.children.index(child)
        rows = table.node_strategy(parent.index).astype(np.float64)
        row = rows[i]
        aggressive = parent.actions[i].kind in (Kind.RAISE, Kind.ALLIN)
        seen = observed.get(parent.player) if observed else None
        if seen is not None and parent.actions[i].kind is not Kind.FOLD:
            kinds = [(a.kind in (Kind.RAISE, Kind.ALLIN)) == aggressive and a.kind is not Kind.FOLD
                     for a in parent.actions]
            rate = (seen.raise_rate(raises) if aggressive
                    else max(0.0, 1.0 - seen.raise_rate(raises) - seen.fold_rate(raises)))
            row = _loosened(row, rows, i, kinds, reach[parent.player], rate)
        if strong is not None:
            row = np.maximum(row, floor * strong) if aggressive else np.maximum(row, floor)
        reach[parent.player] *= row
        raises += int(aggressive)
    return table, node, real, reach


@cache
def _strong_classes(decks: int) -> npt.NDArray[np.float64]:
    """1 for the classes in the top :data:`READ_TOP` of hands by equity against a random hand, 5 % for the rest:
    where the floor reads a raise the tables (almost) never make, the raiser holds mostly strong hands."""
    from .classes import removal_matrix
    from .equity_matrix import equity_matrix

    w = class_weights(decks)
    eq = (equity_matrix(decks) * removal_matrix(decks) * w[None, :]).sum(axis=1)
    order = np.argsort(-eq)
    cum = np.cumsum(w[order])
    out = np.full(len(w), 0.05)
    out[order[cum - w[order] < READ_TOP]] = 1.0
    out.setflags(write=False)
    return out


def ranges(
    decks: int, players: int, stack_bb: float, position: int | str, history: History, floor: float = 0.0
) -> dict[str, dict[str, float]]:
    """What the solved strategy holds at the hero's node: per position still in, its class distribution (sums to 1).

    The prior of each class times the probability of every action that
    position took on the matched path (a player's range as the table reads it).
    With ``floor``, each of those probabilities counts as at least ``floor``: a
    line the tables (almost) never take then reads as the hands that reached it
    before, not as the few that take it in equilibrium (:data:`READ_FLOOR`).
    """
    _, node, _, reach = _node_and_reach(decks, players, stack_bb, position, history, floor)
    names = positions(players)
    out: dict[str, dict[str, float]] = {}
    for p in range(players):
        if node.state.folded[p]:
            continue
        total = float(reach[p].sum())
        if total > 0:
            out[names[p]] = {c: float(v / total) for c, v in zip(CLASSES, reach[p], strict=True) if v > 0}
    return out


def ranges_after(decks: int, players: int, stack_bb: float, history: History, floor: float = 0.0,
                 observed: Mapping[int, Habits] | None = None) -> dict[int, npt.NDArray[np.float64]]:
    """Each position still in after the whole preflop ``history``: its class distribution (182 weights, sum 1).

    Like :func:`ranges` (``floor`` too), but the history may end anywhere (typically where the preflop betting
    closed and the flop comes): the prior of each class times the probability of every action that position took.
    ``observed``: per position, the habits the table saw of its player (:mod:`.habits`); one seen calling or
    raising more often than the tables' range would at that point holds the extra hands too, drawn from those
    the tables play otherwise (a player who never folds holds every hand).
    """
    _, node, _, reach = _node_and_reach(decks, players, stack_bb, None, history, floor, observed)
    out: dict[int, npt.NDArray[np.float64]] = {}
    for p in range(players):
        if node.state.folded[p]:
            continue
        total = float(reach[p].sum())
        if total > 0:
            out[p] = reach[p] / total
    return out


def frequencies(
    decks: int, players: int, stack_bb: float, position: int | str, history: History
) -> dict[str, float]:
    """How often the hero's whole range at this node takes each action (e.g. ``{"fold": 0.31, "call": 0.55, …}``).

    Keys are the abstract action labels (``fold``, ``check``, ``call``, ``raise 7.5``, ``allin``); the
    frequencies add up to 1.  Where the tables never bring the hero to this node, every hand counts.
    """
    table, node, _, reach = _node_and_reach(decks, players, stack_bb, position, history)
    mine = reach[node.player]
    if not mine.sum() > 0:  # the tables never bring this position here: every hand counts
        mine = class_weights(table_decks(decks, players, nearest_stack(stack_bb))).astype(np.float64)
    probs = table.node_strategy(node.index).astype(np.float64)
    weights = probs @ mine / float(mine.sum())
    s = node.state
    return {a.label(s.level, s.contrib[node.player]): float(w) for a, w in zip(node.actions, weights, strict=True)}


def covered() -> tuple[list[int], list[int], list[float]]:
    """The shipped grid: deck counts, player counts, stacks."""
    return load_tables().grid()

