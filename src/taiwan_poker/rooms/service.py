"""The member-room service: the only place where a room's state changes.

Every change is one database transaction that appends the room's new events
and bumps its version, or does nothing at all.  The rules engine decides
everything about the game; this service only checks who is asking (seat,
version, idempotency key), feeds the engine, stores its events and tells the
hub.  What leaves the service for a member is always the engine's view for
that member's seat (or the public view for a spectator).

A room's log holds three kinds of payload:

- ``{"kind": "match", "rules": {...}, "stacks": [...], "button": 0}`` — the
  match starts (when the second player sits down);
- ``{"kind": "hand", "hand": n, "event": {...}}`` — one engine event of hand n;
- ``{"kind": "forfeit", "seat": s}`` — a player left the table mid-match.

The match is rebuilt from the log by replaying it, so a restarted server
continues every hand exactly where it was.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from ..cards import RandomSource, live_rng
from ..errors import TaiwanPokerError
from ..rules import Action, ActionKind, Hand, RuleSet
from ..rules.events import ActionTaken, BoardDealt, event_from_json, event_to_json
from ..rules.match import Match
from ..rules.views import events_for, view
from ..store import repo
from ..store.db import Database
from ..store.models import Member, Room, Seat, utcnow
from .cache import LruMap, RoomLocks
from .hub import RoomHub

log = logging.getLogger("taiwan_poker.rooms")

NEXT_HAND_DELAY = dt.timedelta(seconds=6)
TIMEOUT_GRACE = dt.timedelta(seconds=3)
MIN_DECKS, MAX_DECKS = 2, 6
MAX_CHIPS = 10**9
QUARANTINED = "quarantined"  # the status of a room whose log cannot be replayed
CACHE_ROOMS = 2000  # rooms whose replayed state one process keeps (the rest are rebuilt from the log on demand)
CACHE_IDLE_SECONDS = 15 * 60.0
ROOM_IDS_REMEMBERED = 50_000


class RoomError(TaiwanPokerError):
    """A request about a room that cannot be served (not found, not seated, not your turn, ...)."""

    code = "room_error"


@dataclass
class ActResult:
    """What an action request did: ``applied`` is False for a stale or repeated request."""

    applied: bool
    state: dict[str, Any]
    reason: str | None = None


@dataclass(frozen=True)
class SeatInfo:
    """Who sits (or sat) in a seat."""

    seat: int
    member_id: int
    name: str
    left: bool


@dataclass
class _Cached:
    """A room as of ``version``: its match (replayed from the log) and its seats."""

    version: int
    match: Match | None
    forfeit: int | None
    rematch: str | None = None
    dirty: bool = False
    seats: tuple[SeatInfo, ...] = ()
    meta: repo.RoomRow | None = None  # the room's columns at ``version`` (set when this process knows them)

    def seat_of(self, member: Member | None) -> int | None:
        """The member's current seat, if seated."""
        if member is None:
            return None
        return next((x.seat for x in self.seats if x.member_id == member.id and not x.left), None)

    def ever_seated(self, member: Member | None) -> int | None:
        """The seat the member has or had in this room."""
        if member is None:
            return None
        return next((x.seat for x in self.seats if x.member_id == member.id), None)


def room_rules(decks: object, action_clock: int = 45) -> RuleSet:
    """The v0.1 member table: heads-up no-limit, 2,000 chips, blinds 10/20, ``decks`` decks (2–6)."""
    if isinstance(decks, bool) or not isinstance(decks, int) or not MIN_DECKS <= decks <= MAX_DECKS:
        raise RoomError(f"a room uses 2 to 6 decks, not {decks!r}", code="bad_decks")
    return RuleSet(decks=decks, seats=2, action_clock=action_clock)


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


def replay(payloads: list[dict[str, Any]], rng_factory: Callable[[], RandomSource] = live_rng) -> _Cached:
    """Rebuild a room's match from its log (the fold over its events); ``rng_factory`` deals future hands."""
    match: Match | None = None
    forfeit: int | None = None
    rematch: str | None = None
    hands: list[list[dict[str, Any]]] = []
    for payload in payloads:
        kind = payload["kind"]
        if kind == "match":
            match = Match(RuleSet.from_json(payload["rules"]), rng_factory(),
                          stacks=payload["stacks"], button=payload["button"])
        elif kind == "hand":
            n = payload["hand"]
            while len(hands) < n:
                hands.append([])
            hands[n - 1].append(payload["event"])
        elif kind == "forfeit":
            forfeit = payload["seat"]
        elif kind == "rematch":
            rematch = payload["code"]
    if match is not None:
        for log in hands:
            hand = Hand.from_events(match.rules, [event_from_json(e) for e in log])
            match.hands.append(hand)
            match.button = hand.button
    return _Cached(len(payloads), match, forfeit, rematch)


def last_actions(hand: Hand) -> dict[str, dict[str, Any]]:
    """Each seat's latest decision on the current street (public information), keyed by seat number."""
    out: dict[str, dict[str, Any]] = {}
    for ev in hand.events:
        if isinstance(ev, BoardDealt):
            out = {}
        elif isinstance(ev, ActionTaken):
            out[str(ev.seat)] = {"kind": ev.kind.value, "to": ev.to, "amount": ev.amount, "allin": ev.allin,
                                 "timeout": ev.timeout}
    return out


class RoomService:
    """Rooms on top of a :class:`Database`; safe to call from several threads."""

    def __init__(
        self,
        db: Database,
        hub: RoomHub | None = None,
        *,
        clock: Callable[[], dt.datetime] = utcnow,
        rng_factory: Callable[[], RandomSource] = live_rng,
        action_clock: int = 45,
        cache_capacity: int = CACHE_ROOMS,
        cache_idle_seconds: float = CACHE_IDLE_SECONDS,
    ) -> None:
        self.db = db
        self.action_clock = action_clock
        self.hub = hub or RoomHub()
        self.clock = clock
        self.rng_factory = rng_factory
        self._cache: LruMap[int, _Cached] = LruMap(cache_capacity, idle_seconds=cache_idle_seconds)
        self._ids: LruMap[str, int] = LruMap(ROOM_IDS_REMEMBERED)
        self._lock = RoomLocks()
        self.errors: dict[str, int] = {}  # room errors by kind, for the metrics

    # -- plumbing --------------------------------------------------------------------------------------------

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

    @contextmanager
    def _room_tx(self, code: str) -> Iterator[tuple[Session, Room]]:
        """Lock the room in this process, then open a transaction on it (see :meth:`_tx`)."""
        room_id = self.room_id(code)
        with self._lock(room_id), self._tx(room_id) as pair:
            yield pair

    @contextmanager
    def _tx(self, room_id: int) -> Iterator[tuple[Session, Room]]:
        """An ORM transaction on a room the caller has locked (see :meth:`_writing`)."""
        with self._writing(room_id), self.db.transaction() as s:
            live = s.get(Room, room_id)
            assert live is not None
            yield s, live

    @contextmanager
    def _writing(self, room_id: int) -> Iterator[None]:
        """Around a room's write transaction: the cached state is forgotten unless what it applied was committed."""
        try:
            yield
        except BaseException:
            cached = self._cache.get(room_id)
            if cached is not None and cached.dirty:  # changed in memory but not stored: rebuild next time
                self._cache.discard(room_id, cached)
            raise
        cached = self._cache.get(room_id)
        if cached is not None:
            cached.dirty = False

    def _state(self, s: Session | None, room: Room | repo.RoomRow) -> _Cached:
        """The room's match at its current version (cached; rebuilt from the log when stale)."""
        if room.status == QUARANTINED:
            raise RoomError("this table's record is damaged and it is closed for checking", code="room_quarantined")
        cached = self._cache.get(room.id)
        if cached is not None and cached.version == room.version:
            return cached
        if s is None:
            with self.db.transaction() as fresh:
                return self._rebuild(fresh, room)
        return self._rebuild(s, room)

    def _rebuild(self, s: Session, room: Room | repo.RoomRow) -> _Cached:
        try:
            cached = replay(repo.load_events(s, room.id)[: room.version], self.rng_factory)
        except Exception as exc:  # a log that cannot be replayed: stop the room, loudly, instead of failing forever
            self._quarantine(room.id, room.code, exc)
            raise RoomError("this table's record is damaged and it is closed for checking",
                            code="room_quarantined") from exc
        cached.version = room.version
        cached.seats = self._load_seats(s, room.id)
        cached.meta = repo.RoomRow(room.id, room.code, room.version, room.status, room.deadline, room.rules)
        self._cache.put(room.id, cached)
        return cached

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

    @staticmethod
    def _load_seats(s: Session, room_id: int) -> tuple[SeatInfo, ...]:
        return tuple(
            SeatInfo(seat.seat_no, member.id, member.display_name, seat.left_at is not None)
            for seat, member in repo.seats_with_members(s, room_id)
        )

    def _commit(
        self, s: Session | Connection, room: Room | None, state: _Cached, payloads: list[dict[str, Any]]
    ) -> int:
        """Store the events the cached state already applied; the version bump fails if anyone wrote first.

        One UPDATE moves the version, the status and the action clock together
        (:class:`repo.StaleVersion` when the room is no longer at the cached
        version). ``room``, when the caller holds it in an ORM session, is kept
        in step.
        """
        meta = state.meta
        assert meta is not None
        state.dirty = True
        status, deadline = self._clock_after(state)
        version = repo.append_events(s, meta.id, meta.version, payloads, status=status, deadline=deadline)
        if room is not None:
            for name, value in (("version", version), ("status", status), ("deadline", deadline)):
                set_committed_value(room, name, value)
        state.version = version
        state.meta = meta._replace(version=version, status=status, deadline=deadline)
        log.info("room events stored", extra={"room": meta.code, "version": version, "events": len(payloads)})
        return version

    def _clock_after(self, state: _Cached) -> tuple[str, dt.datetime | None]:
        """The room's status and action-clock deadline for the state just reached."""
        match = state.match
        now = self.clock()
        if match is None:
            return "waiting", None
        if state.forfeit is not None or match.over:
            return "finished", None
        hand = match.hand
        if hand is not None and not hand.complete:
            return "playing", now + dt.timedelta(seconds=match.rules.action_clock)
        return "playing", now + NEXT_HAND_DELAY

    @staticmethod
    def _hand_payloads(hand: Hand, since: int, hand_no: int) -> list[dict[str, Any]]:
        return [{"kind": "hand", "hand": hand_no, "event": event_to_json(e)} for e in hand.events_since(since)]

    def _publish(self, room_id: int, version: int) -> None:
        self.hub.publish(room_id, version)

    # -- rooms and seats -------------------------------------------------------------------------------------

    def create_room(self, member: Member, decks: object = 2) -> str:
        """A new room with the member in seat 0; returns its code."""
        rules = room_rules(decks, self.action_clock)
        with self.db.transaction() as s:
            room = repo.create_room(s, member, rules.to_json())
            return room.code

    def join(self, code: str, member: Member) -> dict[str, Any]:
        """Take the free seat; the match starts when both seats are taken."""
        with self._room_tx(code) as (s, room):
            taken = repo.seats(s, room.id, current=False)
            if any(seat.member_id == member.id and seat.left_at is None for seat in taken):
                return self._state_for(s, room, member)
            if room.status != "waiting" or len(taken) >= 2:
                raise RoomError("this room's seats are taken", code="room_full")
            s.add(Seat(room_id=room.id, seat_no=1, member_id=member.id))
            s.flush()
            state = self._state(s, room)
            state.dirty = True
            state.seats = self._load_seats(s, room.id)
            rules = RuleSet.from_json(room.rules)
            match = Match(rules, self.rng_factory())
            state.match = match
            hand = match.start_hand()
            payloads = [{"kind": "match", "rules": rules.to_json(), "stacks": list(match.initial_stacks),
                         "button": match.button}]
            payloads += self._hand_payloads(hand, 0, 1)
            version = self._commit(s, room, state, payloads)
            out = self._state_for(s, room, member)
        self._publish(room.id, version)
        return out

    def leave(self, code: str, member: Member) -> None:
        """Leave the seat for good; leaving a match in progress forfeits it."""
        with self._room_tx(code) as (s, room):
            seat_no = self._state(s, room).seat_of(member)
            if seat_no is None:
                raise RoomError("you have no seat in this room", code="not_seated")
            for seat in repo.seats(s, room.id):
                if seat.member_id == member.id:
                    seat.left_at = self.clock()
            s.flush()
            state = self._state(s, room)
            state.dirty = True
            state.seats = self._load_seats(s, room.id)
            if state.match is not None and not state.match.over and state.forfeit is None:
                state.forfeit = seat_no
                version = self._commit(s, room, state, [{"kind": "forfeit", "seat": seat_no}])
            else:
                version = self._commit(s, room, state, [{"kind": "left", "seat": seat_no}])
                if state.match is None:
                    room.status = "closed"
                    state.meta = state.meta._replace(status="closed") if state.meta else None
        self._publish(room.id, version)

    def rematch(self, code: str, member: Member) -> str:
        """After a match, either player opens a new room with the same rules; both see its code."""
        with self._room_tx(code) as (s, room):
            state = self._state(s, room)
            if state.ever_seated(member) is None:
                raise RoomError("only a player of this room can ask for a rematch", code="not_seated")
            if state.rematch is not None:
                return state.rematch
            if state.match is None or not (state.match.over or state.forfeit is not None):
                raise RoomError("the match is not over yet", code="match_not_over")
            new_room = repo.create_room(s, member, room.rules)
            state.rematch = new_room.code
            version = self._commit(s, room, state, [{"kind": "rematch", "code": new_room.code}])
            new_code = new_room.code
        self._publish(room.id, version)
        return new_code

    def rooms_of(self, member: Member) -> list[dict[str, Any]]:
        """The lobby: the member's rooms, newest first."""
        with self.db.transaction() as s:
            out = []
            for room in repo.rooms_of(s, member.id):
                status = room.status
                try:
                    with self._lock(room.id):
                        state = self._state(s, room)
                except RoomError:  # quarantined: still listed, so its members see what became of it
                    status = QUARANTINED
                    state = _Cached(room.version, None, None, seats=self._load_seats(s, room.id))
                out.append({
                    "code": room.code, "status": status, "decks": room.rules.get("decks"),
                    "players": self._names(state), "seated": state.seat_of(member) is not None,
                    "updated_at": room.updated_at.isoformat(),
                })
            return out

    # -- reading ----------------------------------------------------------------------------------------------

    @staticmethod
    def _names(state: _Cached) -> list[dict[str, Any]]:
        return [{"seat": x.seat, "name": x.name, "left": x.left} for x in state.seats]

    def _state_for(self, s: Session | None, room: Room | repo.RoomRow, member: Member | None) -> dict[str, Any]:
        state = self._state(s, room)
        seat = state.seat_of(member)
        match = state.match
        now = self.clock()
        deadline = room.deadline
        if deadline is not None and deadline.tzinfo is None:
            deadline = deadline.replace(tzinfo=dt.UTC)
        out: dict[str, Any] = {
            "code": room.code,
            "version": room.version,
            "status": room.status,
            "decks": room.rules.get("decks"),
            "players": self._names(state),
            "you": seat,
            "spectator": seat is None,
            "server_time": now.isoformat(),
            "deadline": deadline.isoformat() if deadline else None,
            "seconds_left": max(0.0, (deadline - now).total_seconds()) if deadline else None,
            "hand": None,
            "match": None,
        }
        if match is not None:
            hand = match.hand
            out["hand"] = view(hand, seat) if hand is not None else None
            if hand is not None and seat is not None and hand.to_act == seat and not hand.complete:
                out["hand"]["legal"]["allin_to"] = hand.legal().allin_to
            if hand is not None:
                out["hand"]["last_actions"] = last_actions(hand)
            winner = match.winner if state.forfeit is None else 1 - state.forfeit
            out["match"] = {
                "stacks": list(match.stacks),
                "hands_played": len(match.hands),
                "over": match.over or state.forfeit is not None,
                "winner": winner,
                "forfeit": state.forfeit,
                "rematch": state.rematch,
            }
            if hand is not None and not hand.complete and deadline is not None:
                out["timeout_allowed"] = seat is not None and now >= deadline
        return out

    def _read(self, room_id: int, code: str) -> tuple[repo.RoomRow, _Cached]:
        """The room's stored columns and its state at that version (one light read when the cache is current)."""
        row = repo.room_row(self.db.engine, room_id)
        if row is None:
            raise RoomError(f"no room with code {code!r}", code="room_not_found")
        return row, self._state(None, row)

    def state(self, code: str, member: Member | None) -> dict[str, Any]:
        """The room as this member (or a spectator) may see it, as stored now."""
        room_id = self.room_id(code)
        with self._lock(room_id):
            row, _ = self._read(room_id, code)
            return self._state_for(None, row, member)

    def state_at(self, code: str, member: Member | None, version: int) -> dict[str, Any]:
        """The view for a push announcing ``version``: straight from the cache when it holds that version.

        Pushes are announced by this process's own commits, so the cache is
        normally exactly there and no database read is needed.
        """
        room_id = self.room_id(code)
        with self._lock(room_id):
            cached = self._cache.get(room_id)
            if cached is not None and cached.meta is not None and cached.version >= version:
                return self._state_for(None, cached.meta, member)
        return self.state(code, member)

    def history(self, code: str, member: Member | None) -> list[dict[str, Any]]:
        """Every hand of the room as this member may see it: own cards, board, actions, pots, shown hands."""
        room_id = self.room_id(code)
        with self._lock(room_id), self.db.transaction() as s:
            room = s.get(Room, room_id)
            assert room is not None
            state = self._state(s, room)
            seat = state.ever_seated(member)
            if state.match is None:
                return []
            return [
                {"hand_no": i + 1, "final": view(hand, seat), "events": events_for(hand, seat)}
                for i, hand in enumerate(state.match.hands)
            ]

    # -- changing -------------------------------------------------------------------------------------------

    @staticmethod
    def _guard(state: _Cached, member: Member, version: object, key: object) -> tuple[int, str | None]:
        seat = state.seat_of(member)
        if seat is None:
            raise RoomError("only a seated player can act in this room", code="not_seated")
        if isinstance(version, bool) or not isinstance(version, int):
            raise RoomError("'version' must be the integer version the action was made against", code="bad_version")
        if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 64):
            raise RoomError("'key' must be a string of 1 to 64 characters", code="bad_key")
        return seat, key

    def act(self, code: str, member: Member, action: object, version: object, key: object = None) -> ActResult:
        """Apply the member's action made against ``version``; stale or repeated requests change nothing."""
        parsed = parse_room_action(action)
        try:
            return self._act(code, member, parsed, version, key)
        except IntegrityError:  # the same key committed by another process between our check and our write
            return ActResult(False, self.state(code, member), "duplicate")
        except repo.StaleVersion:  # another process moved the room on first: nothing of ours was stored
            return ActResult(False, self.state(code, member), "stale_version")

    def _current(self, room_id: int, code: str, version: object) -> _Cached:
        """The room's cached state when it is at ``version`` (no database read); otherwise read and rebuilt.

        Trusting the cache is safe: the write that follows is guarded by the
        version in the database, so a room another process moved on is caught there.
        """
        cached = self._cache.get(room_id)
        if cached is not None and cached.meta is not None and cached.version == version:
            return cached
        return self._read(room_id, code)[1]

    def _act(self, code: str, member: Member, parsed: Action, version: object, key: object) -> ActResult:
        """The hot path: no ORM session; one transaction of three statements (version bump, events, key)."""
        room_id = self.room_id(code)
        with self._lock(room_id):
            state = self._current(room_id, code, version)
            assert state.meta is not None
            seat, idem = self._guard(state, member, version, key)
            if version != state.version:
                with self.db.engine.connect() as conn:
                    used = idem is not None and repo.used_action_key(conn, room_id, member.id, idem) is not None
                return ActResult(False, self._state_for(None, state.meta, member),
                                 "duplicate" if used else "stale_version")
            hand = self._live_hand(state)
            if hand.to_act != seat:
                raise RoomError("it is not your turn", code="not_your_turn")
            since = hand.version
            hand.act(parsed, seat=seat)  # raises, changing nothing, when illegal
            state.dirty = True
            hand_no = len(state.match.hands) if state.match else 0
            with self._writing(room_id), self.db.engine.begin() as conn:
                new_version = self._commit(conn, None, state, self._hand_payloads(hand, since, hand_no))
                if idem is not None:
                    repo.record_action_key(conn, room_id, member.id, idem, new_version)
            out = self._state_for(None, state.meta, member)  # after the commit: the write lock is held briefly
        self._publish(room_id, new_version)
        return ActResult(True, out)

    @staticmethod
    def _live_hand(state: _Cached) -> Hand:
        match = state.match
        if match is None or state.forfeit is not None or match.over:
            raise RoomError("no match is being played in this room", code="no_hand")
        hand = match.hand
        if hand is None or hand.complete:
            raise RoomError("the hand is over; the next one is about to be dealt", code="no_hand")
        return hand

    def timeout(self, code: str, member: Member, version: object) -> ActResult:
        """A seated member presses "time-out" after the clock ran out: check if possible, else fold."""
        room_id = self.room_id(code)
        with self._lock(room_id):
            with self._tx(room_id) as (s, room):
                self._guard(self._state(s, room), member, version, None)
                if version != room.version:
                    return ActResult(False, self._state_for(s, room, member), "stale_version")
                state = self._state(s, room)
                hand = self._live_hand(state)
                deadline = room.deadline
                if deadline is not None and deadline.tzinfo is None:
                    deadline = deadline.replace(tzinfo=dt.UTC)
                if deadline is None or self.clock() < deadline:
                    raise RoomError("the action clock has not run out yet", code="clock_running")
                new_version = self._apply_timeout(s, room, state, hand)
            out = self._state_for(None, room, member)
        self._publish(room_id, new_version)
        return ActResult(True, out)

    def _apply_timeout(self, s: Session, room: Room, state: _Cached, hand: Hand) -> int:
        since = hand.version
        hand.timeout()
        state.dirty = True
        assert state.match is not None
        return self._commit(s, room, state, self._hand_payloads(hand, since, len(state.match.hands)))

    def next_hand(self, code: str, member: Member | None, version: object) -> ActResult:
        """Deal the next hand once the last one is over (a seated player, or the server's sweeper)."""
        room_id = self.room_id(code)
        with self._lock(room_id):
            with self._tx(room_id) as (s, room):
                if member is not None:
                    self._guard(self._state(s, room), member, version, None)
                if version != room.version:
                    return ActResult(False, self._state_for(s, room, member), "stale_version")
                state = self._state(s, room)
                match = state.match
                if match is None or match.over or state.forfeit is not None:
                    raise RoomError("the match is over", code="match_over")
                if match.hand is not None and not match.hand.complete:
                    raise RoomError("the current hand is still being played", code="hand_in_progress")
                hand = match.start_hand()
                state.dirty = True
                new_version = self._commit(s, room, state, self._hand_payloads(hand, 0, len(match.hands)))
            out = self._state_for(None, room, member)
        self._publish(room_id, new_version)
        return ActResult(True, out)

    def sweep(self) -> list[str]:
        """The server's own clock: time out abandoned turns and deal the next hand after a showdown pause.

        A room that fails here is logged with its code and counted, and the
        others are still swept; a room whose log cannot be replayed is
        quarantined (see :meth:`_rebuild`), so it is not tried again every second.
        """
        self._cache.evict_idle()
        now = self.clock()
        with self.db.transaction() as s:
            due = list(s.scalars(select(Room).where(Room.deadline <= now, Room.status == "playing")))
        changed = []
        for room in due:
            try:
                version = self._sweep_room(room, now)
            except repo.StaleVersion:  # another writer moved the room on: nothing to do
                continue
            except Exception:
                self._count("sweep")
                log.exception("sweeping a room failed", extra={"room": room.code})
                continue
            if version is not None:
                self._publish(room.id, version)
                changed.append(room.code)
        return changed

    def _sweep_room(self, room: Room, now: dt.datetime) -> int | None:
        """Time out the turn or deal the next hand of one due room; the new version, or None if nothing was due."""
        deadline = room.deadline
        assert deadline is not None
        if deadline.tzinfo is None:
            deadline = deadline.replace(tzinfo=dt.UTC)
        with self._room_tx(room.code) as (s, live):
            if live.version != room.version:
                return None
            state = self._state(s, live)
            match = state.match
            if match is None or match.over or state.forfeit is not None:
                return None
            hand = match.hand
            if hand is not None and not hand.complete:
                if now < deadline + TIMEOUT_GRACE:
                    return None
                return self._apply_timeout(s, live, state, hand)
            if now < deadline:
                return None
            new = match.start_hand()
            state.dirty = True
            return self._commit(s, live, state, self._hand_payloads(new, 0, len(match.hands)))
