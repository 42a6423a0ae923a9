"""A request to the table as a client sends it (a name and a JSON body) turned into a typed command.

Pure, like :mod:`.settings`: the shell (HTTP or the socket) says only who asks, what they ask (``kind``) and
with what body; anything malformed is refused here with a code (``bad_request``, ``bad_option``, ...), and
whether the table allows the command now is the machine's to say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .commands import (
    AddBot,
    AdjustStack,
    AnswerRuns,
    AnswerSeat,
    Away,
    Back,
    BuyChips,
    ChangeRules,
    Command,
    ContributeSeed,
    EndMatch,
    HandHost,
    NameCohost,
    Pause,
    RemoveBot,
    RemovePlayer,
    Resume,
    SetCoach,
    SetOptions,
    ShowCards,
    ShowOrMuck,
    Silence,
    Straddle,
)
from .errors import TableError
from .limits import MAX_CHIPS
from .settings import bot_level, changed_rules, flag, table_options
from .state import TableState


def _int(body: dict[str, Any], name: str, *, optional: bool = False) -> Any:
    value = body.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
        raise TableError(f"'{name}' must be a whole number", code="bad_request", reason="field", field=name)
    return value


def _flag(body: dict[str, Any], name: str) -> bool:
    return flag(body.get(name), name)


def _cards(body: dict[str, Any]) -> tuple[int, ...]:
    cards = body.get("cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= 2 or len(set(map(str, cards))) != len(cards) \
            or any(isinstance(c, bool) or c not in (0, 1) for c in cards):
        raise TableError("'cards' names one or both hole cards: [0], [1] or [0, 1]", code="bad_request",
                         reason="field", field="cards")
    return tuple(cards)


def _stakes(member: int, body: dict[str, Any], state: TableState) -> Command:
    return ChangeRules(member, changed_rules(state.rules, body))


REQUESTS: dict[str, Callable[[int, dict[str, Any], TableState], Command]] = {
    # the host's (or a co-host's)
    "add_bot": lambda m, b, s: AddBot(m, bot_level(b.get("level"))),
    "remove_bot": lambda m, b, s: RemoveBot(m, _int(b, "seat")),
    "coach": lambda m, b, s: SetCoach(m, _flag(b, "on")),
    "pause": lambda m, b, s: Pause(m),
    "end": lambda m, b, s: EndMatch(m),
    "resume": lambda m, b, s: Resume(m),
    "remove": lambda m, b, s: RemovePlayer(m, _int(b, "seat")),
    "stack": lambda m, b, s: AdjustStack(m, _int(b, "seat"), _int(b, "stack"), _flag(b, "confirm")
                                         if "confirm" in b else False),
    "stakes": _stakes,
    "options": lambda m, b, s: SetOptions(m, table_options(b, s.options)),
    "answer": lambda m, b, s: AnswerSeat(m, _int(b, "request"), _flag(b, "approve")),
    "host": lambda m, b, s: HandHost(m, _int(b, "seat")),
    "cohost": lambda m, b, s: NameCohost(m, _int(b, "seat"), _flag(b, "on")),
    "silence": lambda m, b, s: Silence(m, _int(b, "seat"), _flag(b, "on")),  # a spectator: RoomChat.silence
    # a player's own
    "away": lambda m, b, s: Away(m),
    "back": lambda m, b, s: Back(m),
    "buy": lambda m, b, s: BuyChips(m, _int(b, "amount", optional=True)),
    "runs": lambda m, b, s: AnswerRuns(m, _flag(b, "agree")),
    "showdown": lambda m, b, s: ShowOrMuck(m, _flag(b, "show")),
    "show": lambda m, b, s: ShowCards(m, _cards(b)),
    "straddle": lambda m, b, s: Straddle(m, str(b.get("choice"))),
    "seed": lambda m, b, s: ContributeSeed(m, str(b.get("seed"))),
}


def table_request(kind: str, member: int, body: object, state: TableState) -> Command:
    """The command of request ``kind`` by ``member`` with ``body`` (a JSON object), on the table as it is."""
    if kind not in REQUESTS:
        raise TableError(f"unknown request {kind!r}", code="bad_request", reason="field", field="type")
    if not isinstance(body, dict):
        raise TableError("a request's body is a JSON object", code="bad_request", reason="field", field="body")
    return REQUESTS[kind](member, body, state)


__all__ = ["REQUESTS", "table_request"]
