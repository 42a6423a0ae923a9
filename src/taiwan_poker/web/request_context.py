"""Every request and socket gets an id, a log line with its timing, and its place in the metrics.

A pure ASGI middleware.  The id is the caller's ``X-Request-ID`` when it is a
short token (a proxy's), else a new random one; it is sent back in
``X-Request-ID`` and stamped on every log record made while the request is
handled (:mod:`.logs`).
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .logs import request_id

log = logging.getLogger("taiwan_poker.web.request")
_GOOD_ID = re.compile(rb"^[A-Za-z0-9._-]{1,64}$")


def route_of(scope: Scope) -> str:
    """The matched route's template (``/api/rooms/{code}``), so metrics do not grow with every room code."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "unmatched"


class RequestContext:
    def __init__(self, app: ASGIApp, metrics: Any) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"x-request-id", b"")
        rid = given.decode() if _GOOD_ID.match(given) else secrets.token_hex(8)
        token = request_id.set(rid)
        try:
            if scope["type"] == "websocket":
                await self.app(scope, receive, send)
            else:
                await self._http(scope, receive, send, rid)
        finally:
            request_id.reset(token)

    async def _http(self, scope: Scope, receive: Receive, send: Send, rid: str) -> None:
        status = 500
        start = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", []), (b"x-request-id", rid.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            log.exception("unhandled error", extra={"method": scope["method"], "path": scope["path"]})
            raise
        finally:
            seconds = time.perf_counter() - start
            route = route_of(scope)
            self.metrics.requests.labels(route, scope["method"], str(status)).inc()
            self.metrics.request_seconds.labels(route).observe(seconds)
            level = logging.WARNING if status >= 500 else logging.INFO
            log.log(level, "request", extra={"method": scope["method"], "path": scope["path"], "route": route,
                                            "status": status, "ms": round(seconds * 1000, 2)})
