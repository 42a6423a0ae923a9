"""The room WebSocket: pushes each member's own view whenever the room changes, and takes actions.

On connect the server sends ``{"type": "state", "state": ...}``; after that a
new state whenever the room's version moves (announced by the hub; the view
itself is computed for this member only).  The client may send ``action``,
``timeout``, ``next`` and ``ping`` messages; a bad message gets an ``error``
message with the current state, and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Coroutine
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import DBAPIError

from ..errors import TaiwanPokerError
from ..rooms.service import RoomService
from ..store import repo
from ..store.models import Member
from .code_guessing import count_miss
from .i18n import LANG_COOKIE, error_message, negotiate
from .members_api import SESSION_COOKIE, act_json
from .metrics import observe_action
from .rate_limits import RateLimited, RateLimiter
from .socket_registry import OpenSocket, SocketRegistry, session_key

router = APIRouter()
log = logging.getLogger("taiwan_poker.web.ws")
MAX_MESSAGE = 4096  # characters of one client message (the server's frame cap is ``WS_MAX_BYTES``)
WS_MAX_BYTES = 64 * 1024  # uvicorn refuses larger frames before they reach the app (close 1009)
MAX_REFUSED = 50  # rate-limited messages a socket may send before it is closed
SESSION_RECHECK_SECONDS = 15.0  # how often the server asks which open sockets' sessions still live
ACTION_MESSAGES = frozenset({"action", "timeout", "next"})
PUSH_RETRY_SECONDS = 1.0  # a push whose view could not be read (database restarting) is tried again after this


def _origin_ok(ws: WebSocket) -> bool:
    """Browsers send Origin; it must be this server (cross-site WebSocket hijacking guard)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host")


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


def handle_message(rooms: RoomService, code: str, member: Member | None, msg: dict[str, Any]) -> dict[str, Any]:
    """One parsed client message other than a ping → the reply (runs in a worker thread: it may write)."""
    kind = msg.get("type")
    if member is None:
        raise TaiwanPokerError("sign in first", code="signin_required")
    if kind == "action":
        return {"type": "state", **act_json(rooms.act(code, member, msg.get("action"), msg.get("version"),
                                                      msg.get("key")))}
    if kind == "timeout":
        return {"type": "state", **act_json(rooms.timeout(code, member, msg.get("version")))}
    if kind == "next":
        return {"type": "state", **act_json(rooms.next_hand(code, member, msg.get("version")))}
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


@router.websocket("/ws/rooms/{code}")
async def room_socket(ws: WebSocket, code: str) -> None:
    app = ws.app
    rooms: RoomService = app.state.rooms
    if not _origin_ok(ws):
        await ws.close(code=1008)
        return
    token = ws.cookies.get(SESSION_COOKIE)
    cache = app.state.session_cache
    address = ws.client.host if ws.client else "unknown"
    await ws.accept()  # the handshake first: under a reconnect storm, clients must not time out waiting for it
    started = time.monotonic()
    member: Member | None = await asyncio.to_thread(cache.member, token)
    member_id = member.id if member is not None else None
    limiter: RateLimiter = app.state.rate_limiter
    try:
        limiter.check("socket_open", member_id, address)
        room_id = await asyncio.to_thread(rooms.loader.room_id, code)
    except TaiwanPokerError as exc:
        if exc.code == "room_not_found":
            count_miss(limiter, address)
        await ws.send_json(_error(ws, exc))
        await ws.close(code=1008)
        return
    closed = False
    sent = -1
    send_lock = asyncio.Lock()
    loop = asyncio.get_running_loop()
    background: set[asyncio.Task[None]] = set()

    sock = OpenSocket(member_id, session_key(token) if member is not None else None, address, loop, lambda: end())

    def signed_in() -> None:
        """The session this socket was opened with still holds (the registry marks it when it ends)."""
        if sock.ended:
            raise SessionEnded

    async def send(message: dict[str, Any]) -> None:
        async with send_lock:
            if not closed:
                await ws.send_json(message)

    async def shut(exc: TaiwanPokerError, close_code: int) -> None:
        """Say why, then close; nothing is sent after this."""
        nonlocal closed
        async with send_lock:
            if closed:
                return
            closed = True
            with contextlib.suppress(Exception):
                await ws.send_json(_error(ws, exc))
                await ws.close(code=close_code)
        log.info("socket closed by the server", extra={"room": code, "reason": exc.code})

    def session_over() -> Coroutine[Any, Any, None]:
        return shut(TaiwanPokerError("your session has ended; sign in again", code="session_ended"), 4401)

    def end() -> None:  # the registry calls this on our loop when the session ends elsewhere in this process
        task = loop.create_task(session_over())
        background.add(task)
        task.add_done_callback(background.discard)

    registry: SocketRegistry = app.state.sockets
    try:
        registry.add(sock)
    except TaiwanPokerError as exc:
        await shut(exc, 1008)
        return

    def view(announced: int | None) -> dict[str, Any]:
        signed_in()
        if announced is None:
            return rooms.reads.state(code, member)
        return rooms.reads.state_at(code, member, announced)

    def handle(msg: dict[str, Any]) -> dict[str, Any]:
        signed_in()
        if msg.get("type") in ACTION_MESSAGES:
            limiter.check("action", member_id, address)
        with observe_action(app, msg.get("type")):
            return handle_message(rooms, code, member, msg)

    def quick_view(announced: int) -> dict[str, Any] | None:
        """A push's view straight from the room cache, on the event loop; None when it needs a thread."""
        signed_in()
        return rooms.reads.cached_view(code, member, announced)

    async def send_state(reply: dict[str, Any] | None = None, announced: int | None = None) -> None:
        """Send a state (a push, or an action's reply); never an older version than already sent."""
        nonlocal sent
        if reply is not None:
            state = reply["state"]
        else:
            quick = quick_view(announced) if announced is not None else None
            state = quick if quick is not None else await asyncio.to_thread(view, announced)
        if reply is None and state["version"] <= sent:
            return
        if reply is not None and state["version"] < sent:
            reply = {**reply, "state": await asyncio.to_thread(view, None)}
            state = reply["state"]
        async with send_lock:
            if closed or (reply is None and state["version"] <= sent):
                return
            sent = max(sent, state["version"])
            await ws.send_json(reply if reply else {"type": "state", "state": state})

    messages = refused = 0
    log.info("socket opened", extra={"room": code, "member": member_id})
    async with rooms.hub.subscribe(room_id) as sub:

        async def pushes() -> None:
            with contextlib.suppress(SessionEnded):
                while True:
                    announced = await sub.next_version()
                    if announced <= sent:  # skip versions this socket already has (its own replies)
                        continue
                    try:
                        await send_state(announced=announced)
                    except DBAPIError:  # the view could not be read (the database restarting): try again
                        app.state.metrics.database_errors.inc()
                        log.warning("push failed: database error; retrying", extra={"room": code})
                        asyncio.get_running_loop().call_later(PUSH_RETRY_SECONDS, sub.offer, announced)
                    except (SessionEnded, WebSocketDisconnect):
                        raise
                    except Exception:  # one failed push must not leave the socket deaf to the next
                        log.exception("push failed", extra={"room": code})
            await session_over()

        pusher = asyncio.create_task(pushes())
        try:
            await send_state()
            while not closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect" or closed:
                    break
                messages += 1
                try:
                    limiter.check("socket_message", member_id, address)
                    msg = parse_message(message.get("text"))
                    reply: dict[str, Any] = {"type": "pong"}
                    if msg.get("type") != "ping":  # the keep-alive needs no thread
                        reply = await asyncio.to_thread(handle, msg)
                except RateLimited as exc:
                    refused += 1
                    if refused > MAX_REFUSED:
                        await shut(exc, 1008)
                        break
                    reply = _error(ws, exc)
                except TaiwanPokerError as exc:
                    reply = _error(ws, exc)
                    with contextlib.suppress(TaiwanPokerError):
                        reply["state"] = await asyncio.to_thread(view, None)
                except SessionEnded:
                    raise
                except DBAPIError:  # the database did not answer: nothing was applied; the socket stays
                    app.state.metrics.database_errors.inc()
                    log.exception("socket message failed: database error", extra={"room": code})
                    reply = _error(ws, TaiwanPokerError("the database is not answering", code="database_unavailable"))
                except Exception:
                    log.exception("socket message failed", extra={"room": code})
                    reply = _error(ws, TaiwanPokerError("unexpected server error", code="internal_error"))
                if reply.get("type") == "state":
                    await send_state(reply)
                else:
                    await send(reply)
        except SessionEnded:
            await session_over()
        except TaiwanPokerError as exc:  # the room cannot be shown at all (e.g. quarantined)
            await shut(exc, 1008)
        except WebSocketDisconnect:
            pass
        finally:
            registry.remove(sock)
            pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pusher
            log.info("socket closed", extra={"room": code, "member": member_id, "messages": messages,
                                             "seconds": round(time.monotonic() - started, 3)})
