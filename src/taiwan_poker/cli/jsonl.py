"""The JSON-lines loop shared by ``eval --jsonl`` and ``adjudicate --jsonl``.

One JSON object a line in, one a line out, in order; a bad line is answered
with ``{"error": {"code", "message"}}`` (or the handler's own error shape)
and processing goes on.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from ..errors import TaiwanPokerError

Handler = Callable[[Any], dict[str, Any]]


def error_object(code: str, message: str) -> dict[str, Any]:
    """The contract's error line."""
    return {"error": {"code": code, "message": message}}


def parse_json(line: str) -> Any:
    """Parse one request, raising a ``bad_json`` error for anything that is not a JSON object."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise TaiwanPokerError(f"not valid JSON: {exc.msg} at column {exc.colno}", code="bad_json") from None
    except RecursionError:
        raise TaiwanPokerError("not valid JSON: nested too deeply", code="bad_json") from None
    if not isinstance(obj, dict):
        raise TaiwanPokerError("a request must be a JSON object", code="bad_json")
    return obj


def answer(line: str, handler: Handler, on_error: Callable[[TaiwanPokerError], dict[str, Any]]) -> dict[str, Any]:
    """Handle one request line, turning any rule error into its error object."""
    try:
        return handler(parse_json(line))
    except TaiwanPokerError as exc:
        return on_error(exc)


def run_jsonl(
    handler: Handler,
    on_error: Callable[[TaiwanPokerError], dict[str, Any]] = lambda e: error_object(e.code, e.message),
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> None:
    """Answer every line of ``stdin`` on ``stdout``, flushing after each so it can be used as a co-process."""
    src = stdin or sys.stdin
    dst = stdout or sys.stdout
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
    for line in src:
        dst.write(dumps(answer(line, handler, on_error)) + "\n")
        dst.flush()
