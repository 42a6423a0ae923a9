"""Rules engine speed: random hands simulated per second, live CSPRNG deal rate, adjudications per second.

Run: ``.venv/bin/python benchmarks/bench_rules.py [--seconds S]``.  Prints a table; never asserts.
Targets (issue 3): >= 20,000 heads-up hands/s in one process; >= 5,000 adjudications/s via ``--jsonl``;
(issue 47) a deal with seeds and commitments under 2 ms of CPU for 6 decks and 6 players.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import secrets
import subprocess
import sys
import time
from pathlib import Path

from taiwan_poker.cards import deal as deal_cards
from taiwan_poker.cards import live_rng
from taiwan_poker.fairness import CommittedShoe, seed_commitment
from taiwan_poker.rules import ActionKind, Hand, RuleSet
from taiwan_poker.rules.events import ActionTaken
from taiwan_poker.rules.ruleset import cards_needed
from taiwan_poker.rules.simulate import play_out


def hands_per_second(seats: int, seconds: float) -> tuple[float, float]:
    """Complete random hands (random legal actions through showdown), seeded generator: (wall, CPU) rates."""
    rules = RuleSet(decks=2, seats=seats)
    rng = random.Random(2026)
    stacks = [2000] * seats
    done = 0
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for i in range(500):
            play_out(Hand.start(rules, stacks, i % seats, rng=rng), rng)
        done += 500
    return done / (time.perf_counter() - start), done / (time.process_time() - cpu)


def live_deal_rate(seats: int, seconds: float) -> float:
    """Deals per second from the OS CSPRNG: only the cards a hand can use (3n+8)."""
    rng = live_rng()
    need = cards_needed(seats)
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(500):
            deal_cards(2, need, rng)
        done += 500
    return done / (time.perf_counter() - start)


def live_hand_start_rate(seats: int, seconds: float) -> float:
    """Hands dealt per second with the live CSPRNG (shuffle, burns, hole cards, blinds)."""
    rules = RuleSet(decks=2, seats=seats)
    rng = live_rng()
    stacks = [2000] * seats
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for i in range(500):
            Hand.start(rules, stacks, i % seats, rng=rng)
        done += 500
    return done / (time.perf_counter() - start)


def deal_ms(decks: int, seats: int, seconds: float, committed: bool) -> float:
    """Milliseconds of CPU per hand dealt (``Hand.start``): from the live CSPRNG (today's deal), or from a
    committed shoe (issue 47: a fresh server seed, every seat's seed, the shoe derived and committed)."""
    rules = RuleSet(decks=decks, seats=seats)
    rng = live_rng()
    stacks = [2000] * seats
    need = cards_needed(seats)
    seeds = {seat: secrets.token_bytes(32) for seat in range(seats)}
    done = 0
    cpu = time.process_time()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for i in range(50):
            if committed:
                shoe = CommittedShoe.derive(decks, secrets.token_bytes(32), f"BENCH1/{done + i}", seeds)
                seed_commitment(secrets.token_bytes(32))  # the next hand's seed, committed now
                Hand.start(rules, stacks, i % seats, cards=shoe.cards[:need])
            else:
                Hand.start(rules, stacks, i % seats, rng=rng)
        done += 50
    return (time.process_time() - cpu) * 1000 / done


def _word(ev: ActionTaken) -> str:
    if ev.kind in (ActionKind.BET, ActionKind.RAISE):
        return f"{ev.kind.value} {ev.to}"
    return ev.kind.value


def adjudication_requests(count: int, seed: int = 7) -> list[str]:
    """Requests for complete random hands (2–6 seats), as the contract's JSON lines."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        seats = rng.randint(2, 6)
        rules = RuleSet(decks=2, seats=seats)
        stacks = [rng.randint(100, 3000) for _ in range(seats)]
        button = rng.randrange(seats)
        hand = play_out(Hand.start(rules, stacks, button, rng=rng), rng)
        lines.append(json.dumps({
            "decks": 2, "structure": "no-limit", "blinds": [10, 20], "stacks": stacks, "button": button,
            "hole_cards": [[c.face_str for c in hand.hole_cards(s)] for s in range(seats)],  # type: ignore[union-attr]
            "board": [c.face_str for c in hand.board],
            "actions": [_word(e) for e in hand.events if isinstance(e, ActionTaken)],
        }))
    return lines


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def adjudications_per_second(count: int) -> tuple[float, float, float]:
    """Throughput of ``taiwan-poker adjudicate --jsonl`` fed ``count`` lines: wall incl. start-up,
    wall excl. start-up, and per CPU second of the child process (excl. start-up)."""
    exe = str(Path(sys.executable).with_name("taiwan-poker"))
    payload = "\n".join(adjudication_requests(count)) + "\n"
    warm = subprocess.run([exe, "adjudicate", "--jsonl"], input="{}\n", capture_output=True, text=True)
    start, cpu = time.perf_counter(), _children_cpu()
    subprocess.run([exe, "adjudicate", "--jsonl"], input="{}\n", capture_output=True, text=True, check=True)
    startup, startup_cpu = time.perf_counter() - start, _children_cpu() - cpu
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run([exe, "adjudicate", "--jsonl"], input=payload, capture_output=True, text=True, check=True)
    total, total_cpu = time.perf_counter() - start, _children_cpu() - cpu
    answers = done.stdout.splitlines()
    assert len(answers) == count and warm.returncode == 0
    bad = sum(1 for a in answers if not json.loads(a).get("ok"))
    if bad:
        print(f"warning: {bad} adjudications failed", file=sys.stderr)
    return count / total, count / max(total - startup, 1e-9), count / max(total_cpu - startup_cpu, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per simulation figure")
    parser.add_argument("--requests", type=int, default=20000, help="lines fed to adjudicate --jsonl")
    args = parser.parse_args()
    rows: list[tuple[str, str]] = []
    hu, hu_cpu = hands_per_second(2, args.seconds)
    rows.append(("heads-up hands simulated / s (random legal actions, to showdown)", f"{hu:,.0f}"))
    rows.append(("  same, per CPU second of this process", f"{hu_cpu:,.0f}"))
    six, six_cpu = hands_per_second(6, args.seconds)
    rows.append(("six-handed hands simulated / s", f"{six:,.0f}"))
    rows.append(("  same, per CPU second of this process", f"{six_cpu:,.0f}"))
    rows.append(("live CSPRNG deals / s, heads-up (14 cards of 104)", f"{live_deal_rate(2, args.seconds):,.0f}"))
    rows.append(("live CSPRNG deals / s, six-handed (26 cards of 104)", f"{live_deal_rate(6, args.seconds):,.0f}"))
    rows.append(("live CSPRNG hands dealt / s, heads-up (Hand.start)", f"{live_hand_start_rate(2, args.seconds):,.0f}"))
    for decks, seats in ((2, 2), (6, 6)):
        today, fair = deal_ms(decks, seats, args.seconds, False), deal_ms(decks, seats, args.seconds, True)
        rows.append((f"deal, {decks} decks {seats} seats: ms of CPU a hand, today's CSPRNG deal", f"{today:.3f}"))
        rows.append(("  with seeds and commitments (issue 47; target < 2 ms at 6 and 6)", f"{fair:.3f}"))
    total, steady, per_cpu = adjudications_per_second(args.requests)
    label = f"adjudications / s via `adjudicate --jsonl` ({args.requests:,} lines, incl. start-up)"
    rows.append((label, f"{total:,.0f}"))
    rows.append(("adjudications / s via `adjudicate --jsonl` (start-up excluded)", f"{steady:,.0f}"))
    rows.append(("  same, per CPU second of the CLI process", f"{per_cpu:,.0f}"))
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    print(f"(1-minute load average {load}; wall-clock rates drop when other processes share the cores)")
    width = max(len(r[0]) for r in rows)
    print(f"{'measure'.ljust(width)}  {'rate':>10}")
    print(f"{'-' * width}  {'-' * 10}")
    for name, value in rows:
        print(f"{name.ljust(width)}  {value:>10}")


if __name__ == "__main__":
    main()
