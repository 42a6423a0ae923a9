"""Who has which room socket open: the bound on sockets per member and per address, and ending a session.

When a session ends here (sign-out, or rotation by signing in again), every
socket opened with it is told ``session_ended`` and closed at once, from
whichever thread ended it.  A session that ends elsewhere (expiry, or another
instance) is found by the server's session check: every
``SESSION_RECHECK_SECONDS`` one query asks which of the open sockets'
sessions still live, and the others are closed (:meth:`end_missing`).  No
socket looks its session up on its own, so an action never waits for it.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import TaiwanPokerError

MAX_PER_MEMBER = 8  # room sockets one member may hold open (tabs, devices)
MAX_PER_ADDRESS = 64  # open sockets from one address (spectators included)


def session_key(token: str | None) -> str | None:
    """What the registry keeps of a session token: its hash, never the token."""
    return hashlib.sha256(token.encode()).hexdigest() if token else None


@dataclass(eq=False)
class OpenSocket:
    """One open room socket; ``end`` runs on its event loop when its session ends."""

    member_id: int | None
    session: str | None
    address: str
    loop: asyncio.AbstractEventLoop
    end: Callable[[], None]
    ended: bool = field(default=False)


class SocketRegistry:
    def __init__(self, per_member: int = MAX_PER_MEMBER, per_address: int | None = MAX_PER_ADDRESS) -> None:
        self.per_member = per_member
        self.per_address = per_address
        self._open: set[OpenSocket] = set()
        self._by_member: Counter[int] = Counter()
        self._by_address: Counter[str] = Counter()
        self._guard = threading.Lock()

    def add(self, sock: OpenSocket) -> None:
        """Count a new socket in, or raise ``too_many_sockets``."""
        with self._guard:
            if sock.member_id is not None and self._by_member[sock.member_id] >= self.per_member:
                raise TaiwanPokerError("too many open tables for one member", code="too_many_sockets")
            if self.per_address is not None and self._by_address[sock.address] >= self.per_address:
                raise TaiwanPokerError("too many open sockets from one address", code="too_many_sockets")
            self._open.add(sock)
            if sock.member_id is not None:
                self._by_member[sock.member_id] += 1
            self._by_address[sock.address] += 1

    def remove(self, sock: OpenSocket) -> None:
        with self._guard:
            if sock not in self._open:
                return
            self._open.discard(sock)
            if sock.member_id is not None:
                self._by_member[sock.member_id] -= 1
                if not self._by_member[sock.member_id]:
                    del self._by_member[sock.member_id]
            self._by_address[sock.address] -= 1
            if not self._by_address[sock.address]:
                del self._by_address[sock.address]

    def session_keys(self) -> set[str]:
        """The sessions (hashed) that open sockets were opened with."""
        with self._guard:
            return {s.session for s in self._open if s.session is not None and not s.ended}

    def end_missing(self, checked: set[str], alive: set[str]) -> int:
        """Close the sockets of the sessions that were ``checked`` and found not ``alive`` (ended elsewhere, or
        expired); a socket opened since the check is left alone. Returns how many were closed."""
        gone = checked - alive
        with self._guard:
            doomed = [s for s in self._open if s.session in gone and not s.ended]
        return self._end(doomed)

    def end_session(self, token: str | None) -> int:
        """Close every socket opened with this session (callable from any thread); returns how many."""
        return self.end_session_key(session_key(token))

    def end_session_key(self, key: str | None) -> int:
        """:meth:`end_session` by the session's hash (as another instance announces it)."""
        if key is None:
            return 0
        with self._guard:
            doomed = [s for s in self._open if s.session == key and not s.ended]
        return self._end(doomed)

    @staticmethod
    def _end(doomed: list[OpenSocket]) -> int:
        for sock in doomed:
            sock.ended = True
            if not sock.loop.is_closed():
                sock.loop.call_soon_threadsafe(sock.end)
        return len(doomed)

    def __len__(self) -> int:
        return len(self._open)
