"""The learning pages (home, rules, odds, calculators, lab, practice), the language switch and the API docs."""

from __future__ import annotations

import html

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from .. import __version__
from ..evaluate import CATEGORIES
from ..trainer import scenarios as sc
from . import odds_page, views
from .i18n import LANG_COOKIE, normalise
from .redirects import safe_next
from .rendering import render
from .state import lang_of

router = APIRouter(include_in_schema=False)

DOCS_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{title}</title>
<link rel="stylesheet" href="/static-docs/swagger-ui.css">
<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">
</head>
<body>
<div id="swagger-ui" data-openapi-url="{openapi_url}"></div>
<script src="/static-docs/swagger-ui-bundle.js"></script>
<script src="/static/js/docs.js?v={version}"></script>
</body>
</html>
"""


@router.get("/docs")
def api_docs(request: Request) -> HTMLResponse:
    """The OpenAPI docs, served from this server (no CDN: the docs work offline)."""
    app = request.app
    # no inline script (the Content-Security-Policy forbids it): /static/js/docs.js starts Swagger UI
    return HTMLResponse(DOCS_HTML.format(title=html.escape(f"{app.title} — API"),
                                         openapi_url=html.escape(app.openapi_url or "/openapi.json"),
                                         version=__version__))


@router.get("/", response_class=HTMLResponse)
def home_page(request: Request) -> HTMLResponse:
    return render(request, "home.html", "home")

@router.get("/rules", response_class=HTMLResponse)
def rules_page(request: Request) -> HTMLResponse:
    return render(request, "rules.html", "rules", rules=views.rules_json(lang_of(request)))

@router.get("/odds", response_class=HTMLResponse)
def odds_view(request: Request, decks: str = "2") -> HTMLResponse:
    d = int(decks) if decks.isdigit() and int(decks) in odds_page.ODDS_DECKS else 2
    return render(request, "odds.html", "odds", decks=d, five=odds_page.category_table(5),
                  seven=odds_page.category_table(7), starting=odds_page.starting_table(),
                  heat=odds_page.heat_map(d), categories=[c.value for c in CATEGORIES])

@router.get("/calculators", response_class=HTMLResponse)
def calculators_page(request: Request) -> HTMLResponse:
    return render(request, "calculators.html", "calculators")

@router.get("/verify", response_class=HTMLResponse)
def verify_page(request: Request) -> HTMLResponse:
    """Check an exported hand's or match's cards against the shoe committed before the deal, in the browser."""
    return render(request, "verify.html", "verify")

@router.get("/lab", response_class=HTMLResponse)
def lab_page(request: Request) -> HTMLResponse:
    return render(request, "lab.html", "lab")

@router.get("/practice", response_class=HTMLResponse)
def practice_page(request: Request) -> HTMLResponse:
    lang = lang_of(request)
    return render(request, "practice.html", "practice",
                  scenarios=[views.scenario_json(lang, s) for s in sc.scenarios()])

@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> RedirectResponse:
    lang = normalise(code) or "zh-TW"
    response = RedirectResponse(safe_next(next, "/"), status_code=303)
    response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


@router.get("/favicon.ico")
def favicon() -> RedirectResponse:
    return RedirectResponse("/static/img/favicon.svg", status_code=308)
