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
    """The host (``by``; None in logs written before issue 23) changed the rules before the first hand."""

    rules: RuleSet
    by: int | None = None


class PlayerSat(NamedTuple):
    """A member (or a bot of level ``bot``) took a seat with a starting stack; dealt in from the next hand."""

    seat: int
    member: int
    name: str
    stack: int
    bot: str | None = None
    by: int | None = None  # the host who seated this bot


class PlayerLeft(NamedTuple):
    """A player left their seat; ``removed`` chips (their stack behind) leave the table with them. ``by``: the
    host (or co-host) who took them off the table, None when they left themselves."""

    seat: int
    removed: int
    by: int | None = None


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
    """The host (``by``) turned the coach on or off for everyone at the table (shown to all)."""

    on: bool
    by: int | None = None


# --- the host's controls and the table's options (issue 23): public, each with who did it (``by``, a member) ---


class TablePaused(NamedTuple):
    """The host paused the table: no hand is dealt until it resumes (a hand being played is played out)."""

    by: int


class TableResumed(NamedTuple):
    by: int


class StackAdjusted(NamedTuple):
    """The host set a seat's stack from ``before`` to ``after`` between hands (the difference enters, or leaves,
    the table: it is counted in the chips that entered)."""

    seat: int
    before: int
    after: int
    by: int


class RulesChanged(NamedTuple):
    """The host changed the blinds, the clock, the time bank or the hand options between hands."""

    rules: RuleSet
    by: int


class OptionsSet(NamedTuple):
    """How the table is run: rebuys and top-ups allowed, the host approves who sits, spectators may chat."""

    rebuys: bool
    approval: bool
    spectator_chat: bool
    by: int


class SeatRequested(NamedTuple):
    """A member asks to sit (the host approves who sits); ``seat`` is the seat they chose, if any."""

    member: int
    name: str
    seat: int | None = None


class SeatAnswered(NamedTuple):
    """The host approved (the player sits in the next event) or denied the request ``request``."""

    request: int
    approved: bool
    by: int


class HostChanged(NamedTuple):
    """``member`` is the table's host now; ``by`` the host who handed the role on (None: the host left)."""

    member: int
    by: int | None = None


class CohostSet(NamedTuple):
    """The host named (``on``) or unnamed ``member`` a co-host."""

    member: int
    on: bool
    by: int


class ChipsBought(NamedTuple):
    """A rebuy (``rebuy``: the player was busted) or a top-up of ``amount`` chips, up to the starting stack."""

    seat: int
    amount: int
    rebuy: bool


class StraddleChosen(NamedTuple):
    """A player chose to straddle (``next``: the next hand they are under the gun in; ``always``) or not
    (``off``); said aloud, as at a real table."""

    member: int
    choice: str


class PlayerSilenced(NamedTuple):
    """The host silenced (``on``) ``member`` at the table's chat, or let them talk again; a spectator is named
    by ``name`` and the chat ``line`` they were silenced for (a player by their seat)."""

    member: int
    on: bool
    by: int
    name: str = ""
    line: int | None = None


class ChatDeleted(NamedTuple):
    """The host deleted chat message ``message`` written by ``author`` (its text is removed from the store)."""

    message: int
    author: int
    by: int


class HandEvent(NamedTuple):
    """One event of hand ``hand_no`` (its audience is the inner event's)."""

    hand_no: int
    event: hand_events.Event


class MatchEnded(NamedTuple):
    """The match is over: the player in seat ``winner`` holds every chip still in play (None: everyone left, or
    several hold chips); ``by``: the host who ended it, None when it ended by itself (or by the server's clock)."""

    winner: int | None
    by: int | None = None


class RematchOpened(NamedTuple):
    """A player opened a rematch: a new table with the same rules, whose code everyone here sees."""

    code: str


TableEvent = (
    TableOpened | SettingsChanged | PlayerSat | PlayerLeft | PlayerAway | PlayerBack | HandEvent | MatchEnded
    | RematchOpened | CoachSet | TimeBankUsed | TablePaused | TableResumed | StackAdjusted | RulesChanged
    | OptionsSet | SeatRequested | SeatAnswered | HostChanged | CohostSet | ChipsBought | PlayerSilenced
    | ChatDeleted | StraddleChosen
)

TYPE_NAMES: dict[type[Any], str] = {
    TableOpened: "table_opened", SettingsChanged: "settings_changed", PlayerSat: "player_sat",
    PlayerLeft: "player_left", PlayerAway: "player_away", PlayerBack: "player_back", HandEvent: "hand",
    MatchEnded: "match_ended", RematchOpened: "rematch_opened", CoachSet: "coach_set",
    TimeBankUsed: "time_bank_used", TablePaused: "table_paused", TableResumed: "table_resumed",
    StackAdjusted: "stack_adjusted", RulesChanged: "rules_changed", OptionsSet: "options_set",
    SeatRequested: "seat_requested", SeatAnswered: "seat_answered", HostChanged: "host_changed",
    CohostSet: "cohost_set", ChipsBought: "chips_bought", PlayerSilenced: "player_silenced",
    ChatDeleted: "chat_deleted", StraddleChosen: "straddle_chosen",
}
AUDIENCE: dict[type[Any], Audience | None] = {  # None: the inner hand event's audience decides
    TableOpened: Audience.EVERYONE, SettingsChanged: Audience.EVERYONE, PlayerSat: Audience.EVERYONE,
    PlayerLeft: Audience.EVERYONE, PlayerAway: Audience.EVERYONE, PlayerBack: Audience.EVERYONE,
    HandEvent: None, MatchEnded: Audience.EVERYONE, RematchOpened: Audience.EVERYONE, CoachSet: Audience.EVERYONE,
    TimeBankUsed: Audience.EVERYONE, TablePaused: Audience.EVERYONE, TableResumed: Audience.EVERYONE,
    StackAdjusted: Audience.EVERYONE, RulesChanged: Audience.EVERYONE, OptionsSet: Audience.EVERYONE,
    SeatRequested: Audience.EVERYONE, SeatAnswered: Audience.EVERYONE, HostChanged: Audience.EVERYONE,
    CohostSet: Audience.EVERYONE, ChipsBought: Audience.EVERYONE, PlayerSilenced: Audience.EVERYONE,
    ChatDeleted: Audience.EVERYONE,  # that a message was deleted, and by whom; never its text
    StraddleChosen: Audience.EVERYONE,
}
HOST_LOG: tuple[type[Any], ...] = (  # the events of the table's log every player can read (who did what)
    TablePaused, TableResumed, StackAdjusted, RulesChanged, OptionsSet, SeatRequested, SeatAnswered, HostChanged,
    CohostSet, ChipsBought, PlayerSilenced, ChatDeleted, CoachSet, SettingsChanged,
)
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
