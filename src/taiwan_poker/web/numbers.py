"""The bounds of every integer the API takes, stated in the OpenAPI schema and enforced before a handler runs.

A number outside them is a 422 ``bad_request`` that names the field (never a database overflow or a 500: the
audit's 2^63 in a chat line id). Where a table setting has narrower rules of its own (a stack of 100 to
1,000,000 chips and at least ten big blinds, say), the schema states those, and the core answers a number
between them and the hard bound with its own error code and a sentence that says what is allowed.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import Field, StrictInt

from ..rules.ruleset import MAX_SEATS
from ..store.models import MAX_ROW_ID

MAX_ID = MAX_ROW_ID  # a row id, a room version, a hand number, a chat line: what an INTEGER column holds
MAX_SEAT = MAX_SEATS - 1  # seats are numbered from 0
MAX_SAFE = 2**53 - 1  # the largest integer a browser's number holds exactly: the hard bound of a checked setting


def _shown(shown: tuple[int, int]) -> dict[str, Any]:
    return {"minimum": shown[0], "maximum": shown[1]}


def setting(shown: tuple[int, int], *default: Any, high: int = MAX_SAFE, **kw: Any) -> Any:
    """A body field the core checks against ``shown`` with its own error code: the schema states ``shown``;
    below −(2^53 − 1) or above ``high`` it is a 422 before the core sees it."""
    return Field(*default, ge=-MAX_SAFE, le=high, json_schema_extra=_shown(shown), **kw)


def setting_query(shown: tuple[int, int], **kw: Any) -> Any:
    """The same for a query parameter."""
    return Query(ge=-MAX_SAFE, le=MAX_SAFE, json_schema_extra=_shown(shown), **kw)


Id = Annotated[StrictInt, Field(ge=0, le=MAX_ID)]
Seat = Annotated[StrictInt, Field(ge=0, le=MAX_SEAT)]
IdPath = Annotated[int, Path(ge=0, le=MAX_ID)]
SeatPath = Annotated[int, Path(ge=0, le=MAX_SEAT)]
HandPath = Annotated[int, Path(ge=1, le=MAX_ID, description="the hand's number at its table, from 1")]
IdQuery = Annotated[int, Query(ge=0, le=MAX_ID)]
