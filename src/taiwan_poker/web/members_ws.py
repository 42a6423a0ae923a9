"""The room WebSocket: pushes each member's own view whenever the room changes, and takes actions.

On connect the server sends ``{"type": "state", "state": ...}`` and the table's
chat this member may read (``{"type": "chat", "messages": [...]}``); after that a
new state whenever the room's version moves (announced by the hub; the view
itself is computed for this member only) and the new chat lines this member may
read whenever the chat moves (muted players' lines left out).  The client may
send ``action``, ``timeout``, ``next``, ``runs`` (``agree``), ``showdown``
(``show``), ``show`` (``cards``), ``chat`` (``text``, or ``reaction`` and ``to``)
and ``ping`` messages; a bad message gets an ``error`` message with the current
state, and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import json
import logging
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.util import greenlet_spawn

from ..errors import TaiwanPokerError
from ..rooms.service import ActResult, RoomService
from ..store import repo
from ..store.direct import Busy
from ..store.models import Member
from .code_guessing import answer_miss
from .i18n import LANG_COOKIE, error_message, negotiate
from .members_api import SESSION_COOKIE
from .metrics import observe_action
from .rate_limits import RateLimited, RateLimiter
from .socket_registry import OpenSocket, SocketRegistry, session_key


@functools.cache
def _chat_readers() -> ThreadPoolExecutor:
    """Chat reads on threads of their own: the backlog each socket reads when it opens (thousands at once after a
    restart) never queues in front of a move in the shared worker threads (measured: six-seat p99 875 → 100 ms)."""
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="chat-read")


router = APIRouter()
log = logging.getLogger("taiwan_poker.web.ws")
MAX_MESSAGE = 4096  # characters of one client message (the server's frame cap is ``WS_MAX_BYTES``)
WS_MAX_BYTES = 64 * 1024  # uvicorn refuses larger frames before they reach the app (close 1009)
MAX_REFUSED = 50  # rate-limited messages a socket may send before it is closed
SESSION_RECHECK_SECONDS = 15.0  # how often the server asks which open sockets' sessions still live
ACTION_MESSAGES = frozenset({"action", "timeout", "next", "runs", "showdown", "show"})
NOW_MESSAGES = frozenset({"action", "timeout", "next"})  # moves a socket may write on the event loop (issue 49)
CHOICES = {"runs": "agree", "showdown": "show"}  # a choice made against a version: its field
PUSH_RETRY_SECONDS = 1.0  # a push whose view could not be read (database restarting) is tried again after this


def _origin_ok(ws: WebSocket) -> bool:
    """Browsers send Origin; it must be this server (cross-site WebSocket hijacking guard)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host")


def _retrieved(task: asyncio.Future[Any]) -> None:
    """Mark a shielded move's outcome as seen (its socket may have stopped waiting for it)."""
    if not task.cancelled():
        task.exception()


def _error(ws: WebSocket, exc: TaiwanPokerError) -> dict[str, Any]:
    lang = negotiate(ws.query_params.get("lang"), ws.cookies.get(LANG_COOKIE), ws.headers.get("accept-language"))
    out: dict[str, Any] = {"type": "error", "error": {"code": exc.code, "message": error_message(lang, exc)}}
    if isinstance(exc, RateLimited):
        out["retry_after"] = exc.params["retry_after"]
    return out


def parse_message(text: str | None) -> dict[str, Any]:
    """A client message as a JSON object, or ``bad_message`` (cheap: runs on the event loop).

    ``None`` is a binary frame: the protocol is JSON text only.
    """
    if text is None:
        raise TaiwanPokerError("binary frames are not understood; send JSON text", code="bad_message")
    if len(text) > MAX_MESSAGE:
        raise TaiwanPokerError("message too large", code="bad_message")
    try:
        msg = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise TaiwanPokerError("a message must be a JSON object", code="bad_message") from None
    if not isinstance(msg, dict):
        raise TaiwanPokerError("a message must be a JSON object", code="bad_message")
    return msg


class StateReply(NamedTuple):
    """The reply to a move: ``{"type": "state", "applied", "reason", "state"}`` as the JSON text sent, built in the
    worker thread from the room's shared part encoded once per version (the other seats' pushes reuse it)."""

    applied: bool
    reason: str | None
    version: int
    text: str

    @classmethod
    def of(cls, result: ActResult) -> StateReply:
        applied, reason = "true" if result.applied else "false", json.dumps(result.reason)
        text = f'{{"type":"state","applied":{applied},"reason":{reason},"state":{result.state_text()}}}'
        return cls(result.applied, result.reason, result.version, text)


def handle_message(rooms: RoomService, code: str, member: Member | None, msg: dict[str, Any], now: bool = False
                   ) -> dict[str, Any] | StateReply:
    """One parsed client message other than a ping → the reply (on a worker thread: it may write and wait).

    ``now`` (a move of :data:`NOW_MESSAGES`, on the event loop): written at once or not at all (:class:`Busy`)."""
    kind = msg.get("type")
    if member is None:
        raise TaiwanPokerError("sign in first", code="signin_required")
    if kind == "action":
        return StateReply.of(rooms.act(code, member, msg.get("action"), msg.get("version"), msg.get("key"), now=now))
    if kind == "timeout":
        return StateReply.of(rooms.timeout(code, member, msg.get("version"), now=now))
    if kind == "next":
        return StateReply.of(rooms.next_hand(code, member, msg.get("version"), now=now))
    if now:
        raise Busy(f"{kind!r} is written on a worker thread")
    if kind in CHOICES:
        field = CHOICES[kind]
        result = rooms.request(code, member, kind, {field: msg.get(field)}, msg.get("version"))
        assert not isinstance(result, dict)
        return StateReply.of(result)
    if kind == "show":
        return {"type": "state", "applied": True, "reason": None,
                "state": rooms.request(code, member, "show", {"cards": msg.get("cards")})}
    if kind == "chat":
        return {"type": "chat_sent", "message": rooms.chat.say(code, member, msg.get("text"), msg.get("reaction"),
                                                               msg.get("to"))}
    raise TaiwanPokerError(f"unknown message type {kind!r}", code="bad_message")


def recheck_sessions(app: Any) -> int:
    """Close the open sockets whose session ended where this process was not told (expiry, another instance).

    One query for every open socket's session; callable from any thread.
    Returns how many sockets it closed.
    """
    registry: SocketRegistry = app.state.sockets
    keys = registry.session_keys()
    if not keys:
        return 0
    with app.state.db.transaction() as s:
        alive = repo.live_session_hashes(s, keys)
    return registry.end_missing(keys, alive)


class SessionEnded(Exception):
    """The socket's session ended (sign-out, rotation, expiry): it must stop at once."""


class RoomSocket:
    """One member's (or a spectator's) socket to one room: identified at open, then pushes and messages.

    Every state sent is this member's own view, never older than the last one sent; a message is handled on
    a worker thread (it may write) and answered with the state after it, or an error and the current state.
    """

    def __init__(self, ws: WebSocket, code: str) -> None:
        self.ws = ws
        self.code = code
        self.app = ws.app
        self.rooms: RoomService = self.app.state.rooms
        self.limiter: RateLimiter = self.app.state.rate_limiter
        self.registry: SocketRegistry = self.app.state.sockets
        self.address = ws.client.host if ws.client else "unknown"
        self.token = ws.cookies.get(SESSION_COOKIE)
        self.member: Member | None = None
        self.closed = False
        self.sent = -1  # the newest version this socket has been sent
        self.chat_sent = 0  # the newest chat line this socket has been sent (or skipped: not for this member)
        self.send_lock = asyncio.Lock()
        # set while no message of this socket is being answered: a push waits for the answer, which carries a state
        # at least as new (without it the mover's own socket was pushed the very version its reply then sent again)
        self.idle = asyncio.Event()
        self.idle.set()
        self.background: set[asyncio.Task[None]] = set()
        self.messages = self.refused = 0
        self.started = time.monotonic()
        self.sock: OpenSocket | None = None

    @property
    def member_id(self) -> int | None:
        return self.member.id if self.member is not None else None

    # -- opening and closing ---------------------------------------------------------------------------

    async def open(self) -> int | None:
        """Accept the socket and identify who is asking; the room's id, or None when the socket was refused."""
        if not _origin_ok(self.ws):
            await self.ws.close(code=1008)
            return None
        await self.ws.accept()  # the handshake first: under a reconnect storm, clients must not time out on it
        self.member = await asyncio.to_thread(self.app.state.session_cache.member, self.token)
        try:
            self.limiter.check("socket_open", self.member_id, self.address)
            room_id: int = await asyncio.to_thread(self.rooms.loader.room_id, self.code)
        except TaiwanPokerError as exc:
            if exc.code == "room_not_found":
                try:
                    answer_miss(self.limiter, self.address)
                except TaiwanPokerError as refused:  # misses used up: no answer about the code
                    exc = refused
            await self.ws.send_json(_error(self.ws, exc))
            await self.ws.close(code=1008)
            return None
        loop = asyncio.get_running_loop()
        self.sock = OpenSocket(self.member_id, session_key(self.token) if self.member is not None else None,
                               self.address, loop, self.ended_elsewhere)
        try:
            self.registry.add(self.sock)
        except TaiwanPokerError as exc:
            await self.shut(exc, 1008)
            return None
        return room_id

    async def shut(self, exc: TaiwanPokerError, close_code: int) -> None:
        """Say why, then close; nothing is sent after this."""
        async with self.send_lock:
            if self.closed:
                return
            self.closed = True
            with contextlib.suppress(Exception):
                await self.ws.send_json(_error(self.ws, exc))
                await self.ws.close(code=close_code)
        log.info("socket closed by the server", extra={"room": self.code, "reason": exc.code})

    def session_over(self) -> Coroutine[Any, Any, None]:
        return self.shut(TaiwanPokerError("your session has ended; sign in again", code="session_ended"), 4401)

    def ended_elsewhere(self) -> None:
        """The registry calls this on our loop when the session ends elsewhere in this process."""
        task = asyncio.get_running_loop().create_task(self.session_over())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def signed_in(self) -> None:
        """The session this socket was opened with still holds (the registry marks it when it ends)."""
        if self.sock is not None and self.sock.ended:
            raise SessionEnded

    # -- states --------------------------------------------------------------------------------------------

    def view(self, announced: int | None) -> dict[str, Any]:
        self.signed_in()
        reads = self.rooms.reads
        return reads.state(self.code, self.member) if announced is None else reads.state_at(
            self.code, self.member, announced)

    async def send(self, message: dict[str, Any]) -> None:
        async with self.send_lock:
            if not self.closed:
                await self.ws.send_json(message)

    async def send_state(self, reply: dict[str, Any] | StateReply | None = None, announced: int | None = None
                         ) -> None:
        """Send a state (a push, or an action's reply); never an older version than already sent."""
        if isinstance(reply, StateReply):
            if reply.version >= self.sent:
                async with self.send_lock:
                    if self.closed:
                        return
                    if reply.version >= self.sent:
                        self.sent = reply.version
                        await self.ws.send_text(reply.text)
                        return
            # a push of a newer version went out while the move was being written: the reply carries the room now
            reply = {"type": "state", "applied": reply.applied, "reason": reply.reason,
                     "state": await asyncio.to_thread(self.view, None)}
        if reply is None and announced is not None:
            self.signed_in()
            quick = self.rooms.reads.cached_view_text(self.code, self.member, announced)
            if quick is not None:  # a push from the room cache: the shared part is encoded once per version
                version, text = quick
                async with self.send_lock:
                    if self.closed or version <= self.sent:
                        return
                    self.sent = version
                    await self.ws.send_text(f'{{"type":"state","state":{text}}}')
                return
        if reply is not None:
            state = reply["state"]
        else:
            state = await asyncio.to_thread(self.view, announced)
        if reply is None and state["version"] <= self.sent:
            return
        if reply is not None and state["version"] < self.sent:
            reply = {**reply, "state": await asyncio.to_thread(self.view, None)}
            state = reply["state"]
        async with self.send_lock:
            if self.closed or (reply is None and state["version"] <= self.sent):
                return
            self.sent = max(self.sent, state["version"])
            await self.ws.send_json(reply if reply else {"type": "state", "state": state})

    def chat_since(self) -> dict[str, Any]:
        """The chat lines after the last one sent that this member may read (a worker thread: it reads)."""
        self.signed_in()
        chat = self.rooms.chat
        room = self.rooms.loader.locked_read(self.code)
        return chat.read_state(room.row.id, room.state, self.member, self.chat_sent)

    async def send_chat(self, room_id: int | None = None) -> None:
        """Send the chat lines this member may read that the socket has not sent yet (none: nothing sent).

        ``room_id`` (a socket opening): first ask whether the room has any line after those sent, from what this
        process knows (a read at most every few seconds a room, announcements at once), so that a reconnect storm
        of thousands of sockets does not read the chat once each."""
        if room_id is not None:
            known = self.rooms.chat.known_newest(room_id)
            if known is None:
                context = contextvars.copy_context()
                known = await asyncio.get_running_loop().run_in_executor(
                    _chat_readers(), context.run, self.rooms.chat.newest, room_id)
            if known <= self.chat_sent:
                return
        context = contextvars.copy_context()  # as asyncio.to_thread does: the request id goes along
        news = await asyncio.get_running_loop().run_in_executor(_chat_readers(), context.run, self.chat_since)
        async with self.send_lock:
            if self.closed or news["last"] <= self.chat_sent:
                return
            self.chat_sent = news["last"]
            if news["messages"]:
                await self.ws.send_json({"type": "chat", "messages": news["messages"], "muted": news["muted"]})

    async def chat_pushes(self, sub: Any) -> None:
        """Send this member's new chat lines whenever the hub announces the room's chat moved."""
        with contextlib.suppress(SessionEnded):
            while True:
                line = await sub.next_chat()
                if line <= self.chat_sent:
                    continue
                try:
                    await self.send_chat()
                except (SessionEnded, WebSocketDisconnect):
                    raise
                except Exception:
                    log.exception("chat push failed", extra={"room": self.code})

    async def pushes(self, sub: Any) -> None:
        """Send this member's view of every version the hub announces (one failed push never deafens it)."""
        with contextlib.suppress(SessionEnded):
            while True:
                announced = await sub.next_version()
                if not self.idle.is_set():
                    await self.idle.wait()
                if announced <= self.sent:  # skip versions this socket already has (its own replies)
                    continue
                try:
                    await self.send_state(announced=announced)
                except DBAPIError:  # the view could not be read (the database restarting): try again
                    self.app.state.metrics.database_errors.inc()
                    log.warning("push failed: database error; retrying", extra={"room": self.code})
                    asyncio.get_running_loop().call_later(PUSH_RETRY_SECONDS, sub.offer, announced)
                except (SessionEnded, WebSocketDisconnect):
                    raise
                except Exception:
                    log.exception("push failed", extra={"room": self.code})
        await self.session_over()

    # -- messages ------------------------------------------------------------------------------------------

    def limit(self, msg: dict[str, Any]) -> None:
        """Count a message that may write against its rate limit (``rate_limited`` when over)."""
        self.signed_in()
        if msg.get("type") in ACTION_MESSAGES:
            self.limiter.check("action", self.member_id, self.address)
        elif msg.get("type") == "chat":
            self.limiter.check("chat", self.member_id, self.address)

    def handle(self, msg: dict[str, Any], counted: bool = False) -> dict[str, Any] | StateReply:
        """A message that may write, on a worker thread (``counted``: :meth:`limit` has counted it already)."""
        if counted:
            self.signed_in()
        else:
            self.limit(msg)
        with observe_action(self.app, msg.get("type")):
            return handle_message(self.rooms, self.code, self.member, msg)

    async def handle_now(self, msg: dict[str, Any]) -> StateReply | None:
        """A move written right here on the event loop, when it can be without waiting for another thread (the
        room in memory at the move's version and not being written elsewhere; SQLite's write lock free, or a free
        PostgreSQL connection of the loop's, whose one statement is awaited): no hand-off to a worker thread and
        back, which cost a third of a heads-up move's CPU (issue 49, docs/scaling.md). On PostgreSQL the write path
        is the same code, run in a greenlet that awaits the statement (SQLAlchemy's ``greenlet_spawn``). None: it
        could not (nothing was written), and :meth:`handle` writes it on a worker thread."""
        self.limit(msg)
        start = time.perf_counter()
        try:
            if self.rooms.moves_awaited:
                # shielded: a socket closed mid-statement still keeps and pushes a move its database committed
                move = asyncio.ensure_future(greenlet_spawn(handle_message, self.rooms, self.code, self.member,
                                                            msg, True))
                move.add_done_callback(_retrieved)
                reply = await asyncio.shield(move)
            else:
                reply = handle_message(self.rooms, self.code, self.member, msg, True)
        except Busy:
            return None
        self.app.state.metrics.action_seconds.labels(msg["type"]).observe(time.perf_counter() - start)
        assert isinstance(reply, StateReply)
        return reply

    async def reply_to(self, text: str | None) -> dict[str, Any] | StateReply | None:
        """The answer to one client message; None when the socket has been closed for sending too much."""
        try:
            self.limiter.check("socket_message", self.member_id, self.address)
            msg = parse_message(text)
            if msg.get("type") == "ping":  # the keep-alive needs no thread
                return {"type": "pong"}
            if self.rooms.moves_now and msg.get("type") in NOW_MESSAGES:
                written = await self.handle_now(msg)
                if written is not None:
                    return written
                return await asyncio.to_thread(self.handle, msg, True)
            return await asyncio.to_thread(self.handle, msg)
        except RateLimited as exc:
            self.refused += 1
            if self.refused > MAX_REFUSED:
                await self.shut(exc, 1008)
                return None
            return _error(self.ws, exc)
        except TaiwanPokerError as exc:
            reply = _error(self.ws, exc)
            with contextlib.suppress(TaiwanPokerError):
                reply["state"] = await asyncio.to_thread(self.view, None)
            return reply
        except SessionEnded:
            raise
        except DBAPIError:  # the database did not answer: nothing was applied; the socket stays
            self.app.state.metrics.database_errors.inc()
            log.exception("socket message failed: database error", extra={"room": self.code})
            return _error(self.ws, TaiwanPokerError("the database is not answering", code="database_unavailable"))
        except Exception:
            log.exception("socket message failed", extra={"room": self.code})
            return _error(self.ws, TaiwanPokerError("unexpected server error", code="internal_error"))

    async def run(self, room_id: int) -> None:
        """Send the state, then push and answer until the socket closes or its session ends."""
        log.info("socket opened", extra={"room": self.code, "member": self.member_id})
        async with self.rooms.hub.subscribe(room_id) as sub:
            pusher = asyncio.create_task(self.pushes(sub))
            chatter = asyncio.create_task(self.chat_pushes(sub))
            try:
                await self.send_state()
                await self.send_chat(room_id)
                while not self.closed:
                    message = await self.ws.receive()
                    if message["type"] == "websocket.disconnect" or self.closed:
                        break
                    self.messages += 1
                    self.idle.clear()
                    try:
                        reply = await self.reply_to(message.get("text"))
                        if reply is None:
                            break
                        if isinstance(reply, StateReply) or reply.get("type") == "state":
                            await self.send_state(reply)
                        else:
                            await self.send(reply)
                            if reply.get("type") == "chat_sent":  # the writer's own line in their stream too
                                await self.send_chat()
                    finally:
                        self.idle.set()
            except SessionEnded:
                await self.session_over()
            except TaiwanPokerError as exc:  # the room cannot be shown at all (e.g. quarantined)
                await self.shut(exc, 1008)
            except WebSocketDisconnect:
                pass
            finally:
                if self.sock is not None:
                    self.registry.remove(self.sock)
                for task in (pusher, chatter):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
                log.info("socket closed", extra={"room": self.code, "member": self.member_id,
                                                 "messages": self.messages,
                                                 "seconds": round(time.monotonic() - self.started, 3)})


@router.websocket("/ws/rooms/{code}")
async def room_socket(ws: WebSocket, code: str) -> None:
    socket = RoomSocket(ws, code)
    room_id = await socket.open()
    if room_id is not None:
        await socket.run(room_id)
