"""``taiwan-poker verify FILE``: check the fairness records of an exported hand or match (docs/fairness.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..errors import TaiwanPokerError
from ..fairness.record import records_in, verify_record

FileArg = Annotated[Path, typer.Argument(help="an exported hand or match (JSON), or a bare fairness record; - reads "
                                              "standard input", allow_dash=True)]
JsonOpt = Annotated[bool, typer.Option("--json", help="print the reports as JSON")]


def verify_command(file: FileArg, as_json: JsonOpt = False) -> None:
    """Check every card opened to you against the shoe committed before the deal, and, once the seeds are
    revealed, the whole shoe. 驗證每張牌與發牌前承諾的牌堆相符。Exit code 0: all verified; 1: a failure."""
    text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    try:
        records = records_in(json.loads(text))
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"not JSON: {exc}") from None
    if not records:
        raise typer.BadParameter("no fairness record in this file")
    try:
        reports = [verify_record(r) for r in records]
    except TaiwanPokerError as exc:
        raise typer.BadParameter(str(exc)) from None
    if as_json:
        print(json.dumps([r.to_json() for r in reports], ensure_ascii=False, indent=1))
    else:
        table = Table("hand", "cards opened", "server seed", "whole shoe", "result")
        for r in reports:
            good = sum(ok for _, _, ok in r.openings)
            state = {True: "✓", False: "✗", None: "not revealed"}
            table.add_row(r.hand_id, f"{good}/{len(r.openings)}", state[r.seed], state[r.shoe],
                          "verified 已驗證" if r.ok else "FAILED 失敗: " + "; ".join(r.problems))
        Console().print(table)
    raise typer.Exit(0 if all(r.ok for r in reports) else 1)
