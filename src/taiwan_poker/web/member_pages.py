"""The member-room pages (會員桌): sign-in, lobby, the room table and its hand history.

The pages are server-rendered shells in the reader's language; what belongs to
the signed-in member (rooms, the table as that seat may see it, history) is
fetched by the page's script from the members' JSON API and WebSocket, so a
page never holds more than the member's own view.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..bots.levels import DEFAULT_LEVEL, LEVELS
from ..errors import TaiwanPokerError
from ..tables.limits import BOUNDS
from ..tables.schedules import structure_json
from .i18n import catalogue, t
from .members_api import optional_member
from .redirects import safe_next
from .rendering import render, templates
from .state import lang_of

router = APIRouter(include_in_schema=False)
MEMBER_JS = ("member.", "room.", "lobby.", "signin.", "history.", "action.", "coach.", "review.", "replay.", "export.",
             "mine.", "log.", "sng.")
GSI_CLIENT = "https://accounts.google.com/gsi/client"
_CODE = re.compile(r"^[A-Za-z0-9]{1,16}$")


def solo_options(lang: str) -> dict[str, Any]:
    """The "play against bots" form's choices: seats, decks and the bot levels named in ``lang``.

    The level names come from :data:`taiwan_poker.bots.levels.LEVELS` (one home for them); the one-line note
    under each is the catalogue's ``solo.note.<level>``. A template global, because the home page (rendered by
    the app factory) shows the same form as the lobby.
    """
    return {
        "seats": range(BOUNDS.seats_offered[0], BOUNDS.seats_offered[1] + 1), "default_seats": 2,
        "decks": range(BOUNDS.decks[0], BOUNDS.decks[1] + 1), "default_decks": BOUNDS.default_decks,
        "levels": [{"key": lv.key, "name": lv.zh if lang == "zh-TW" else lv.en, "note": t(lang, f"solo.note.{lv.key}"),
                    "default": lv.key == DEFAULT_LEVEL} for lv in LEVELS.values()],
    }


templates.env.globals["solo_options"] = solo_options


def sign_in_options(request: Request) -> dict[str, Any]:
    """Local sign-in or Google, from the server's settings (local when no Google client ID is configured)."""
    settings = getattr(request.app.state, "settings", None)
    client_id = getattr(settings, "google_client_id", None) or None
    local = bool(getattr(settings, "local_mode", client_id is None))
    return {"local_signin": local, "google_client_id": client_id}


def _page(request: Request, template: str, page: str, **ctx: Any) -> HTMLResponse:
    return render(request, template, page, extra_js_prefixes=MEMBER_JS, **ctx)


@router.get("/signin", response_class=HTMLResponse)
def signin_page(request: Request, next: str | None = None, error: str | None = None) -> HTMLResponse:
    """Sign-in; ``error`` is the code a failed Google sign-in comes back with (shown in the reader's language)."""
    opts = sign_in_options(request)
    lang = lang_of(request)
    message = t(lang, f"error.{error}") if error and f"error.{error}" in catalogue(lang) else None
    return _page(request, "signin.html", "signin", next_path=safe_next(next), gsi_client=GSI_CLIENT,
                 error_message=message, **opts)


@router.get("/lobby", response_class=HTMLResponse)
def lobby_page(request: Request) -> Response:
    member = optional_member(request)
    if member is None:
        return RedirectResponse("/signin?next=/lobby", status_code=303)
    settings = getattr(request.app.state, "settings", None)
    clock = getattr(settings, "action_clock_seconds", None) or BOUNDS.action_clock
    # a guest plays against bots only: the lobby shows them that, not the forms that would answer 403
    return _page(request, "lobby.html", "lobby", bounds=BOUNDS, clock=clock, guest=member.guest,
                 decks_choices=range(BOUNDS.decks[0], BOUNDS.decks[1] + 1),
                 seats_choices=range(BOUNDS.seats_offered[0], BOUNDS.seats_offered[1] + 1), sng=structure_json())


@router.get("/rooms/{code}", response_class=HTMLResponse)
def room_page(request: Request, code: str) -> HTMLResponse:
    code = code.upper() if _CODE.match(code) else ""
    return _page(request, "room.html", "room", code=code, bounds=BOUNDS)  # the chat's reactions and length


@router.get("/rooms/{code}/results", response_class=HTMLResponse)
def results_page(request: Request, code: str) -> HTMLResponse:
    """A sit-and-go's results, server-rendered so that the link can be shared (public information only)."""
    code = code.upper() if _CODE.match(code) else ""
    results = None
    if code:
        try:
            results = request.app.state.rooms.reads.results(code)
        except TaiwanPokerError:
            results = None
    return _page(request, "results.html", "results", code=code, results=results)


@router.get("/rooms/{code}/history", response_class=HTMLResponse)
def history_page(request: Request, code: str) -> HTMLResponse:
    code = code.upper() if _CODE.match(code) else ""
    return _page(request, "history.html", "history", code=code)
