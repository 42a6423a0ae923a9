"""The member-table service: every change to a table goes through one write path.

:meth:`RoomService._write` is that path: load the room (its log folded, from
the cache when current), ``decide`` the command on that state, append the
events in one transaction whose ``UPDATE … WHERE version = expected`` fails if
anyone wrote first (with the cross-instance notification inside it), cache the
new state only after the commit, and publish. Opening a table, a rematch, a
bot's move and the server's own time-outs take the same path. The rules live
in :mod:`taiwan_poker.tables` (the machine, the settings readers, the clock:
the table's state owns every deadline, and :func:`~taiwan_poker.tables.timing.due`
says what falls due when); here are only who asks, the time (read once per
write and carried by the command), the random source and storage. The timer
loop (:meth:`RoomService.sweep`) and the bots' scheduling only ask ``due`` and
apply its answer through the write path. Reading is :class:`~.reads.RoomReads`.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from ..bots.table_turn import bot_move
from ..cards import live_rng
from ..store import repo
from ..store.db import Database
from ..store.direct import Busy
from ..store.models import Member, utcnow
from ..tables import (
    Act,
    Command,
    Configure,
    Deal,
    Join,
    Leave,
    Open,
    Rematch,
    TableEvent,
    TableState,
    TimeOut,
    decide,
    decide_folded,
    event_to_json,
)
from ..tables.commands import stamped
from ..tables.limits import ACTION_CLOCK_SECONDS as CLOCK
from ..tables.limits import (
    BOT_PAUSE_SECONDS,
    DEFAULT_BLINDS,
    DEFAULT_DECKS,
    DEFAULT_SEATS,
    DEFAULT_STACK,
    DEFAULT_TIME_BANK,
)
from ..tables.requests import table_request
from ..tables.settings import (
    bot_seats,
    hand_options,
    new_table_options,
    parse_action,
    sit_and_go,
    sit_and_go_stack,
    table_blinds,
    table_rules,
)
from ..tables.state import Wait
from ..tables.timing import BotMove, due
from .bus import PushBus
from .chat import RoomChat, beside_needed, record_beside
from .hub import RoomHub
from .loader import CACHE_IDLE_SECONDS, CACHE_ROOMS, Room, RoomError, RoomLoader
from .reads import RoomReads

log = logging.getLogger("taiwan_poker.rooms")

SWEEP_SKIPS = frozenset({"table_paused", "hand_in_progress", "match_over", "no_hand"})  # moved on since listed
Decision = Command | Callable[[Room], Command | None]  # a command, or one chosen from the room as loaded


@dataclass
class ActResult:
    """What a request did (``applied`` is False for a stale or repeated request), and the room after it as the member
    sees it: :attr:`state` (a view) or :meth:`state_text` (the same as a socket's JSON text), built when asked."""

    applied: bool
    room: Room
    member: Member | None
    reads: RoomReads
    reason: str | None = None

    @functools.cached_property
    def state(self) -> dict[str, Any]:
        return self.reads.view(self.room, self.member)

    def state_text(self) -> str:
        """:attr:`state` as compact JSON text, the part every seat shares encoded once per version (what the other
        seats' pushes of this version use too)."""
        return self.reads.view_text(self.room, self.member)

    @property
    def version(self) -> int:
        return self.room.state.version


class Written(NamedTuple):
    """The write path's outcome: the room after it, and why nothing was written when nothing was."""

    applied: bool
    room: Room
    reason: str | None = None


class RoomService:
    """Tables on top of a :class:`Database`; safe to call from several threads."""

    def __init__(
        self,
        db: Database,
        hub: RoomHub | None = None,
        *,
        clock: Callable[[], dt.datetime] = utcnow,
        rng_factory: Callable[[], random.Random] = live_rng,
        action_clock: int = CLOCK,
        cache_capacity: int = CACHE_ROOMS,
        cache_idle_seconds: float = CACHE_IDLE_SECONDS,
        bot_pause: tuple[float, float] = BOT_PAUSE_SECONDS,
        on_bot_turn: Callable[[str, float], None] | None = None,
    ) -> None:
        """``rng_factory`` is the one random source (deals, bots, the coach): the OS CSPRNG in live play, seeded in
        tests. ``bot_pause``: the bounds of the bots' pause before a move at the tables this service opens (the
        table keeps them, and each bot's deadline). ``on_bot_turn(code, seconds)`` is told, after a commit, that
        a bot is to act in that many seconds (the app schedules :meth:`play_bot` then; the sweeper catches any
        turn it misses)."""
        self.db = db
        self.hub = hub or RoomHub()
        self.clock = clock
        self.rng_factory = rng_factory
        self.action_clock = action_clock
        self.bot_pause = bot_pause
        self.on_bot_turn = on_bot_turn
        self.bus: PushBus | None = None  # cross-instance pushes (PostgreSQL); set by the app
        self.loader = RoomLoader(db, cache_capacity, cache_idle_seconds)
        self._direct = True  # a move's write on the driver's own connections (:meth:`_commit`)
        # a socket's move may be written on the event loop itself (``now``, issue 49): SQLite's write is a local
        # commit of a few tens of microseconds, made there; PostgreSQL's one statement is awaited there
        self.moves_now = True
        self.moves_awaited = db.engine.dialect.name != "sqlite"  # the write path in a greenlet that awaits
        self.reads = RoomReads(self.loader, lambda: self.clock())
        self.absorb = self.loader.absorb
        self.errors = self.loader.errors
        self.chat = RoomChat(self)  # the table's talk: outside the log, its deletions on this write path

    # -- the one write path ----------------------------------------------------------------------------------

    def _write(self, code: str | None, member: Member | None, decision: Decision, version: object = None,
               key: str | None = None, now: bool = False) -> Written:
        """Decide on the room as stored now and commit the events; ``code`` None opens a table (an ``Open``).

        A request made against an older ``version`` changes nothing (``stale_version``, or ``duplicate`` when
        its idempotency ``key`` was used), unless all that came since are events no request is made against (the
        players' seeds: ``TableState.settled``); so does a decision that picks no command or causes no event.

        ``now`` (a move on the event loop): written at once, from memory, or not at all: :class:`Busy`, with
        nothing written, when the room's lock is held, its state in memory is not at ``version``, the move
        touches more than the log, or the database's write lock is taken; the caller then makes it again where
        waiting is allowed."""
        if code is None:
            assert isinstance(decision, Open)
            opened = decide_folded(None, stamped(decision, self.clock()), self.rng_factory())
            length = repo.GUEST_ROOM_CODE_LENGTH if decision.guest else repo.ROOM_CODE_LENGTH
            with self.db.engine.begin() as conn:
                row = repo.insert_room(conn, decision.member, decision.rules.to_json(), length)
                new = self._append(conn, row, None, opened.events, opened.state)
            self.loader.keep(new)
            self._tell_bot_turn(new)
            return Written(True, new)
        room_id = self.loader.room_id(code)
        lock = self.loader.locks(room_id)
        if not lock.take(wait=not now):
            raise Busy("another move of this room is being written")
        try:
            if now:
                room = self.loader.held(room_id, version)
                if room is None:
                    raise Busy("the room is not in memory at this version")
            else:
                room = self.loader.current(room_id, code, version)
            current = isinstance(version, int) and room.state.settled <= version <= room.state.version
            if version is not None and not current:
                return Written(False, room, "duplicate" if self._used(room_id, member, key) else "stale_version")
            command = decision(room) if callable(decision) else decision
            decided = decide_folded(room.state, stamped(command, self.clock()), self.rng_factory()) \
                if command is not None else None
            if decided is None or not decided.events:
                return Written(False, room, "unchanged")
            new = self._commit(room.row, room.state, decided.events, decided.state,
                               (member.id, key) if key is not None and member is not None else None, now)
            self.loader.keep(new)  # only now, after the commit
        finally:
            lock.release()
        self.hub.publish(room_id, new.state.version)
        self._tell_bot_turn(new)
        return Written(True, new)

    def _commit(self, row: repo.RoomRow, before: TableState, events: Sequence[TableEvent], state: TableState,
                key: tuple[int, str] | None, now: bool = False) -> Room:
        """Commit ``events`` (and the request's idempotency ``key``: member, key) after the state they were decided
        on, which lead to ``state``. A move that touches nothing beside the log is written on the driver's own
        connections (:func:`~taiwan_poker.store.repo.append_events_direct`: on PostgreSQL one statement, atomic by
        itself); anything else is a transaction of its own."""
        if self._direct and not beside_needed(events):
            return self._append(None, row, before, events, state, key, now)
        if now:
            raise Busy("the move writes more than the log")
        with self.db.engine.begin() as conn:
            return self._append(conn, row, before, events, state, key)

    def _append(self, conn: Connection | None, row: repo.RoomRow, before: TableState | None,
                events: Sequence[TableEvent], state: TableState, key: tuple[int, str] | None = None,
                now: bool = False) -> Room:
        """Append ``events`` after the state they were decided on (``before``), which lead to ``state`` (the
        machine's own fold: :func:`~taiwan_poker.tables.decide_folded`), and keep the seat index; ``conn`` None:
        on the driver's own connections (nothing beside the log to write)."""
        status, deadline = state.phase.value, due(state, self.clock()).next  # when the sweeper looks again
        payloads = [event_to_json(e) for e in events]
        columns: dict[str, Any] = {"status": status, "deadline": deadline}
        if before is None or state.rules is not before.rules:  # the stored rules change only with the rule set
            columns["rules"] = state.rules.to_json()
        expected = before.version if before else 0
        if conn is None:  # other instances hear of it when the statement commits
            notify = self.bus.room_message(row.id, state.version, payloads, status, deadline) if self.bus else None
            version = repo.append_events_direct(self.db.direct, row.id, expected, payloads, key, notify, now,
                                                **columns)
        else:
            version = repo.append_events(conn, row.id, expected, payloads, **columns)
            if key is not None:
                repo.record_action_key(conn, row.id, key[0], key[1], version)
            if self.bus is not None:  # other instances hear of it when this transaction commits
                self.bus.notify_room(conn, row.id, version, payloads, status, deadline)
            record_beside(conn, row.id, state, events, self.clock())  # the seat index, chat deletions
        assert version == state.version
        log.info("room events stored", extra={"room": row.code, "version": version, "events": len(events)})
        return Room(state, row._replace(version=version, status=status, deadline=deadline,
                                        rules=columns.get("rules", row.rules)))

    def _used(self, room_id: int, member: Member | None, key: str | None) -> bool:
        if key is None or member is None:
            return False
        with self.db.engine.connect() as conn:
            return repo.used_action_key(conn, room_id, member.id, key) is not None

    def _tell_bot_turn(self, room: Room) -> None:
        if self.on_bot_turn is None:
            return
        now = self.clock()
        upcoming = due(room.state, now)
        if upcoming.wait is Wait.BOT and upcoming.next is not None:
            self.on_bot_turn(room.row.code, max(0.0, (upcoming.next - now).total_seconds()))

    def _result(self, written: Written, member: Member | None) -> ActResult:
        return ActResult(written.applied, written.room, member, self.reads, written.reason)

    def _view(self, code: str, member: Member, command: Command) -> dict[str, Any]:
        """Write a command that is not made against a version, and return the member's view after it."""
        return self.reads.view(self._write(code, member, command).room, member)

    def _checked(self, code: str, member: Member | None, command: Decision, version: object, key: object = None,
                 now: bool = False) -> ActResult:
        """The write path for a request made against a version (with an optional idempotency key); ``now``: at
        once or not at all (:meth:`_write`)."""
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise RoomError("'version' must be the integer version the action was made against", code="bad_version")
        if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 64):
            raise RoomError("'key' must be a string of 1 to 64 characters", code="bad_key")
        try:
            return self._result(self._write(code, member, command, version, key, now), member)
        except IntegrityError:  # the same key committed by another process between our check and our write
            if now:  # nothing was stored; what was is read where waiting for the lock and the log is allowed
                raise Busy("the key was used") from None
            return ActResult(False, self.loader.locked_read(code), member, self.reads, "duplicate")
        except repo.StaleVersion:  # another process moved the room on first: nothing of ours was stored
            if now:
                raise Busy("the room moved on") from None
            return ActResult(False, self.loader.locked_read(code), member, self.reads, "stale_version")

    # -- tables and seats -----------------------------------------------------------------------------------

    def create_room(self, member: Member, decks: object = DEFAULT_DECKS, seats: object = DEFAULT_SEATS,
                    stack: object | None = None, blinds: object = DEFAULT_BLINDS, bots: object = 0,
                    level: object = None, time_bank: object = DEFAULT_TIME_BANK,
                    options: dict[str, Any] | None = None, tournament: object = None) -> str:
        """A new table with the member in seat 0 (and ``bots`` bots of ``level`` beside them); returns its code.
        A table the bots fill deals its first hand at once; a guest's new table ends their last one.
        ``options``: the hand's (straddle, run_twice, show_or_muck) and the table's (rebuys, approval, ...).
        ``tournament``: a sit-and-go's settings (:func:`~taiwan_poker.tables.settings.sit_and_go`; the stack None
        takes its preset's); None: a cash match."""
        sng = sit_and_go(tournament)
        if sng is not None:
            stack = sit_and_go_stack(tournament) if stack is None else stack
            table_blinds(blinds)  # bad blinds are refused even where the schedule's are used
            blinds = list(sng.schedule.levels[0][:2])
        rules = table_rules(decks, seats, DEFAULT_STACK if stack is None else stack, blinds, self.action_clock,
                            time_bank, **hand_options(options))
        previous: list[str] = []
        if member.guest:
            with self.db.transaction() as s:
                previous = repo.open_rooms_created_by(s, member.id)
        opened = self._write(None, member, Open(rules, member.id, member.display_name, bot_seats(bots, rules, level),
                                                member.guest, new_table_options(options), self.bot_pause,
                                                tournament=sng))
        for old in previous:
            self.leave(old, member)
        return opened.room.row.code

    def configure(self, code: str, member: Member, decks: object = DEFAULT_DECKS, seats: object = DEFAULT_SEATS,
                  stack: object = DEFAULT_STACK, blinds: object = DEFAULT_BLINDS,
                  time_bank: object = DEFAULT_TIME_BANK, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """The host changes the settings (and the hand options) before the first hand."""
        return self.reads.view(self._write(code, member, lambda room: Configure(member.id, table_rules(
            decks, seats, stack, blinds, self.action_clock, time_bank, **hand_options(options, room.state.rules)))
        ).room, member)

    def join(self, code: str, member: Member, seat: int | None = None) -> dict[str, Any]:
        """Take ``seat`` (None: the first free one), or ask to sit where the host approves who sits; heads-up
        (or at a full table) the first hand is dealt at once."""
        return self._view(code, member, Join(member.id, member.display_name, member.guest, seat))

    def request(self, code: str, member: Member, kind: str, body: object, version: object = None
                ) -> dict[str, Any] | ActResult:
        """A host's control (bots, coach, pause, stakes, ...) or a player's own choice (away, back, rebuy, ...) by
        its name in ``tables.requests``: the view after it, or, made against a ``version`` (running it twice,
        showing or mucking), the action's result."""
        decision = lambda room: table_request(kind, member.id, body, room.state)  # noqa: E731
        if version is None:
            return self.reads.view(self._write(code, member, decision).room, member)
        return self._checked(code, member, decision, version)

    def leave(self, code: str, member: Member) -> None:
        """Leave the seat for good; a hand in progress is folded at once."""
        self._write(code, member, Leave(member.id))

    def rematch(self, code: str, member: Member) -> str:
        """After a match, a player opens a new table with the same rules (and bots); everyone here sees its code.

        Two writes: the new table, then this one pointed at it. When another player's rematch got there first,
        the table just opened is closed again and theirs is the answer."""
        state = self.loader.locked_read(code).state
        if state.rematch is not None:
            return state.rematch
        decide(state, Rematch(member.id, ""))  # refused (not a player, not over) before any table is opened
        bots = tuple(x.bot for x in state.seats if x is not None and x.bot is not None)
        settings = state.tournament.settings if state.tournament is not None else None
        opened = self._write(None, member, Open(state.rules, member.id, member.display_name, bots, member.guest,
                                                bot_pause=self.bot_pause, tournament=settings))
        new_code = opened.room.row.code
        pointed = self._write(code, member, Rematch(member.id, new_code))
        if not pointed.applied and pointed.room.state.rematch not in (None, new_code):
            self.leave(new_code, member)
            return str(pointed.room.state.rematch)
        return new_code

    def act(self, code: str, member: Member, action: object, version: object, key: object = None,
            now: bool = False) -> ActResult:
        """Apply the member's action made against ``version`` (past the action clock it draws on their time
        bank); stale or repeated requests change nothing. ``now``: at once or not at all (:meth:`_write`)."""
        return self._checked(code, member, Act(member.id, parse_action(action)), version, key, now)

    def timeout(self, code: str, member: Member, version: object, now: bool = False) -> ActResult:
        """Once the action clock and the time bank have run out, a seated member applies the time-out: check if
        possible, else fold (``clock_running`` before)."""
        return self._checked(code, member, TimeOut(member.id), version, now=now)

    def next_hand(self, code: str, member: Member | None, version: object, now: bool = False) -> ActResult:
        """Deal the next hand once the last one is over (a seated player; the creator for the first)."""
        return self._checked(code, member, Deal(member.id if member is not None else None), version, now=now)

    def state(self, code: str, member: Member | None) -> dict[str, Any]:
        """The room as this member (or a spectator) may see it, as stored now (:meth:`RoomReads.state`)."""
        return self.reads.state(code, member)

    def purge_guests(self) -> int:
        """Remove guests (and their tables) older than a day; returns how many."""
        with self.db.transaction() as s:
            gone = repo.purge_guests(s, self.clock() - repo.GUEST_TTL)
        self.chat.purge()  # and the talk of tables whose match ended a day ago (docs/security.md)
        return gone

    # -- bots and the server's own clock -----------------------------------------------------------------------

    def _due(self, room: Room, now: dt.datetime) -> Command | None:
        """What the table's clock says the server does at ``now`` (:func:`~taiwan_poker.tables.timing.due`): a
        time-out, the next hand, the end of a rebuy wait, or the move of a bot whose pause is over (decided from
        its seat's view)."""
        command = due(room.state, now).command
        if isinstance(command, BotMove):
            return bot_move(room.state, self.rng_factory(), on_failure=lambda: self.loader.count("bot"))
        return command

    def play_bot(self, code: str) -> bool:
        """Apply what is due at the table now (the app calls it when a bot's pause ends: the bot's move)."""
        try:
            return self._write(code, None, lambda room: self._due(room, self.clock())).applied
        except repo.StaleVersion:  # another process moved the table on first
            return False

    def sweep(self) -> list[str]:
        """Apply what is due at every table whose deadline has come (:meth:`_due`: bots' turns, time-outs past the
        grace, the next hand after the showdown pause, the end of a rebuy wait). A room that fails here is logged
        with its code and counted, and the others are still swept; a room whose log cannot be replayed is
        quarantined, so it is not tried again every second."""
        self.loader.evict_idle()
        now = self.clock()
        with self.db.transaction() as s:
            listed = repo.due_rooms(s, now, ("playing", "rebuys", "paused"))  # paused: a sit-and-go's break ends
        changed = []
        for _room_id, code, _deadline in listed:
            try:
                # decided on the room as read now: another instance may have moved it on since it was listed
                if self._write(code, None, lambda room: self._due(room, now)).applied:
                    changed.append(code)
            except repo.StaleVersion:  # another writer moved the room on: nothing to do
                continue
            except Exception as exc:
                if getattr(exc, "code", None) in SWEEP_SKIPS:
                    continue
                self.loader.count("sweep")
                log.exception("sweeping a room failed", extra={"room": code})
        return changed


__all__ = ["ActResult", "RoomError", "RoomService"]
