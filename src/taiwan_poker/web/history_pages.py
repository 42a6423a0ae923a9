"""Pages for learning from played hands: the member's history (numbers and match chart), a hand's replayer with its
review and downloads, and a shared hand's public replay.

The chart and the numbers are drawn on the server; the hand list, the
replayer and the review are fetched by the page's script from the JSON API,
so a page holds no more than the member's own view (or, shared, the public one).
"""

from __future__ import annotations

import datetime as dt
import re

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..history.chart import match_chart
from ..history.hand_stats import session_stats
from ..history.played import filter_hands
from .i18n import t
from .member_pages import MEMBER_JS
from .members_api import optional_member
from .numbers import HandPath
from .rendering import render
from .state import lang_of

router = APIRouter(include_in_schema=False)
PAGE_JS = MEMBER_JS
_CODE = re.compile(r"^[A-Za-z0-9]{1,16}$")
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
RESULTS = ("won", "lost", "even")


def _day(raw: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(raw) if raw else None
    except ValueError:
        return None


def _percent(share: float | None) -> str:
    return "–" if share is None else f"{100 * share:.0f} %"


@router.get("/history", response_class=HTMLResponse)
def my_history_page(request: Request, table: str = "", since: str = "", until: str = "", result: str = ""
                    ) -> Response:
    """Every hand the member played, with their numbers and the match chart (filters in the query)."""
    member = optional_member(request)
    if member is None:
        return RedirectResponse("/signin?next=/history", status_code=303)
    lang = lang_of(request)
    code = table.upper() if _CODE.match(table) else ""
    start, end, outcome = _day(since), _day(until), result if result in RESULTS else ""
    every = request.app.state.rooms.reads.played_hands(member)
    hands = filter_hands(every, code or None, start, end, outcome or None)
    stats = session_stats([h.stats for h in hands])
    chart = match_chart([h.stats.net for h in hands], [h.ev_net for h in hands], title=t(lang, "mine.chart_title"),
                        chips_label=t(lang, "mine.chart_chips"), ev_label=t(lang, "mine.chart_ev"),
                        hands_label=t(lang, "mine.chart_hands")) if hands else None
    query = {"table": code, "since": start.isoformat() if start else "", "until": end.isoformat() if end else "",
             "result": outcome}
    return render(request, "my_history.html", "history", extra_js_prefixes=PAGE_JS, stats=stats,
                  vpip=_percent(stats.vpip), pfr=_percent(stats.pfr), chart=chart,
                  tables=sorted({h.code for h in every}), filters=query, results=RESULTS)


@router.get("/rooms/{code}/hands/{hand_no}", response_class=HTMLResponse)
def replay_page(request: Request, code: str, hand_no: HandPath) -> HTMLResponse:
    """One hand, street by street, as the member saw it; their review and downloads."""
    code = code.upper() if _CODE.match(code) else ""
    return render(request, "replay.html", "history", extra_js_prefixes=PAGE_JS, code=code, hand_no=hand_no,
                  token="")


@router.get("/share/{token}", response_class=HTMLResponse)
def shared_page(request: Request, token: str) -> HTMLResponse:
    """A shared hand's public replay (board, actions and hands shown at showdown only)."""
    return render(request, "replay.html", "history", extra_js_prefixes=PAGE_JS, code="", hand_no=0,
                  token=token if _TOKEN.match(token) else "")
