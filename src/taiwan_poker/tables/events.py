"""Table events, each declared once: its name in the log, who may see it, its line in the table's log, and how it
changes the state; with the fold of a log and the log's JSON.

A table's log is a list of these typed, immutable records; its state is
``fold(events)``, one :func:`evolve` at a time. Each event type is a
``NamedTuple`` under one :func:`declare`, which states everything else about it
(there is no other list of events to keep in step, and no default: a type
without a declaration is not an event). A hand's own events travel inside
:class:`HandEvent`, whose audience is the inner event's: a private burn stays
its owner's, the shoe nobody's. Every event carries the time it happened
(``at``, the time of the command that caused it; None in logs written before
the table kept its own time, which the loader fills with the time it was
stored), and after each one the table's clock moves on (:func:`~.timing.tick`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, TypeVar

from ..errors import TaiwanPokerError
from ..frozen import replace
from ..rules import events as hand_events
from ..rules.events import ActionTaken, Audience, CardsShown, HandEnded, HandStarted, StraddlePosted
from ..rules.hand import Hand
from ..rules.ruleset import DEFAULT_RULES, RuleSet
from . import ledger
from .commands import TableOptions
from .declaration import Declared, LogContext, LogLine
from .errors import TableError
from .fair import DealSeeds
from .limits import BOT_PAUSE_SECONDS
from .schedules import SitAndGo
from .state import Departed, LogItem, SeatRequest, SeatState, TableState
from .timing import tick
from .tournament import Place, Tournament

E = TypeVar("E")
LOG_FORMAT = 2  # v1 was the heads-up room service's ad-hoc payloads (see :mod:`.upgrade`)
HAND_OPTIONS = ("straddle", "run_twice", "show_or_muck")  # the hand options a rules line lists, by name
TABLE_OPTIONS = ("rebuys", "approval", "spectator_chat")


DECLARED: dict[type[Any], Declared[Any]] = {}


def declare(name: str, audience: Audience | None, *, log: LogLine[Any] | None,
            evolve: Callable[[TableState, Any], TableState], inert: bool = False) -> Callable[[type[E]], type[E]]:
    """Declare the event type below: the four parts are required, so none has a default (``inert``: an event no
    request is made against, which leaves a request made before it current). (The handler takes that type,
    which mypy cannot tie to a class not yet defined: a test checks each handler's annotation.)"""

    def register(cls: type[E]) -> type[E]:
        if name in (d.name for d in DECLARED.values()):
            raise ValueError(f"two event types named {name!r}")
        DECLARED[cls] = Declared(name, audience, log, evolve, inert)
        return cls

    return register


def _no_fields(event: object, context: LogContext) -> dict[str, Any]:
    return {}


def _seat_fields(seat: int, context: LogContext) -> dict[str, Any]:
    return {"seat": seat, "name": context.player}


def _rules_fields(event: SettingsChanged | RulesChanged, context: LogContext) -> dict[str, Any]:
    r = event.rules
    return {"small": r.small_blind, "big": r.big_blind, "clock": r.action_clock, "bank": r.time_bank,
            **{name: getattr(r, name) for name in HAND_OPTIONS}, "options": list(HAND_OPTIONS)}


# --- the table, its seats and its players -------------------------------------------------------------------------


def _opened(state: TableState, event: TableOpened) -> TableState:
    return TableState(rules=event.rules, creator=event.creator, seats=(None,) * event.rules.seats,
                      version=state.version, guest=event.guest, host=event.creator, bot_pause=event.bot_pause)


@declare("table_opened", Audience.EVERYONE, log=None, evolve=_opened)
class TableOpened(NamedTuple):
    """A table is opened with these rules by a member (who takes a seat in the next event); a ``guest``'s
    table is a solo table that no member joins. ``bot_pause``: how long its bots pause before a move."""

    rules: RuleSet
    creator: int
    guest: bool = False
    bot_pause: tuple[float, float] = BOT_PAUSE_SECONDS
    at: dt.datetime | None = None


def _settings_changed(state: TableState, event: SettingsChanged) -> TableState:
    accounts = state.accounts
    for s in state.seats:  # before the first hand everyone's one buy-in is the starting stack
        if s is not None:
            accounts = ledger.changed(accounts, s.member, buy_ins=event.rules.starting_stack - s.stack)
    seats = tuple(replace(s, stack=event.rules.starting_stack, bank=event.rules.time_bank,
                          bought=event.rules.starting_stack) if s is not None else None for s in state.seats)
    seats = (seats + (None,) * (event.rules.seats - len(seats)))[: event.rules.seats]
    bought = sum(s.stack for s in seats if s is not None)
    return replace(state, accounts=accounts, rules=event.rules, seats=seats, bought_in=bought)


@declare("settings_changed", Audience.EVERYONE, log=LogLine(("log.rules_changed",), _rules_fields),
         evolve=_settings_changed)
class SettingsChanged(NamedTuple):
    """The host (``by``; None in logs written before issue 23) changed the rules before the first hand."""

    rules: RuleSet
    by: int | None = None
    at: dt.datetime | None = None


def _sat(state: TableState, event: PlayerSat) -> TableState:
    state = replace(state, bought_in=state.bought_in + event.stack,
                    requests=tuple(r for r in state.requests if r.member != event.member),
                    accounts=ledger.sat(state.accounts, event.member, event.name, event.bot is not None, event.stack))
    return state.with_seat(event.seat, SeatState(event.member, event.name, event.stack, bot=event.bot,
                                                 bank=state.rules.time_bank, bought=event.stack))


@declare("player_sat", Audience.EVERYONE, evolve=_sat, log=LogLine(
    ("log.bot_seated", "log.player_sat"), pick="bot",
    fields=lambda e, c: {"seat": e.seat, "name": e.name, "level": e.bot, "stack": e.stack}))
class PlayerSat(NamedTuple):
    """A member (or a bot of level ``bot``) took a seat with a starting stack; dealt in from the next hand."""

    seat: int
    member: int
    name: str
    stack: int
    bot: str | None = None
    by: int | None = None  # the host who seated this bot
    at: dt.datetime | None = None


def _left(state: TableState, event: PlayerLeft) -> TableState:
    seat = state.seats[event.seat]
    assert seat is not None
    state = replace(state, removed=state.removed + event.removed, last_left=(state.version, event.seat),
                    cohosts=state.cohosts - {seat.member},
                    accounts=ledger.changed(state.accounts, seat.member, took=event.removed),
                    departed=(*state.departed, Departed(event.seat, seat.member, seat.name,
                                                        state.started and not state.over, seat.bot,
                                                        event.removed, seat.bought, event.by)))
    return state.with_seat(event.seat, None)


@declare("player_left", Audience.EVERYONE, evolve=_left, log=LogLine(
    ("log.player_removed", "log.player_left"), pick="by",
    fields=lambda e, c: {**_seat_fields(e.seat, c), "took": e.removed}))
class PlayerLeft(NamedTuple):
    """A player left their seat; ``removed`` chips (their stack behind) leave the table with them. ``by``: the
    host (or co-host) who took them off the table, None when they left themselves."""

    seat: int
    removed: int
    by: int | None = None
    at: dt.datetime | None = None


def _away(state: TableState, event: PlayerAway | PlayerBack) -> TableState:
    seat = state.seats[event.seat]
    assert seat is not None
    return state.with_seat(event.seat, replace(seat, away=isinstance(event, PlayerAway), timeouts=0))


@declare("player_away", Audience.EVERYONE, log=None, evolve=_away)
class PlayerAway(NamedTuple):
    """A player is away (two time-outs in a row): their hands are checked or folded at once, with no clock."""

    seat: int
    at: dt.datetime | None = None


@declare("player_back", Audience.EVERYONE, log=None, evolve=_away)
class PlayerBack(NamedTuple):
    """An away player is back."""

    seat: int
    at: dt.datetime | None = None


def _bank_used(state: TableState, event: TimeBankUsed) -> TableState:
    seat = state.seats[event.seat]
    assert seat is not None
    return state.with_seat(event.seat, replace(seat, bank=max(0, seat.bank - event.seconds)))


@declare("time_bank_used", Audience.EVERYONE, log=None, evolve=_bank_used)
class TimeBankUsed(NamedTuple):
    """The player to act drew ``seconds`` on their time bank (the action clock had run out)."""

    seat: int
    seconds: int
    at: dt.datetime | None = None


def _coach_set(state: TableState, event: CoachSet) -> TableState:
    return replace(state, coach=event.on)


@declare("coach_set", Audience.EVERYONE, evolve=_coach_set,
         log=LogLine(("log.coach_on", "log.coach_off"), lambda e, c: {"on": e.on}, pick="on"))
class CoachSet(NamedTuple):
    """The host (``by``) turned the coach on or off for everyone at the table (shown to all)."""

    on: bool
    by: int | None = None
    at: dt.datetime | None = None


# --- the host's controls and the table's options (issue 23): public, each with who did it (``by``, a member) ---


def _paused(state: TableState, event: TablePaused | TableResumed) -> TableState:
    """A sit-and-go's level clock stops while the host's pause lasts: on resuming, level 1's start (and so every
    deadline) moves on by the pause's length."""
    t = state.tournament
    started, paused_at = (t.started, t.paused_at) if t is not None else (None, None)
    if t is not None and started is not None and event.at is not None:
        if isinstance(event, TablePaused) and paused_at is None:
            t = replace(t, paused_at=event.at)
        elif isinstance(event, TableResumed) and paused_at is not None:
            t = replace(t, started=started + (event.at - paused_at), paused_at=None)
    return replace(state, paused_by=event.by if isinstance(event, TablePaused) else None, tournament=t)


@declare("table_paused", Audience.EVERYONE, log=LogLine(("log.table_paused",), _no_fields), evolve=_paused)
class TablePaused(NamedTuple):
    """The host paused the table: no hand is dealt until it resumes (a hand being played is played out)."""

    by: int
    at: dt.datetime | None = None


@declare("table_resumed", Audience.EVERYONE, log=LogLine(("log.table_resumed",), _no_fields), evolve=_paused)
class TableResumed(NamedTuple):
    by: int
    at: dt.datetime | None = None


def _stack_adjusted(state: TableState, event: StackAdjusted) -> TableState:
    seat = state.seats[event.seat]
    assert seat is not None
    delta = event.after - event.before
    state = replace(state, adjusted=state.adjusted + delta, accounts=ledger.adjusted(
        state.accounts, seat.member, ledger.Adjustment(delta, event.by, state.version)))
    return state.with_seat(event.seat, replace(seat, stack=event.after, bought=seat.bought + delta))


@declare("stack_adjusted", Audience.EVERYONE, evolve=_stack_adjusted, log=LogLine(
    ("log.stack_adjusted",), lambda e, c: {**_seat_fields(e.seat, c), "before": e.before, "after": e.after}))
class StackAdjusted(NamedTuple):
    """The host set a seat's stack from ``before`` to ``after`` between hands (the difference enters, or leaves,
    the table: it is counted in the chips that entered)."""

    seat: int
    before: int
    after: int
    by: int
    at: dt.datetime | None = None


def _rules_changed(state: TableState, event: RulesChanged) -> TableState:
    old, new = state.rules.time_bank, event.rules.time_bank  # what each player used of their bank stays used
    seats = tuple(replace(s, bank=max(0, s.bank + new - old)) if s is not None else None for s in state.seats)
    return replace(state, rules=event.rules, seats=seats)


@declare("rules_changed", Audience.EVERYONE, log=LogLine(("log.rules_changed",), _rules_fields),
         evolve=_rules_changed)
class RulesChanged(NamedTuple):
    """The host changed the blinds, the clock, the time bank or the hand options between hands."""

    rules: RuleSet
    by: int
    at: dt.datetime | None = None


def _options_set(state: TableState, event: OptionsSet) -> TableState:
    return replace(state, options=TableOptions(event.rebuys, event.approval, event.spectator_chat, event.reveal),
                   requests=state.requests if event.approval else ())


@declare("options_set", Audience.EVERYONE, evolve=_options_set, log=LogLine(
    ("log.options_set",), lambda e, c: {**{n: getattr(e, n) for n in TABLE_OPTIONS}, "options": list(TABLE_OPTIONS)}))
class OptionsSet(NamedTuple):
    """How the table is run: rebuys and top-ups allowed, the host approves who sits, spectators may chat, the
    server's seeds revealed at the match's end (``reveal``, True in logs from before it existed)."""

    rebuys: bool
    approval: bool
    spectator_chat: bool
    by: int
    reveal: bool = True
    at: dt.datetime | None = None


def _seat_requested(state: TableState, event: SeatRequested) -> TableState:
    return replace(state, requests=(*state.requests, SeatRequest(state.version, event.member, event.name,
                                                                 event.seat)))


@declare("seat_requested", Audience.EVERYONE, evolve=_seat_requested, log=LogLine(
    ("log.seat_requested",), lambda e, c: {"name": e.name, "seat": e.seat, "request": c.version}))
class SeatRequested(NamedTuple):
    """A member asks to sit (the host approves who sits); ``seat`` is the seat they chose, if any."""

    member: int
    name: str
    seat: int | None = None
    at: dt.datetime | None = None


def _seat_answered(state: TableState, event: SeatAnswered) -> TableState:
    return replace(state, requests=tuple(r for r in state.requests if r.id != event.request))


@declare("seat_answered", Audience.EVERYONE, evolve=_seat_answered, log=LogLine(
    ("log.seat_approved", "log.seat_denied"), pick="approved",
    fields=lambda e, c: {"name": c.requests.get(e.request, ""), "approved": e.approved, "request": e.request}))
class SeatAnswered(NamedTuple):
    """The host approved (the player sits in the next event) or denied the request ``request``."""

    request: int
    approved: bool
    by: int
    at: dt.datetime | None = None


def _host_changed(state: TableState, event: HostChanged) -> TableState:
    return replace(state, host=event.member, cohosts=state.cohosts - {event.member})


@declare("host_changed", Audience.EVERYONE, evolve=_host_changed,
         log=LogLine(("log.host_changed",), lambda e, c: {"name": c.names.get(e.member, "")}))
class HostChanged(NamedTuple):
    """``member`` is the table's host now; ``by`` the host who handed the role on (None: the host left)."""

    member: int
    by: int | None = None
    at: dt.datetime | None = None


def _cohost_set(state: TableState, event: CohostSet) -> TableState:
    return replace(state, cohosts=state.cohosts | {event.member} if event.on else state.cohosts - {event.member})


@declare("cohost_set", Audience.EVERYONE, evolve=_cohost_set, log=LogLine(
    ("log.cohost_named", "log.cohost_unnamed"), pick="on",
    fields=lambda e, c: {"name": c.names.get(e.member, ""), "on": e.on}))
class CohostSet(NamedTuple):
    """The host named (``on``) or unnamed ``member`` a co-host."""

    member: int
    on: bool
    by: int
    at: dt.datetime | None = None


def _chips_bought(state: TableState, event: ChipsBought) -> TableState:
    seat = state.seats[event.seat]
    assert seat is not None
    kind = {"rebuys": event.amount, "rebuy_count": 1} if event.rebuy else {"top_ups": event.amount, "top_up_count": 1}
    state = replace(state, rebought=state.rebought + event.amount,
                    accounts=ledger.changed(state.accounts, seat.member, **kind))
    return state.with_seat(event.seat, replace(seat, stack=seat.stack + event.amount,
                                               bought=seat.bought + event.amount, rebuys=seat.rebuys + 1))


@declare("chips_bought", Audience.EVERYONE, evolve=_chips_bought, log=LogLine(
    ("log.rebuy", "log.chips_bought"), pick="rebuy",
    fields=lambda e, c: {**_seat_fields(e.seat, c), "amount": e.amount, "rebuy": e.rebuy}))
class ChipsBought(NamedTuple):
    """A rebuy (``rebuy``: the player was busted) or a top-up of ``amount`` chips, up to the starting stack."""

    seat: int
    amount: int
    rebuy: bool
    at: dt.datetime | None = None


def _straddle_chosen(state: TableState, event: StraddleChosen) -> TableState:
    member = frozenset({event.member})
    return replace(state,
                   straddle_next=state.straddle_next - member | (member if event.choice == "next" else frozenset()),
                   straddle_always=state.straddle_always - member | (member if event.choice == "always" else
                                                                     frozenset()))


@declare("straddle_chosen", Audience.EVERYONE, log=None, evolve=_straddle_chosen)
class StraddleChosen(NamedTuple):
    """A player chose to straddle (``next``: the next hand they are under the gun in; ``always``) or not
    (``off``); said aloud, as at a real table."""

    member: int
    choice: str
    at: dt.datetime | None = None


def _silenced(state: TableState, event: PlayerSilenced) -> TableState:
    return replace(state, silenced=state.silenced | {event.member} if event.on else state.silenced - {event.member})


@declare("player_silenced", Audience.EVERYONE, evolve=_silenced, log=LogLine(
    ("log.player_silenced", "log.player_unsilenced"), pick="on",
    fields=lambda e, c: {"name": c.names.get(e.member, "") or e.name, "on": e.on}))
class PlayerSilenced(NamedTuple):
    """The host silenced (``on``) ``member`` at the table's chat, or let them talk again; a spectator is named
    by ``name`` and the chat ``line`` they were silenced for (a player by their seat)."""

    member: int
    on: bool
    by: int
    name: str = ""
    line: int | None = None
    at: dt.datetime | None = None


def _chat_deleted(state: TableState, event: ChatDeleted) -> TableState:
    return state  # the text leaves the chat's store (the shell's); the table keeps only its log entry


@declare("chat_deleted", Audience.EVERYONE,  # that a message was deleted, and by whom; never its text
         evolve=_chat_deleted, log=LogLine(("log.chat_deleted",),
                                        lambda e, c: {"message": e.message, "name": c.names.get(e.author, "")}))
class ChatDeleted(NamedTuple):
    """The host deleted chat message ``message`` written by ``author`` (its text is removed from the store)."""

    message: int
    author: int
    by: int
    at: dt.datetime | None = None


# --- hands and the match --------------------------------------------------------------------------------------


def _hand(state: TableState, event: HandEvent, owned: Hand | None = None) -> TableState:
    """A hand's event: applied to a copy of the running hand, or to ``owned`` itself when that is the running
    hand and nobody but the caller holds it (a copy this very fold made for an earlier event)."""
    inner = event.event
    if isinstance(inner, HandStarted):
        hand = Hand(state.rules)
        hand.apply(inner)
        lineup = tuple(s.member if s is not None and inner.stacks[i] > 0 else None for i, s in enumerate(state.seats))
        return replace(state, hands=(*state.hands, hand), lineups=(*state.lineups, lineup))
    current = state.hand
    if current is None or current.hand_no != event.hand_no or (current.complete and not isinstance(inner, CardsShown)):
        raise TableError(f"an event of hand {event.hand_no}, which is not running", code="bad_event")
    hand = current if current is owned else current.fork()
    hand.apply(inner)
    state = replace(state, hands=(*state.hands[:-1], hand))
    if isinstance(inner, StraddlePosted):  # a straddle for the next hand is used up
        occupant = state.seats[inner.seat]
        if occupant is not None:
            state = replace(state, straddle_next=state.straddle_next - {occupant.member})
    if isinstance(inner, ActionTaken):
        seat = state.seats[inner.seat]
        timeouts = seat.timeouts + 1 if seat is not None and inner.timeout else 0
        if seat is not None and timeouts != seat.timeouts:  # most moves leave the count at 0: the seats as they are
            state = state.with_seat(inner.seat, replace(seat, timeouts=timeouts))
    if isinstance(inner, HandEnded):
        seats = tuple(replace(s, stack=inner.stacks[i]) if s is not None and i in hand.players else s
                      for i, s in enumerate(state.seats))
        state = replace(state, seats=seats)
    return state


@declare("hand", None, log=None, evolve=_hand)
class HandEvent(NamedTuple):
    """One event of hand ``hand_no`` (its audience is the inner event's)."""

    hand_no: int
    event: hand_events.Event
    at: dt.datetime | None = None


def _match_ended(state: TableState, event: MatchEnded) -> TableState:
    left = state.last_left
    forfeit = left[1] if left is not None and left[0] == state.version - 1 else None  # a leave just ended it
    return replace(state, over=True, winner=event.winner, forfeit=forfeit, ended_by=event.by)


@declare("match_ended", Audience.EVERYONE, log=None, evolve=_match_ended)
class MatchEnded(NamedTuple):
    """The match is over: the player in seat ``winner`` holds every chip still in play (None: everyone left, or
    several hold chips); ``by``: the host who ended it, None when it ended by itself (or by the server's clock)."""

    winner: int | None
    by: int | None = None
    at: dt.datetime | None = None


def _rematch_opened(state: TableState, event: RematchOpened) -> TableState:
    return replace(state, rematch=event.code)


@declare("rematch_opened", Audience.EVERYONE, log=None, evolve=_rematch_opened)
class RematchOpened(NamedTuple):
    """A player opened a rematch: a new table with the same rules, whose code everyone here sees."""

    code: str
    at: dt.datetime | None = None


# --- a sit-and-go (docs/tournaments.md) ----------------------------------------------------------------------


def _with_level(state: TableState, t: Tournament) -> TableState:
    """The table's rules at the level in force (the next hand is dealt at it; the running one keeps its own)."""
    level = t.blinds()
    rules = state.rules
    if (rules.small_blind, rules.big_blind, rules.ante) != tuple(level):
        rules = replace(rules, small_blind=level.small, big_blind=level.big, ante=level.ante)
    return replace(state, tournament=t, rules=rules)


def _tournament_set(state: TableState, event: TournamentSet) -> TableState:
    return _with_level(state, Tournament(event.settings))


@declare("tournament_set", Audience.EVERYONE, log=None, evolve=_tournament_set)
class TournamentSet(NamedTuple):
    """The table is a sit-and-go with these settings (schedule, payouts, buy-in); ``by``: the host who set or
    changed them (before the first hand)."""

    settings: SitAndGo
    by: int | None = None
    at: dt.datetime | None = None


def _tournament_started(state: TableState, event: TournamentStarted) -> TableState:
    t = state.tournament
    assert t is not None
    return replace(state, tournament=replace(t, started=event.at, field=event.field, begun=True))


@declare("tournament_started", Audience.EVERYONE, log=None, evolve=_tournament_started)
class TournamentStarted(NamedTuple):
    """The first hand is dealt: level 1's clock starts now, and ``field`` (members, in seat order) are the
    entrants."""

    field: tuple[int, ...]
    at: dt.datetime | None = None


def _level_raised(state: TableState, event: LevelRaised) -> TableState:
    t = state.tournament
    assert t is not None
    return _with_level(state, replace(t, stage=event.stage))


@declare("level_raised", Audience.EVERYONE, evolve=_level_raised, log=LogLine(
    ("log.break_started", "log.level_raised"), pick="on_break",
    fields=lambda e, c: {"level": e.level, "small": e.small, "big": e.big, "ante": e.ante}))
class LevelRaised(NamedTuple):
    """The level clock moved on to ``stage``: blind level ``level`` (from 1) with its blinds and ante, dealt from
    the next hand, or a break (``on_break``: no hand is dealt until it ends; the level shown is the one before)."""

    stage: int
    level: int
    small: int
    big: int
    ante: int
    on_break: bool = False
    at: dt.datetime | None = None


def _places(event: PlayersPlaced | TournamentFinished) -> tuple[Place, ...]:
    return tuple(Place(*p) for p in zip(event.members, event.seats, event.places, event.payouts, strict=True))


def _players_placed(state: TableState, event: PlayersPlaced) -> TableState:
    t = state.tournament
    assert t is not None
    return replace(state, tournament=replace(t, places=(*t.places, *_places(event))))


def _placed_fields(event: PlayersPlaced, context: LogContext) -> dict[str, Any]:
    return {"players": ", ".join(f"{context.names.get(m, '')} #{p}" for m, p in zip(event.members, event.places,
                                                                                     strict=True)),
            "place": min(event.places)}


@declare("players_placed", Audience.EVERYONE, log=LogLine(("log.players_placed",), _placed_fields),
         evolve=_players_placed)
class PlayersPlaced(NamedTuple):
    """Players busted in hand ``hand_no``: each member's seat, place (tied players share the best of theirs) and
    payout (play points), by their stacks at the start of that hand."""

    hand_no: int
    members: tuple[int, ...]
    seats: tuple[int, ...]
    places: tuple[int, ...]
    payouts: tuple[int, ...]
    at: dt.datetime | None = None


def _tournament_finished(state: TableState, event: TournamentFinished) -> TableState:
    t = state.tournament
    assert t is not None
    return replace(state, tournament=replace(t, places=_places(event), finished=True))


@declare("tournament_finished", Audience.EVERYONE, evolve=_tournament_finished, log=LogLine(
    ("log.tournament_won",), lambda e, c: {"name": c.names.get(e.members[0], ""), "payout": e.payouts[0]}))
class TournamentFinished(NamedTuple):
    """One player holds every chip: the results, every entrant's place and payout, the winner first."""

    members: tuple[int, ...]
    seats: tuple[int, ...]
    places: tuple[int, ...]
    payouts: tuple[int, ...]
    hands: int
    level: int
    at: dt.datetime | None = None


# --- provable fairness (issue 47; tables/fair.py, docs/fairness.md) ---------------------------------------------


def _seed_drawn(state: TableState, event: ServerSeedDrawn) -> TableState:
    return replace(state, seed_next=(event.hand_no, bytes.fromhex(event.seed)))


@declare("server_seed_drawn", Audience.NOBODY, log=None, evolve=_seed_drawn)
class ServerSeedDrawn(NamedTuple):
    """The server's seed for hand ``hand_no`` (hex): kept by the server, in nobody's view until it is revealed."""

    hand_no: int
    seed: str
    at: dt.datetime | None = None


def _seed_committed(state: TableState, event: SeedCommitted) -> TableState:
    return replace(state, seed_commitment=(event.hand_no, event.digest))


@declare("seed_committed", Audience.EVERYONE, log=None, evolve=_seed_committed)
class SeedCommitted(NamedTuple):
    """The hash of the server's seed for hand ``hand_no``, published before the players' seeds for it."""

    hand_no: int
    digest: str
    at: dt.datetime | None = None


def _seed_contributed(state: TableState, event: SeedContributed) -> TableState:
    others = tuple(p for p in state.player_seeds if p[0] != event.member)
    return replace(state, player_seeds=(*others, (event.member, bytes.fromhex(event.seed))))


@declare("seed_contributed", Audience.EVERYONE, log=None, evolve=_seed_contributed, inert=True)
class SeedContributed(NamedTuple):
    """A player's seed (hex) for the next hand (a bot's, drawn by the server at the deal)."""

    member: int
    seed: str
    at: dt.datetime | None = None


def _shoe_committed(state: TableState, event: ShoeCommitted) -> TableState:
    drawn = state.seed_next
    if drawn is None or drawn[0] != event.hand_no:
        raise TableError(f"hand {event.hand_no}'s shoe without its server seed", code="bad_event")
    seeds = tuple(sorted((seat, bytes.fromhex(seed)) for seat, seed in zip(event.seats, event.seeds, strict=True)))
    deal = DealSeeds(event.hand_no, drawn[1], seeds, bytes.fromhex(event.root), event.size)
    return replace(state, deals=(*state.deals, deal), seed_next=None, player_seeds=())


@declare("shoe_committed", Audience.EVERYONE, log=None, evolve=_shoe_committed)
class ShoeCommitted(NamedTuple):
    """Hand ``hand_no``'s shoe: its Merkle root over ``size`` cards, and the seeds (hex) it was derived from, of
    the ``seats`` in order (with the server's, committed before), published with the deal."""

    hand_no: int
    root: str
    size: int
    seats: tuple[int, ...]
    seeds: tuple[str, ...]
    at: dt.datetime | None = None


def _seeds_revealed(state: TableState, event: SeedsRevealed) -> TableState:
    return replace(state, revealed=True)


@declare("seeds_revealed", Audience.EVERYONE, log=None, evolve=_seeds_revealed)
class SeedsRevealed(NamedTuple):
    """The match is over: every hand's server seed (hex, one a hand, in order), so anyone can recompute every
    shoe."""

    seeds: tuple[str, ...]
    at: dt.datetime | None = None


TableEvent = (
    TableOpened | SettingsChanged | PlayerSat | PlayerLeft | PlayerAway | PlayerBack | HandEvent | MatchEnded
    | RematchOpened | CoachSet | TimeBankUsed | TablePaused | TableResumed | StackAdjusted | RulesChanged
    | OptionsSet | SeatRequested | SeatAnswered | HostChanged | CohostSet | ChipsBought | PlayerSilenced
    | ChatDeleted | StraddleChosen | ServerSeedDrawn | SeedCommitted | SeedContributed | ShoeCommitted
    | SeedsRevealed | TournamentSet | TournamentStarted | LevelRaised | PlayersPlaced | TournamentFinished
)
BY_NAME: dict[str, type[Any]] = {d.name: cls for cls, d in DECLARED.items()}


# --- the fold -------------------------------------------------------------------------------------------------

_UNOPENED = TableState(rules=DEFAULT_RULES, creator=0, seats=())  # before a log's first event


def declared(event: TableEvent) -> Declared[Any]:
    kind = DECLARED.get(type(event))
    if kind is None:
        raise TableError(f"unknown event {event!r}", code="bad_event")
    return kind


def evolve(state: TableState | None, event: TableEvent) -> TableState:
    """The state after one committed event: its declared handler, its log entry, and the clock moved on."""
    return _evolve(state, event, None)


def _evolve(state: TableState | None, event: TableEvent, owned: Hand | None) -> TableState:
    """:func:`evolve`; a hand's event is applied to ``owned`` in place when that is the running hand."""
    kind = declared(event)
    if (state is None) != isinstance(event, TableOpened):
        raise TableError("the log starts with table_opened, once", code="bad_event")
    before = state if state is not None else _UNOPENED
    version = before.version + 1
    state = replace(before, version=version) if kind.inert else replace(before, version=version, settled=version)
    if kind.log is not None:
        state = replace(state, log=(*state.log, LogItem(state.version, event, _subject(state, event))))
    state = _hand(state, event, owned) if owned is not None and isinstance(event, HandEvent) \
        else kind.evolve(state, event)
    clock = tick(state, event.at)
    if clock is not state.clock:  # ``state`` was made by this call and nobody holds it yet: set, not copied again
        object.__setattr__(state, "clock", clock)
    return state


def fold(events: Iterable[TableEvent], state: TableState | None = None) -> TableState:
    """The state after ``events`` (from the start, or from ``state``).

    The states between two events are never seen outside, so the running hand is copied once for a run of its
    events (the first copies the hand ``state`` holds; the next ones change that copy) instead of once an event."""
    owned: Hand | None = None
    for event in events:
        held = state.hand if state is not None else None
        state = _evolve(state, event, owned)
        if state.hand is not held:  # a copy, or a new hand, this fold made: nobody else holds it
            owned = state.hand
    if state is None:
        raise TableError("an empty table log", code="bad_event")
    return state


def _subject(state: TableState, event: TableEvent) -> int | None:
    """The member a log entry concerns: the player sitting down, or the one in the event's seat (as seated now,
    before the event)."""
    if isinstance(event, PlayerSat):
        return event.member
    seat = getattr(event, "seat", None)
    occupant = state.seats[seat] if isinstance(seat, int) and 0 <= seat < len(state.seats) else None
    return occupant.member if occupant is not None else getattr(event, "member", None)


def log_entry(item: LogItem, names: dict[int, str], requests: dict[int, str]) -> dict[str, Any]:
    """One entry of the table's log as everyone reads it: what happened (its type, and the catalogue ``key`` a
    page says it with), who did it (a name), to whom (the player it concerns by name, as they were seated then,
    and their seat), and the rest of its line's fields."""
    kind = declared(item.event)
    assert kind.log is not None, "only events with a log line are in the table's log"
    by = getattr(item.event, "by", None)
    player = names.get(item.subject, "") if item.subject is not None else ""
    return {"version": item.version, "type": kind.name, "key": kind.log.key(item.event),
            "by": names.get(by, "") if by is not None else None,
            **kind.log.fields(item.event, LogContext(item.version, player, names, requests))}


# --- who sees what, and the log's JSON ----------------------------------------------------------------------------


def visible_to(event: TableEvent, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may see this event's content."""
    if isinstance(event, HandEvent):
        return hand_events.visible_to(event.event, seat)
    return declared(event).audience is Audience.EVERYONE


def event_to_json(event: TableEvent) -> dict[str, Any]:
    """``{"v": 2, "type": name, ...fields}``: rules as the rule set's JSON, a hand event as the engine's JSON,
    the time as ISO 8601."""
    out: dict[str, Any] = {"v": LOG_FORMAT, "type": declared(event).name}
    for name, value in zip(event._fields, event, strict=True):
        if isinstance(value, RuleSet | SitAndGo):
            out[name] = value.to_json()
        elif name == "event":
            out[name] = hand_events.event_to_json(value)  # type: ignore[arg-type]
        elif isinstance(value, dt.datetime):
            out[name] = value.isoformat()
        elif isinstance(value, tuple):
            out[name] = list(value)
        else:
            out[name] = value
    return out


def event_from_json(obj: dict[str, Any], stored: dt.datetime | None = None) -> TableEvent:
    """Rebuild an event from :func:`event_to_json` (``bad_event`` for anything else). A field added later takes
    its default when an older log lacks it; an event logged before events carried their time takes ``stored``
    (the time it was stored) instead."""
    if not isinstance(obj, dict) or obj.get("v") != LOG_FORMAT or obj.get("type") not in BY_NAME:
        raise TaiwanPokerError(f"not a table event: {obj!r}"[:200], code="bad_event")
    cls = BY_NAME[obj["type"]]
    try:
        fields: dict[str, Any] = {}
        for name in cls._fields:
            if name not in obj and name in cls._field_defaults:  # a field added later: older logs lack it
                if name == "at":
                    fields[name] = stored
                continue
            fields[name] = _field_from_json(name, obj[name])
    except KeyError as exc:
        raise TaiwanPokerError(f"{obj['type']} event lacks {exc}", code="bad_event") from None
    event: TableEvent = cls(**fields)
    return event


def _field_from_json(name: str, raw: Any) -> Any:
    if name == "rules":
        return RuleSet.from_json(raw)
    if name == "settings":
        return SitAndGo.from_json(raw)
    if name == "event":
        return hand_events.event_from_json(raw)
    if name == "at":
        return dt.datetime.fromisoformat(raw) if raw is not None else None
    if isinstance(raw, list):
        return tuple(raw)
    return raw
