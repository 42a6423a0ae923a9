"""``taiwan-poker serve``: run the web app (pages, JSON API at /api, docs at /docs)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

SWITCH_INTERVAL = 0.001


def public_signin_refusal(host: str) -> str | None:
    """Why ``serve`` must not start on ``host`` as configured (zh-TW, then English), or None.

    Local sign-in (a name only) is offered only on a loopback address (``web/config.py``); on a public address
    without a Google client ID nobody could sign in, so the server refuses to start and says what to set.
    """
    from ..web.config import Settings
    from ..web.i18n import t

    settings = Settings.from_env(None, host, create_dir=False)
    if not settings.public_without_signin:
        return None
    return "\n".join(t(lang, "cli.serve.public_without_signin", host=host) for lang in ("zh-TW", "en"))


def migrate_command(
    data_dir: Annotated[Path, typer.Option(help="Where the app keeps its data (the SQLite database)")] = Path("data"),
) -> None:
    """Bring the database to this version's schema, then exit (serve does it too on start). 遷移資料庫結構。"""
    from ..store.db import Database, schema_state

    db = Database(_settings_url(data_dir))
    try:
        before = schema_state(db.engine).current
        db.migrate()
        after = schema_state(db.engine).current
    finally:
        db.dispose()
    typer.echo(f"{before or '-'} → {after}")


def _settings_url(data_dir: Path) -> str:
    from ..web.config import Settings

    return Settings.from_env(data_dir).database_url


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on")] = 8000,
    data_dir: Annotated[Path, typer.Option(help="Where the app keeps its data (the SQLite database)")] = Path("data"),
    log_level: Annotated[str, typer.Option(help="log level (debug, info, warning, error)")] = "info",
    json_logs: Annotated[bool | None, typer.Option(
        "--json-logs/--text-logs", help="JSON lines (default when stderr is not a terminal) or readable lines")] = None,
) -> None:
    """Start the web app. 啟動網站（預設 http://127.0.0.1:8000）。"""
    import uvicorn

    from ..web import connection_guard, create_app
    from ..web.logs import configure
    from ..web.members_ws import WS_MAX_BYTES
    from ..web.ws_protocol import RoomWebSocketProtocol

    refusal = public_signin_refusal(host)
    if refusal:
        typer.echo(refusal, err=True)
        raise typer.Exit(2)
    configure(log_level, json_logs)
    # hand the GIL on every millisecond instead of five: the event loop, which sends every push, waits less for the
    # worker threads (measured: the 6-seat p99 at 500 tables fell from 125-300 ms to about 100 ms)
    sys.setswitchinterval(SWITCH_INTERVAL)

    data_dir.mkdir(parents=True, exist_ok=True)
    app = create_app(data_dir=data_dir, host=host)
    # request-head deadline, per-address cap, room below the descriptor limit, bounded storm logs (issue 19)
    descriptors = connection_guard.raise_descriptor_limit()
    guard = connection_guard.ConnectionGuard.from_env(descriptor_limit=descriptors)
    app.state.connection_guard = guard
    typer.echo(f"台灣撲克 Taiwan Poker → http://{host}:{port}  (API docs: /docs; Ctrl+C to stop)")
    # the app logs each request itself (with its id and timing); uvicorn's records go through the same handler
    # loop "auto": uvloop where installed (a dependency off Windows): a move's hand-off to a worker thread and back
    # costs 36-59 us of CPU there against 77-113 us on asyncio's own loop (docs/scaling.md)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False, log_config=None, loop="auto",
                ws_max_size=WS_MAX_BYTES, http=connection_guard.install(guard), ws=RoomWebSocketProtocol,
                backlog=connection_guard.backlog_for(descriptors))
