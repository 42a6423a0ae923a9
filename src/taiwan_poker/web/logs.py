"""Structured logs: JSON lines (by orjson) when stderr is not a terminal, readable lines when it is.

Every record carries the id of the request or socket it belongs to (a context
variable set by :class:`~.request_context.RequestContext`), and whatever
``extra`` fields its call gave: ``room`` on room events, ``ms`` or
``seconds`` on timings, ``status``, ``route``.  The server's own loggers
(uvicorn) go through the same handler.
"""

from __future__ import annotations

import logging
import sys
from contextvars import ContextVar

from pythonjsonlogger.orjson import OrjsonFormatter

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)

_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime", "taskName"}


class _WithRequestId(logging.Filter):
    """Stamp each record with the current request id (unless the call gave one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = request_id.get()
        return True


class _Readable(logging.Formatter):
    """``time level logger [request] message key=value ...`` for a person at a terminal."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extras = " ".join(f"{k}={v}" for k, v in record.__dict__.items()
                          if k not in _STANDARD and k != "request_id" and v is not None)
        return f"{line} {extras}" if extras else line


def configure(level: str = "info", json_lines: bool | None = None) -> None:
    """Send every logger's records to stderr, as JSON lines unless stderr is a terminal."""
    if json_lines is None:
        json_lines = not sys.stderr.isatty()
    # no record needs where or in which thread, process or task it was made (no format shows it): not looking it
    # up saves a move's one record (``room events stored``) 3 of its 17 µs (the logging HOWTO's "Optimization")
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_WithRequestId())
    if json_lines:
        handler.setFormatter(OrjsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                                             rename_fields={"asctime": "time", "levelname": "level",
                                                            "name": "logger"},
                                             reserved_attrs=[*_STANDARD - {"message", "asctime"}]))
    else:
        handler.setFormatter(_Readable("%(asctime)s %(levelname)-7s %(name)s [%(request_id)s] %(message)s"))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True
