"""``taiwan-poker doctor``: what ``serve`` would use (database, sign-in, push bus, rate-limit storage, data
directory, evaluator kernel), each checked, with every problem named.

Read-only: it connects to the database and to the rate-limit storage, but creates, migrates and writes
nothing (a data directory that does not exist yet is reported as made on first start). Exit status 0 when
there is no problem, 1 when there is one; notes (things worth knowing that stop nothing) do not count.
Every sentence comes from the message catalogues, zh-TW first, then English.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .. import __version__

if TYPE_CHECKING:
    from sqlalchemy import Engine


class Level(StrEnum):
    OK = "ok"
    NOTE = "note"  # worth knowing; not a problem
    PROBLEM = "problem"  # the server would not work as meant: fix it


MARKS = {Level.OK: "✓", Level.NOTE: "!", Level.PROBLEM: "✗"}


@dataclass(frozen=True)
class Finding:
    """One line of the report: the item checked, how it stands and the catalogue key of the sentence."""

    item: str  # database, signin, push_bus, rate_limits, data_dir, kernel
    level: Level
    key: str
    params: dict[str, str] = field(default_factory=dict)


def _data_dir(path: Path) -> Finding:
    shown = str(path.resolve())
    if path.is_dir():
        if os.access(path, os.W_OK | os.X_OK):
            return Finding("data_dir", Level.OK, "cli.doctor.data_dir.ok", {"path": shown})
        return Finding("data_dir", Level.PROBLEM, "cli.doctor.data_dir.read_only", {"path": shown})
    if path.exists():
        return Finding("data_dir", Level.PROBLEM, "cli.doctor.data_dir.not_dir", {"path": shown})
    parent = path.resolve().parent
    while not parent.exists():
        parent = parent.parent
    if os.access(parent, os.W_OK | os.X_OK):
        return Finding("data_dir", Level.OK, "cli.doctor.data_dir.missing", {"path": shown})
    return Finding("data_dir", Level.PROBLEM, "cli.doctor.data_dir.cannot_create",
                   {"path": shown, "parent": str(parent)})


def _database(url: str, data_dir_ok: bool) -> Finding:
    from sqlalchemy.engine import make_url

    from ..store.db import make_engine, schema_state

    shown = make_url(url).render_as_string(hide_password=True)
    sqlite = url.startswith("sqlite")
    if sqlite:
        database = make_url(url).database or ""
        if not data_dir_ok:
            return Finding("database", Level.PROBLEM, "cli.doctor.database.no_data_dir", {"url": shown})
        if not Path(database).exists():
            return Finding("database", Level.OK, "cli.doctor.database.sqlite_new", {"url": shown})
    engine = make_engine(url) if sqlite else _pg_engine(url)
    try:
        state = schema_state(engine)
    except Exception as exc:  # unreachable, wrong password, no such database...
        return Finding("database", Level.PROBLEM, "cli.doctor.database.unreachable",
                       {"url": shown, "error": f"{type(exc).__name__}: {str(exc).strip().splitlines()[0]}"})
    finally:
        engine.dispose()
    kind = "SQLite" if sqlite else "PostgreSQL"
    params = {"url": shown, "kind": kind, "current": state.current or "-", "head": state.head or "-"}
    if state.newer_than_package:
        return Finding("database", Level.PROBLEM, "cli.doctor.database.newer", params)
    if state.current is None:
        return Finding("database", Level.NOTE, "cli.doctor.database.empty", params)
    if state.current != state.head:
        return Finding("database", Level.NOTE, "cli.doctor.database.behind", params)
    if sqlite:
        return Finding("database", Level.OK, "cli.doctor.database.sqlite_ok", params)
    return Finding("database", Level.OK, "cli.doctor.database.ok", params)


def _pg_engine(url: str) -> Engine:
    from sqlalchemy import create_engine

    # a short connect timeout: the doctor answers within seconds whatever the database does
    return create_engine(url, connect_args={"connect_timeout": 5} if "psycopg" in url else {})


def _signin(client_id: str | None, host: str, local: bool) -> Finding:
    """Google when a client ID is set; local sign-in on a loopback address; else nobody could sign in."""
    if client_id:
        return Finding("signin", Level.OK, "cli.doctor.signin.google", {"client_id": client_id})
    if local:
        return Finding("signin", Level.OK, "cli.doctor.signin.local", {"host": host})
    return Finding("signin", Level.PROBLEM, "cli.doctor.signin.public", {"host": host})


def _push_bus(on: bool, url: str) -> Finding:
    postgres = url.startswith("postgresql")
    if on and not postgres:
        return Finding("push_bus", Level.PROBLEM, "cli.doctor.push_bus.sqlite")
    return Finding("push_bus", Level.OK, "cli.doctor.push_bus.on" if on else "cli.doctor.push_bus.off")


def _rate_limits(storage_uri: str, scale: float, push_bus: bool) -> Finding:
    from limits import storage

    params = {"storage": storage_uri, "scale": f"{scale:g}"}
    if scale == 0:
        return Finding("rate_limits", Level.PROBLEM, "cli.doctor.rate_limits.off", params)
    try:
        store = storage.storage_from_string(storage_uri)
        healthy = store.check()
    except Exception as exc:
        return Finding("rate_limits", Level.PROBLEM, "cli.doctor.rate_limits.bad",
                       {**params, "error": f"{type(exc).__name__}: {exc}"})
    if not healthy:
        return Finding("rate_limits", Level.PROBLEM, "cli.doctor.rate_limits.unreachable", params)
    if storage_uri.startswith("memory://"):
        level = Level.NOTE if push_bus else Level.OK
        return Finding("rate_limits", level,
                       "cli.doctor.rate_limits.memory_shared" if push_bus else "cli.doctor.rate_limits.memory", params)
    return Finding("rate_limits", Level.OK, "cli.doctor.rate_limits.shared", params)


def _kernel() -> Finding:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fallback's warning is said here, in the report's words
        try:
            from ..evaluate import batch
        except ImportError as exc:  # TAIWAN_POKER_KERNEL=c without the compiled kernel
            return Finding("kernel", Level.PROBLEM, "cli.doctor.kernel.unavailable", {"error": str(exc)})
    if batch.kernel() == "c":
        return Finding("kernel", Level.OK, "cli.doctor.kernel.c")
    if batch.c_kernel_available():  # TAIWAN_POKER_KERNEL=numpy, chosen
        return Finding("kernel", Level.OK, "cli.doctor.kernel.numpy_chosen")
    return Finding("kernel", Level.NOTE, "cli.doctor.kernel.numpy", {"error": batch.C_KERNEL_ERROR or ""})


def _machine() -> Finding:
    """Whether the table machine runs compiled (``setup.py``: mypyc), the CPU of every move."""
    from ..pure import ENV, compiled

    if compiled():
        return Finding("machine", Level.OK, "cli.doctor.machine.compiled")
    if os.environ.get(ENV) == "1":
        return Finding("machine", Level.OK, "cli.doctor.machine.pure_chosen")
    return Finding("machine", Level.NOTE, "cli.doctor.machine.pure")


def diagnose(data_dir: Path, host: str) -> list[Finding]:
    """Every finding, in report order, for a server started with these options and this environment."""
    from ..web.config import Settings

    directory = _data_dir(data_dir)
    settings = Settings.from_env(data_dir, host, create_dir=False)
    return [
        _database(settings.database_url, directory.level is not Level.PROBLEM),
        _signin(settings.google_client_id, host, settings.local_mode),
        _push_bus(settings.push_bus, settings.database_url),
        _rate_limits(settings.rate_limit_storage, settings.rate_limit_scale, settings.push_bus),
        directory,
        _kernel(),
        _machine(),
    ]


def render(findings: list[Finding]) -> str:
    from ..web.i18n import t

    lines = [" / ".join(t(lang, "cli.doctor.title", version=__version__) for lang in ("zh-TW", "en"))]
    for f in findings:
        mark = MARKS[f.level]
        lines.append(f"{mark} {t('zh-TW', 'cli.doctor.item.' + f.item)}：{t('zh-TW', f.key, **f.params)}")
        lines.append(f"  {t('en', 'cli.doctor.item.' + f.item)}: {t('en', f.key, **f.params)}")
    problems = sum(f.level is Level.PROBLEM for f in findings)
    if problems:
        lines.append(f"{t('zh-TW', 'cli.doctor.problems', n=problems)} / {t('en', 'cli.doctor.problems', n=problems)}")
    else:
        lines.append(f"{t('zh-TW', 'cli.doctor.no_problems')} / {t('en', 'cli.doctor.no_problems')}")
    return "\n".join(lines)


def doctor_command(
    host: Annotated[str, typer.Option(help="The address serve would listen on")] = "127.0.0.1",
    data_dir: Annotated[Path, typer.Option(help="The data directory serve would use")] = Path("data"),
) -> None:
    """Check what serve would use and name any problem. 檢查伺服器設定並指出問題。"""
    findings = diagnose(data_dir, host)
    typer.echo(render(findings))
    if any(f.level is Level.PROBLEM for f in findings):
        raise typer.Exit(1)
