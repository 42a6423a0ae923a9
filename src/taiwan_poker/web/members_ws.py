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
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..errors import TaiwanPokerError
from ..rooms.service import RoomService
from ..store.models import Member
from .i18n import LANG_COOKIE, error_message, negotiate
from .members_api import SESSION_COOKIE, act_json

router = APIRouter()
log = logging.getLogger("taiwan_poker.web.ws")
MAX_MESSAGE = 4096


def _origin_ok(ws: WebSocket) -> bool:
    """Browsers send Origin; it must be this server (cross-site WebSocket hijacking guard)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host")


def _error(ws: WebSocket, exc: TaiwanPokerError) -> dict[str, Any]:
    lang = negotiate(ws.query_params.get("lang"), ws.cookies.get(LANG_COOKIE), ws.headers.get("accept-language"))
    return {"type": "error", "error": {"code": exc.code, "message": error_message(lang, exc)}}


def parse_message(text: str) -> dict[str, Any]:
    """A client message as a JSON object, or ``bad_message`` (cheap: runs on the event loop)."""
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


@router.websocket("/ws/rooms/{code}")
async def room_socket(ws: WebSocket, code: str) -> None:
    rooms: RoomService = ws.app.state.rooms
    if not _origin_ok(ws):
        await ws.close(code=1008)
        return
    member = await asyncio.to_thread(ws.app.state.session_cache.member, ws.cookies.get(SESSION_COOKIE))
    await ws.accept()
    try:
        room_id = await asyncio.to_thread(rooms.room_id, code)
    except TaiwanPokerError as exc:
        await ws.send_json(_error(ws, exc))
        await ws.close(code=1008)
        return
    sent = -1
    send_lock = asyncio.Lock()

    async def send_state(reply: dict[str, Any] | None = None, announced: int | None = None) -> None:
        """Send a state (a push, or an action's reply); never an older version than already sent."""
        nonlocal sent
        if reply is not None:
            state = reply["state"]
        elif announced is not None:
            state = await asyncio.to_thread(rooms.state_at, code, member, announced)
        else:
            state = await asyncio.to_thread(rooms.state, code, member)
        if reply is None and state["version"] <= sent:
            return
        if reply is not None and state["version"] < sent:
            reply = {**reply, "state": await asyncio.to_thread(rooms.state, code, member)}
            state = reply["state"]
        async with send_lock:
            if reply is None and state["version"] <= sent:
                return
            sent = max(sent, state["version"])
            await ws.send_json(reply if reply else {"type": "state", "state": state})

    async with rooms.hub.subscribe(room_id) as sub:

        async def pushes() -> None:
            while True:
                announced = await sub.next_version()
                if announced > sent:  # skip versions this socket already has (its own replies)
                    await send_state(announced=announced)

        pusher = asyncio.create_task(pushes())
        try:
            await send_state()
            while True:
                text = await ws.receive_text()
                try:
                    msg = parse_message(text)
                    reply: dict[str, Any] = {"type": "pong"}
                    if msg.get("type") != "ping":  # the keep-alive needs no thread
                        reply = await asyncio.to_thread(handle_message, rooms, code, member, msg)
                except TaiwanPokerError as exc:
                    reply = _error(ws, exc)
                    with contextlib.suppress(TaiwanPokerError):
                        reply["state"] = await asyncio.to_thread(rooms.state, code, member)
                if reply.get("type") == "state":
                    await send_state(reply)
                else:
                    async with send_lock:
                        await ws.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pusher
