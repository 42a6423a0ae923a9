"""Table events: typed, immutable records of what happened at a table, each with its audience, and their JSON.

A table's log is a list of these; its state is the fold of :func:`~.machine.evolve`
over them.  A hand's own events travel inside :class:`HandEvent`, whose
audience is the inner event's: a private burn stays its owner's, the shoe
nobody's.  Every type is listed in :data:`AUDIENCE`; there is no default.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import TaiwanPokerError
from ..rules import events as hand_events
from ..rules.events import Audience
from ..rules.ruleset import RuleSet


class TableOpened(NamedTuple):
    """A table is opened with these rules by a member (who takes a seat in the next event); a ``guest``'s
    table is a solo table that no member joins."""

    rules: RuleSet
    creator: int
    guest: bool = False


class SettingsChanged(NamedTuple):
    """The creator changed the rules before the first hand."""

    rules: RuleSet


class PlayerSat(NamedTuple):
    """A member (or a bot of level ``bot``) took a seat with a starting stack; dealt in from the next hand."""

    seat: int
    member: int
    name: str
    stack: int
    bot: str | None = None


class PlayerLeft(NamedTuple):
    """A player left their seat; ``removed`` chips (their stack behind) leave the table with them."""

    seat: int
    removed: int


class PlayerAway(NamedTuple):
    """A player is away (two time-outs in a row): their hands are checked or folded at once, with no clock."""

    seat: int


class PlayerBack(NamedTuple):
    """An away player is back."""

    seat: int


class TimeBankUsed(NamedTuple):
    """The player to act drew ``seconds`` on their time bank (the action clock had run out)."""

    seat: int
    seconds: int


class CoachSet(NamedTuple):
    """The creator turned the coach on or off for everyone at the table (shown to all)."""

    on: bool


class HandEvent(NamedTuple):
    """One event of hand ``hand_no`` (its audience is the inner event's)."""

    hand_no: int
    event: hand_events.Event


class MatchEnded(NamedTuple):
    """The match is over: ``winner`` holds every chip still in play (None: everyone left)."""

    winner: int | None


class RematchOpened(NamedTuple):
    """A player opened a rematch: a new table with the same rules, whose code everyone here sees."""

    code: str


TableEvent = (
    TableOpened | SettingsChanged | PlayerSat | PlayerLeft | PlayerAway | PlayerBack | HandEvent | MatchEnded
    | RematchOpened | CoachSet | TimeBankUsed
)

TYPE_NAMES: dict[type[Any], str] = {
    TableOpened: "table_opened", SettingsChanged: "settings_changed", PlayerSat: "player_sat",
    PlayerLeft: "player_left", PlayerAway: "player_away", PlayerBack: "player_back", HandEvent: "hand",
    MatchEnded: "match_ended", RematchOpened: "rematch_opened", CoachSet: "coach_set",
    TimeBankUsed: "time_bank_used",
}
AUDIENCE: dict[type[Any], Audience | None] = {  # None: the inner hand event's audience decides
    TableOpened: Audience.EVERYONE, SettingsChanged: Audience.EVERYONE, PlayerSat: Audience.EVERYONE,
    PlayerLeft: Audience.EVERYONE, PlayerAway: Audience.EVERYONE, PlayerBack: Audience.EVERYONE,
    HandEvent: None, MatchEnded: Audience.EVERYONE, RematchOpened: Audience.EVERYONE, CoachSet: Audience.EVERYONE,
    TimeBankUsed: Audience.EVERYONE,
}
EVENT_TYPES: dict[str, type[Any]] = {name: cls for cls, name in TYPE_NAMES.items()}
LOG_FORMAT = 2  # v1 was the heads-up room service's ad-hoc payloads (see :mod:`.upgrade`)


def visible_to(event: TableEvent, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may see this event's content."""
    if isinstance(event, HandEvent):
        return hand_events.visible_to(event.event, seat)
    return AUDIENCE[type(event)] is Audience.EVERYONE


def event_to_json(event: TableEvent) -> dict[str, Any]:
    """``{"v": 2, "type": name, ...fields}``; rules as the rule set's JSON, a hand event as the engine's JSON."""
    out: dict[str, Any] = {"v": LOG_FORMAT, "type": TYPE_NAMES[type(event)]}
    for name, value in zip(event._fields, event, strict=True):
        if isinstance(value, RuleSet):
            out[name] = value.to_json()
        elif name == "event":
            out[name] = hand_events.event_to_json(value)  # type: ignore[arg-type]
        else:
            out[name] = value
    return out


def event_from_json(obj: dict[str, Any]) -> TableEvent:
    """Rebuild an event from :func:`event_to_json` (``bad_event`` for anything else)."""
    if not isinstance(obj, dict) or obj.get("v") != LOG_FORMAT or obj.get("type") not in EVENT_TYPES:
        raise TaiwanPokerError(f"not a table event: {obj!r}"[:200], code="bad_event")
    cls = EVENT_TYPES[obj["type"]]
    try:
        fields: dict[str, Any] = {}
        for name in cls._fields:
            if name not in obj and name in cls._field_defaults:  # a field added later: older logs lack it
                continue
            raw = obj[name]
            if name == "rules":
                fields[name] = RuleSet.from_json(raw)
            elif name == "event":
                fields[name] = hand_events.event_from_json(raw)
            else:
                fields[name] = raw
    except KeyError as exc:
        raise TaiwanPokerError(f"{obj['type']} event lacks {exc}", code="bad_event") from None
    event: TableEvent = cls(**fields)
    return event
