"""Start-up and shut-down of the web app: its services (database, rooms, sign-in, limits, metrics), and the
background work of a running server (the table clock, bot turns, the session check, the heap keeper)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor

from fastapi import FastAPI

from ..auth.google import GoogleTokenVerifier
from ..rooms.bus import PushBus
from ..rooms.hub import RoomHub
from ..rooms.service import RoomService
from ..store.db import Database
from ..store.shared_database import InstanceClaim
from ..store.single_process import SECOND_PROCESS_WARNING, SqliteClaim
from ..trainer import scenarios as sc
from ..trainer.lab import LabHand
from . import members_api, members_ws, odds_page
from .config import Settings, server_clock
from .heap import HeapKeeper
from .jobs import JobRunner
from .metrics import Metrics
from .rate_limits import RateLimiter
from .sessions import SessionStore
from .signin_pool import SignInPool
from .socket_registry import MAX_PER_ADDRESS as MAX_SOCKETS_PER_ADDRESS
from .socket_registry import SocketRegistry
from .state import Score

log = logging.getLogger("taiwan_poker.web")


def build_state(app: FastAPI, settings: Settings, *, warm: bool) -> None:
    """The app's services on ``app.state`` (the database migrated first); ``warm`` precomputes the odds tables."""
    app.state.settings = settings
    app.state.db = Database(settings.database_url)
    app.state.db.migrate()
    app.state.session_cache = members_api.SessionCache(app.state.db)
    app.state.rooms = RoomService(app.state.db, RoomHub(), action_clock=settings.action_clock_seconds,
                                  bot_pause=settings.bot_pause, clock=server_clock(settings))
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
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
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
        await app.state.db.direct.close_now()
        app.state.db.dispose()
