"""Table codes cannot be guessed at speed: unknown codes are counted per address, then every code read refused.

A member table's code is six characters of 31 (887 million codes) and is meant to be shared: whoever has it
may watch the table and read its public history (docs/security.md says what that is). What must not work
is finding tables by trying codes. Each ``room_not_found`` answer counts against the ``room_code_miss``
policy of the asking address (20 a minute, 100 an hour, 300 a day), counted before it is given (a miss that
finds a window full is answered 429 instead, however many are sent at once); once a window is full, every request
naming a table code from that address (HTTP or socket, known code or not) gets 429 ``rate_limited`` until
it empties, so the answers during the lock-out reveal nothing either. Guest tables have twelve-character
codes (31^12), never shared, so nobody finds one by guessing at any rate.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Receive, Scope, Send

from .rate_limits import RateLimiter
from .raw_errors import send_error

POLICY = "room_code_miss"
CODE_PATH = re.compile(r"^/(?:api|ws)/rooms/[^/]+")


def address_of(scope: Scope) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


def answer_miss(limiter: RateLimiter, address: str | None) -> None:
    """An unknown table code was asked for from ``address``: count it before it is answered, or raise
    :class:`RateLimited` (the answer is then a 429, not the ``room_not_found`` the count is for).

    The count is taken atomically (in the shared store with several instances) before the answer, so requests
    sent together cannot all pass a check made before any of them was counted."""
    limiter.reserve(POLICY, address)


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
        await send_error(scope, send, 429, "rate_limited", (b"retry-after", str(wait).encode()), retry_after=wait)
