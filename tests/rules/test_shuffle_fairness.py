"""spec: 隨機洗牌採用加密級亂數與不偏倚抽樣 — shuffling uses cryptographic randomness and unbiased sampling.

Two halves:

* **Unbiased sampling** — a chi-square test of card by position over a full
  2-deck shoe (104 cards), shuffled many times by ``cards.deal``, the function
  every live hand deals from (the table → ``Hand.start`` → ``deal``).  The
  pass/fail verdict comes from a *seeded* ``random.Random`` driving that same
  function, so it is deterministic and cannot flake; the live CSPRNG run goes
  through the identical counting code and is held only to what is certain
  (shape, sums, permutations) plus a sanity bound whose false-failure
  probability is computed below (< 1e-9).  The same judge rejects two classic
  biased shuffles, so it has the power to see a broken one.
* **Cryptographic randomness** — a room played through the HTTP API deals
  only from ``secrets.SystemRandom``: while it plays, every seeded or
  non-cryptographic generator (``random.Random``, the ``random`` module
  functions, ``numpy.random``) raises, and the SystemRandom calls are counted.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from fastapi.testclient import TestClient

from taiwan_poker import cards
from taiwan_poker.cards import RandomSource, Shoe, deal, live_rng
from taiwan_poker.pure import ENV, compiled
from taiwan_poker.rules import Hand, RuleSet, cards_needed
from taiwan_poker.rules.events import ShoeDrawn
from taiwan_poker.tables import fair

DECKS = 2
N = DECKS * cards.CARDS_PER_DECK  # 104 cards, 104 positions
SEED = 20240601
SEEDED_SHUFFLES = 20_000  # 192 expected per (position, card) cell
LIVE_SHUFFLES = 5_000  # 48 expected per cell
BIASED_SHUFFLES = 1_000
ALPHA = 1e-3  # overall significance of the judge
TESTS = 2 * N + 1  # one chi-square per position, one per card, one for the whole table
ALPHA_EACH = ALPHA / TESTS  # Bonferroni: each p-value must be at least 4.8e-6
LIVE_FALSE_FAILURE = 1e-9

Counts = npt.NDArray[np.int64]


# --- the statistics -------------------------------------------------------------------------------------------------


def chi2_sf(x: float, k: int) -> float:
    """P(χ²_k > x), exactly: the regularized upper gamma Q(k/2, x/2) in closed form for whole ``k``.

    Even k: e^{-y} Σ_{i<k/2} y^i/i!;  odd k: erfc(√y) + e^{-y} Σ_{i<(k-1)/2} y^{i+1/2}/Γ(i+3/2)  (y = x/2).
    Every term is positive, summed in log space, so there is no cancellation (scipy is not installed).
    """
    if x <= 0:
        return 1.0
    y = x / 2
    if k % 2 == 0:
        logs = [-y + i * math.log(y) - math.lgamma(i + 1) for i in range(k // 2)]
        base = 0.0
    else:
        logs = [-y + (i + 0.5) * math.log(y) - math.lgamma(i + 1.5) for i in range((k - 1) // 2)]
        base = math.erfc(math.sqrt(y))
    if not logs:
        return base
    top = max(logs)
    return base + math.exp(top) * math.fsum(math.exp(v - top) for v in logs)


def binomial_tails(n: int, p: float) -> tuple[list[float], list[float]]:
    """For Binomial(n, p): ``lower[k] = P(X <= k)`` and ``upper[k] = P(X >= k)``, k = 0..n, exactly."""
    logs = [math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p)
            + (n - k) * math.log1p(-p) for k in range(n + 1)]
    pmf = [math.exp(v) for v in logs]
    lower, upper, acc = [0.0] * (n + 1), [0.0] * (n + 1), 0.0
    for k in range(n + 1):
        acc += pmf[k]
        lower[k] = acc
    acc = 0.0
    for k in range(n, -1, -1):
        acc += pmf[k]
        upper[k] = acc
    return lower, upper


def shuffles(count: int, rng: RandomSource | None) -> npt.NDArray[np.int64]:
    """``count`` full shuffles of a fresh 2-deck shoe by ``cards.deal``: row s = card indices in dealing order.

    ``rng=None`` is the live path: ``deal`` then takes ``live_rng()``, the OS CSPRNG, as a room's hand does.
    """
    return np.array([[c.index for c in deal(DECKS, N, rng)] for _ in range(count)], dtype=np.int64)


def position_counts(orders: npt.NDArray[np.int64]) -> Counts:
    """``counts[position, card]``: how many shuffles dealt that physical card at that position."""
    flat = np.arange(N, dtype=np.int64) * N + orders  # broadcast over the shuffles
    return np.bincount(flat.ravel(), minlength=N * N).reshape(N, N).astype(np.int64)


def check_well_formed(orders: npt.NDArray[np.int64], counts: Counts, shuffled: int) -> None:
    """What is certain about any shuffle: each is a permutation, so every row and column sums to ``shuffled``."""
    assert orders.shape == (shuffled, N) and counts.shape == (N, N)
    assert (np.sort(orders, axis=1) == np.arange(N)).all(), "every card exactly once per shuffle"
    assert (counts.sum(axis=1) == shuffled).all() and (counts.sum(axis=0) == shuffled).all()
    assert counts.min() >= 0


def p_values(counts: Counts) -> dict[str, float]:
    """The judge's p-values: the worst position, the worst card, and the whole table.

    Each position's row (and each card's column) is a multinomial sample of ``shuffles`` draws over 104
    equally likely outcomes under a fair shuffle, so its Pearson statistic is χ² with 103 degrees of freedom.
    The whole table's cells are not independent: one shuffle's indicator matrix P has covariance
    Q/(n-1) with Q = (I - J/n) ⊗ (I - J/n), a projection of rank (n-1)², so Σ (C - e)²/e · (n-1)/n is
    χ² with (n-1)² = 10609 degrees of freedom.
    """
    shuffled = int(counts[0].sum())
    expected = shuffled / N
    cells = (counts - expected) ** 2 / expected
    rows, cols = cells.sum(axis=1), cells.sum(axis=0)
    total = float(cells.sum()) * (N - 1) / N
    return {
        "worst position": min(chi2_sf(float(x), N - 1) for x in rows),
        "worst card": min(chi2_sf(float(x), N - 1) for x in cols),
        "whole table": chi2_sf(total, (N - 1) ** 2),
    }


def judge(counts: Counts) -> bool:
    """Fair at overall level ALPHA: all 209 p-values at least ALPHA / 209 (Bonferroni)."""
    return min(p_values(counts).values()) >= ALPHA_EACH


# --- the tests --------------------------------------------------------------------------------------------------


def test_chi_square_tail_is_exact() -> None:
    """The judge's χ² tail against known quantiles (odd, even and large degrees of freedom)."""
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-12)
    assert chi2_sf(5.991464547107979, 2) == pytest.approx(0.05, rel=1e-12)
    assert chi2_sf(124.34211340400407, 100) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(103.0, 103) == pytest.approx(0.4817, abs=1e-3)  # mean of χ²₁₀₃: a little under one half
    lower, upper = binomial_tails(10, 0.5)
    assert upper[10] == pytest.approx(2**-10) and lower[0] == pytest.approx(2**-10) and lower[10] == pytest.approx(1)


def test_cards_deal_is_the_lazy_fisher_yates_of_the_shoe() -> None:
    """``cards.deal`` (the practice room and the odds tools) and ``cards.Shoe`` are the same lazy Fisher–Yates:
    with equal seeds they give the same cards, and a hand's cards are a prefix of a full shuffle."""
    rules = RuleSet(decks=DECKS, seats=2)
    need = cards_needed(2, rules.burns)
    direct = Hand.start(rules, [2000, 2000], rng=random.Random(SEED))
    drawn = next(e for e in direct.events if isinstance(e, ShoeDrawn))
    assert list(drawn.cards) == deal(DECKS, need, random.Random(SEED))
    assert deal(DECKS, N, random.Random(SEED))[:need] == list(drawn.cards)
    assert Shoe(DECKS, random.Random(SEED)).shuffle() == deal(DECKS, N, random.Random(SEED))


def test_live_hands_deal_from_the_committed_shoe_under_test() -> None:
    """spec: 隨機洗牌採用加密級亂數與不偏倚抽樣 — what member tables really run (docs/fairness.md): each hand is
    the first cards of ``fairness.shuffled_shoe`` (HMAC_DRBG and a rejection-sampled Fisher–Yates) from the
    hand's server seed and the players' seeds; ``test_the_committed_shoe_is_uniform_card_by_position`` and
    ``benchmarks/bench_shuffle.py`` (10^6 shuffles a deck count) judge its statistics."""
    from taiwan_poker.fairness.shoe import player_mix, shuffled_shoe
    from taiwan_poker.tables import Join, Open, decide, fold
    from taiwan_poker.tables.events import ServerSeedDrawn, ShoeCommitted

    rules = RuleSet(decks=DECKS, seats=2)
    need = cards_needed(2, rules.burns)
    opened = decide(None, Open(rules, 1, "A"), random.Random(SEED))
    events = decide(fold(opened), Join(2, "B"), random.Random(SEED))  # the table is full: hand 1 is dealt
    hand = fold(opened + events).hand
    assert hand is not None
    drawn = next(e for e in hand.events if isinstance(e, ShoeDrawn))
    server_seed = next(e for e in opened + events if isinstance(e, ServerSeedDrawn) and e.hand_no == 1).seed
    committed = next(e for e in events if isinstance(e, ShoeCommitted))
    mix = player_mix({seat: bytes.fromhex(x) for seat, x in zip(committed.seats, committed.seeds, strict=True)})
    assert list(drawn.cards) == shuffled_shoe(DECKS, bytes.fromhex(server_seed), "hand-1", mix)[:need]


def test_the_committed_shoe_is_uniform_card_by_position() -> None:
    """spec: 隨機洗牌採用加密級亂數與不偏倚抽樣 — the live shuffle (``fairness.shuffled_order``), 2,000 two-deck
    shoes from consecutive server seeds: card face by position (104 × 52) fits the uniform at significance 1e-3
    (Bonferroni over the positions and the whole table). Deterministic: the seeds are fixed."""
    from taiwan_poker.fairness.shoe import player_mix, shuffled_order

    mix = player_mix({0: b"test seat 0"})
    shuffles = 2000
    faces = np.zeros((N, 52), np.int64)
    for s in range(shuffles):
        order = np.asarray(shuffled_order(DECKS, s.to_bytes(32, "big"), f"TEST/{s}", mix))
        assert sorted(order.tolist()) == list(range(N)), "a permutation of the shoe"
        faces[np.arange(N), order % 52] += 1
    expected = shuffles / 52
    worst = min(chi2_sf(float(((row - expected) ** 2 / expected).sum()), 51) for row in faces)
    whole = chi2_sf(float(((faces - expected) ** 2 / expected).sum()), N * 51)
    assert worst > 1e-3 / (N + 1) and whole > 1e-3 / (N + 1), (worst, whole)


def test_seeded_shuffle_is_uniform_card_by_position() -> None:
    """spec: 隨機洗牌採用加密級亂數與不偏倚抽樣 — unbiased sampling, card by position, chi-square.

    20,000 full shuffles of a 2-deck shoe by ``cards.deal`` driven by ``random.Random(SEED)``: no position
    prefers a card, no card prefers a position, and the whole 104 × 104 table fits, at overall significance
    1e-3 (Bonferroni over 209 tests).  The seed makes the verdict deterministic; the live generator runs the
    same code path (``random.Random`` and ``SystemRandom`` both go through ``getrandbits`` rejection sampling).
    """
    assert hasattr(random.Random, "getrandbits") and hasattr(random.SystemRandom, "getrandbits")
    orders = shuffles(SEEDED_SHUFFLES, random.Random(SEED))
    counts = position_counts(orders)
    check_well_formed(orders, counts, SEEDED_SHUFFLES)
    p = p_values(counts)
    assert judge(counts), p
    assert p["whole table"] > 0.01  # this seed's table is unremarkable, not a near miss


class _ModuloBiased:
    """A classic bug: ``randrange`` by ``random_bits % span`` without rejection (low values come up too often)."""

    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is not None
        span = stop - start
        return start + self._r.getrandbits(span.bit_length()) % span


class _Naive:
    """The other classic bug: swap each position with any position (``j`` from the whole shoe, not ``i..n``)."""

    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is not None
        return self._r.randrange(0, stop)


@pytest.mark.parametrize("biased", [_ModuloBiased, _Naive], ids=["modulo-bias", "naive-swap"])
def test_the_judge_rejects_a_biased_shuffle(biased: Callable[[int], RandomSource]) -> None:
    """The same judge, fed a biased shuffle through the same ``deal`` (its ``randrange`` path), rejects it.

    Only 1,000 shuffles, a twentieth of the seeded run, and the worst p-value is still far below 4.8e-6.
    """
    orders = shuffles(BIASED_SHUFFLES, biased(SEED))
    counts = position_counts(orders)
    check_well_formed(orders, counts, BIASED_SHUFFLES)  # a biased shuffle is still a permutation
    assert not judge(counts)
    assert min(p_values(counts).values()) < 1e-12


def live_bounds(shuffled: int) -> tuple[int, int, float]:
    """Cell bounds for the live run and the exact chance that a fair shuffle breaks them anywhere.

    Under a fair shuffle each cell count is exactly Binomial(shuffled, 1/104) (shuffles are independent).
    ``lo`` is the largest k with P(X <= k) <= 1e-9 / (2·104²) (or -1 when even k = 0 is likelier), ``hi``
    the smallest k with P(X >= k) <= the same; a union bound over 2·10,816 tails gives the total.
    """
    lower, upper = binomial_tails(shuffled, 1 / N)
    each = LIVE_FALSE_FAILURE / (2 * N * N)
    lo = max((k for k in range(shuffled + 1) if lower[k] <= each), default=-1)
    hi = min(k for k in range(shuffled + 1) if upper[k] <= each)
    risk = N * N * ((lower[lo] if lo >= 0 else 0.0) + upper[hi])
    return lo, hi, risk


def test_live_shuffle_through_the_same_counting_code() -> None:
    """spec: 隨機洗牌採用加密級亂數與不偏倚抽樣 — the live CSPRNG path, counted exactly like the seeded run.

    ``deal(2, 104)`` with no generator uses ``live_rng()`` (``secrets.SystemRandom``).  Its counts are random,
    so only certainties are asserted, plus a very loose sanity bound: with 5,000 shuffles (48 expected per
    cell) every cell count must lie strictly between lo = 6 and hi = 109 (computed by ``live_bounds``).  A fair
    shuffle breaks that with probability at most 104² · (P(X <= 6) + P(X >= 109)) = 10,816 · (2.2e-14 +
    2.4e-14) = 4.9e-10 < 1e-9, X ~ Binomial(5000, 1/104); the test recomputes and asserts that figure.
    The verdict on uniformity is the seeded test's.
    """
    assert type(live_rng()) is random.SystemRandom
    lo, hi, risk = live_bounds(LIVE_SHUFFLES)
    assert risk < LIVE_FALSE_FAILURE
    assert (lo, hi) == (6, 109) and risk == pytest.approx(4.9e-10, rel=0.01), (lo, hi, risk)  # as stated above
    orders = shuffles(LIVE_SHUFFLES, None)
    counts = position_counts(orders)
    check_well_formed(orders, counts, LIVE_SHUFFLES)
    assert lo < counts.min() and counts.max() < hi, (int(counts.min()), int(counts.max()))


# --- cryptographic randomness in a live room ------------------------------------------------------------------


def _forbidden(name: str) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{name} was used while a live room dealt")

    return refuse


@pytest.fixture
def only_the_csprng(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Every seeded or non-cryptographic generator raises; SystemRandom's bits and every shuffle are recorded.

    ``SystemRandom`` subclasses ``random.Random`` but overrides ``random``, ``getrandbits``, ``randbytes``,
    ``seed``, ``getstate`` and ``setstate``, so patching those on the base class leaves it working while any
    Mersenne Twister use (including constructing one: ``Random.__init__`` calls ``seed``) raises.
    """
    for method in ("random", "getrandbits", "randbytes", "seed", "getstate", "setstate"):
        assert method in vars(random.SystemRandom), method
        monkeypatch.setattr(random.Random, method, _forbidden(f"random.Random.{method}"))
    for name in ("random", "randrange", "randint", "choice", "choices", "shuffle", "sample", "getrandbits",
                 "randbytes", "uniform", "gauss", "seed"):
        monkeypatch.setattr(random, name, _forbidden(f"random.{name}"))
    for name in ("default_rng", "Generator", "RandomState", "PCG64", "MT19937", "Philox", "SFC64", "seed",
                 "random", "rand", "randint", "shuffle", "permutation", "choice"):
        monkeypatch.setattr(np.random, name, _forbidden(f"numpy.random.{name}"))

    seen: dict[str, Any] = {"bits": 0, "seed_rngs": [], "dealt_from": []}
    real_bits = random.SystemRandom.getrandbits

    def counted_bits(self: random.SystemRandom, k: int) -> int:
        seen["bits"] += 1
        return real_bits(self, k)

    monkeypatch.setattr(random.SystemRandom, "getrandbits", counted_bits)
    real_draw = fair.draw_seed

    def recorded_draw(rng: RandomSource) -> bytes:
        seen["seed_rngs"].append(rng)
        return real_draw(rng)

    monkeypatch.setattr(fair, "draw_seed", recorded_draw)  # the machine looks it up at call time
    real_start = Hand.start.__func__  # type: ignore[attr-defined]

    def recorded_start(cls: type[Hand], *args: Any, **kwargs: Any) -> Hand:
        seen["dealt_from"].append("cards" if kwargs.get("cards") is not None else kwargs.get("rng"))
        return real_start(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Hand, "start", classmethod(recorded_start))
    yield seen


def _app(data: Path) -> Any:
    from taiwan_poker.web import create_app
    from taiwan_poker.web.config import Settings

    return create_app(data, warm=False, settings=Settings(
        data_dir=data, database_url=f"sqlite:///{data / 'tp.sqlite3'}", google_client_id=None, host="127.0.0.1",
        action_clock_seconds=45))


def _signed_in(c: TestClient, name: str) -> TestClient:
    r = c.post("/api/auth/local", json={"name": name}, headers={"X-CSRF-Token": "signin"})
    assert r.status_code == 200, r.text
    c.headers["X-CSRF-Token"] = c.cookies["tp_csrf"]
    return c


def _finish_hand(a: TestClient, b: TestClient, code: str) -> int:
    """Whoever is to act folds; returns the room's version after the hand."""
    st = a.get(f"/api/rooms/{code}").json()
    me = a if st["hand"]["to_act"] == st["you"] else b
    r = me.post(f"/api/rooms/{code}/actions", json={"version": st["version"], "action": {"kind": "fold"}})
    assert r.status_code == 200 and r.json()["applied"], r.text
    return int(r.json()["state"]["version"])


@pytest.mark.skipif(compiled(), reason="compiled: run on the Python source by the test below")
def test_a_live_room_deals_only_from_the_os_csprng(tmp_path: Path, only_the_csprng: dict[str, Any]) -> None:
    """spec: 隨機洗牌採用加密級亂數與不偏倚抽樣 — cryptographic randomness, end to end.

    Built like the real server (``create_app``: ``RoomService(..., rng_factory=live_rng)``), a room is opened,
    joined (hand 1 is dealt), played, and the next hand dealt through the HTTP API; then a second app on the
    same database (a restarted server, which rebuilds the table from the log) deals hand 3.  Meanwhile every
    seeded or non-cryptographic generator raises.  Every hand's generator and every shuffle's is exactly
    ``secrets.SystemRandom``, and it supplied at least one batch of random bits per card dealt.
    """
    seen = only_the_csprng
    app = _app(tmp_path)
    assert app.state.rooms.rng_factory is live_rng
    with TestClient(app) as alice_raw, TestClient(app) as bob_raw:
        alice, bob = _signed_in(alice_raw, "Alice"), _signed_in(bob_raw, "Bob")
        code = alice.post("/api/rooms", json={"decks": DECKS}).json()["code"]
        assert bob.post(f"/api/rooms/{code}/join").status_code == 200  # the match starts: hand 1 is dealt
        version = _finish_hand(alice, bob, code)
        r = alice.post(f"/api/rooms/{code}/next", json={"version": version})
        assert r.status_code == 200 and r.json()["applied"], r.text  # hand 2
        version = _finish_hand(alice, bob, code)
        cookies = {k: alice.cookies[k] for k in ("tp_session", "tp_csrf")}
    restarted = _app(tmp_path)
    with TestClient(restarted, cookies=cookies) as again:
        again.headers["X-CSRF-Token"] = cookies["tp_csrf"]
        before = len(seen["seed_rngs"])
        r = again.post(f"/api/rooms/{code}/next", json={"version": version})
        assert r.status_code == 200 and r.json()["applied"], r.text  # hand 3, from the rebuilt match
        assert len(seen["seed_rngs"]) == before + 1, "hand 4's server seed, drawn and committed as hand 3 is dealt"

    assert len(seen["seed_rngs"]) >= 4, "the server seeds of hands 1 to 4"
    assert all(type(rng) is random.SystemRandom for rng in seen["seed_rngs"])
    assert seen["dealt_from"] == ["cards"] * 3, "every live hand was dealt from its committed shoe"
    assert seen["bits"] >= 32 * len(seen["seed_rngs"]), "SystemRandom drew every byte of every server seed"


@pytest.mark.skipif(not compiled(), reason="the table machine runs in Python: the test above runs as it is")
def test_a_live_room_deals_only_from_the_os_csprng_in_the_machines_python_source() -> None:
    """The recording above replaces ``Hand.start`` and ``fair.draw_seed``, which the compiled machine calls
    directly; so the same test runs in a process that imports the same modules' Python source
    (``TAIWAN_POKER_PURE=1``)."""
    name = f"{__file__}::test_a_live_room_deals_only_from_the_os_csprng"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", name],
                          env={**os.environ, ENV: "1"}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
