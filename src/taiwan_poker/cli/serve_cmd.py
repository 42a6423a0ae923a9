"""``taiwan-poker serve``: run the web app (pages, JSON API at /api, docs at /docs)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on")] = 8000,
    data_dir: Annotated[Path, typer.Option(help="Where the app keeps its data (the SQLite database)")] = Path("data"),
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
) -> None:
    """Start the web app. 啟動網站（預設 http://127.0.0.1:8000）。"""
    import uvicorn

    from ..web import create_app

    data_dir.mkdir(parents=True, exist_ok=True)
    app = create_app(data_dir=data_dir, host=host)
    typer.echo(f"台灣撲克 Taiwan Poker → http://{host}:{port}  (API docs: /docs; Ctrl+C to stop)")
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False)
