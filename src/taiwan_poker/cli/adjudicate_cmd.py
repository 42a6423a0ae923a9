"""``taiwan-poker adjudicate``: judge a hand from the contract's JSON request (one object, or ``--jsonl``)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from ..errors import TaiwanPokerError
from ..rules.adjudicate import adjudicate_safely, error_answer
from .jsonl import parse_json, run_jsonl

JsonlOpt = Annotated[bool, typer.Option("--jsonl", help="Read one JSON request a line on stdin (see the contract)")]


def adjudicate_command(jsonl: JsonlOpt = False) -> None:
    """Adjudicate a hand from a JSON request on stdin. 依 JSON 請求裁定一手牌。"""
    if jsonl:
        run_jsonl(adjudicate_safely, error_answer)
        return
    try:
        answer = adjudicate_safely(parse_json(sys.stdin.read()))
    except TaiwanPokerError as exc:
        answer = error_answer(exc)
    sys.stdout.write(json.dumps(answer, ensure_ascii=False, separators=(", ", ": ")) + "\n")
