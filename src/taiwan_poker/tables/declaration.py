"""The records that declare a table event (:func:`.events.declare`): its line in the table's log and everything
else about its type.

Kept apart from :mod:`.events` because that module is compiled by mypyc (``setup.py``), which cannot compile a
generic dataclass; these records are read once per event, so they lose nothing by staying interpreted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from ..rules.events import Audience

if TYPE_CHECKING:
    from .state import TableState

E = TypeVar("E")


class LogContext(NamedTuple):
    """What a log line may name besides its event: the entry's version, the player it concerns (by name, as
    seated then), every member's name at the table, and the requests to sit by id (the name of who asked)."""

    version: int
    player: str
    names: dict[int, str]
    requests: dict[int, str]


@dataclass(frozen=True, slots=True)
class LogLine(Generic[E]):
    """An event's entry in the table's log every player reads: the message catalogue key a page says it with
    (``keys[0]``, or ``keys[1]`` when the event's field ``pick`` is false or empty), and the fields the message
    fills in (a page shows a ``seat`` counted from 1 and chip amounts as chips; ``options`` names the flags
    whose settings follow the line)."""

    keys: tuple[str, ...]
    fields: Callable[[E, LogContext], dict[str, Any]]
    pick: str | None = None

    def key(self, event: E) -> str:
        return self.keys[0] if self.pick is None or getattr(event, self.pick) else self.keys[1]


@dataclass(frozen=True, slots=True)
class Declared(Generic[E]):
    """Everything about one event type: its name in the log's JSON, who may see it (None: the inner hand event's
    audience decides, for :class:`HandEvent`), its line in the table's log (None: it has none) and its
    ``evolve`` handler."""

    name: str
    audience: Audience | None
    log: LogLine[E] | None
    evolve: Callable[[TableState, E], TableState]
    inert: bool = False  # changes nothing a request is made against (``TableState.settled`` stays)
