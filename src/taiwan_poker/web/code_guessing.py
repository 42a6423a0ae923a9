"""Table codes cannot be guessed at speed: unknown codes are counted per address, then every code read refused.

A member table's code is six characters of 31 (887 million codes) and is meant to be shared: whoever has it
may watch the table and read its public history (docs/security.md says what that is). What must not work
is finding tables by trying codes. Each ``room_not_found`` answer counts against the ``room_code_miss``
policy of the asking address (20 a minute, 100 an hour, 300 a day); once a window is full, every request
naming a table code from that address (HTTP or socket, known code or not) gets 429 ``rate_limited`` until
it empties, so the answers during the lock-out reveal nothing either. Guest tables have twelve-character
codes (31^12), never shared, so nobody finds one by guessing at any rate.
"""

from __future__ import annotations

import json
import re

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from .i18n import LANG_COOKIE, negotiate, t
from .rate_limits import RateLimiter

POLICY = "room_code_miss"
CODE_PATH = re.compile(r"^/(?:api|ws)/rooms/[^/]+")


def address_of(scope: Scope) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


def count_miss(limiter: RateLimiter, address: str | None) -> None:
    """An unknown table code was asked for from ``address``."""
    limiter.count(POLICY, address)


class CodeGuessGuard:
    """Refuses requests naming a table code from an address that asked for too many unknown codes."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and CODE_PATH.match(scope["path"]):
            wait = self.limiter.blocked(POLICY, address_of(scope))
            if wait is not None:
                await self._refuse(scope, send, wait)
                return
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse(scope: Scope, send: Send, wait: int) -> None:
        if scope["type"] == "websocket":  # closing before the handshake answers it 403
            await send({"type": "websocket.close", "code": 1008})
            return
        conn = HTTPConnection(scope)
        lang = negotiate(conn.query_params.get("lang"), conn.cookies.get(LANG_COOKIE),
                         conn.headers.get("accept-language"))
        message = t(lang, "error.rate_limited", retry_after=wait)
        body = json.dumps({"error": {"code": "rate_limited", "message": message}}, ensure_ascii=False).encode()
        await send({"type": "http.response.start", "status": 429,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"retry-after", str(wait).encode())]})
        await send({"type": "http.response.body", "body": body})
