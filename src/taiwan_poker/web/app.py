"""The web app factory: pages, the JSON API, static files, language and error handling."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import html
import logging
import math
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..auth.google import GoogleTokenVerifier
from ..errors import TaiwanPokerError
from ..evaluate import CATEGORIES
from ..rooms.bus import PushBus
from ..rooms.hub import RoomHub
from ..rooms.service import RoomService
from ..store.db import Database
from ..store.shared_database import InstanceClaim
from ..store.single_process import SECOND_PROCESS_WARNING, SqliteClaim
from ..trainer import scenarios as sc
from ..trainer.lab import LabHand
from . import history_api, member_pages, members_api, members_ws, odds_page, views
from .api import router as api_router
from .body_limit import BodyLimit
from .code_guessing import CodeGuessGuard, count_miss
from .config import Settings
from .error_registry import status_of
from .heap import HeapKeeper
from .i18n import LANG_COOKIE, error_message, normalise, t
from .jobs import JobRunner
from .metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from .metrics import Metrics
from .rate_limits import RateLimiter
from .redirects import safe_next
from .rendering import render
from .request_context import RequestContext
from .security_headers import SecurityHeadersMiddleware
from .sessions import SessionStore
from .signin_pool import SignInPool
from .socket_registry import MAX_PER_ADDRESS as MAX_SOCKETS_PER_ADDRESS
from .socket_registry import SocketRegistry
from .state import Score, lang_of

HERE = Path(__file__).parent
log = logging.getLogger("taiwan_poker.web")

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


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _validation_message(lang: str, exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(x) for x in err.get("loc", ()) if x not in ("body", "query", "path"))
        kind = str(err.get("type", ""))
        key = {"missing": "missing", "extra_forbidden": "extra", "json_invalid": "json"}.get(kind.split(".")[0],
                                                                                          "type")
        if kind.startswith(("int_", "string_", "list_", "bool_", "float_")):
            key = "type"
        parts.append(t(lang, f"error.field.{key}", field=loc or "body"))
    if lang == "zh-TW":
        return t(lang, "error.bad_request") + "；".join(parts) + "。"
    return t(lang, "error.bad_request") + " " + "; ".join(parts) + "."


def _warm_up() -> None:
    """Compute the cached tables in the background so the first visitor does not wait."""
    sc.scenarios()
    odds_page.warm_up()
    gc.collect()  # a running server's HeapKeeper freezes the tables just built


SWEEP_SECONDS = 1.0
GUEST_PURGE_SWEEPS = 600  # about every ten minutes
IO_THREADS = 8  # database round trips release the GIL; more threads than this only queue for it (measured under load)
HEALTH_TIMEOUT = 2.0


async def _sweeper(rooms: RoomService, heap: HeapKeeper) -> None:
    """The server's own action clock: time out abandoned turns, deal the next hand after a showdown pause,
    play bots' turns the scheduler missed; every few minutes, remove guests older than a day."""
    sweeps = 0
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        heap.reclaim_if_due()
        try:
            await asyncio.to_thread(rooms.sweep)
            sweeps += 1
            if sweeps % GUEST_PURGE_SWEEPS == 1:
                await asyncio.to_thread(rooms.purge_guests)
        except Exception:  # keep sweeping whatever one room did
            log.exception("sweep failed")


def _bot_scheduler(rooms: RoomService, loop: asyncio.AbstractEventLoop) -> Callable[[str, float], None]:
    """``on_bot_turn`` for the room service: play the bot's turn when its pause is over (from any thread)."""

    def play(code: str) -> None:
        try:
            rooms.play_bot(code)
        except Exception:  # the sweeper tries again within a second
            log.exception("a bot's turn failed", extra={"room": code})

    def fire(code: str) -> None:
        loop.run_in_executor(None, play, code)

    def schedule(code: str, seconds: float) -> None:
        loop.call_soon_threadsafe(loop.call_later, seconds, fire, code)

    return schedule


async def _session_checker(app: FastAPI) -> None:
    """Every few seconds, close the sockets whose session ended elsewhere (one query for all of them)."""
    while True:
        await asyncio.sleep(max(1.0, app.state.socket_session_recheck))
        try:
            await asyncio.to_thread(members_ws.recheck_sessions, app)
        except Exception:
            log.exception("session check failed")


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    # database work runs in worker threads (asyncio.to_thread); PostgreSQL round trips release the GIL,
    # so a few more threads than cores keep the event loop and the database busy at once
    pool = ThreadPoolExecutor(max_workers=IO_THREADS, thread_name_prefix="tp-io")
    asyncio.get_running_loop().set_default_executor(pool)
    heap = HeapKeeper()
    heap.start()
    app.state.metrics.watch_gc()
    sweeper = asyncio.create_task(_sweeper(app.state.rooms, heap))
    app.state.rooms.on_bot_turn = _bot_scheduler(app.state.rooms, asyncio.get_running_loop())
    claim = SqliteClaim(app.state.settings.database_url)
    if not claim.take():
        log.warning(SECOND_PROCESS_WARNING.format(path=claim.path))
    instance = InstanceClaim(app.state.settings.database_url, app.state.settings.push_bus)
    try:
        await asyncio.to_thread(instance.take)  # warns when an instance it cannot exchange pushes with runs
    except Exception:  # the database is down at start-up: requests will say so; nothing to warn about yet
        log.warning("could not check for other instances", exc_info=True)
    bus: PushBus | None = None
    if app.state.settings.push_bus and app.state.db.engine.dialect.name != "postgresql":
        log.warning("TP_PUSH_BUS is for several instances on one PostgreSQL; with SQLite the app is one process")
    elif app.state.settings.push_bus:  # several instances share the database: pushes cross them
        bus = PushBus(app.state.settings.database_url, app.state.rooms.hub, app.state.sockets.end_session_key,
                      app.state.rooms.absorb)
        await asyncio.to_thread(bus.start)
        app.state.rooms.bus = bus
    checker = asyncio.create_task(_session_checker(app))
    app.state.ready = True
    try:
        yield
    finally:
        app.state.ready = False  # /readyz answers 503 while shutting down: a proxy stops sending new work
        app.state.rooms.on_bot_turn = None
        if bus is not None:
            app.state.rooms.bus = None
            await asyncio.to_thread(bus.stop)
        app.state.signin_pool.shutdown()
        app.state.jobs.shutdown()
        for task in (sweeper, checker):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        heap.stop()
        claim.release()
        instance.release()
        app.state.metrics.unwatch_gc()
        app.state.db.dispose()


def create_app(
    data_dir: Path | None = None, *, warm: bool = True, host: str = "127.0.0.1", settings: Settings | None = None
) -> FastAPI:
    """Build the app: pages, JSON API, member rooms (database migrated on start-up).

    ``data_dir`` holds the SQLite database unless ``DATABASE_URL`` is set; ``host`` decides whether local
    sign-in is allowed; ``warm`` precomputes the odds tables in the background.
    """
    settings = settings or Settings.from_env(data_dir, host)
    app = FastAPI(
        lifespan=_lifespan,
        docs_url=None,
        redoc_url=None,
        title="台灣撲克 Taiwan Poker",
        version=__version__,
        description="多副牌德州撲克：規則、機率、實驗桌與練習室。僅供練習，無現金下注或兌現。 "
                    "Multi-deck Hold'em: rules, odds, lab table and practice room. Play money only.",
    )
    app.state.data_dir = data_dir
    app.state.settings = settings
    app.state.db = Database(settings.database_url)
    app.state.db.migrate()
    app.state.session_cache = members_api.SessionCache(app.state.db)
    app.state.rooms = RoomService(app.state.db, RoomHub(), action_clock=settings.action_clock_seconds,
                                  bot_pause=settings.bot_pause)
    app.state.google_verifier = (
        GoogleTokenVerifier(settings.google_client_id, certs_url=settings.google_certs_url)
        if settings.google_client_id else None
    )
    app.state.signin_pool = SignInPool()
    app.state.socket_session_recheck = members_ws.SESSION_RECHECK_SECONDS
    # the per-address socket cap scales with the rate limits (a load test of 1,000 members from one address
    # turns both off); the per-member cap always holds
    scale = settings.rate_limit_scale
    app.state.sockets = SocketRegistry(per_address=math.ceil(MAX_SOCKETS_PER_ADDRESS * scale) if scale else None)
    app.state.rate_limiter = RateLimiter(settings.rate_limit_scale, settings.rate_limit_storage)
    app.state.metrics = Metrics(app)
    app.state.ready = False
    app.state.labs = SessionStore[LabHand](capacity=5000)
    app.state.scores = SessionStore[Score](capacity=20000)
    app.state.jobs = JobRunner(workers=1)
    if warm:
        threading.Thread(target=_warm_up, name="taiwan-poker-warm-up", daemon=True).start()
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    app.add_middleware(CodeGuessGuard, limiter=app.state.rate_limiter)
    app.add_middleware(RequestContext, metrics=app.state.metrics)
    app.add_middleware(BodyLimit)  # no layer inside it reads a body over the cap
    app.add_middleware(SecurityHeadersMiddleware, settings=settings)  # outermost: the 413 gets the headers too
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # Swagger UI 5 (it reads FastAPI's OpenAPI 3.1), served from this server: the docs work offline
    app.mount("/static-docs", StaticFiles(directory=Path(fastapi_offline.__file__).parent / "static"),
              name="static-docs")

    @app.get("/docs", include_in_schema=False)
    def api_docs() -> HTMLResponse:
        """The OpenAPI docs, served from this server (no CDN: the docs work offline)."""
        # no inline script (the Content-Security-Policy forbids it): /static/js/docs.js starts Swagger UI
        return HTMLResponse(DOCS_HTML.format(title=html.escape(f"{app.title} — API"),
                                             openapi_url=html.escape(app.openapi_url or "/openapi.json"),
                                             version=__version__))
    @app.exception_handler(TaiwanPokerError)
    async def core_error(request: Request, exc: TaiwanPokerError) -> JSONResponse:
        status = status_of(exc.code)
        if exc.code == "room_not_found":
            count_miss(app.state.rate_limiter, members_api.client_address(request))
        response = _error(status, exc.code, error_message(lang_of(request), exc))
        if "retry_after" in exc.params:  # rate limits, a full calculator queue
            response.headers["Retry-After"] = str(exc.params["retry_after"])
        return response

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(422, "bad_request", _validation_message(lang_of(request), exc))

    @app.exception_handler(Exception)
    async def unexpected_error(request: Request, exc: Exception) -> JSONResponse:
        # RequestContext has logged it with the request id and the traceback
        return _error(500, "internal_error", t(lang_of(request), "error.internal_error"))

    @app.exception_handler(DBAPIError)
    async def database_error(request: Request, exc: DBAPIError) -> JSONResponse:
        """The database did not answer (down, restarting, connection cut): 503, try again shortly."""
        app.state.metrics.database_errors.inc()
        log.error("database error: %s", type(exc.orig or exc).__name__, exc_info=exc)
        response = _error(503, "database_unavailable", t(lang_of(request), "error.database_unavailable"))
        response.headers["Retry-After"] = "2"
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        lang = lang_of(request)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = t(lang, f"error.{code}")
        if request.url.path.startswith("/api/") or "text/html" not in request.headers.get("accept", ""):
            response: Response = _error(exc.status_code, code, message)
        else:
            response = render(request, "error.html", "home", status_code=exc.status_code, message=message)
        response.headers.update(exc.headers or {})  # a 405's Allow
        return response


    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def home_page(request: Request) -> HTMLResponse:
        return render(request, "home.html", "home")

    @app.get("/rules", response_class=HTMLResponse, include_in_schema=False)
    def rules_page(request: Request) -> HTMLResponse:
        return render(request, "rules.html", "rules", rules=views.rules_json(lang_of(request)))

    @app.get("/odds", response_class=HTMLResponse, include_in_schema=False)
    def odds_view(request: Request, decks: str = "2") -> HTMLResponse:
        d = int(decks) if decks.isdigit() and int(decks) in odds_page.ODDS_DECKS else 2
        return render(request, "odds.html", "odds", decks=d, five=odds_page.category_table(5),
                      seven=odds_page.category_table(7), starting=odds_page.starting_table(),
                      heat=odds_page.heat_map(d), categories=[c.value for c in CATEGORIES])

    @app.get("/calculators", response_class=HTMLResponse, include_in_schema=False)
    def calculators_page(request: Request) -> HTMLResponse:
        return render(request, "calculators.html", "calculators")

    @app.get("/lab", response_class=HTMLResponse, include_in_schema=False)
    def lab_page(request: Request) -> HTMLResponse:
        return render(request, "lab.html", "lab")

    @app.get("/practice", response_class=HTMLResponse, include_in_schema=False)
    def practice_page(request: Request) -> HTMLResponse:
        lang = lang_of(request)
        return render(request, "practice.html", "practice",
                      scenarios=[views.scenario_json(lang, s) for s in sc.scenarios()])

    @app.get("/lang/{code}", include_in_schema=False)
    def switch_language(code: str, next: str = "/") -> RedirectResponse:
        lang = normalise(code) or "zh-TW"
        response = RedirectResponse(safe_next(next, "/"), status_code=303)
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
        return response

    async def database_answers() -> bool:
        try:
            await asyncio.wait_for(asyncio.to_thread(app.state.db.ping), HEALTH_TIMEOUT)
        except Exception:
            app.state.metrics.database_errors.inc()
            log.warning("health check: the database does not answer", exc_info=True)
            return False
        return True

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        """Liveness and the database: 200 when the database answers, 503 when it does not."""
        ok = await database_answers()
        return JSONResponse({"status": "ok" if ok else "error", "database": "ok" if ok else "unavailable"},
                            status_code=200 if ok else 503)

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """For a proxy: 200 once started, 503 before and during shut-down.

        Not tied to the database (``/healthz`` is): when it is down for every instance, the instances stay in
        the proxy's rotation, pages that need no database still work, and the others answer the app's own
        503 ``database_unavailable`` in the reader's language, not the proxy's blank 503."""
        started = bool(app.state.ready)
        return JSONResponse({"ready": started, "started": started}, status_code=200 if started else 503)

    @app.get("/metrics", include_in_schema=False)
    def metrics() -> Response:
        """Prometheus metrics of this instance (text format)."""
        return Response(app.state.metrics.render(), media_type=METRICS_CONTENT_TYPE)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> RedirectResponse:
        return RedirectResponse("/static/img/favicon.svg", status_code=308)

    app.include_router(api_router)
    app.include_router(members_api.router)
    app.include_router(members_ws.router)
    app.include_router(member_pages.router)
    app.include_router(history_api.router)
    return app
