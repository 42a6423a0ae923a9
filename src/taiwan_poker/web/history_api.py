"""Learning from played hands over HTTP: the member's hands and numbers, text/JSON exports, share links.

Exports and hand JSON hold only what the caller's seat saw (``hand_events``,
``view``); a share link's replay holds public information only (a spectator's
view: the board, the actions, hands shown at showdown).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response

from ..history.exports import Format
from ..history.hand_stats import session_stats
from ..history.played import filter_hands
from ..rooms.reads import RoomReads
from ..rooms.service import RoomError
from . import history_pages
from .error_model import ERROR_RESPONSES
from .members_api import Csrf, MemberDep, OptionalMember, rate_limit
from .numbers import HandPath

router = APIRouter(responses=ERROR_RESPONSES)
router.include_router(history_pages.router)
TEXT_MEDIA = "text/plain; charset=utf-8"
TEXT_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {"description": "PokerStars-style text", "content": {"text/plain": {"schema": {"type": "string"}}}},
}
PHH_MEDIA = "application/x-phh; charset=utf-8"  # TOML text; pokerkit's HandHistory.loads reads it
PHH_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {"description": "PHH (TOML text)", "content": {"application/x-phh": {"schema": {"type": "string"}}}},
}
Result = Literal["won", "lost", "even"]


def _reads(request: Request) -> RoomReads:
    reads: RoomReads = request.app.state.rooms.reads
    return reads


def my_hands(request: Request, member: Any, table: str | None, since: dt.date | None, until: dt.date | None,
             result: str | None) -> dict[str, Any]:
    """The member's hands and numbers, filtered; ``tables``: every table they played at (for the filter)."""
    every = _reads(request).played_hands(member)
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


def _download(request: Request, code: str, member: Any, hand_no: int | None, fmt: Format) -> Response:
    """One hand or the whole table as a file, with only the cards the caller may see."""
    body = _reads(request).export_text(code, member, fmt, hand_no)
    name = code.upper() + (f"-{hand_no}" if hand_no is not None else "")
    media = PHH_MEDIA if fmt is Format.PHH else TEXT_MEDIA
    return Response(body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}.{fmt}"'})


@router.get("/api/rooms/{code}/hands.phh", tags=["rooms"], responses=PHH_RESPONSE)
def match_phh_export(request: Request, code: str, member: OptionalMember) -> Response:
    """Every hand of the table in PHH (pokerkit's hand-history format), with only the cards you may see."""
    return _download(request, code, member, None, Format.PHH)


@router.get("/api/rooms/{code}/hands/{hand_no}.phh", tags=["rooms"], responses=PHH_RESPONSE)
def hand_phh_export(request: Request, code: str, hand_no: HandPath, member: OptionalMember) -> Response:
    """One hand in PHH, with only the cards you may see (others' are ``????``)."""
    return _download(request, code, member, hand_no, Format.PHH)


@router.get("/api/rooms/{code}/hands.txt", tags=["history"], responses=TEXT_RESPONSE)
def match_text_export(request: Request, code: str, member: OptionalMember) -> Response:
    """Every hand of the table as PokerStars-style text, with only the cards you may see."""
    return _download(request, code, member, None, Format.TEXT)


@router.get("/api/rooms/{code}/hands/{hand_no}.txt", tags=["history"], responses=TEXT_RESPONSE)
def hand_text_export(request: Request, code: str, hand_no: HandPath, member: OptionalMember) -> Response:
    """One hand as PokerStars-style text, with only the cards you may see."""
    return _download(request, code, member, hand_no, Format.TEXT)


@router.get("/api/rooms/{code}/hands.json", tags=["history"])
def match_json_export(request: Request, code: str, member: OptionalMember) -> dict[str, Any]:
    """Every hand of the table as you saw it (final view and events), for tools."""
    return _reads(request).export_json(code, member)


@router.get("/api/rooms/{code}/hands/{hand_no}.json", tags=["history"])
def hand_json_export(request: Request, code: str, hand_no: HandPath, member: OptionalMember) -> dict[str, Any]:
    """One hand as you saw it: the final view, every event (hidden ones as their version only), names, rules."""
    return _reads(request).export_json(code, member, hand_no)


@router.get("/api/rooms/{code}/hands/{hand_no}/review", tags=["rooms"])
def hand_review(request: Request, code: str, hand_no: HandPath, member: MemberDep) -> dict[str, Any]:
    """Your decisions in a finished hand: equity, price and a mark for each; the all-in EV where it applies."""
    return _reads(request).review(code, member, hand_no)


@router.get("/api/rooms/{code}/history", tags=["rooms"])
def history(request: Request, code: str, member: OptionalMember) -> dict[str, Any]:
    """Every hand of the room as the caller may see it."""
    return {"hands": _reads(request).history(code, member)}


@router.post("/api/rooms/{code}/hands/{hand_no}/share", tags=["history"],
             dependencies=[Csrf, rate_limit("seat")])
def share_hand(request: Request, code: str, hand_no: HandPath, member: MemberDep) -> dict[str, str]:
    """A link to the hand's public replay (board, actions, hands shown at showdown; never a private card)."""
    return {"url": f"/share/{_reads(request).share(code, member, hand_no)}"}


@router.get("/api/share/{token}", tags=["history"])
def shared(request: Request, token: str) -> dict[str, Any]:
    """A shared hand's public replay: the board, the actions and the hands shown at showdown only."""
    return _reads(request).shared(token)
