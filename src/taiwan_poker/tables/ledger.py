"""The table's books: for every player who ever sat, what they brought, bought, were given or had taken by the
host, and took away; with what they hold now, their net, and totals that add up to the chips on the table.

Pure: :class:`Account` records are kept on the table state by :func:`~.machine.evolve` (one per member, in the
order they first sat; a player who leaves and sits again keeps theirs, with a new buy-in), and
:func:`ledger` reads them with the seats' stacks.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Adjustment:
    """The host (or a co-host) ``by`` changed this player's stack by ``delta`` (at table version ``version``)."""

    delta: int
    by: int
    version: int


@dataclass(frozen=True, slots=True)
class Account:
    """One player's chips in and out of the table."""

    member: int
    name: str
    bot: bool = False
    buy_ins: int = 0  # the starting stack, once for every time they sat down
    sits: int = 0
    rebuys: int = 0  # chips bought with an empty stack
    rebuy_count: int = 0
    top_ups: int = 0  # chips bought with chips left
    top_up_count: int = 0
    adjustments: tuple[Adjustment, ...] = ()
    took: int = 0  # chips taken off the table on leaving (every time they left)

    @property
    def adjusted(self) -> int:
        return sum(a.delta for a in self.adjustments)

    @property
    def paid_in(self) -> int:
        """Every chip that entered the table for this player."""
        return self.buy_ins + self.rebuys + self.top_ups + self.adjusted


def sat(accounts: tuple[Account, ...], member: int, name: str, bot: bool, stack: int) -> tuple[Account, ...]:
    """A player sat down with ``stack`` chips: a new buy-in (a new account the first time)."""
    old = next((a for a in accounts if a.member == member), None)
    if old is None:
        return (*accounts, Account(member, name, bot, buy_ins=stack, sits=1))
    return _with(accounts, replace(old, name=name, buy_ins=old.buy_ins + stack, sits=old.sits + 1))


def changed(accounts: tuple[Account, ...], member: int, **deltas: int) -> tuple[Account, ...]:
    """Add ``deltas`` to the named counters of ``member``'s account."""
    old = next(a for a in accounts if a.member == member)
    return _with(accounts, replace(old, **{k: getattr(old, k) + v for k, v in deltas.items()}))


def adjusted(accounts: tuple[Account, ...], member: int, adjustment: Adjustment) -> tuple[Account, ...]:
    old = next(a for a in accounts if a.member == member)
    return _with(accounts, replace(old, adjustments=(*old.adjustments, adjustment)))


def _with(accounts: tuple[Account, ...], account: Account) -> tuple[Account, ...]:
    return tuple(account if a.member == account.member else a for a in accounts)


def ledger(accounts: tuple[Account, ...], holding: dict[int, int], seats: dict[int, int], pot: int,
           names: dict[int, str]) -> dict[str, Any]:
    """The books as every player reads them: a row per account (``holding``: the chips each seated member has
    behind now; ``seats``: their seats; ``pot``: chips in a running hand's pot; ``names``: who made the
    adjustments) and the totals, which add up: paid in = on the table (stacks and pot) + taken away."""
    rows = []
    for a in accounts:
        chips = holding.get(a.member, 0)
        rows.append({
            "name": a.name, "bot": a.bot, "seat": seats.get(a.member), "seated": a.member in seats,
            "buy_in": a.buy_ins, "buy_ins": a.sits, "rebuys": a.rebuys, "rebuy_count": a.rebuy_count,
            "top_ups": a.top_ups, "top_up_count": a.top_up_count, "adjusted": a.adjusted,
            "adjustments": [{"chips": x.delta, "by": names.get(x.by, ""), "version": x.version}
                            for x in a.adjustments],
            "took": a.took, "chips": chips, "paid_in": a.paid_in, "net": chips + a.took - a.paid_in,
        })
    paid_in = sum(a.paid_in for a in accounts)
    took = sum(a.took for a in accounts)
    on_table = sum(holding.values()) + pot
    return {"players": rows, "totals": {
        "buy_in": sum(a.buy_ins for a in accounts), "rebuys": sum(a.rebuys for a in accounts),
        "top_ups": sum(a.top_ups for a in accounts), "adjusted": sum(a.adjusted for a in accounts),
        "paid_in": paid_in, "on_table": on_table, "pot": pot, "took": took,
        "balanced": paid_in == on_table + took}}


CSV_COLUMNS = ("name", "bot", "seat", "buy_in", "buy_ins", "rebuys", "rebuy_count", "top_ups", "top_up_count",
               "adjusted", "took", "chips", "net")


def ledger_csv(books: dict[str, Any]) -> str:
    """The books as CSV: a row per player (seats numbered from 1, as the pages number them), then the totals."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in books["players"]:
        seat = row["seat"] + 1 if row["seat"] is not None else ""
        writer.writerow([seat if c == "seat" else int(row[c]) if c == "bot" else row[c] for c in CSV_COLUMNS])
    t = books["totals"]
    writer.writerow(["TOTAL", "", "", t["buy_in"], "", t["rebuys"], "", t["top_ups"], "", t["adjusted"], t["took"],
                     t["on_table"], 0])
    return out.getvalue()


__all__ = ["CSV_COLUMNS", "Account", "Adjustment", "adjusted", "changed", "ledger", "ledger_csv", "sat"]
