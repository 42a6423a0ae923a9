"""Multi-deck equity: one hand against one or more opponents (exact hands, ranges or random).

Who knows what.  The calculation is from the hero's point of view with every
opponent's holding given as an exact hand, a range or ``random``.  Removed
from the shoe are exactly the physical cards named: the hero's hole cards,
the hero's own private burn when known, exact opponent hands and the board.
Cards dealt but unseen (opponents' private burns, the dealer burns) are *not*
removed: a random unseen card does not change the distribution of the cards
still to come, so integrating over it gives the same answer as ignoring it.

Two methods.

* **Exact** (``method="exact"``, or ``"auto"`` when the enumeration is small
  enough): because strength depends only on faces, deals are enumerated as
  *face* patterns with their physical multiplicities — the board completion as
  a face multiset weighted by ``prod C(r_f, m_f)`` (``r_f`` unseen copies of
  face ``f``), then each opponent's face combo weighted by the copies left
  after the cards placed before it.  The weights count physical deals exactly,
  so the results are exact fractions (``win_count / total`` …).
* **Monte Carlo**: physical deals are drawn uniformly over the consistent ones
  (each range opponent a uniform physical hand of its range, the board
  completion and random opponents' cards uniform over the unseen physical
  cards left).  Batches run until the 95 % half-width ``1.96 × SE`` of every
  player's equity is at most ``precision`` (or ``max_hands`` is reached).

Both run in the evaluator's kernel (:func:`~taiwan_poker.evaluate.batch.showdown_exact`,
:func:`~taiwan_poker.evaluate.batch.showdown_monte_carlo`): compiled C when it is
built, else NumPy — the same exact results, and Monte Carlo results equal within
statistical error.  The parsed request (the "set-up") is cached, so repeating a
small calculation costs little more than the count itself.

Per player: ``win`` (sole best hand), ``tie`` (best hand shared), and
``equity = win + Σ tie_k / k`` (the pot share, ties split evenly).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from math import lcm, sqrt

import numpy as np
import numpy.typing as npt

from ..cards import Card, CardSpec, check_decks, parse_card, resolve_cards
from ..errors import CardCountError, TaiwanPokerError
from ..evaluate import DEFAULT_RANKING, Ranking, rank_batch
from ..evaluate.batch import MC_CHUNK, Tally, showdown_exact, showdown_monte_carlo
from ..evaluate.numpy_kernel import sample_deals
from .ranges import HandRange, RangeError, parse_range

Z95 = 1.96
DEFAULT_MAX_EXACT = 3_000_000
DEFAULT_MAX_HANDS = 20_000_000
HARD_MAX_EXACT = 40_000_000  # rows; beyond this an exact run would need several GB
_CARD_TOKEN = re.compile(r"(?:10|[2-9TJQKAtjqka])[shdcSHDC](?::\d)?")


class EquityError(TaiwanPokerError):
    code = "bad_equity_request"


@dataclass(frozen=True, slots=True)
class Holding:
    """One player's holding: an exact hand (``cards``) or a range (``hand_range``)."""

    label: str
    cards: tuple[Card, ...] = ()
    hand_range: HandRange | None = None

    @property
    def is_exact(self) -> bool:
        return self.hand_range is None

    @property
    def is_random(self) -> bool:
        return self.hand_range is not None and self.hand_range.is_random


def split_cards(text: str) -> list[str]:
    """Card tokens of ``"Ah Kh"``, ``"AhKh"``, ``"Ah,Kh"`` (raises ``bad_card`` on anything else)."""
    squeezed = re.sub(r"[\s,]+", "", text)
    tokens = _CARD_TOKEN.findall(squeezed)
    if "".join(tokens) != squeezed:
        for t in re.split(r"[\s,]+", text.strip()):
            parse_card(t)  # raises a precise bad_card
        parse_card(text)
    return tokens


def parse_holding(text: str) -> tuple[list[str], HandRange | None]:
    """``"AhKh"`` → two card names; ``"random"``, ``"QQ+,AKs"`` … → a range."""
    cards, hand_range = _parse_holding(text)
    return list(cards), hand_range


@lru_cache(maxsize=1024)
def _parse_holding(text: str) -> tuple[tuple[str, ...], HandRange | None]:
    squeezed = re.sub(r"[\s,]+", "", text)
    tokens = _CARD_TOKEN.findall(squeezed)
    if len(tokens) == 2 and "".join(tokens) == squeezed:
        return tuple(tokens), None
    try:
        return (), parse_range(text)
    except RangeError:
        if tokens and "".join(tokens) == squeezed:
            raise CardCountError(f"a hand has 2 cards, not {len(tokens)}: {text!r}", count=len(tokens)) from None
        raise


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """Results for one player (fractions of all deals; SE is ``None`` for exact results)."""

    label: str
    win: float
    tie: float
    equity: float
    win_se: float | None = None
    tie_se: float | None = None
    equity_se: float | None = None
    exact: tuple[int, int, Fraction] | None = None  # (win count, tie count, equity) over ``total``

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"label": self.label, "win": self.win, "tie": self.tie, "equity": self.equity}
        if self.exact is not None:
            out["win_count"], out["tie_count"] = self.exact[0], self.exact[1]
            out["equity_fraction"] = f"{self.exact[2].numerator}/{self.exact[2].denominator}"
        else:
            out["win_se"], out["tie_se"], out["equity_se"] = self.win_se, self.tie_se, self.equity_se
        return out


@dataclass(frozen=True, slots=True)
class EquityResult:
    """The answer: one :class:`PlayerEquity` per player (hero first)."""

    decks: int
    board: tuple[Card, ...]
    method: str  # "exact" or "monte_carlo"
    samples: int  # exact: physical deals counted; Monte Carlo: hands simulated
    players: tuple[PlayerEquity, ...]
    precision: float | None = None
    rejected: int = 0
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, object]:
        return {
            "decks": self.decks,
            "board": [c.face_str for c in self.board],
            "method": self.method,
            "samples": self.samples,
            "precision": self.precision,
            "players": [p.to_json() for p in self.players],
        }


# ----------------------------------------------------------------------------------------------- setup


@dataclass(frozen=True, slots=True)
class _ExactPlan:
    """The exact count's arguments: faces only (see :func:`showdown_exact`)."""

    remaining: npt.NDArray[np.int32]
    board: npt.NDArray[np.int16]
    fixed: npt.NDArray[np.int16]
    combos: tuple[npt.NDArray[np.int16] | None, ...]
    rows: int  # upper estimate of the face-pattern rows enumerated


@dataclass(frozen=True, slots=True)
class _MonteCarloPlan:
    """The Monte Carlo arguments: physical cards (see :func:`showdown_monte_carlo`)."""

    unseen: npt.NDArray[np.int16]
    board: npt.NDArray[np.int16]
    fixed: npt.NDArray[np.int16]
    pairs: tuple[npt.NDArray[np.int16] | None, ...]


@dataclass(slots=True)
class _Setup:
    decks: int
    hero: tuple[Card, ...]
    players: list[Holding]
    board: tuple[Card, ...]
    known: list[Card]
    remaining: list[int]  # unseen copies per face
    ranking: Ranking
    exact_plan: _ExactPlan | None = None  # made when first needed
    mc_plan: _MonteCarloPlan | None = None


@cache
def _face_combos(hand_range: HandRange) -> npt.NDArray[np.int16]:
    """The range's face combos (``n x 2``, high face first), in a fixed order."""
    combos = np.array(hand_range.sorted_combos(), dtype=np.int16).reshape(-1, 2)
    combos.setflags(write=False)
    return combos


def _live(combos: npt.NDArray[np.int16], remaining: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """Which face combos can still be dealt with ``remaining[f]`` unseen copies of each face."""
    a, b = combos[:, 0], combos[:, 1]
    ok: npt.NDArray[np.bool_] = np.where(a == b, remaining[a] >= 2, (remaining[a] >= 1) & (remaining[b] >= 1))
    return ok


def _setup(
    hero: str | Sequence[str | Card],
    opponents: Sequence[str | Sequence[Card] | HandRange],
    board: str | Sequence[str | Card],
    decks: int,
    burn: str | Card | None,
    ranking: Ranking,
) -> _Setup:
    d = check_decks(decks)
    if not opponents:
        raise EquityError("give at least one opponent (an exact hand, a range or 'random')")
    # Collect card names in order: hero, exact opponents, board, burn; resolve together to physical cards.
    names: list[str | Card] = []
    hero_names = split_cards(hero) if isinstance(hero, str) else list(hero)
    if len(hero_names) != 2:
        raise CardCountError(f"the hero holds 2 cards, not {len(hero_names)}", count=len(hero_names))
    names += hero_names
    opp_entries: list[tuple[str, list[str | Card], HandRange | None]] = []
    for opp in opponents:
        if isinstance(opp, HandRange):
            opp_entries.append((opp.text, [], opp))
        elif isinstance(opp, str):
            cards, rng = parse_holding(opp)
            opp_entries.append((opp.strip(), list(cards), rng))
        else:
            cards_list = list(opp)
            if len(cards_list) != 2:
                raise CardCountError(f"a hand has 2 cards, not {len(cards_list)}", count=len(cards_list))
            opp_entries.append((" ".join(c.face_str for c in cards_list), list(cards_list), None))
        names += opp_entries[-1][1]
    board_names = split_cards(board) if isinstance(board, str) else list(board)
    if len(board_names) > 5 or len(board_names) in (1, 2):
        raise CardCountError(f"the board has 0, 3, 4 or 5 cards, not {len(board_names)}", count=len(board_names))
    names += board_names
    if burn is not None:
        names.append(burn)
    cspecs = [parse_card(n) if isinstance(n, str) else CardSpec(n.rank, n.suit, n.deck) for n in names]
    physical = resolve_cards(cspecs, d)
    pos = 0
    hero_cards = tuple(physical[pos : pos + 2])
    pos += 2
    players = [Holding(" ".join(c.face_str for c in hero_cards), hero_cards)]
    for label, _cards, rng in opp_entries:
        if rng is None:
            players.append(Holding(label, tuple(physical[pos : pos + 2])))
            pos += 2
        else:
            players.append(Holding(label, (), rng))
    board_cards = tuple(physical[pos : pos + len(board_names)])
    remaining = [d] * 52
    for c in physical:
        remaining[c.face] -= 1
    unknown = 5 - len(board_cards) + 2 * sum(1 for p in players if not p.is_exact)
    if unknown > sum(remaining):
        raise EquityError(f"{unknown} more cards are needed but only {sum(remaining)} are unseen")
    left = np.array(remaining, dtype=np.int64)
    for p in players:
        if p.hand_range is not None and not _live(_face_combos(p.hand_range), left).any():
            raise RangeError(f"no hand of the range {p.label!r} is possible with the cards shown", token=p.label)
    return _Setup(d, hero_cards, players, board_cards, physical, remaining, ranking)


def _cached_setup(
    hero: str | Sequence[str | Card],
    opponents: Sequence[str | Sequence[Card] | HandRange],
    board: str | Sequence[str | Card],
    decks: int,
    burn: str | Card | None,
    ranking: Ranking,
) -> _Setup:
    """:func:`_setup`, remembered for recent requests (the set-up is never changed once made)."""
    key = (
        hero if isinstance(hero, str) else tuple(hero),
        tuple(o if isinstance(o, str | HandRange) else tuple(o) for o in opponents),
        board if isinstance(board, str) else tuple(board),
        decks,
        burn,
        ranking,
    )
    try:
        hash(key)
    except TypeError:
        return _setup(hero, opponents, board, decks, burn, ranking)
    return _remembered_setup(*key)


@lru_cache(maxsize=256)
def _remembered_setup(
    hero: str | tuple[str | Card, ...],
    opponents: tuple[str | tuple[Card, ...] | HandRange, ...],
    board: str | tuple[str | Card, ...],
    decks: int,
    burn: str | Card | None,
    ranking: Ranking,
) -> _Setup:
    return _setup(hero, opponents, board, decks, burn, ranking)


# ------------------------------------------------------------------------------------------------ exact


@lru_cache(maxsize=4096)
def _count_multisets(remaining: tuple[int, ...], size: int) -> int:
    """Number of face multisets of ``size`` cards with at most ``remaining[f]`` copies of face ``f``."""
    poly = [1] + [0] * size
    for r in remaining:
        new = [0] * (size + 1)
        for i, v in enumerate(poly):
            if v:
                for m in range(min(r, size - i) + 1):
                    new[i + m] += v
        poly = new
    return poly[size]


def _exact_plan(setup: _Setup) -> _ExactPlan:
    if setup.exact_plan is None:
        left = np.array(setup.remaining, dtype=np.int64)
        rows = _count_multisets(tuple(setup.remaining), 5 - len(setup.board))
        combos: list[npt.NDArray[np.int16] | None] = []
        for p in setup.players:
            if p.hand_range is None:
                combos.append(None)
            else:
                all_combos = _face_combos(p.hand_range)
                live = all_combos[_live(all_combos, left)]
                rows *= len(live)
                combos.append(live)
        fixed = np.array([[c.face for c in p.cards] if p.is_exact else [-1, -1] for p in setup.players], np.int16)
        board = np.array([c.face for c in setup.board], dtype=np.int16)
        setup.exact_plan = _ExactPlan(left.astype(np.int32), board, fixed, tuple(combos), rows)
    return setup.exact_plan


def exact_rows(setup: _Setup) -> int:
    """Upper estimate of the rows the exact enumeration would build."""
    return _exact_plan(setup).rows


def _equity_exact(setup: _Setup, progress: Callable[[float], None] | None) -> EquityResult:
    plan = _exact_plan(setup)
    if progress is not None:
        progress(0.0)
    counts, total = showdown_exact(plan.remaining, plan.board, plan.fixed, plan.combos, setup.ranking)
    if progress is not None:
        progress(1.0)
    return _exact_result(setup, counts, total)


def _exact_result(setup: _Setup, counts: Tally, total: int) -> EquityResult:
    nplayers = len(setup.players)
    scale = lcm(*range(1, nplayers + 1))
    players = []
    for i, p in enumerate(setup.players):
        row = counts[i].tolist()
        win = row[0]
        tie = sum(row[1:])
        eq = Fraction(sum(c * (scale // k) for k, c in enumerate(row, start=1)), scale * total)
        players.append(PlayerEquity(p.label, win / total, tie / total, float(eq), exact=(win, tie, eq)))
    return EquityResult(setup.decks, setup.board, "exact", total, tuple(players))


# ------------------------------------------------------------------------------------------ Monte Carlo


def _physical_pairs(combos: npt.NDArray[np.int16], unseen: npt.NDArray[np.int16]) -> npt.NDArray[np.int16]:
    """All physical two-card hands (index pairs, ``n x 2``) of the face combos among the unseen cards."""
    faces = (unseen % 52).astype(np.intp)
    order = np.argsort(faces, kind="stable")
    faces, cards = faces[order], unseen[order]
    per_face = np.bincount(faces, minlength=52)
    width = max(1, int(per_face.max()))
    first = np.cumsum(per_face) - per_face
    copies = np.full((52, width), -1, dtype=np.int16)  # copies[f]: the unseen physical cards of face f
    copies[faces, np.arange(len(faces)) - first[faces]] = cards
    a, b = copies[combos[:, 0]][:, :, None], copies[combos[:, 1]][:, None, :]
    ok = (a >= 0) & (b >= 0)
    ok[combos[:, 0] == combos[:, 1]] &= np.triu(np.ones((width, width), dtype=bool), 1)  # two copies: i < j
    return np.stack([np.broadcast_to(a, ok.shape)[ok], np.broadcast_to(b, ok.shape)[ok]], axis=1)


def _mc_plan(setup: _Setup) -> _MonteCarloPlan:
    if setup.mc_plan is None:
        known = {c.index for c in setup.known}
        unseen = np.array([i for i in range(52 * setup.decks) if i not in known], dtype=np.int16)
        fixed = np.array([[c.index for c in p.cards] if p.is_exact else [-1, -1] for p in setup.players], np.int16)
        pairs = tuple(
            None if p.hand_range is None or p.is_random else _physical_pairs(_face_combos(p.hand_range), unseen)
            for p in setup.players
        )
        board = np.array([c.index for c in setup.board], dtype=np.int16)
        setup.mc_plan = _MonteCarloPlan(unseen, board, fixed, pairs)
    return setup.mc_plan


class _Sampler:
    """Batches of random deals judged by the batch evaluator, drawn from a NumPy generator (the charts' sampler)."""

    def __init__(self, setup: _Setup, rng: np.random.Generator) -> None:
        self.setup = setup
        self.rng = rng
        self.plan = _mc_plan(setup)

    def batch(self, rows: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.int64], int]:
        """Per-row equity shares (rows × players), is-best flags, best counts, and the number rejected."""
        plan = self.plan
        cards, rejected = sample_deals(self.rng, plan.unseen, plan.board, plan.fixed, plan.pairs, rows)
        n, nplayers = cards.shape[:2]
        values = rank_batch(cards.reshape(-1, 7), self.setup.ranking).reshape(n, nplayers)
        best = values.max(axis=1)
        is_best = values == best[:, None]
        nb = is_best.sum(axis=1)
        return is_best / nb[:, None], is_best, nb, rejected


def _first_batch(precision: float) -> int:
    """Hands of the first Monte Carlo batch: enough for ``precision`` at the largest variance (1/4), at most 100k."""
    return min(100_000, int((Z95 * 0.5 / precision) ** 2 * 1.05) + 1)


def _equity_monte_carlo(
    setup: _Setup,
    precision: float,
    max_hands: int,
    seed: int | None,
    progress: Callable[[float], None] | None,
) -> EquityResult:
    plan = _mc_plan(setup)
    seed = secrets.randbits(64) if seed is None else seed
    m = len(setup.players)
    n = 0
    rejected = 0
    chunk = 0
    counts = np.zeros((m, m), dtype=np.int64)
    batch = _first_batch(precision)
    while True:
        deals = min(batch, max_hands - n) if max_hands > n else batch
        got, rej = showdown_monte_carlo(
            plan.unseen, plan.board, plan.fixed, plan.pairs, deals, seed, chunk, setup.ranking
        )
        chunk += -(-deals // MC_CHUNK)
        counts += got
        rejected += rej
        n += deals
        if n < 2:
            continue
        # a player's share of a deal is 1/k when k hands tie for best: its mean and variance from the tally
        rows = counts.tolist()
        sum_eq = [sum(c / k for k, c in enumerate(row, start=1)) for row in rows]
        sum_eq2 = [sum(c / (k * k) for k, c in enumerate(row, start=1)) for row in rows]
        var = [max(q / n - (e / n) ** 2, 0.0) * n / (n - 1) for e, q in zip(sum_eq, sum_eq2, strict=True)]
        half = Z95 * sqrt(max(var) / n)
        if progress is not None:
            progress(min(1.0, n / max_hands) if half == 0 else min(1.0, (precision / half) ** 2))
        if half <= precision or n >= max_hands:
            break
        needed = int((Z95 * sqrt(max(var)) / precision) ** 2) + 1
        batch = int(min(max(needed - n, 50_000) * 1.05, 2_000_000))
    players = []
    for i, p in enumerate(setup.players):
        w, t, e = rows[i][0] / n, sum(rows[i][1:]) / n, sum_eq[i] / n
        players.append(
            PlayerEquity(
                p.label,
                w,
                t,
                e,
                win_se=sqrt(w * (1 - w) / n),
                tie_se=sqrt(t * (1 - t) / n),
                equity_se=sqrt(var[i] / n),
            )
        )
    return EquityResult(setup.decks, setup.board, "monte_carlo", n, tuple(players), precision, rejected)


# ----------------------------------------------------------------------------------------------- public


def equity(
    hero: str | Sequence[str | Card],
    opponents: Sequence[str | Sequence[Card] | HandRange],
    board: str | Sequence[str | Card] = (),
    *,
    decks: int = 1,
    burn: str | Card | None = None,
    method: str = "auto",
    precision: float = 0.001,
    max_exact: int = DEFAULT_MAX_EXACT,
    max_hands: int = DEFAULT_MAX_HANDS,
    seed: int | None = None,
    ranking: Ranking = DEFAULT_RANKING,
    progress: Callable[[float], None] | None = None,
) -> EquityResult:
    """Win / tie / equity of the hero (two cards) and each opponent.

    ``opponents``: exact hands (``"QsQd"`` or two :class:`Card`), ranges
    (``"QQ+,AKs"``) or ``"random"``.  ``board``: 0, 3, 4 or 5 cards.  ``burn``:
    the hero's own private burn when known (removed from the unseen cards).
    ``method``: ``"exact"``, ``"monte_carlo"`` or ``"auto"`` (exact when the
    enumeration has at most ``max_exact`` rows).  ``precision``: Monte Carlo stops
    when every player's 95 % half-width is at most this (or at ``max_hands``).
    ``seed``: any integer makes a Monte Carlo run reproducible.
    """
    if method not in ("auto", "exact", "monte_carlo"):
        raise EquityError(f"unknown method {method!r}: auto, exact or monte_carlo", method=method)
    if not 0 < precision < 1:
        raise EquityError("precision is a 95 % half-width between 0 and 1, e.g. 0.001", precision=precision)
    setup = _cached_setup(hero, opponents, board, decks, burn, ranking)
    rows = exact_rows(setup)
    if method == "exact" and rows > HARD_MAX_EXACT:
        raise EquityError(
            f"exact enumeration would need about {rows:,} rows (limit {HARD_MAX_EXACT:,}); use monte_carlo",
            rows=rows,
        )
    if method == "exact" or (method == "auto" and rows <= max_exact):
        return _equity_exact(setup, progress)
    return _equity_monte_carlo(setup, precision, max_hands, seed, progress)
