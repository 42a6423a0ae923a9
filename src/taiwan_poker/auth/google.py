"""Server-side verification of Google Identity Services ID tokens.

Follows Google's "Verify the Google ID token on your server side": the
signature is checked against Google's published certificates (fetched through
an HTTP cache that honours their ``Cache-Control``, so they are not fetched on
every sign-in), ``aud`` must equal our client ID (always passed — the library
skips the audience check when it is ``None``), ``iss`` must be Google's, and
the token must not be expired.  The CSRF double-submit check of the sign-in
form (``g_csrf_token`` cookie equals the posted field) is :func:`check_csrf`.

Times: the clock-skew allowance is :data:`CLOCK_SKEW_SECONDS` (10 s) either
way, and a token must look like one Google issues: ``exp - iat`` at most one
hour (:data:`MAX_LIFETIME_SECONDS`), ``iat`` not in the future.  A token
that expires in 2100 is refused even when its signature is good.

The certificate endpoint is asked with a short timeout between bytes
(:data:`CERTS_TIMEOUT`) and a deadline on the whole fetch
(:data:`CERTS_DEADLINE_SECONDS`: an endpoint that trickles one byte every
2 s never trips a timeout between bytes), one fetch at a time, and after a
failed fetch the verifier answers ``certs_unavailable`` at once for
:data:`CERTS_RETRY_SECONDS` instead of letting every sign-in wait on a silent
endpoint.  A fetch that passed its deadline goes on in the background on its
own thread (a blocking read cannot be cut short from outside); later sign-ins
wait on that same fetch, never start a second one, so a stalled endpoint holds
one thread and no sign-in longer than the deadline.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FetchTimeout
from dataclasses import dataclass
from typing import Any

import cachecontrol
import google.auth.exceptions
import google.auth.jwt
import google.auth.transport.requests
import requests
from google.oauth2 import id_token

from ..errors import TaiwanPokerError

GOOGLE_CERTS_URL = "https://www.googleapis.com/oauth2/v1/certs"
GOOGLE_ISSUERS = frozenset({"accounts.google.com", "https://accounts.google.com"})
ALLOWED_ALGORITHMS = frozenset({"RS256"})
CLOCK_SKEW_SECONDS = 10
MAX_LIFETIME_SECONDS = 3600  # Google's ID tokens live exactly one hour
CERTS_TIMEOUT = (2.0, 3.0)  # seconds to connect, seconds between bytes
CERTS_DEADLINE_SECONDS = 4.0  # the whole certificate fetch, headers and body
CERTS_RETRY_SECONDS = 5.0


class _BoundedRequest(google.auth.transport.requests.Request):
    """google-auth's requests transport with our timeouts: ``timeout`` between bytes (its default waits
    120 s) and ``deadline`` on the whole request, after which the caller gets a ``TransportError``.

    The request runs on one thread of its own; a caller that finds the same request still running waits on
    it instead of starting another.
    """

    def __init__(self, session: requests.Session, timeout: tuple[float, float], deadline: float) -> None:
        super().__init__(session=session)
        self.timeout = timeout
        self.deadline = deadline
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tp-certs")
        self._guard = threading.Lock()
        self._running: tuple[tuple[str, str], Future[Any]] | None = None

    def _send(self, url: str, method: str, body: Any, headers: Any, kwargs: dict[str, Any]) -> Any:
        return super().__call__(  # type: ignore[no-untyped-call]
            url, method=method, body=body, headers=headers, timeout=self.timeout, **kwargs
        )

    def __call__(
        self, url: str, method: str = "GET", body: Any = None, headers: Any = None, timeout: Any = None, **kwargs: Any
    ) -> Any:
        key = (method, url)
        with self._guard:
            if self._running is None or self._running[0] != key or self._running[1].done():
                self._running = (key, self._worker.submit(self._send, url, method, body, headers, kwargs))
            running = self._running[1]
        try:
            return running.result(timeout=self.deadline)
        except FetchTimeout:
            raise google.auth.exceptions.TransportError(  # type: ignore[no-untyped-call]
                f"no complete answer from {url} within {self.deadline:g} s") from None


class TokenRejected(TaiwanPokerError):
    """The ID token (or the sign-in form around it) is not acceptable."""

    code = "bad_token"


@dataclass(frozen=True, slots=True)
class GoogleIdentity:
    """What we keep from a verified ID token; ``sub`` is the stable identity."""

    sub: str
    name: str
    email: str | None
    picture: str | None


def check_csrf(cookie_token: str | None, form_token: str | None) -> None:
    """Google's double-submit check: the ``g_csrf_token`` cookie must equal the posted field."""
    if not cookie_token or not form_token or not hmac.compare_digest(cookie_token, form_token):
        raise TokenRejected("CSRF double-submit check failed (g_csrf_token)", code="bad_csrf")


class GoogleTokenVerifier:
    """Verifies ID tokens for one OAuth client ID.

    ``certs_url`` and ``session`` exist so tests can serve certificates of a
    locally made key; production uses Google's URL and a fresh session.
    """

    def __init__(
        self,
        client_id: str,
        *,
        certs_url: str = GOOGLE_CERTS_URL,
        session: requests.Session | None = None,
        clock_skew_seconds: int = CLOCK_SKEW_SECONDS,
        timeout: tuple[float, float] = CERTS_TIMEOUT,
        deadline: float = CERTS_DEADLINE_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not client_id:
            raise ValueError("a Google client ID is required: without it the audience would not be checked")
        self.client_id = client_id
        self.certs_url = certs_url
        self.clock_skew_seconds = clock_skew_seconds
        self._clock = clock
        cached = cachecontrol.CacheControl(session or requests.Session())
        self._request = _BoundedRequest(cached, timeout, deadline)
        self._fetching = threading.Lock()  # one certificate fetch at a time; the others wait for its result
        self._down_until = 0.0  # monotonic time until which the endpoint counts as down

    def verify(self, token: str) -> GoogleIdentity:
        """Verify ``token`` and return the identity, or raise :class:`TokenRejected`."""
        if not isinstance(token, str) or token.count(".") != 2:
            raise TokenRejected("malformed ID token")
        try:
            header = google.auth.jwt.decode_header(token)  # type: ignore[no-untyped-call]
        except (ValueError, google.auth.exceptions.GoogleAuthError):
            raise TokenRejected("malformed ID token header") from None
        if header.get("alg") not in ALLOWED_ALGORITHMS:
            raise TokenRejected(f"ID token algorithm {header.get('alg')!r} is not accepted")
        claims = self._verified_claims(token)
        self._check_times(claims)
        if claims.get("iss") not in GOOGLE_ISSUERS:
            raise TokenRejected(f"ID token issuer {claims.get('iss')!r} is not Google")
        if claims.get("aud") != self.client_id:
            raise TokenRejected("ID token audience is not this application")
        sub = claims.get("sub")
        if not isinstance(sub, str) or not sub:
            raise TokenRejected("ID token has no subject")
        return GoogleIdentity(
            sub=sub,
            name=str(claims.get("name") or claims.get("email") or "Google user"),
            email=claims.get("email"),
            picture=claims.get("picture"),
        )

    def _verified_claims(self, token: str) -> dict[str, Any]:
        """google-auth's signature, audience and expiry checks, with the certificates fetched one at a time."""
        unavailable = TokenRejected("could not fetch Google's certificates", code="certs_unavailable")
        if time.monotonic() < self._down_until:
            raise unavailable
        with self._fetching:
            if time.monotonic() < self._down_until:
                raise unavailable
            try:
                return dict(
                    id_token.verify_token(
                        token,
                        self._request,
                        audience=self.client_id,
                        certs_url=self.certs_url,
                        clock_skew_in_seconds=self.clock_skew_seconds,
                    )
                )
            except google.auth.exceptions.TransportError:
                self._down_until = time.monotonic() + CERTS_RETRY_SECONDS
                raise unavailable from None
            except (ValueError, TypeError, KeyError, google.auth.exceptions.GoogleAuthError) as exc:
                # TypeError/KeyError: claims of the wrong type (an ``exp`` that is a string) are a malformed token
                raise TokenRejected(f"ID token rejected: {exc}") from None

    def _check_times(self, claims: dict[str, Any]) -> None:
        """``iat`` and ``exp`` as Google sets them: issued now or before, valid for at most an hour."""
        iat, exp = claims.get("iat"), claims.get("exp")
        if isinstance(iat, bool) or not isinstance(iat, int) or isinstance(exp, bool) or not isinstance(exp, int):
            raise TokenRejected("ID token lacks whole-second iat and exp")
        if iat > self._clock() + self.clock_skew_seconds:
            raise TokenRejected("ID token issued in the future")
        if not 0 < exp - iat <= MAX_LIFETIME_SECONDS:
            raise TokenRejected(f"ID token lifetime {exp - iat} s is not one Google issues")
