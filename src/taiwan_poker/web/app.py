"""The web app factory: settings, services and start-up (:mod:`.startup`), middleware, static files, error
answers (:mod:`.error_handlers`) and the routers (pages, JSON API, members, rooms, history, health)."""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.staticfiles import StaticFiles

from .. import __version__
from . import app_shell, health, history_api, member_pages, members_api, members_ws, pages, rooms_api
from .api import router as api_router
from .body_limit import BodyLimit
from .code_guessing import CodeGuessGuard
from .config import Settings
from .error_handlers import install_error_handlers
from .request_context import RequestContext
from .security_headers import SecurityHeadersMiddleware
from .startup import build_state, lifespan

HERE = Path(__file__).parent
ROUTERS = (pages.router, health.router, api_router, members_api.router, rooms_api.router, members_ws.router,
           member_pages.router, history_api.router, app_shell.router)


def create_app(
    data_dir: Path | None = None, *, warm: bool = True, host: str = "127.0.0.1", settings: Settings | None = None
) -> FastAPI:
    """Build the app: pages, JSON API, member rooms (database migrated on start-up).

    ``data_dir`` holds the SQLite database unless ``DATABASE_URL`` is set; ``host`` decides whether local
    sign-in is allowed; ``warm`` precomputes the odds tables in the background.
    """
    settings = settings or Settings.from_env(data_dir, host)
    app = FastAPI(
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        title="台灣撲克 Taiwan Poker",
        version=__version__,
        description="多副牌德州撲克：規則、機率、實驗桌與練習室。僅供練習，無現金下注或兌現。 "
                    "Multi-deck Hold'em: rules, odds, lab table and practice room. Play money only.",
    )
    app.state.data_dir = data_dir
    build_state(app, settings, warm=warm)
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    app.add_middleware(CodeGuessGuard, limiter=app.state.rate_limiter)
    app.add_middleware(BodyLimit)  # no layer inside it reads a body over the cap
    app.add_middleware(RequestContext, metrics=app.state.metrics)  # the 413 gets a request id and a log line
    app.add_middleware(app_shell.BuildHeader)  # every answer names its build: a page's scripts compare their own
    app.add_middleware(SecurityHeadersMiddleware, settings=settings)  # outermost: the 413 gets the headers too
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # Swagger UI 5 (it reads FastAPI's OpenAPI 3.1), served from this server: the docs work offline
    app.mount("/static-docs", StaticFiles(directory=Path(fastapi_offline.__file__).parent / "static"),
              name="static-docs")
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    return app
