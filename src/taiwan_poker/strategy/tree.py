"""The abstract preflop game: positions, blinds, a small action set, and its game tree.

``players`` (2–6) sit in preflop order ``0 .. players-1``: heads-up the small
blind (the button) acts first and the big blind last; three-handed and more
``UTG … BTN, SB, BB``.  Everyone starts with the same ``stack`` (big blinds);
the blinds are 0.5 and 1, no antes.

The actions (:class:`Sizing`): fold, call or check, a few raise sizes, all-in.

* **Open** (the first raise): to ``open_to`` big blinds, plus one big blind for
  each limper.  Only the small blind may limp (complete); every other seat
  opens or folds when nobody has raised, the big blind checks or raises.
* **3-bet** (the second raise): ``threebet_ip`` times the bet when the raiser
  will be in position after the flop against the player it re-raises,
  ``threebet_oop`` times out of position; plus one times the bet for each caller.
* **4-bet**: ``fourbet`` times the bet, plus one times for each caller.
* After ``sized_raises`` raises only all-in is left, and no more than
  ``max_raises`` raises in all.
* A sized raise to ``allin_threshold`` of the stack or more is not offered
  (all-in is).  All-in is offered whenever the stack covers more than a call,
  except from four players up where it needs a stack of at most 25 BB, or at
  most 8 pots (counting the call), or no sized raise left: no 100-BB open
  shoves.
* From four players up at most two players call a raise and one a re-raise
  (the others fold or raise) — except the big blind closing the betting,
  which may always call — and an all-in is called by at most one player from
  40 BB up (two below) besides players who have raised in the hand, who may
  always call it; heads-up and three-handed there are no such caps.

Everything is in big blinds.  :func:`build_tree` lays the game out as a flat
list of nodes; the node order is deterministic, so a table of strategies stored
by node index is read back against the same tree built from the same
:class:`GameSpec`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

SMALL_BLIND = 0.5
BIG_BLIND = 1.0

POSITION_NAMES: dict[int, tuple[str, ...]] = {
    2: ("SB", "BB"),
    3: ("BTN", "SB", "BB"),
    4: ("CO", "BTN", "SB", "BB"),
    5: ("HJ", "CO", "BTN", "SB", "BB"),
    6: ("UTG", "HJ", "CO", "BTN", "SB", "BB"),
}


class Kind(StrEnum):
    """What an abstract action does (a check is a :attr:`CALL` with nothing to call)."""

    FOLD = "fold"
    CALL = "call"
    RAISE = "raise"
    ALLIN = "allin"


@dataclass(frozen=True, slots=True)
class Act:
    """An abstract action: its kind and the player's street total after it (big blinds)."""

    kind: Kind
    to: float

    def label(self, facing: float, contributed: float) -> str:
        if self.kind is Kind.CALL:
            return "check" if facing <= contributed else "call"
        if self.kind is Kind.FOLD:
            return "fold"
        if self.kind is Kind.ALLIN:
            return "allin"
        return f"raise {self.to:g}"


@dataclass(frozen=True, slots=True)
class Sizing:
    """The raise sizes of the abstraction (see the module docstring)."""

    open_to: tuple[float, ...] = (2.5,)
    threebet_ip: tuple[float, ...] = (3.0,)
    threebet_oop: tuple[float, ...] = (3.75,)
    fourbet: tuple[float, ...] = (2.3,)
    sized_raises: int = 3
    max_raises: int = 4
    allin_threshold: float = 0.4
    sb_limp: bool = True
    max_callers: tuple[int, ...] = (2, 1)  # callers allowed at raise level 1, 2, … (the last repeats)
    max_allin_players: int = 3
    allin_pot_multiple: float = float("inf")  # all-in offered when the stack is at most this many pots (after a call)
    allin_always_below: float = 25.0  # … and always when the stack is this many big blinds or fewer


def default_sizing(players: int) -> Sizing:
    """The shipped abstraction: three open sizes heads-up and three-handed, one size a level from four players up."""
    if players <= 3:
        return Sizing(
            open_to=(2.0, 2.5, 3.5),
            threebet_ip=(3.0,),
            threebet_oop=(3.0, 4.0),
            fourbet=(2.3,),
            sized_raises=3,
            max_raises=5,
            max_callers=(2, 2),
        )
    return Sizing(allin_pot_multiple=8.0)


def sizing_for(players: int, stack: float) -> Sizing:
    """The shipped sizing of a game: :func:`default_sizing`, with all-ins called by one player only from 40 BB
    up at four players and more (three-way all-ins are kept where stacks are short)."""
    z = default_sizing(players)
    if players >= 4 and stack >= 40:
        return Sizing(**{**{f: getattr(z, f) for f in z.__dataclass_fields__}, "max_allin_players": 2})
    return z


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One abstract game: players, stack (big blinds) and sizing."""

    players: int
    stack: float
    sizing: Sizing | None = None  # None: :func:`sizing_for` the players and stack

    def __post_init__(self) -> None:
        if self.players not in POSITION_NAMES:
            raise ValueError(f"players must be 2 to 6, not {self.players}")
        if not self.stack > 1.0:
            raise ValueError(f"the stack must be more than the big blind, not {self.stack}")

    @property
    def z(self) -> Sizing:
        """The sizing in use."""
        return self.sizing if self.sizing is not None else sizing_for(self.players, self.stack)

    @property
    def sb(self) -> int:
        return 0 if self.players == 2 else self.players - 2

    @property
    def bb(self) -> int:
        return self.players - 1

    def postflop_rank(self, position: int) -> int:
        """Order of acting after the flop (0 first): the blinds first, the button last."""
        n = self.players
        if n == 2:
            return 1 - position
        if position == n - 2:
            return 0
        if position == n - 1:
            return 1
        return position + 2

    def in_position(self, a: int, b: int) -> bool:
        """Whether ``a`` acts after ``b`` on the later streets."""
        return self.postflop_rank(a) > self.postflop_rank(b)


@dataclass(frozen=True, slots=True)
class State:
    """A betting state: what everyone has put in, who folded, who is still to act."""

    contrib: tuple[float, ...]
    folded: tuple[bool, ...]
    pending: tuple[int, ...]
    level: float
    raises: int
    callers: int
    last_raiser: int
    increment: float
    raised: tuple[bool, ...] = ()  # who has raised in this hand (may always call an all-in)

    def has_raised(self, p: int) -> bool:
        return bool(self.raised) and self.raised[p]


class TerminalKind(StrEnum):
    FOLD = "fold"  # one player left
    ALLIN = "allin"  # everyone left is all-in: the cards are dealt out
    FLOP = "flop"  # the flop is seen with chips behind: post-flop value by the realisation model


@dataclass(frozen=True, slots=True)
class Node:
    """A node of the tree: a decision (``player >= 0``) or a terminal (``terminal`` set)."""

    index: int
    parent: int
    depth: int
    state: State
    player: int = -1
    actions: tuple[Act, ...] = ()
    children: tuple[int, ...] = ()
    terminal: TerminalKind | None = None

    @property
    def is_terminal(self) -> bool:
        return self.terminal is not None

    @property
    def pot(self) -> float:
        return sum(self.state.contrib)

    @property
    def live(self) -> tuple[int, ...]:
        return tuple(p for p, f in enumerate(self.state.folded) if not f)


def initial_state(spec: GameSpec) -> State:
    n = spec.players
    contrib = [0.0] * n
    contrib[spec.sb] = SMALL_BLIND
    contrib[spec.bb] = BIG_BLIND
    return State(tuple(contrib), (False,) * n, tuple(range(n)), BIG_BLIND, 0, 0, -1, BIG_BLIND, (False,) * n)


def _round(x: float) -> float:
    return round(x * 100) / 100


def raise_targets(spec: GameSpec, s: State, p: int) -> list[float]:
    """The sized raise-to amounts offered to ``p`` (all-in not included)."""
    z = spec.z
    if s.raises >= min(z.sized_raises, z.max_raises):
        return []
    if s.raises == 0:
        sizes = [o + s.callers * BIG_BLIND for o in z.open_to]
    else:
        if s.raises == 1:
            mults = z.threebet_ip if spec.in_position(p, s.last_raiser) else z.threebet_oop
        else:
            mults = z.fourbet
        sizes = [(m + s.callers) * s.level for m in mults]
    out: list[float] = []
    for x in sizes:
        x = _round(x)
        if x >= s.level + max(s.increment, BIG_BLIND) and x < z.allin_threshold * spec.stack and x not in out:
            out.append(x)
    return sorted(out)


def legal_actions(spec: GameSpec, s: State, p: int) -> tuple[Act, ...]:
    """The abstract actions of ``p`` in state ``s`` (in a fixed order: fold, call, raises by size, all-in)."""
    stack = spec.stack
    mine = s.contrib[p]
    out: list[Act] = []
    if s.level > mine:
        out.append(Act(Kind.FOLD, mine))
    limp_ban = s.raises == 0 and p not in (spec.bb,) and not (p == spec.sb and spec.z.sb_limp)
    facing_allin = s.level >= stack
    allin_live = sum(1 for q, f in enumerate(s.folded) if not f and s.contrib[q] >= stack)
    cap = spec.z.max_callers[min(s.raises, len(spec.z.max_callers)) - 1] if s.raises > 0 else spec.players
    closes = p == spec.bb and s.pending == (p,)  # the big blind closing the betting may always call
    capped = (s.callers >= cap and not facing_allin and not closes) or (
        facing_allin and allin_live >= spec.z.max_allin_players and not s.has_raised(p)
    )
    if not limp_ban and not capped:
        out.append(Act(Kind.CALL, min(s.level, stack)))
    if s.raises < spec.z.max_raises and stack > s.level:
        out += [Act(Kind.RAISE, x) for x in raise_targets(spec, s, p)]
        pot = sum(s.contrib)
        z = spec.z
        cheap = stack <= z.allin_always_below or stack <= z.allin_pot_multiple * (pot + s.level - mine)
        if cheap or (len(out) <= 2 and s.raises >= 2):
            out.append(Act(Kind.ALLIN, stack))
    return tuple(out)


def apply(spec: GameSpec, s: State, p: int, a: Act) -> State:
    """The state after ``p`` takes action ``a``."""
    n = spec.players
    contrib = list(s.contrib)
    rest = s.pending[1:] if s.pending and s.pending[0] == p else tuple(q for q in s.pending if q != p)
    if a.kind is Kind.FOLD:
        folded = list(s.folded)
        folded[p] = True
        return State(
            s.contrib, tuple(folded), rest, s.level, s.raises, s.callers, s.last_raiser, s.increment, s.raised
        )
    if a.kind is Kind.CALL or a.to <= s.level:
        contrib[p] = min(s.level, spec.stack)
        return State(
            tuple(contrib), s.folded, rest, s.level, s.raises, s.callers + 1, s.last_raiser, s.increment, s.raised
        )
    contrib[p] = a.to
    order = [(p + k) % n for k in range(1, n)]
    pending = tuple(q for q in order if not s.folded[q] and contrib[q] < spec.stack)
    raised = list(s.raised) if s.raised else [False] * n
    raised[p] = True
    return State(
        tuple(contrib), s.folded, pending, a.to, s.raises + 1, 0, p, max(s.increment, a.to - s.level), tuple(raised)
    )


def _terminal_kind(spec: GameSpec, s: State) -> TerminalKind | None:
    live = [p for p, f in enumerate(s.folded) if not f]
    if len(live) == 1:
        return TerminalKind.FOLD
    if s.pending:
        return None
    if any(s.contrib[p] >= spec.stack for p in live):
        return TerminalKind.ALLIN
    return TerminalKind.FLOP


@dataclass(frozen=True, slots=True)
class Tree:
    """A game tree: ``nodes[0]`` is the root; children always have larger indices than their parent."""

    spec: GameSpec
    nodes: tuple[Node, ...]

    @property
    def decisions(self) -> list[Node]:
        return [n for n in self.nodes if not n.is_terminal]

    @property
    def terminals(self) -> list[Node]:
        return [n for n in self.nodes if n.is_terminal]


@lru_cache(maxsize=64)
def build_tree(spec: GameSpec) -> Tree:
    """Lay out the whole tree breadth-first (so depth never decreases with the index); remembered, it is immutable."""
    nodes: list[Node] = []
    root = initial_state(spec)
    queue: list[tuple[State, int, int]] = [(root, -1, 0)]
    head = 0
    while head < len(queue):
        s, parent, depth = queue[head]
        index = head
        head += 1
        kind = _terminal_kind(spec, s)
        if kind is not None:
            nodes.append(Node(index, parent, depth, s, terminal=kind))
            continue
        p = s.pending[0]
        acts = legal_actions(spec, s, p)
        first = len(queue)
        for a in acts:
            queue.append((apply(spec, s, p, a), index, depth + 1))
        nodes.append(Node(index, parent, depth, s, p, acts, tuple(range(first, first + len(acts)))))
    return Tree(spec, tuple(nodes))
