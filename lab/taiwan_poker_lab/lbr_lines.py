"""Where Local Best Response wins, line by line: a log of LBR against a level, grouped by the hands' lines.

Plays the bench's LBR hands (:func:`.arena.lbr_hand`: each deal with LBR in either seat, the level remembering
LBR's habits over the run) and keeps, for every hand, its line of actions, LBR's seat and its result, raw and
scored for luck (:mod:`.luck`).  The hands are then grouped by LBR's seat (the small blind is the button, in
position after the flop), by the pot before the flop (limped, raised, folded) and by the first ``depth`` actions
after it, and each group's share of the hands and of LBR's winnings is printed, in mbb/g over all the hands: the
groups add up to the whole.  A log kept with ``--json`` can be grouped again at another depth with ``--load``.

A line's actions read ``<who><what>``: ``L`` LBR, ``O`` the level; ``F`` fold, ``X`` check, ``C`` call, ``A`` all
in, ``B``/``R`` a bet or raise (in the log with its size over the pot after calling, ``B1.00``; grouped without).

    .venv/bin/python -m taiwan_poker_lab.lbr_lines --level strong --decks 2 --seed 8 --deals 600 --json lbr.json
    .venv/bin/python -m taiwan_poker_lab.lbr_lines --load lbr.json --depth 3
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from taiwan_poker.bots.levels import policy_of
from taiwan_poker.rules.actions import Action, ActionKind
from taiwan_poker.rules.hand import Hand
from taiwan_poker.rules.ruleset import RuleSet
from taiwan_poker.strategy.seat import SeatView

from .arena import Memory, lbr_hand, mean_ci
from .exploiters import EXPLOITERS
from .lbr import ActionDistribution, as_distribution

Step = tuple[int, str]  # (street, "<who><what>")
CODES = {ActionKind.FOLD: "F", ActionKind.CHECK: "X", ActionKind.CALL: "C", ActionKind.ALLIN: "A",
         ActionKind.BET: "B", ActionKind.RAISE: "R"}


@dataclass(frozen=True, slots=True)
class Row:
    """One hand: the deal, LBR's seat, whether that is the small blind, LBR's big blinds won (raw and scored for
    luck) and the line."""

    deal: int
    lbr_seat: int
    small_blind: bool
    net: float
    adjusted: float
    line: tuple[Step, ...]


def code(view: SeatView, action: Action, lbr: bool) -> str:
    """An action as the log writes it (the module docstring)."""
    out = ("L" if lbr else "O") + CODES[action.kind]
    if action.kind in (ActionKind.BET, ActionKind.RAISE) and action.to is not None:
        out += f"{(action.to - view.current_bet) / max(1, view.pot + view.call_amount):.2f}"
    return out


def play(level: str, decks: int, seed: int, deals: int) -> list[Row]:
    """The bench's LBR hands against ``level`` (a level or an exploiter) for ``seed``, logged: two rows a deal."""
    rules = RuleSet(decks=decks, seats=2)
    opponent = EXPLOITERS[level] if level in EXPLOITERS else policy_of(level)
    model = as_distribution(opponent, (8, 3, 3, 3), seed)
    memory = Memory()
    rows: list[Row] = []
    for d in range(deals):
        deal_seed = seed * 1_000_003 + d
        for lbr_seat in (0, 1):
            line: list[Step] = []

            def trace(hand: Hand, view: SeatView, action: Action, dist: ActionDistribution | None,
                      lbr_seat: int = lbr_seat, line: list[Step] = line) -> None:
                line.append((view.street, code(view, action, view.seat == lbr_seat)))

            scores: list[float] = []
            net = lbr_hand(rules, opponent, model, lbr_seat, d % 2, deal_seed, memory=memory, scores=scores,
                           trace=trace)
            rows.append(Row(d, lbr_seat, lbr_seat == d % 2, net / rules.big_blind, scores[0] / rules.big_blind,
                            tuple(line)))
    return rows


def preflop_pot(row: Row) -> str:
    """The pot before the flop: folded (somebody folded), raised (by LBR or by the level) or limped."""
    pre = [what for street, what in row.line if street == 0]
    if any(what[1] == "F" for what in pre):
        return "folded"
    raisers = {what[0] for what in pre if what[1] in "BRA"}
    if "O" in raisers:
        return "raised"
    return "LBR raised" if raisers else "limped"


def group(row: Row, depth: int) -> tuple[str, ...]:
    """The hand's group: LBR's seat, the pot before the flop, then the first ``depth`` actions after it (bets and
    raises without their size)."""
    after = [what[:2] if what[1] in "BR" else what for street, what in row.line if street >= 1]
    return ("LBR SB" if row.small_blind else "LBR BB", preflop_pot(row), *after[:depth])


@dataclass(frozen=True, slots=True)
class Group:
    key: tuple[str, ...]
    hands: int
    raw: float  # mbb/g: the group's chips over all the hands
    adjusted: float
    per_hand: float  # big blinds a hand of the group, luck-adjusted


def summary(rows: Sequence[Row], depth: int, least: int = 8) -> list[Group]:
    """The groups of at least ``least`` hands, the most luck-adjusted winnings (either sign) first."""
    n = len(rows)
    groups: dict[tuple[str, ...], list[Row]] = defaultdict(list)
    for r in rows:
        groups[group(r, depth)].append(r)
    out = [Group(k, len(rs), 1000 * sum(r.net for r in rs) / n, 1000 * sum(r.adjusted for r in rs) / n,
                 sum(r.adjusted for r in rs) / len(rs))
           for k, rs in groups.items() if len(rs) >= least]
    return sorted(out, key=lambda g: -abs(g.adjusted))


def report(rows: Sequence[Row], depth: int, least: int = 8) -> list[str]:
    """The printed summary: the whole (mbb/g with a 95 % interval over hands), then each group."""
    if not rows:
        return ["no hands"]
    raw, raw_half = mean_ci([r.net for r in rows])
    adj, adj_half = mean_ci([r.adjusted for r in rows])
    lines = [f"{len(rows)} hands, LBR wins {10 * raw:+.0f} ± {10 * raw_half:.0f} mbb/g, "
             f"luck-adjusted {10 * adj:+.0f} ± {10 * adj_half:.0f}"]
    for g in summary(rows, depth, least):
        lines.append(f"{' '.join(g.key):44s} {g.hands:6d} ({g.hands / len(rows):6.1%})  raw {g.raw:+7.0f}  "
                     f"adjusted {g.adjusted:+7.0f}  a hand {g.per_hand:+.2f} bb")
    return lines


def save(rows: Sequence[Row], path: Path) -> None:
    path.write_text(json.dumps([asdict(r) for r in rows]))


def load(path: Path) -> list[Row]:
    out: list[Row] = []
    for r in json.loads(path.read_text()):
        line = tuple((int(street), str(what)) for street, what in r["line"])
        out.append(Row(int(r["deal"]), int(r["lbr_seat"]), bool(r["small_blind"]), float(r["net"]),
                       float(r["adjusted"]), line))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--level", default="strong", help="a level or an exploiter (the bench's keys)")
    ap.add_argument("--decks", type=int, default=2)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--deals", type=int, default=100, help="deals (two hands each)")
    ap.add_argument("--depth", type=int, default=2, help="actions after the flop that name a group")
    ap.add_argument("--least", type=int, default=8, help="the fewest hands a group printed")
    ap.add_argument("--json", default="", help="keep the log in this file")
    ap.add_argument("--load", default="", help="group a kept log instead of playing")
    args = ap.parse_args(argv)
    rows = load(Path(args.load)) if args.load else play(args.level, args.decks, args.seed, args.deals)
    if args.json:
        save(rows, Path(args.json))
    print("\n".join(report(rows, args.depth, args.least)))


if __name__ == "__main__":
    main()
