"""Rate limits per member and per address, on the ``limits`` library (sliding-window counters in memory).

Each policy names what it limits and its windows.  They are set well above
what a fast human does: a player acts a few times a second at most, signs in
a handful of times a day and opens a table now and then; a classroom behind
one address is 30-odd people.  A request over a limit changes nothing and is
answered 429 with ``Retry-After`` (HTTP) or an ``error`` message with
``retry_after`` (WebSocket), in the reader's language.

Every count is taken atomically before the request is served (see
:class:`RateLimiter`).  The counters live in this process unless
``storage_uri`` names a shared ``limits`` storage, e.g.
``redis://127.0.0.1:6379`` so that several instances share their counters.  ``scale`` multiplies every limit; 0 turns
them off, which only load benchmarks and the API fuzzer do.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from fastapi import Depends, Request
from limits import RateLimitItem, parse_many, storage, strategies

from ..errors import TaiwanPokerError


@dataclass(frozen=True)
class Policy:
    """The windows of one kind of request, per member and per address (``limits`` notation)."""

    per_member: str
    per_address: str


POLICIES: dict[str, Policy] = {
    # a move at the table (HTTP actions, time-out, next hand, and the same over the socket)
    "action": Policy(per_member="8/second;240/minute", per_address="100/second;3000/minute"),
    # opening a table or a rematch
    "room_create": Policy(per_member="10/minute;60/hour", per_address="30/minute;300/hour"),
    # joining or leaving a table
    "seat": Policy(per_member="20/minute", per_address="120/minute"),
    # local or Google sign-in (local sign-in creates a member, so this also bounds member creation)
    "signin": Policy(per_member="", per_address="30/minute;300/hour"),
    # a visitor starting to play against bots as a guest (each one creates a guest)
    "guest": Policy(per_member="", per_address="10/minute;60/hour"),
    # every message on a room socket, keep-alive pings included (one every 25 s)
    "socket_message": Policy(per_member="15/second;300/minute", per_address="200/second"),
    # opening a room socket (reconnects included)
    "socket_open": Policy(per_member="30/minute", per_address="120/minute"),
    # asking for a table code that does not exist: a person mistypes a code now and then, a guesser thousands of
    # times; past this every code read from the address is refused, known codes too, so answers reveal nothing
    "room_code_miss": Policy(per_member="", per_address="20/minute;100/hour;300/day"),
    # starting an equity calculation (a person clicks every few seconds; each run may take seconds of a core)
    "calc": Policy(per_member="", per_address="30/minute;300/hour"),
    # a message or a reaction at a table's chat (a chatty person writes one every few seconds)
    "chat": Policy(per_member="5/10second;30/minute", per_address="60/10second;600/minute"),
    # the cheap calculators (outs, pot odds: exact counts in microseconds)
    "calc_light": Policy(per_member="", per_address="120/minute;2000/hour"),
}


def per_address(policy: str) -> Any:
    """A FastAPI dependency counting the request against ``policy`` by the client's address only."""

    def check(request: Request) -> None:
        limiter: RateLimiter = request.app.state.rate_limiter
        limiter.check(policy, None, request.client.host if request.client else None)

    return Depends(check)


class RateLimited(TaiwanPokerError):
    """Too many requests of one kind; ``retry_after`` says in how many seconds to try again."""

    code = "rate_limited"


def _scaled(items: list[RateLimitItem], scale: float) -> list[RateLimitItem]:
    return [type(item)(max(1, math.ceil(item.amount * scale)), item.multiples) for item in items]


class RateLimiter:
    """Counts requests against a policy's windows before they are served.

    Each window's count is taken by the storage's own atomic hit (a lock in memory, one Lua script in Redis),
    which refuses rather than passes a window that is full, so requests sent together, to one instance or to
    several sharing a store, can never pass more than a window holds.  Windows are taken shortest first and the
    first full one refuses the request: a refused request has then been counted only in windows shorter than
    the one that refused it (a burst refused by the minute's window still counts against the second's)."""

    def __init__(self, scale: float = 1.0, storage_uri: str = "memory://",
                 policies: dict[str, Policy] | None = None) -> None:
        self.enabled = scale > 0
        self.rejected: dict[str, int] = {}
        self._limiter = strategies.SlidingWindowCounterRateLimiter(storage.storage_from_string(storage_uri))
        self._windows = {
            name: (_scaled(parse_many(p.per_member), scale) if p.per_member else [],
                   _scaled(parse_many(p.per_address), scale) if p.per_address else [])
            for name, p in (policies or POLICIES).items()
        }

    def _take(self, policy: str, keyed: list[tuple[RateLimitItem, str, str, str]]) -> None:
        for item, *ids in sorted(keyed, key=lambda k: k[0].get_expiry()):
            if not self._limiter.hit(item, *ids):
                reset = self._limiter.get_window_stats(item, *ids).reset_time
                self.rejected[policy] = self.rejected.get(policy, 0) + 1
                seconds = max(1, math.ceil(reset - time.time()))
                raise RateLimited(f"too many requests ({policy}); try again in {seconds} s",
                                  retry_after=seconds, policy=policy)

    def check(self, policy: str, member_id: int | None, address: str | None) -> None:
        """Count one request, or raise :class:`RateLimited` when a window is full (see the class)."""
        if not self.enabled:
            return
        per_member, per_address = self._windows[policy]
        keyed = [(item, policy, "member", str(member_id)) for item in per_member if member_id is not None]
        keyed += [(item, policy, "address", address) for item in per_address if address]
        self._take(policy, keyed)

    def reserve(self, policy: str, address: str | None) -> None:
        """Count one failure of ``address`` against ``policy`` before it is answered (what :meth:`blocked`
        reads), or raise :class:`RateLimited` when a window is already full."""
        if self.enabled and address:
            self._take(policy, [(item, policy, "address", address) for item in self._windows[policy][1]])

    def blocked(self, policy: str, address: str | None) -> int | None:
        """Seconds until ``address`` may try ``policy`` again when one of its windows is full, else None.

        For counters of failures (:meth:`reserve`): checking them counts nothing."""
        if not self.enabled or not address:
            return None
        for item in self._windows[policy][1]:
            if not self._limiter.test(item, policy, "address", address):
                self.rejected[policy] = self.rejected.get(policy, 0) + 1
                reset = self._limiter.get_window_stats(item, policy, "address", address).reset_time
                return max(1, math.ceil(reset - time.time()))
        return None
