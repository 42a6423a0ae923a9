"""Sit-and-go tournaments headless (issue 46): a whole six-player bot tournament's wall time, the machine's CPU per
move at a tournament table against a plain table, and a run of many tournaments with every invariant checked.

Run:  ``.venv/bin/python benchmarks/bench_tournaments.py [--runs 1000] [--repeat 3] [--part whole,cpu,runs]``

* ``whole``: wall time of a six-player tournament (five bots and the creator's seat played by a bot), each
  preset's real schedule on the fake clock (target: under 10 s);
* ``cpu``: process time of decide + fold per move (the write path's core; the store and the sockets are the
  same for both kinds of table), six players, the same seeds, at a sit-and-go against a cash match of the same
  seats and stacks (target: within 10 %);
* ``service``: the same through the room service's one write path (load, decide, append under the version check,
  cache, publish) on a SQLite file: process time per write at a six-seat sit-and-go against a six-seat cash table,
  the member checking or folding and five bots playing, the server's clock driven by ``due`` (target: within 10 %);
* ``runs``: ``--runs`` tournaments of 2 to 6 players (every preset, levels of one minute so that they end in few
  hands), checking after every event that chips are conserved, and at the end that every player has a place and
  the payouts add up to the prize pool. Prints failures; never asserts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import Counter
from typing import Any

from taiwan_poker.bots.sit_and_go import play_sit_and_go
from taiwan_poker.tables import TableState, chips_conserved
from taiwan_poker.tables.schedules import PRESET, PRESETS, SitAndGo, preset


def whole(repeat: int) -> None:
    print("whole six-player tournament, headless (target < 10 s)")
    print(f"{'preset':<8} {'wall s (median)':>16} {'max s':>7} {'CPU s (median)':>15} {'hands':>6} {'events':>7}")
    for name in PRESETS:
        walls, cpus, hands, events = [], [], [], []
        for seed in range(repeat):
            began, began_cpu = time.perf_counter(), time.process_time()
            played = play_sit_and_go(preset(name), 6, seed=seed, levels=("solid", "beginner", "solid"))
            walls.append(time.perf_counter() - began)
            cpus.append(time.process_time() - began_cpu)
            hands.append(len(played.state.hands))
            events.append(len(played.events))
        print(f"{name:<8} {statistics.median(walls):>16.2f} {max(walls):>7.2f} {statistics.median(cpus):>15.2f} "
              f"{int(statistics.median(hands)):>6} {int(statistics.median(events)):>7}")
    print(f"(load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores)")


def cpu(repeat: int) -> None:
    print("\nCPU per move, decide + fold (target: a tournament within 10 % of a plain table)")
    print("(a tournament's short stacks go all in more often: more moves end the hand, and an all-in's run-out is "
          "several events; each kind of move is compared apart, and per event)")
    kinds = ("continues", "ends hand")
    totals = {table: {k: [0, 0.0, 0] for k in kinds} for table in ("sit-and-go", "cash match")}
    for seed in range(repeat * 3):
        t = play_sit_and_go(preset("regular"), 6, seed=seed, levels=("beginner",))
        c = play_sit_and_go(None, 6, seed=seed, levels=("beginner",), max_hands=len(t.state.hands), push_fold=True)
        for table, played in (("sit-and-go", t), ("cash match", c)):
            for k in kinds:
                for i, x in enumerate(played.by_kind[k]):
                    totals[table][k][i] += x
    print(f"{'table':<12} {'move':<10} {'moves':>7} {'µs / move':>10} {'events / move':>14} {'µs / event':>11}")
    per: dict[tuple[str, str], tuple[float, float]] = {}
    for table, by in totals.items():
        for k, (n, seconds, events) in by.items():
            per[table, k] = (seconds / max(n, 1) * 1e6, seconds / max(events, 1) * 1e6)
            print(f"{table:<12} {k:<10} {n:>7} {per[table, k][0]:>10.1f} {events / max(n, 1):>14.2f} "
                  f"{per[table, k][1]:>11.1f}")
    for k in kinds:
        t_move, t_event = per["sit-and-go", k]
        c_move, c_event = per["cash match", k]
        print(f"ratio ({k}): per move {t_move / c_move:.3f}, per event {t_event / c_event:.3f}")


def service(repeat: int) -> None:
    import datetime as dt
    import random
    import tempfile

    from taiwan_poker.rooms.service import RoomService
    from taiwan_poker.rules.actions import ActionKind
    from taiwan_poker.store import repo
    from taiwan_poker.store.db import Database
    from taiwan_poker.tables.timing import due

    print("\nCPU per write through the room service, SQLite (target: a tournament within 10 % of a plain table)")
    totals = {"sit-and-go": [0, 0.0], "cash match": [0, 0.0]}
    for seed in range(repeat):
        for kind in ("sit-and-go", "cash match"):
            with tempfile.TemporaryDirectory() as tmp:
                now = [dt.datetime(2026, 1, 5, 20, 0, tzinfo=dt.UTC)]
                db = Database(f"sqlite:///{tmp}/tp.sqlite3")
                db.migrate()
                rng = random.Random(seed)
                svc = RoomService(db, clock=lambda now=now: now[0], bot_pause=(0.0, 0.0),
                                  rng_factory=lambda rng=rng: random.Random(rng.random()))
                with db.transaction() as s:
                    member = repo.create_local_member(s, "P1")
                tournament = {"preset": "regular"} if kind == "sit-and-go" else None
                code = svc.create_room(member, 2, 6, 1500, [10, 20], bots=5, level="beginner",
                                       tournament=tournament)
                writes, spent = 0, 0.0
                for _ in range(5000):
                    state = svc.reads.table_state(code)
                    if state.over or len(state.hands) > 120:
                        break
                    hand = state.hand
                    if hand is not None and not hand.complete and hand.to_act == state.seat_of(member.id):
                        legal = hand.legal()
                        move = {"kind": "check" if legal.allows(ActionKind.CHECK) else "fold"}
                        began = time.process_time()
                        applied = svc.act(code, member, move, state.version).applied
                        spent += time.process_time() - began
                        writes += applied
                        continue
                    upcoming = due(state, now[0])
                    if upcoming.command is None:
                        if upcoming.next is None:
                            break
                        now[0] = max(now[0], upcoming.next)
                        continue
                    began = time.process_time()
                    applied = svc.play_bot(code)
                    spent += time.process_time() - began
                    writes += applied
                totals[kind][0] += writes
                totals[kind][1] += spent
                db.dispose()
    print(f"{'table':<12} {'writes':>7} {'µs / write':>11}")
    per = {}
    for kind, (writes, spent) in totals.items():
        per[kind] = spent / max(writes, 1) * 1e6
        print(f"{kind:<12} {writes:>7} {per[kind]:>11.0f}")
    print(f"ratio {per['sit-and-go'] / per['cash match']:.3f}")


def quick(name: str) -> SitAndGo:
    base = preset(name)
    s = PRESET[name].schedule
    return SitAndGo(type(s)(s.levels, 1, s.break_every, min(s.break_minutes, 1)), base.payouts, base.buy_in, name)


def runs(count: int) -> None:
    print(f"\n{count} headless tournaments of 2 to 6 players, every invariant checked")
    failures: list[str] = []
    fields: Counter[int] = Counter()
    began = time.perf_counter()
    hands = 0
    for i in range(count):
        players = 2 + i % 5
        bad: list[str] = []

        def check(state: TableState, event: Any, bad: list[str] = bad) -> None:
            if not chips_conserved(state):
                bad.append(f"chips not conserved after {type(event).__name__}")

        try:
            played = play_sit_and_go(quick(PRESETS[i % 3]), players, seed=10_000 + i, on_event=check,
                                     levels=(("beginner", "solid", "strong")[i % 3], "beginner", "solid"))
        except Exception as exc:  # a crash is a failure to report, not a reason to stop
            failures.append(f"#{i}: {exc!r}")
            continue
        t = played.state.tournament
        hands += len(played.state.hands)
        if t is None or not t.finished:
            bad.append("not finished")
        elif sorted(p.member for p in t.places) != sorted(t.field) or len(t.field) != players:
            bad.append("a player without a place")
        elif sum(p.payout for p in t.places) != t.prize_pool:
            bad.append("payouts do not add up")
        fields[players] += 1
        if bad:
            failures.append(f"#{i} ({players} players): {bad[0]}")
    wall = time.perf_counter() - began
    print(f"finished {count - len(failures)} of {count} cleanly; fields {dict(sorted(fields.items()))}; "
          f"{hands} hands; {wall:.0f} s ({wall / max(count, 1):.2f} s each)")
    for line in failures[:20]:
        print("FAIL", line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="whole,cpu,service,runs")
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    parts = set(args.part.split(","))
    if "whole" in parts:
        whole(args.repeat)
    if "cpu" in parts:
        cpu(args.repeat)
    if "service" in parts:
        service(args.repeat)
    if "runs" in parts:
        runs(args.runs)


if __name__ == "__main__":
    main()
