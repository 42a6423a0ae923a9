"""The member-table service: load the log, fold it, ``decide``, append under the version check, publish.

A table's state is only ever the fold of its committed events
(:mod:`taiwan_poker.tables`).  A command is decided against the current state;
its events are appended in one transaction whose ``UPDATE … WHERE version =
expected`` fails if anyone wrote first, and only then are they folded into
the cached state.  Nothing here knows how many seats a table has or what the
rules of play are; it checks who is asking, supplies the clock (when a
time-out is due) and the random source (the OS CSPRNG), stores, and tells the
hub.  What leaves the service for a member is always that member's view.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from ..bots.levels import DEFAULT_LEVEL, policy_of
from ..cards import RandomSource, live_rng
from ..coach.advice import advise
from ..errors import TaiwanPokerError
from ..history.phh import hand_phh, match_phh
from ..history.review import review as review_hand
from ..lru import LruMap
from ..rules import Action, ActionKind, RuleSet
from ..store import repo
from ..store.db import Database
from ..store.models import Member, utcnow
from ..strategy.seat import seat_view
from ..tables import (
    Act,
    AddBot,
    Away,
    Back,
    Command,
    Configure,
    Deal,
    Join,
    Leave,
    Open,
    Rematch,
    RemoveBot,
    SetCoach,
    TableError,
    TableEvent,
    TableState,
    TimeOut,
    decide,
    event_from_json,
    event_to_json,
    fold,
    history,
    table_view,
)
from ..tables.events import PlayerLeft, PlayerSat
from ..tables.limits import (
    ACTION_CLOCK_SECONDS,
    BIG_BLIND,
    DECKS,
    DEFAULT_BLINDS,
    DEFAULT_DECKS,
    DEFAULT_SEATS,
    DEFAULT_STACK,
    MIN_STACK_IN_BIG_BLINDS,
    NEXT_HAND_SECONDS,
    SEATS,
    STACK,
    TIMEOUT_GRACE_SECONDS,
)
from ..tables.state import Phase
from ..tables.views import hand_events, names_in_hand, public_table_view
from .bus import PushBus
from .cache import RoomLocks
from .hub import RoomHub

log = logging.getLogger("taiwan_poker.rooms")

NEXT_HAND_DELAY = dt.timedelta(seconds=NEXT_HAND_SECONDS)
TIMEOUT_GRACE = dt.timedelta(seconds=TIMEOUT_GRACE_SECONDS)
MAX_CHIPS = 10**9
QUARANTINED = "quarantined"  # the status of a room whose log cannot be replayed
CACHE_ROOMS = 2000  # rooms whose folded state one process keeps (the rest are rebuilt from the log on demand)
CACHE_IDLE_SECONDS = 15 * 60.0
ROOM_IDS_REMEMBERED = 50_000
BOT_PAUSE = (0.5, 1.5)  # seconds a bot waits before it acts in live play, drawn at random (0 in tests)


class RoomError(TaiwanPokerError):
    """A request about a room that cannot be served (not found, not seated, not your turn, ...)."""

    code = "room_error"


@dataclass
class ActResult:
    """What a request did: ``applied`` is False for a stale or repeated request."""

    applied: bool
    state: dict[str, Any]
    reason: str | None = None


@dataclass(frozen=True)
class _Room:
    """A room as folded from its log, with its stored columns at that version (and its public view, once built)."""

    state: TableState
    row: repo.RoomRow
    memo: dict[str, Any] = field(default_factory=dict, compare=False)

    def public(self) -> dict[str, Any]:
        """The part of the view every seat shares, built once for this version (several threads may race to
        build it; they build the same thing)."""
        view = self.memo.get("public")
        if view is None:
            view = self.memo["public"] = public_table_view(self.state)
        return view


def _whole(value: object, name: str, allowed: range, code: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise RoomError(f"{name} must be a whole number from {allowed.start} to {allowed.stop - 1}, not {value!r}",
                        code=code, low=allowed.start, high=allowed.stop - 1)
    return value


def table_rules(decks: object = DEFAULT_DECKS, seats: object = DEFAULT_SEATS, stack: object = DEFAULT_STACK,
                blinds: object = DEFAULT_BLINDS, action_clock: int = ACTION_CLOCK_SECONDS) -> RuleSet:
    """A member table's rules from its settings, each checked against :mod:`taiwan_poker.tables.limits`."""
    d = _whole(decks, "decks", DECKS, "bad_decks")
    n = _whole(seats, "seats", SEATS, "bad_seats")
    s = _whole(stack, "stack", STACK, "bad_stack")
    if not isinstance(blinds, list | tuple) or len(blinds) != 2:
        raise RoomError("blinds are [small, big], e.g. [10, 20]", code="bad_blinds")
    big = _whole(blinds[1], "the big blind", BIG_BLIND, "bad_blinds")
    small = _whole(blinds[0], "the small blind", range(1, big + 1), "bad_blinds")
    if s < MIN_STACK_IN_BIG_BLINDS * big:
        raise RoomError(f"the starting stack must be at least {MIN_STACK_IN_BIG_BLINDS} big blinds",
                        code="bad_stack", low=MIN_STACK_IN_BIG_BLINDS * big)
    try:
        return RuleSet(decks=d, seats=n, starting_stack=s, small_blind=small, big_blind=big, action_clock=action_clock)
    except TaiwanPokerError as exc:  # e.g. the shoe is too small for the seats
        raise RoomError(exc.message, code="bad_rules") from None


def parse_room_action(obj: object) -> Action:
    """``{"kind": "raise", "to": 120}`` → :class:`Action`; anything malformed is ``bad_action``."""
    if not isinstance(obj, dict):
        raise RoomError("an action must be an object like {\"kind\": \"call\"}", code="bad_action")
    try:
        kind = ActionKind(str(obj.get("kind")))
    except ValueError:
        raise RoomError(f"unknown action kind {obj.get('kind')!r}", code="bad_action") from None
    to = obj.get("to")
    if kind in (ActionKind.BET, ActionKind.RAISE):
        if isinstance(to, bool) or not isinstance(to, int) or not 0 < to <= MAX_CHIPS:
            raise RoomError(f"{kind.value} needs a whole, positive amount 'to', not {to!r}", code="bad_amount")
        return Action(kind, to)
    if to is not None:
        raise RoomError(f"{kind.value} takes no amount", code="bad_amount")
    return Action(kind)


class RoomService:
    """Tables on top of a :class:`Database`; safe to call from several threads."""

    def __init__(
        self,
        db: Database,
        hub: RoomHub | None = None,
        *,
        clock: Callable[[], dt.datetime] = utcnow,
        rng_factory: Callable[[], RandomSource] = live_rng,
        action_clock: int = ACTION_CLOCK_SECONDS,
        cache_capacity: int = CACHE_ROOMS,
        cache_idle_seconds: float = CACHE_IDLE_SECONDS,
        bot_pause: tuple[float, float] = BOT_PAUSE,
        on_bot_turn: Callable[[str, float], None] | None = None,
    ) -> None:
        """``on_bot_turn(code, seconds)`` is told, after a commit, that a bot is to act in that many seconds
        (the app schedules :meth:`play_bot` then; the sweeper catches any turn that call misses)."""
        self.db = db
        self.bot_pause = bot_pause
        self.on_bot_turn = on_bot_turn
        self.bus: PushBus | None = None  # cross-instance pushes (PostgreSQL); set by the app
        self.action_clock = action_clock
        self.hub = hub or RoomHub()
        self.clock = clock
        self.rng_factory = rng_factory
        self._cache: LruMap[int, _Room] = LruMap(cache_capacity, idle_seconds=cache_idle_seconds)
        self._ids: LruMap[str, int] = LruMap(ROOM_IDS_REMEMBERED)
        self._lock = RoomLocks()
        self.errors: dict[str, int] = {}  # room errors by kind, for the metrics

    # -- loading ---------------------------------------------------------------------------------------------

    def room_id(self, code: str) -> int:
        """The id of the room with this code (codes never change, so it is remembered)."""
        key = code.strip().upper()
        room_id = self._ids.get(key)
        if room_id is None:
            with self.db.transaction() as s:
                room = repo.room_by_code(s, key)
                if room is None:
                    raise RoomError(f"no room with code {code!r}", code="room_not_found")
                room_id = room.id
                self._ids.put(key, room_id)
        return room_id

    def _read(self, room_id: int, code: str) -> _Room:
        """The room as stored now: its columns in one light read, its state from the cache when current."""
        row = repo.room_row(self.db.engine, room_id)
        if row is None:
            raise RoomError(f"no room with code {code!r}", code="room_not_found")
        if row.status == QUARANTINED:
            raise RoomError("this table's record is damaged and it is closed for checking", code="room_quarantined")
        cached = self._cache.get(room_id)
        if cached is not None and cached.row.version == row.version:
            return cached
        return self._rebuild(row, cached if cached is not None and cached.row.version < row.version else None)

    def _rebuild(self, row: repo.RoomRow, behind: _Room | None = None) -> _Room:
        """The room at ``row.version``: the cached state ``behind`` it moved on by the events another instance
        appended since (read from the log), or the whole log folded afresh."""
        after = behind.state.version if behind is not None else 0
        with self.db.transaction() as s:
            payloads = repo.load_events(s, row.id, after)[: row.version - after]
        try:
            state = fold((event_from_json(p) for p in payloads), behind.state if behind is not None else None)
        except Exception as exc:  # a log that cannot be replayed: stop the room, loudly, instead of failing forever
            self._quarantine(row.id, row.code, exc)
            raise RoomError("this table's record is damaged and it is closed for checking",
                            code="room_quarantined") from exc
        room = _Room(state, row)
        self._cache.put(row.id, room)
        return room

    def absorb(self, room_id: int, version: int, news: dict[str, Any]) -> bool:
        """Another instance's committed events, as its notification carried them (``e``, with the room's new
        status ``s`` and deadline ``d``): folded onto the cached state when they follow it directly, so this
        instance's sockets are served from memory.  Anything else (no cached state, a gap, a notification
        without its events) is left to the next read, which goes to the log."""
        events = news.get("e")
        if not isinstance(events, list) or not events:
            return False
        with self._lock(room_id):
            cached = self._cache.get(room_id)
            if cached is None or cached.state.version != version - len(events):
                return False
            state = fold((event_from_json(p) for p in events), cached.state)
            if state.version != version:
                return False
            deadline = news.get("d")
            row = cached.row._replace(version=version, status=str(news.get("s")), rules=state.rules.to_json(),
                                      deadline=dt.datetime.fromisoformat(deadline) if deadline else None)
            self._cache.put(room_id, _Room(state, row))
        return True

    def _current(self, room_id: int, code: str, version: object = None) -> _Room:
        """The cached room when it is at ``version`` (no database read; the write's version guard catches a room
        another process moved on), else read and rebuilt."""
        cached = self._cache.get(room_id)
        if cached is not None and version is not None and cached.state.version == version:
            return cached
        return self._read(room_id, code)

    def _quarantine(self, room_id: int, code: str, exc: BaseException) -> None:
        """Mark a room whose log cannot be replayed: no sweep, no action; its members are told why."""
        self._count("quarantined")
        log.error("room quarantined: its event log cannot be replayed", exc_info=exc, extra={"room": code})
        repo.set_room_status(self.db.engine, room_id, QUARANTINED)
        self._cache.discard(room_id)

    def _count(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def rooms_in_memory(self) -> int:
        return len(self._cache)

    # -- the one way a room changes ----------------------------------------------------------------------------

    def _schedule(self, state: TableState) -> tuple[str, dt.datetime | None]:
        """The room's status and its next deadline: the action clock, or the pause before the next hand."""
        phase = state.phase
        if phase is not Phase.PLAYING:
            return phase.value, None
        if state.bot_to_act() is not None:  # a bot acts after a short, human-like pause, never on the clock
            low, high = self.bot_pause
            return phase.value, self.clock() + dt.timedelta(seconds=random.uniform(low, high))
        if state.hand_running:
            return phase.value, self.clock() + dt.timedelta(seconds=state.rules.action_clock)
        return phase.value, self.clock() + NEXT_HAND_DELAY

    def _store(self, conn: Connection, row: repo.RoomRow, before: TableState | None,
               events: Sequence[TableEvent]) -> _Room:
        """Append ``events`` after the state they were decided on, keep the seat index, and fold them in."""
        state = fold(events, before)
        status, deadline = self._schedule(state)
        rules = state.rules.to_json()
        payloads = [event_to_json(e) for e in events]
        version = repo.append_events(conn, row.id, before.version if before else 0, payloads,
                                     status=status, deadline=deadline, rules=rules)
        assert version == state.version
        if self.bus is not None:  # other instances hear of it when this transaction commits
            self.bus.notify_room(conn, row.id, version, payloads, status, deadline)
        for event in events:
            if isinstance(event, PlayerSat) and event.bot is None:  # a bot has no member account
                repo.seat_taken(conn, row.id, event.seat, event.member)
            elif isinstance(event, PlayerLeft):
                repo.seat_left(conn, row.id, event.seat, self.clock())
        log.info("room events stored", extra={"room": row.code, "version": version, "events": len(events)})
        return _Room(state, row._replace(version=version, status=status, deadline=deadline, rules=rules))

    def _run(self, code: str, member: Member | None, command: Command, version: object = None,
             key: str | None = None) -> ActResult:
        """Decide ``command`` on the room's current state and commit its events; a stale version changes nothing."""
        room_id = self.room_id(code)
        with self._lock(room_id):
            room = self._current(room_id, code, version)
            if version is not None and version != room.state.version:
                used = False
                if key is not None and member is not None:
                    with self.db.engine.connect() as conn:
                        used = repo.used_action_key(conn, room_id, member.id, key) is not None
                return ActResult(False, self._view(room, member), "duplicate" if used else "stale_version")
            try:
                events = decide(room.state, command, self.rng_factory())
            except TableError as exc:
                raise RoomError(exc.message, code=exc.code, **exc.params) from None
            if not events:
                return ActResult(False, self._view(room, member), "unchanged")
            with self.db.engine.begin() as conn:
                new = self._store(conn, room.row, room.state, events)
                if key is not None and member is not None:
                    repo.record_action_key(conn, room_id, member.id, key, new.state.version)
            self._cache.put(room_id, new)  # only now, after the commit
            out = self._view(new, member)
        self.hub.publish(room_id, new.state.version)
        self._tell_bot_turn(new)
        return ActResult(True, out)

    def _tell_bot_turn(self, room: _Room) -> None:
        deadline = _aware(room.row.deadline)
        if self.on_bot_turn is not None and deadline is not None and room.state.bot_to_act() is not None:
            self.on_bot_turn(room.row.code, max(0.0, (deadline - self.clock()).total_seconds()))

    def _checked(self, code: str, member: Member | None, command: Command, version: object, key: object = None
                 ) -> ActResult:
        """``_run`` for a request made against a version (with an optional idempotency key)."""
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise RoomError("'version' must be the integer version the action was made against", code="bad_version")
        if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 64):
            raise RoomError("'key' must be a string of 1 to 64 characters", code="bad_key")
        try:
            return self._run(code, member, command, version, key)
        except IntegrityError:  # the same key committed by another process between our check and our write
            return ActResult(False, self.state(code, member), "duplicate")
        except repo.StaleVersion:  # another process moved the room on first: nothing of ours was stored
            return ActResult(False, self.state(code, member), "stale_version")

    # -- tables and seats -----------------------------------------------------------------------------------

    def create_room(self, member: Member, decks: object = DEFAULT_DECKS, seats: object = DEFAULT_SEATS,
                    stack: object = DEFAULT_STACK, blinds: object = DEFAULT_BLINDS, bots: object = 0,
                    level: object = None) -> str:
        """A new table with the member in seat 0 (and ``bots`` bots of ``level`` beside them); returns its code.

        A table whose seats the bots fill deals its first hand at once: one click starts a solo game.
        """
        rules = table_rules(decks, seats, stack, blinds, self.action_clock)
        count = _whole(bots, "bots", range(0, rules.seats), "bad_bots")
        level = _bot_level(level) if count else DEFAULT_LEVEL
        if member.guest:
            if count != rules.seats - 1:
                raise RoomError("a guest plays against bots only: fill every other seat with a bot",
                                code="guest_solo_only")
            with self.db.transaction() as s:
                previous = repo.open_rooms_created_by(s, member.id)
            for old in previous:  # one table at a time: the guest's last one ends
                self.leave(old, member)
        with self.db.engine.begin() as conn:
            room = self._open(conn, member, rules, [level] * count)
        self._cache.put(room.row.id, room)  # only now, after the commit
        self._tell_bot_turn(room)
        return room.row.code

    def _open(self, conn: Connection, member: Member, rules: RuleSet, bots: Sequence[str] = ()) -> _Room:
        row = repo.insert_room(conn, member.id, rules.to_json(),
                               repo.GUEST_ROOM_CODE_LENGTH if member.guest else repo.ROOM_CODE_LENGTH)
        events = decide(None, Open(rules, member.id, member.display_name))
        state = fold(events)
        try:
            for level in bots:
                more = decide(state, AddBot(member.id, level), self.rng_factory())
                events += more
                state = fold(more, state)
        except TableError as exc:
            raise RoomError(exc.message, code=exc.code, **exc.params) from None
        return self._store(conn, row, None, events)

    def configure(self, code: str, member: Member, decks: object = DEFAULT_DECKS, seats: object = DEFAULT_SEATS,
                  stack: object = DEFAULT_STACK, blinds: object = DEFAULT_BLINDS) -> dict[str, Any]:
        """The creator changes the settings before the first hand."""
        rules = table_rules(decks, seats, stack, blinds, self.action_clock)
        return self._run(code, member, Configure(member.id, rules)).state

    def join(self, code: str, member: Member) -> dict[str, Any]:
        """Take the first free seat; heads-up (or at a full table) the first hand is dealt at once.

        Guests and members never share a table: a guest plays only their own solo table.
        """
        if member.guest:
            raise RoomError("a guest plays against bots only; sign in to join a table", code="guest_not_allowed")
        room_id = self.room_id(code)
        creator = self._read(room_id, code).state.creator
        if creator != member.id:
            with self.db.engine.connect() as conn:
                if repo.is_guest(conn, creator):
                    raise RoomError("this is a guest's solo table", code="guest_table")
        return self._run(code, member, Join(member.id, member.display_name)).state

    def purge_guests(self) -> int:
        """Remove guests (and their tables) older than a day; returns how many."""
        with self.db.transaction() as s:
            return repo.purge_guests(s, self.clock() - repo.GUEST_TTL)

    def leave(self, code: str, member: Member) -> None:
        """Leave the seat for good; a hand in progress is folded at once."""
        self._run(code, member, Leave(member.id))

    def away(self, code: str, member: Member) -> dict[str, Any]:
        return self._run(code, member, Away(member.id)).state

    def back(self, code: str, member: Member) -> dict[str, Any]:
        return self._run(code, member, Back(member.id)).state

    def add_bot(self, code: str, member: Member, level: object = None) -> dict[str, Any]:
        """The creator seats a bot (``level`` None: the default level) in the first free seat."""
        return self._run(code, member, AddBot(member.id, _bot_level(level))).state

    def remove_bot(self, code: str, member: Member, seat: object) -> dict[str, Any]:
        """The creator takes the bot in ``seat`` off the table between hands."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise RoomError(f"a seat is a whole number, not {seat!r}", code="no_bot")
        return self._run(code, member, RemoveBot(member.id, seat)).state

    def set_coach(self, code: str, member: Member, on: object) -> dict[str, Any]:
        """The creator turns the coach on or off for everyone at the table (between hands)."""
        if not isinstance(on, bool):
            raise RoomError("'on' is true or false", code="bad_coach")
        return self._run(code, member, SetCoach(member.id, on)).state

    def coach(self, code: str, member: Member) -> dict[str, Any]:
        """The coach's advice for the member's turn, from their seat's view only (None when it is not their turn)."""
        room_id = self.room_id(code)
        room = self._read(room_id, code)
        state = room.state
        if state.seat_of(member.id) is None:
            raise RoomError("you have no seat at this table", code="not_seated")
        if not state.coach_on:
            raise RoomError("the coach is off at this table", code="coach_off")
        hand = state.hand
        seat = state.seat_in_hand(member.id, len(state.hands) - 1) if hand is not None else None
        out: dict[str, Any] = {"on": True, "version": state.version, "advice": None}
        if hand is not None and seat is not None and not hand.complete and hand.to_act == seat and not state.over:
            out["advice"] = advise(seat_view(hand, seat), np.random.default_rng()).to_json()
        return out

    def play_bot(self, code: str) -> bool:
        """If a bot is to act and its pause is over, decide from its seat's view and apply it like any action."""
        room_id = self.room_id(code)
        room = self._read(room_id, code)
        turn = room.state.bot_to_act()
        deadline = _aware(room.row.deadline)
        if turn is None or (deadline is not None and self.clock() < deadline):
            return False
        seat, occupant = turn
        hand = room.state.hand
        assert hand is not None and occupant.bot is not None
        try:
            action = policy_of(occupant.bot)(seat_view(hand, seat), random.SystemRandom())
        except Exception:  # a bot's bug must not stop the table: it checks or folds instead
            self._count("bot")
            log.exception("a bot failed to decide", extra={"room": code})
            legal = hand.legal()
            action = Action(ActionKind.CHECK if legal.allows(ActionKind.CHECK) else ActionKind.FOLD)
        try:
            return self._run(code, None, Act(occupant.member, action), room.state.version).applied
        except repo.StaleVersion:  # another process moved the table on first
            return False

    def rematch(self, code: str, member: Member) -> str:
        """After a match, a player opens a new table with the same rules; everyone at this one sees its code."""
        room_id = self.room_id(code)
        with self._lock(room_id):
            room = self._read(room_id, code)
            if room.state.rematch is not None:
                return room.state.rematch
            bots = [x.bot for x in room.state.seats if x is not None and x.bot is not None]
            with self.db.engine.begin() as conn:
                opened = self._open(conn, member, room.state.rules, bots)  # a solo table's bots come along
                new_code = opened.row.code
                try:
                    events = decide(room.state, Rematch(member.id, new_code))
                except TableError as exc:
                    raise RoomError(exc.message, code=exc.code) from None
                new = self._store(conn, room.row, room.state, events)
            self._cache.put(room_id, new)
            self._cache.put(opened.row.id, opened)
        self.hub.publish(room_id, new.state.version)
        self._tell_bot_turn(opened)
        return new_code

    def act(self, code: str, member: Member, action: object, version: object, key: object = None) -> ActResult:
        """Apply the member's action made against ``version``; stale or repeated requests change nothing."""
        return self._checked(code, member, Act(member.id, parse_room_action(action)), version, key)

    def timeout(self, code: str, member: Member, version: object) -> ActResult:
        """After the action clock runs out, a seated member applies the time-out: check if possible, else fold."""
        room = self._read(self.room_id(code), code)
        deadline = _aware(room.row.deadline)
        if room.state.hand_running and (deadline is None or self.clock() < deadline):
            raise RoomError("the action clock has not run out yet", code="clock_running")
        return self._checked(code, member, TimeOut(member.id), version)

    def next_hand(self, code: str, member: Member | None, version: object) -> ActResult:
        """Deal the next hand once the last one is over (a seated player; the creator for the first)."""
        return self._checked(code, member, Deal(member.id if member is not None else None), version)

    # -- reading ----------------------------------------------------------------------------------------------

    def _view(self, room: _Room, member: Member | None) -> dict[str, Any]:
        state, row = room.state, room.row
        out = table_view(state, member.id if member is not None else None, room.public())
        now = self.clock()
        deadline = _aware(row.deadline)
        out["code"] = row.code
        out["version"] = state.version
        out["server_time"] = now.isoformat()
        out["deadline"] = deadline.isoformat() if deadline else None
        out["seconds_left"] = max(0.0, (deadline - now).total_seconds()) if deadline else None
        if state.hand_running and deadline is not None:
            out["timeout_allowed"] = out["you"] is not None and now >= deadline
        return out

    def table_state(self, code: str, room_id: int | None = None) -> TableState:
        """The table's folded state as stored now (immutable: for read-only uses such as histories and charts)."""
        room_id = self.room_id(code) if room_id is None else room_id
        with self._lock(room_id):
            return self._read(room_id, code).state

    def state(self, code: str, member: Member | None) -> dict[str, Any]:
        """The room as this member (or a spectator) may see it, as stored now."""
        room_id = self.room_id(code)
        with self._lock(room_id):
            return self._view(self._read(room_id, code), member)

    def state_at(self, code: str, member: Member | None, version: int) -> dict[str, Any]:
        """The view for a push announcing ``version``: straight from the cache when it holds that version."""
        return self.cached_view(code, member, version) or self.state(code, member)

    def cached_view(self, code: str, member: Member | None, version: int) -> dict[str, Any] | None:
        """The view from memory alone (no database, no lock: cached states are immutable), or None if not there.

        Cheap enough to run on the event loop, which spares each push a thread hop.
        """
        room_id = self._ids.get(code.strip().upper())
        cached = self._cache.get(room_id) if room_id is not None else None
        if cached is None or cached.state.version < version:
            return None
        return self._view(cached, member)

    def history(self, code: str, member: Member | None) -> list[dict[str, Any]]:
        """Every hand as this member saw it: own cards in the hands they played, board, actions, pots, shown hands."""
        room_id = self.room_id(code)
        with self._lock(room_id):
            room = self._read(room_id, code)
        return history(room.state, member.id if member is not None else None)

    def review(self, code: str, member: Member, hand_no: int) -> dict[str, Any]:
        """The member's decisions in a finished hand, each with its equity, price and mark; the all-in EV."""
        room_id = self.room_id(code)
        with self._lock(room_id):
            state = self._read(room_id, code).state
        if not 1 <= hand_no <= len(state.hands):
            raise RoomError(f"this table has no hand {hand_no}", code="hand_not_found")
        hand = state.hands[hand_no - 1]
        if not hand.complete:
            raise RoomError("the hand is still being played", code="hand_in_progress")
        seat = state.seat_in_hand(member.id, hand_no - 1)
        if seat is None:
            raise RoomError("you did not play this hand", code="not_seated")
        decisions, ev = review_hand(hand, seat, seed=hand_no)
        return {"hand_no": hand_no, "seat": seat, "decisions": [d.to_json() for d in decisions],
                "allin_ev": ev.to_json() if ev is not None else None}

    def hands_phh(self, code: str, member: Member | None, hand_no: int | None = None) -> str:
        """One hand (``hand_no``) or every hand of the table in PHH, with only the cards this member may see."""
        room_id = self.room_id(code)
        with self._lock(room_id):
            state = self._read(room_id, code).state
        if hand_no is not None and not 1 <= hand_no <= len(state.hands):
            raise RoomError(f"this table has no hand {hand_no}", code="hand_not_found")
        indices = [hand_no - 1] if hand_no is not None else list(range(len(state.hands)))
        rules = state.rules
        me = member.id if member is not None else None
        texts = [hand_phh(hand_events(state, me, i), names=names_in_hand(state, i), small_blind=rules.small_blind,
                          big_blind=rules.big_blind, decks=rules.decks, table=code.upper(),
                          hand_no=state.hands[i].hand_no) for i in indices]
        return texts[0] if hand_no is not None else match_phh(texts)

    def rooms_of(self, member: Member) -> list[dict[str, Any]]:
        """The lobby: the member's tables, newest first, with whose turn it is, the seats and the blinds."""
        with self.db.transaction() as s:
            rows = repo.rooms_of(s, member.id)
        out = []
        for row in rows:
            entry: dict[str, Any] = {"code": row.code, "status": row.status, "decks": row.rules.get("decks"),
                                     "seats": row.rules.get("seats"),
                                     "blinds": [row.rules.get("small_blind"), row.rules.get("big_blind")],
                                     "updated_at": row.updated_at.isoformat()}
            try:
                with self._lock(row.id):
                    room = self._read(row.id, row.code)
            except RoomError:  # quarantined: still listed, so its members see what became of it
                entry.update(status=QUARANTINED, players=[], seated=False, your_turn=False, taken=None)
                out.append(entry)
                continue
            state = room.state
            seat = state.seat_of(member.id)
            hand = state.hand
            entry.update(
                players=[{"seat": i, "name": x.name} for i, x in enumerate(state.seats) if x is not None],
                taken=sum(x is not None for x in state.seats), seated=seat is not None,
                your_turn=seat is not None and hand is not None and not hand.complete and hand.to_act == seat,
            )
            out.append(entry)
        return out

    # -- the server's own clock ---------------------------------------------------------------------------------

    def sweep(self) -> list[str]:
        """Time out turns abandoned past the grace and deal the next hand after the showdown pause.

        A room that fails here is logged with its code and counted, and the
        others are still swept; a room whose log cannot be replayed is
        quarantined, so it is not tried again every second.
        """
        self._cache.evict_idle()
        now = self.clock()
        with self.db.transaction() as s:
            due = repo.due_rooms(s, now, Phase.PLAYING.value)
        changed = []
        for room_id, code, _listed in due:
            try:
                if self._sweep_room(room_id, code, now):
                    changed.append(code)
            except repo.StaleVersion:  # another writer moved the room on: nothing to do
                continue
            except RoomError as exc:
                if exc.code in ("table_paused", "hand_in_progress", "match_over", "no_hand"):
                    continue  # moved on since it was listed
                self._count("sweep")
                log.exception("sweeping a room failed", extra={"room": code})
            except Exception:
                self._count("sweep")
                log.exception("sweeping a room failed", extra={"room": code})
        return changed

    def _sweep_room(self, room_id: int, code: str, now: dt.datetime) -> bool:
        """Act on one listed room by its deadline as read now: another instance may have moved it meanwhile
        (a time-out just applied elsewhere starts the showdown pause; it must not deal at once)."""
        room = self._read(room_id, code)
        deadline = _aware(room.row.deadline)
        if deadline is None or deadline > now or room.state.phase is not Phase.PLAYING:
            return False
        if room.state.bot_to_act() is not None:
            return self.play_bot(code)
        if room.state.hand_running:
            if now < deadline + TIMEOUT_GRACE:
                return False
            command: Command = TimeOut(None)
        else:
            command = Deal(None)
        return self._run(code, None, command, room.state.version).applied


def _bot_level(level: object) -> str:
    """A requested bot level: None is the default; anything but a name is ``bad_level`` (the table checks the name)."""
    if level is None:
        return DEFAULT_LEVEL
    if not isinstance(level, str):
        raise RoomError(f"a bot level is a name such as {DEFAULT_LEVEL!r}, not {level!r}", code="bad_level")
    return level


def _aware(moment: dt.datetime | None) -> dt.datetime | None:
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=dt.UTC)
    return moment


__all__ = ["ActResult", "RoomError", "RoomService", "parse_room_action", "table_rules"]
