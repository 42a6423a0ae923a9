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
* **Monte Carlo**: physical cards are sampled directly — the board completion
  and random opponents' cards i.i.d. uniform over the unseen physical cards,
  each range opponent a uniform physical hand of its range; rows where two of
  them share a physical card are rejected, which leaves deals exactly uniform
  over the consistent ones.  Batches run
  until the 95 % half-width ``1.96 × SE`` of every player's equity is at most
  ``precision`` (or ``max_hands`` is reached).

Per player: ``win`` (sole best hand), ``tie`` (best hand shared), and
``equity = win + Σ tie_k / k`` (the pot share, ties split evenly).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm, sqrt

import numpy as np
import numpy.typing as npt

from ..cards import Card, CardSpec, check_decks, parse_card, resolve_cards
from ..errors import CardCountError, TaiwanPokerError
from ..evaluate import DEFAULT_RANKING, Ranking, rank_batch
from .ranges import FaceCombo, HandRange, RangeError, parse_range

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
    squeezed = re.sub(r"[\s,]+", "", text)
    tokens = _CARD_TOKEN.findall(squeezed)
    if len(tokens) == 2 and "".join(tokens) == squeezed:
        return tokens, None
    try:
        return [], parse_range(text)
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


@dataclass(slots=True)
class _Setup:
    decks: int
    hero: tuple[Card, ...]
    players: list[Holding]
    board: tuple[Card, ...]
    known: list[Card]
    remaining: list[int]  # unseen copies per face
    ranking: Ranking


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
    for p in players:
        if p.hand_range is not None and p.hand_range.physical_count(remaining) == 0:
            raise RangeError(f"no hand of the range {p.label!r} is possible with the cards shown", token=p.label)
    return _Setup(d, hero_cards, players, board_cards, physical, remaining, ranking)


# ------------------------------------------------------------------------------------------------ exact


def _count_multisets(remaining: Sequence[int], size: int) -> int:
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


def _live_combos(hand_range: HandRange, remaining: Sequence[int]) -> list[FaceCombo]:
    return [
        (a, b)
        for a, b in hand_range.sorted_combos()
        if (remaining[a] >= 2 if a == b else remaining[a] >= 1 and remaining[b] >= 1)
    ]


def exact_rows(setup: _Setup) -> int:
    """Upper estimate of the rows the exact enumeration would build."""
    rows = _count_multisets(setup.remaining, 5 - len(setup.board))
    for p in setup.players:
        if p.hand_range is not None:
            rows *= len(_live_combos(p.hand_range, setup.remaining))
    return rows


def _board_multisets(remaining: Sequence[int], size: int) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int64]]:
    """All face multisets (non-decreasing rows) and their physical counts ``prod C(r_f, m_f)``."""
    r = np.asarray(remaining, dtype=np.int64)
    rows = np.zeros((1, 0), dtype=np.int16)
    run = np.zeros(1, dtype=np.int64)  # copies of the last face at the tail of each row
    faces = np.arange(52, dtype=np.int16)
    num = np.ones(1, dtype=np.int64)
    den = np.ones(1, dtype=np.int64)
    for step in range(size):
        if step == 0:
            ok = np.broadcast_to(r > 0, (1, 52))
        else:
            last = rows[:, -1].astype(np.int64)
            ok = (faces[None, :] > last[:, None]) & (r[None, :] > 0)
            ok |= (faces[None, :] == last[:, None]) & (run[:, None] < r[last][:, None])
        ri, fi = np.nonzero(ok)
        new_face = faces[fi]
        if step == 0:
            new_run = np.ones(len(fi), dtype=np.int64)
        else:
            same = rows[ri, -1] == new_face
            new_run = np.where(same, run[ri] + 1, 1)
        num = num[ri] * (r[fi] - (new_run - 1))
        den = den[ri] * new_run
        rows = np.concatenate([rows[ri], new_face[:, None]], axis=1)
        run = new_run
    return rows, num // den


def _pair_factor(
    placed: npt.NDArray[np.int16], a: npt.NDArray[np.int16], b: npt.NDArray[np.int16], r: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Physical ways to give faces (a, b) given the faces already placed in each row."""
    used_a = (placed == a[:, None]).sum(axis=1) if placed.shape[1] else np.zeros(len(a), dtype=np.int64)
    used_b = (placed == b[:, None]).sum(axis=1) if placed.shape[1] else np.zeros(len(b), dtype=np.int64)
    left_a = r[a] - used_a
    left_b = r[b] - used_b
    same = a == b
    return np.where(same, left_a * (left_a - 1) // 2, left_a * left_b).astype(np.int64)


def _equity_exact(setup: _Setup, progress: Callable[[float], None] | None) -> EquityResult:
    r = np.asarray(setup.remaining, dtype=np.int64)
    need = 5 - len(setup.board)
    board_rows, weight = _board_multisets(setup.remaining, need)
    board_id = np.arange(len(board_rows), dtype=np.int64)
    placed = board_rows
    hand_cols: dict[int, tuple[int, int]] = {}
    for i, p in enumerate(setup.players):
        if p.hand_range is None:
            continue
        combos = np.array(_live_combos(p.hand_range, setup.remaining), dtype=np.int16)
        n_rows, n_c = len(placed), len(combos)
        ri = np.repeat(np.arange(n_rows), n_c)
        ci = np.tile(np.arange(n_c), n_rows)
        a, b = combos[ci, 0], combos[ci, 1]
        factor = _pair_factor(placed[ri], a, b, r)
        keep = factor > 0
        ri, a, b, factor = ri[keep], a[keep], b[keep], factor[keep]
        col = placed.shape[1]
        placed = np.concatenate([placed[ri], a[:, None], b[:, None]], axis=1)
        weight = weight[ri] * factor
        board_id = board_id[ri]
        hand_cols[i] = (col, col + 1)
    if progress is not None:
        progress(0.5)
    n = len(placed)
    known_board = np.array([c.face for c in setup.board], dtype=np.uint8)
    comp = placed[:, :need].astype(np.uint8)
    values = np.empty((n, len(setup.players)), dtype=np.uint32)
    for i, p in enumerate(setup.players):
        if p.hand_range is None:
            hole = np.array([c.face for c in p.cards], dtype=np.uint8)
            # An exact holding depends only on the board: judge each board once.
            arr = np.empty((len(board_rows), 7), dtype=np.uint8)
            arr[:, :2] = hole
            arr[:, 2 : 2 + len(known_board)] = known_board
            arr[:, 2 + len(known_board) :] = board_rows
            values[:, i] = rank_batch(arr, setup.ranking)[board_id]
        else:
            c0, c1 = hand_cols[i]
            arr = np.empty((n, 7), dtype=np.uint8)
            arr[:, 0] = placed[:, c0]
            arr[:, 1] = placed[:, c1]
            arr[:, 2 : 2 + len(known_board)] = known_board
            arr[:, 2 + len(known_board) :] = comp
            values[:, i] = rank_batch(arr, setup.ranking)
    if progress is not None:
        progress(1.0)
    return _tally_exact(setup, values, weight)


def _tally_exact(setup: _Setup, values: npt.NDArray[np.uint32], weight: npt.NDArray[np.int64]) -> EquityResult:
    nplayers = values.shape[1]
    best = values.max(axis=1)
    is_best = values == best[:, None]
    nb = is_best.sum(axis=1)
    scale = lcm(*range(1, nplayers + 1))
    share = (scale // nb).astype(np.int64)
    total = int(weight.sum())
    players = []
    for i, p in enumerate(setup.players):
        col = is_best[:, i]
        win = int(weight[col & (nb == 1)].sum())
        tie = int(weight[col & (nb > 1)].sum())
        eq_num = int((weight[col] * share[col]).sum())
        eq = Fraction(eq_num, scale * total)
        players.append(PlayerEquity(p.label, win / total, tie / total, float(eq), exact=(win, tie, eq)))
    return EquityResult(setup.decks, setup.board, "exact", total, tuple(players))


# ------------------------------------------------------------------------------------------ Monte Carlo


def _range_pairs(hand_range: HandRange, remaining_idx: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """All physical two-card hands (index pairs) of a range among the unseen physical cards."""
    faces = remaining_idx % 52
    by_face: list[list[int]] = [[] for _ in range(52)]
    for idx, f in zip(remaining_idx.tolist(), faces.tolist(), strict=True):
        by_face[f].append(idx)
    out: list[tuple[int, int]] = []
    for a, b in hand_range.combos:
        ca, cb = by_face[a], by_face[b]
        if a == b:
            out += [(ca[i], ca[j]) for i in range(len(ca)) for j in range(i + 1, len(ca))]
        else:
            out += [(x, y) for x in ca for y in cb]
    return np.array(out, dtype=np.int64).reshape(-1, 2)


class _Sampler:
    def __init__(self, setup: _Setup, rng: np.random.Generator) -> None:
        self.setup = setup
        self.rng = rng
        known_idx = {c.index for c in setup.known}
        self.remaining_idx = np.array([i for i in range(52 * setup.decks) if i not in known_idx], dtype=np.int64)
        self.need = 5 - len(setup.board)
        self.random_players = [i for i, p in enumerate(setup.players) if p.is_random]
        self.range_players = [i for i, p in enumerate(setup.players) if p.hand_range is not None and not p.is_random]
        self.range_pairs = {
            i: _range_pairs(setup.players[i].hand_range, self.remaining_idx)  # type: ignore[arg-type]
            for i in self.range_players
        }
        self.known_board = np.array([c.index for c in setup.board], dtype=np.int64)

    def batch(self, rows: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.int64], int]:
        """Per-row equity shares (rows × players), is-best flags, best counts, and the number rejected."""
        s = self.setup
        k = self.need + 2 * len(self.random_players)
        # Proposal: the k unknown cards i.i.d. uniform over the unseen physical cards, each range
        # opponent a uniform physical hand of its range; keep only rows where all cards differ.  The
        # kept rows are exactly uniform over consistent deals (rejection sampling).
        drawn = self.remaining_idx[self.rng.integers(0, len(self.remaining_idx), size=(rows, k))]
        picks = {
            i: self.range_pairs[i][self.rng.integers(0, len(self.range_pairs[i]), size=rows)]
            for i in self.range_players
        }
        rejected = 0
        if picks or k > 1:
            allc = np.concatenate([drawn, *picks.values()], axis=1).astype(np.int16)
            allc.sort(axis=1)
            ok = ~(allc[:, 1:] == allc[:, :-1]).any(axis=1)
            rejected = int(rows - ok.sum())
            if rejected:
                drawn = drawn[ok]
                picks = {i: v[ok] for i, v in picks.items()}
        n = len(drawn)
        board = np.empty((n, 5), dtype=np.int16)
        board[:, : len(self.known_board)] = self.known_board
        board[:, len(self.known_board) :] = drawn[:, : self.need]
        values = np.empty((n, len(s.players)), dtype=np.uint32)
        arr = np.empty((n, 7), dtype=np.int16)
        arr[:, 2:] = board
        nxt = self.need
        for i, p in enumerate(s.players):
            if p.is_exact:
                arr[:, 0] = p.cards[0].index
                arr[:, 1] = p.cards[1].index
            elif p.is_random:
                arr[:, 0:2] = drawn[:, nxt : nxt + 2]
                nxt += 2
            else:
                arr[:, 0:2] = picks[i]
            values[:, i] = rank_batch(arr, s.ranking)
        best = values.max(axis=1)
        is_best = values == best[:, None]
        nb = is_best.sum(axis=1)
        return is_best / nb[:, None], is_best, nb, rejected


def _equity_monte_carlo(
    setup: _Setup,
    precision: float,
    max_hands: int,
    seed: int | None,
    progress: Callable[[float], None] | None,
) -> EquityResult:
    rng = np.random.default_rng(seed)
    sampler = _Sampler(setup, rng)
    m = len(setup.players)
    n = 0
    rejected = 0
    sum_eq = np.zeros(m)
    sum_eq2 = np.zeros(m)
    wins = np.zeros(m, dtype=np.int64)
    ties = np.zeros(m, dtype=np.int64)
    batch = 100_000
    while True:
        eq, is_best, nb, rej = sampler.batch(min(batch, max_hands - n) if max_hands > n else batch)
        rejected += rej
        k = len(eq)
        n += k
        sum_eq += eq.sum(axis=0)
        sum_eq2 += (eq * eq).sum(axis=0)
        wins += (is_best & (nb == 1)[:, None]).sum(axis=0)
        ties += (is_best & (nb > 1)[:, None]).sum(axis=0)
        if n < 2:
            continue
        mean = sum_eq / n
        var = np.maximum(sum_eq2 / n - mean * mean, 0.0) * n / (n - 1)
        half = Z95 * np.sqrt(var / n)
        if progress is not None:
            progress(min(1.0, n / max_hands) if half.max() == 0 else min(1.0, (precision / half.max()) ** 2))
        if half.max() <= precision or n >= max_hands:
            break
        needed = int((Z95 * np.sqrt(var.max()) / precision) ** 2) + 1
        batch = int(min(max(needed - n, 50_000) * 1.05, 2_000_000))
    players = []
    for i, p in enumerate(setup.players):
        w, t, e = wins[i] / n, ties[i] / n, sum_eq[i] / n
        players.append(
            PlayerEquity(
                p.label,
                float(w),
                float(t),
                float(e),
                win_se=sqrt(w * (1 - w) / n),
                tie_se=sqrt(t * (1 - t) / n),
                equity_se=float(sqrt(var[i] / n)),
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
    """
    if method not in ("auto", "exact", "monte_carlo"):
        raise EquityError(f"unknown method {method!r}: auto, exact or monte_carlo", method=method)
    if not 0 < precision < 1:
        raise EquityError("precision is a 95 % half-width between 0 and 1, e.g. 0.001", precision=precision)
    setup = _setup(hero, opponents, board, decks, burn, ranking)
    rows = exact_rows(setup)
    if method == "exact" and rows > HARD_MAX_EXACT:
        raise EquityError(
            f"exact enumeration would need about {rows:,} rows (limit {HARD_MAX_EXACT:,}); use monte_carlo",
            rows=rows,
        )
    if method == "exact" or (method == "auto" and rows <= max_exact):
        return _equity_exact(setup, progress)
    return _equity_monte_carlo(setup, precision, max_hands, seed, progress)
