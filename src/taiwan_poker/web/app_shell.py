"""The app on the phone (issue 48, point 3): the web app manifest, the service worker, the offline page and the
data the learning pages need offline; the build id that versions every cached file.

The build id is the package version plus a hash of every file the pages are made of (static files,
templates, message catalogues), so a deploy that changes any of them, with or without a new version number,
gets a new id. Pages load their scripts and styles as ``?v=<build>``, every HTTP response says the build it
was made by (``X-TP-Build``), and the service worker's cache is named after it (``docs/hosting.md``,
"The app on the phone", says how the pieces fit).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..trainer import scenarios as sc
from ..trainer.drills import generate_drill
from . import views
from .build import build_id
from .i18n import LANGS, t
from .rendering import render

HERE = Path(__file__).parent
BUILD_HEADER = "X-TP-Build"
# the pages that work offline (their HTML is cached by the service worker) and the odds page's deck choices
OFFLINE_PAGES = ("/", "/rules", "/odds", "/calculators", "/lab", "/practice", "/verify", "/offline")
ODDS_DECKS = (1, 2, 3, 4, 5, 6)
# the scripts, styles and images those pages load
OFFLINE_ASSETS = ("css/app.css", "js/app.js", "js/core.js", "js/solo.js", "js/lab.js", "js/practice.js",
                  "js/calculators.js", "js/offline.js", "js/verify.js", "js/fairness.js", "img/favicon.svg",
                  "img/icon-192.png", "img/icon-512.png",
                  "img/icon-maskable-512.png")
DRILL_POOL = 60  # drills the practice room can deal offline (seeds 0..59), both languages
router = APIRouter(include_in_schema=False)


def precache_urls() -> list[str]:
    """Everything the service worker fetches when it installs: the offline pages, their files, the drills."""
    build = build_id()
    pages = [*OFFLINE_PAGES, *(f"/odds?decks={d}" for d in ODDS_DECKS if d != 2)]
    return [*pages, *(f"/static/{a}?v={build}" for a in OFFLINE_ASSETS), "/manifest.webmanifest",
            f"/offline-data/practice.json?v={build}"]


class BuildHeader:
    """Adds ``X-TP-Build`` to every HTTP response: a page's scripts compare it with their own build."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.value = build_id()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_build(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).setdefault(BUILD_HEADER, self.value)
            await send(message)

        await self.app(scope, receive, send_with_build)


@router.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: installable from Chrome on Android, opening full screen."""
    body = {
        "id": "/",
        "name": f"{t('zh-TW', 'app.name')} {t('en', 'app.name')}",
        "short_name": t("zh-TW", "app.name"),
        "description": f"{t('zh-TW', 'home.tagline')} — {t('en', 'home.tagline')}",
        "lang": "zh-TW",
        "start_url": "/",
        "scope": "/",
        "display": "fullscreen",
        "display_override": ["fullscreen", "standalone"],
        "orientation": "any",
        "background_color": "#0d5c3f",
        "theme_color": "#0d5c3f",
        "categories": ["games", "education"],
        "icons": [
            {"src": f"/static/img/icon-192.png?v={build_id()}", "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": f"/static/img/icon-512.png?v={build_id()}", "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
            {"src": f"/static/img/icon-maskable-512.png?v={build_id()}", "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    return JSONResponse(body, media_type="application/manifest+json", headers={"Cache-Control": "no-cache"})


@cache
def _service_worker() -> str:
    source = (HERE / "static" / "js" / "sw.js").read_text(encoding="utf-8")
    return (source.replace('"__BUILD__"', json.dumps(build_id()))
            .replace('"__PRECACHE__"', json.dumps(precache_urls()))
            .replace('"__OFFLINE_PAGES__"', json.dumps([*OFFLINE_PAGES])))


@router.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so that its scope is the whole site; never cached by HTTP, so the browser
    sees a new build at once (its bytes carry the build id)."""
    return Response(_service_worker(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@router.get("/offline", response_class=HTMLResponse)
def offline_page(request: Request) -> HTMLResponse:
    """What a page that needs the server shows when there is no connection (served by the service worker)."""
    return render(request, "offline.html", "offline")


@cache
def practice_data() -> dict[str, Any]:
    """The practice room offline: the scenarios with their answers and explanations, and a pool of drills with
    theirs, in both languages (online, the server grades and keeps the answers to itself)."""
    out: dict[str, Any] = {}
    for lang in LANGS:
        scenarios = []
        for s in sc.scenarios():
            scenarios.append({"id": s.id, "answer": s.correct,
                              "answer_label": t(lang, f"practice.{s.id}.choice.{s.correct}"),
                              "explanation": views.explanation(lang, s)})
        drills = []
        for seed in range(DRILL_POOL):
            d = generate_drill(seed)
            drills.append({**views.drill_json(lang, d), "answer": views.fraction_json(d.answer),
                           "explanation": views.drill_explanation(lang, d)})
        out[lang] = {"scenarios": scenarios, "drills": drills}
    return out


@router.get("/offline-data/practice.json")
def offline_practice() -> JSONResponse:
    return JSONResponse(practice_data(), headers={"Cache-Control": "no-cache"})
