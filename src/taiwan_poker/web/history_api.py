"""Learning from played hands over HTTP: the member's hands and numbers, text/JSON exports, share links.

Exports and hand JSON hold only what the caller's seat saw (``hand_events``,
``view``); a share link's replay holds public information only (a spectator's
view: the board, the actions, hands shown at showdown).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response

from ..history.hand_stats import session_stats
from ..history.hand_text import hand_text, match_text
from ..rooms.service import RoomError, RoomService
from ..store import repo
from ..store.shares import share_token, shared_hand
from ..tables.views import hand_events, names_in_hand
from . import history_pages
from .error_model import ERROR_RESPONSES
from .history_reads import filter_hands, hand_index, hand_json, played_hands, public_hand_json, table_state
from .members_api import Csrf, MemberDep, OptionalMember, rate_limit

router = APIRouter(responses=ERROR_RESPONSES)
router.include_router(history_pages.router)
TEXT_MEDIA = "text/plain; charset=utf-8"
TEXT_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {"description": "PokerStars-style text", "content": {"text/plain": {"schema": {"type": "string"}}}},
}
Result = Literal["won", "lost", "even"]


def _rooms(request: Request) -> RoomService:
    rooms: RoomService = request.app.state.rooms
    return rooms


def my_hands(request: Request, member: Any, table: str | None, since: dt.date | None, until: dt.date | None,
             result: str | None) -> dict[str, Any]:
    """The member's hands and numbers, filtered; ``tables``: every table they played at (for the filter)."""
    every = played_hands(_rooms(request), member)
    hands = filter_hands(every, table, since, until, result)
    return {"hands": [h.to_json() for h in hands], "stats": session_stats([h.stats for h in hands]).to_json(),
            "tables": sorted({h.code for h in every})}


Day = Annotated[str | None, Query(pattern=r"^\d{4}-\d{2}-\d{2}$", description="a UTC day, YYYY-MM-DD")]


def _day(raw: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(raw) if raw else None
    except ValueError:
        raise RoomError(f"{raw!r} is not a day (YYYY-MM-DD)", code="bad_date") from None


@router.get("/api/me/hands", tags=["history"])
def member_hands(request: Request, member: MemberDep, table: str | None = None, since: Day = None,
                 until: Day = None, result: Result | None = None) -> dict[str, Any]:
    """Every finished hand you played at any table, oldest first, filtered by table, date (UTC days) and result;
    with your numbers over them (hands, VPIP, PFR, showdowns won)."""
    return my_hands(request, member, table, _day(since), _day(until), result)


def _text(request: Request, code: str, member: Any, hand_no: int | None) -> str:
    _, state = table_state(_rooms(request), code)
    indices = [hand_index(state, hand_no)] if hand_no is not None else list(range(len(state.hands)))
    me = member.id if member is not None else None
    rules = state.rules
    texts = [hand_text(hand_events(state, me, i), names=names_in_hand(state, i), small_blind=rules.small_blind,
                       big_blind=rules.big_blind, decks=rules.decks, table=code.upper(),
                       hand_no=state.hands[i].hand_no, viewer=state.seat_in_hand(me, i)) for i in indices]
    return match_text(texts)


def _download(body: str, media: str, name: str) -> Response:
    return Response(body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/rooms/{code}/hands.txt", tags=["history"], responses=TEXT_RESPONSE)
def match_text_export(request: Request, code: str, member: OptionalMember) -> Response:
    """Every hand of the table as PokerStars-style text, with only the cards you may see."""
    return _download(_text(request, code, member, None), TEXT_MEDIA, f"{code.upper()}.txt")


@router.get("/api/rooms/{code}/hands/{hand_no}.txt", tags=["history"], responses=TEXT_RESPONSE)
def hand_text_export(request: Request, code: str, hand_no: int, member: OptionalMember) -> Response:
    """One hand as PokerStars-style text, with only the cards you may see."""
    return _download(_text(request, code, member, hand_no), TEXT_MEDIA, f"{code.upper()}-{hand_no}.txt")


@router.get("/api/rooms/{code}/hands.json", tags=["history"])
def match_json_export(request: Request, code: str, member: OptionalMember) -> dict[str, Any]:
    """Every hand of the table as you saw it (final view and events), for tools."""
    _, state = table_state(_rooms(request), code)
    me = member.id if member is not None else None
    return {"table": code.upper(), "hands": [hand_json(state, code, me, i) for i in range(len(state.hands))]}


@router.get("/api/rooms/{code}/hands/{hand_no}.json", tags=["history"])
def hand_json_export(request: Request, code: str, hand_no: int, member: OptionalMember) -> dict[str, Any]:
    """One hand as you saw it: the final view, every event (hidden ones as their version only), names, rules."""
    _, state = table_state(_rooms(request), code)
    return hand_json(state, code, member.id if member is not None else None, hand_index(state, hand_no))


@router.post("/api/rooms/{code}/hands/{hand_no}/share", tags=["history"],
             dependencies=[Csrf, rate_limit("seat")])
def share_hand(request: Request, code: str, hand_no: int, member: MemberDep) -> dict[str, str]:
    """A link to the hand's public replay (board, actions, hands shown at showdown; never a private card)."""
    room_id, state = table_state(_rooms(request), code)
    index = hand_index(state, hand_no)
    if state.seat_in_hand(member.id, index) is None:
        raise RoomError("you did not play this hand", code="not_seated")
    if not state.hands[index].complete:
        raise RoomError("the hand is still being played", code="hand_in_progress")
    return {"url": f"/share/{share_token(_rooms(request).db.engine, room_id, hand_no)}"}


def shared_json(rooms: RoomService, token: str) -> dict[str, Any]:
    """The public replay of a shared hand, or ``hand_not_found`` (404)."""
    found = shared_hand(rooms.db.engine, token) if 8 <= len(token) <= 64 else None
    if found is None:
        raise RoomError("no shared hand with this link", code="hand_not_found")
    room_id, hand_no = found
    row = repo.room_row(rooms.db.engine, room_id)
    if row is None:
        raise RoomError("no shared hand with this link", code="hand_not_found")
    _, state = table_state(rooms, row.code)
    return public_hand_json(state, row.code, hand_index(state, hand_no))


@router.get("/api/share/{token}", tags=["history"])
def shared(request: Request, token: str) -> dict[str, Any]:
    """A shared hand's public replay: the board, the actions and the hands shown at showdown only."""
    return shared_json(_rooms(request), token)
