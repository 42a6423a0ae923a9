"""Health, readiness and metrics of this instance (for a proxy, an orchestrator and Prometheus)."""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response

from .metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE

router = APIRouter(include_in_schema=False)
log = logging.getLogger("taiwan_poker.web")
HEALTH_TIMEOUT = 2.0


async def database_answers(app: FastAPI) -> bool:
    """Whether the database answers a ping within :data:`HEALTH_TIMEOUT` seconds."""
    try:
        await asyncio.wait_for(asyncio.to_thread(app.state.db.ping), HEALTH_TIMEOUT)
    except Exception:
        app.state.metrics.database_errors.inc()
        log.warning("health check: the database does not answer", exc_info=True)
        return False
    return True


@router.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    """Liveness and the database: 200 when the database answers, 503 when it does not."""
    ok = await database_answers(request.app)
    return JSONResponse({"status": "ok" if ok else "error", "database": "ok" if ok else "unavailable"},
                        status_code=200 if ok else 503)


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """For a proxy: 200 once started, 503 before and during shut-down.

    Not tied to the database (``/healthz`` is): when it is down for every instance, the instances stay in
    the proxy's rotation, pages that need no database still work, and the others answer the app's own
    503 ``database_unavailable`` in the reader's language, not the proxy's blank 503."""
    started = bool(request.app.state.ready)
    return JSONResponse({"ready": started, "started": started}, status_code=200 if started else 503)


@router.get("/metrics")
def metrics(request: Request) -> Response:
    """Prometheus metrics of this instance (text format)."""
    return Response(request.app.state.metrics.render(), media_type=METRICS_CONTENT_TYPE)

