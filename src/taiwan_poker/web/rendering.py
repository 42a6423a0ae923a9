"""Rendering a page with the shared layout: navigation, language, messages for the browser scripts.

The same templates directory, globals and base context as the factory's own
pages (language, the other language, ``t``, navigation, four-colour cookie,
the browser scripts' messages), so a page rendered here looks and behaves like
every other page.  ``extra_js_prefixes`` adds catalogue keys a page's script
needs beyond the shared ones; they go into a second, page-specific block.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from .. import __version__
from .build import build_id
from .i18n import card_aria, catalogue, t
from .state import lang_of

HERE = Path(__file__).parent
FOUR_COLOUR_COOKIE = "tp_fourcolour"
PAGES = ("home", "rules", "odds", "calculators", "lab", "practice")
PATHS = {"home": "/", "rules": "/rules", "odds": "/odds", "calculators": "/calculators", "lab": "/lab",
         "practice": "/practice"}
# Keys the browser scripts need (the pages themselves render everything else on the server).
JS_PREFIXES = ("js.", "card.", "rank.", "suit.", "street.", "category.", "error.", "target.", "lab.", "calc.",
               "practice.correct", "practice.wrong",
               "practice.score", "drill.", "verify.")
templates = Jinja2Templates(directory=HERE / "templates")
templates.env.globals["card_aria"] = card_aria
templates.env.globals["version"] = __version__
templates.env.globals["build"] = build_id()
# pages that need the server (tables, lobby, history, sign-in): they say so while the connection is down
OFFLINE_PAGE_NAMES = ("home", "rules", "odds", "calculators", "lab", "practice", "verify", "offline")
templates.env.globals["offline_pages"] = OFFLINE_PAGE_NAMES


def _script_json(data: dict[str, str]) -> str:
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


@cache
def js_messages(lang: str, prefixes: tuple[str, ...]) -> str:
    """The catalogue keys starting with ``prefixes`` as JSON safe to embed in a ``<script>`` block."""
    return _script_json({k: v for k, v in catalogue(lang).items() if k.startswith(prefixes)})


def render(request: Request, template: str, page: str, status_code: int = 200, *,
           extra_js_prefixes: tuple[str, ...] = (), **ctx: Any) -> HTMLResponse:
    """``template`` in the reader's language with the shared layout's context."""
    lang = lang_of(request)
    other = "en" if lang == "zh-TW" else "zh-TW"

    def tr(key: str, **params: Any) -> str:
        return t(lang, key, **params)

    return templates.TemplateResponse(request, template, {
        "lang": lang, "other_lang": other, "t": tr, "page": page, "paths": PATHS, "pages": PAGES,
        "four_colour": request.cookies.get(FOUR_COLOUR_COOKIE) == "1",
        "js_messages": js_messages(lang, JS_PREFIXES),
        "page_js_messages": js_messages(lang, extra_js_prefixes) if extra_js_prefixes else None,
        "path": request.url.path, **ctx,
    }, status_code=status_code)
