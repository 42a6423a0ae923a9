"""Members and rooms over HTTP: sign-in (Google, local), sessions, CSRF, and the room API.

Thin: every handler checks who is asking and calls :class:`RoomService`;
what goes back to a browser is only ever that member's view of the room.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import threading
import time
import unicodedata
from typing import Annotated, Any
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, Depends, Form, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from sqlalchemy.orm import Session

from ..auth.google import GoogleTokenVerifier, TokenRejected, check_csrf
from ..errors import TaiwanPokerError
from ..rooms.service import RoomService
from ..store import repo
from ..store.db import Database
from ..store.models import Member, utcnow
from .config import Settings
from .error_model import ERROR_RESPONSES
from .rate_limits import RateLimiter
from .redirects import safe_next
from .socket_registry import session_key

SESSION_COOKIE = "tp_session"
CSRF_COOKIE = "tp_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_MAX_AGE = int(repo.SESSION_TTL.total_seconds())

router = APIRouter(responses=ERROR_RESPONSES)


class AuthError(TaiwanPokerError):
    """Sign-in required, local sign-in off, or a missing CSRF token."""

    code = "signin_required"


# --- who is asking ------------------------------------------------------------------------------------------------


def services(request: Request) -> tuple[Settings, Database, RoomService]:
    state = request.app.state
    return state.settings, state.db, state.rooms


class SessionCache:
    """Session token → member, remembered for a few seconds so a busy table does not hit the database per request.

    Sign-out and sign-in rotation forget the token at once in this process;
    ``ttl`` bounds how long another process could still honour a session it ended.
    """

    def __init__(self, db: Database, ttl: float = 5.0, capacity: int = 50_000) -> None:
        self.db = db
        self.ttl = ttl
        self.capacity = capacity
        self._entries: dict[str, tuple[float, Member | None]] = {}
        self._guard = threading.Lock()

    def member(self, token: str | None) -> Member | None:
        if not token:
            return None
        now = time.monotonic()
        with self._guard:
            hit = self._entries.get(token)
        if hit is not None and hit[0] > now:
            return hit[1]
        with self.db.transaction() as s:
            member = repo.member_for_session(s, token)
        with self._guard:
            if len(self._entries) >= self.capacity:
                self._entries.clear()
            self._entries[token] = (now + self.ttl, member)
        return member

    def forget(self, token: str | None) -> None:
        if token:
            with self._guard:
                self._entries.pop(token, None)


def optional_member(request: Request) -> Member | None:
    cache: SessionCache = request.app.state.session_cache
    return cache.member(request.cookies.get(SESSION_COOKIE))


def require_member(request: Request) -> Member:
    member = optional_member(request)
    if member is None:
        raise AuthError("sign in first", code="signin_required")
    return member


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: an HMAC keyed by the (secret, httpOnly) session token.

    It is bound to the session: a token planted in the ``tp_csrf`` cookie by
    someone else matches no session of the victim, and no server secret is
    needed, so every server instance derives the same token.
    """
    return hmac.new(session_token.encode(), b"taiwan-poker csrf v1", hashlib.sha256).hexdigest()


def require_csrf(request: Request) -> None:
    """State-changing requests carry their session's CSRF token in the ``X-CSRF-Token`` header.

    The ``tp_csrf`` cookie only hands the token to the page's script; what is
    checked is the header against the token derived from the session cookie.
    """
    session = request.cookies.get(SESSION_COOKIE)
    header = request.headers.get(CSRF_HEADER)
    if not session or not header or not hmac.compare_digest(csrf_token(session), header):
        raise AuthError("missing or wrong X-CSRF-Token header", code="csrf_required")


GOOGLE_SIGNIN_ORIGIN = "https://accounts.google.com"  # Identity Services' redirect mode posts from there


def same_site(request: Request, *also: str) -> bool:
    """The browser says the request comes from this server's pages (or from one of ``also``).

    ``Sec-Fetch-Site`` (every current browser) must be ``same-origin`` or ``none`` (typed or bookmarked);
    an ``Origin`` header, when sent, must be this host. Clients that send neither (scripts, curl) pass this
    check and meet the CSRF proof instead.
    """
    origin = request.headers.get("origin")
    if origin is not None and origin not in also and urlsplit(origin).netloc != request.headers.get("host"):
        return False
    site = request.headers.get("sec-fetch-site")
    return site is None or site in ("same-origin", "none") or (origin is not None and origin in also)


def require_signin_proof(request: Request) -> None:
    """Sign-in routes (local, guest) are refused from other sites: a page elsewhere that auto-submits a form
    could otherwise replace a member's session with one of its choosing (login CSRF).

    Besides :func:`same_site`, the request carries ``X-CSRF-Token``, a header no cross-site form can send
    and no cross-site script can send without a CORS preflight, which this server never grants. When a
    session cookie is present, the header must be that session's token: only the member's own page may
    replace its session.
    """
    if not same_site(request):
        raise AuthError("sign-in from another site is refused", code="cross_site")
    header = request.headers.get(CSRF_HEADER)
    session = request.cookies.get(SESSION_COOKIE)
    if not header or (session and not hmac.compare_digest(csrf_token(session), header)):
        raise AuthError("missing or wrong X-CSRF-Token header", code="csrf_required")


def client_address(request: Request) -> str | None:
    return request.client.host if request.client else None


def rate_limit(policy: str) -> Any:
    """A dependency that counts the request against ``policy`` (per member when signed in, and per address)."""

    def check(request: Request) -> None:
        member = optional_member(request)
        limiter: RateLimiter = request.app.state.rate_limiter
        limiter.check(policy, member.id if member is not None else None, client_address(request))

    return Depends(check)


MemberDep = Annotated[Member, Depends(require_member)]
OptionalMember = Annotated[Member | None, Depends(optional_member)]
Csrf = Depends(require_csrf)
SignInProof = Depends(require_signin_proof)


def member_json(member: Member | None) -> dict[str, Any] | None:
    if member is None:
        return None
    return {"id": member.id, "name": member.display_name, "picture": member.picture, "guest": member.guest}


def _announce_session_end(request: Request, session: Session, token: str | None) -> None:
    """Other instances close this session's sockets when the transaction commits (PostgreSQL only)."""
    bus = request.app.state.rooms.bus
    key = session_key(token)
    if bus is not None and key is not None:
        bus.notify_session_end(session.connection(), key)


def _start_session(request: Request, response: Response, member: Member) -> None:
    """A new session (rotated: the old one, if any, ends) and a fresh CSRF token.

    A guest's session lasts one day on the server and its cookies only as long as the browser session.
    """
    settings, db, _ = services(request)
    old = request.cookies.get(SESSION_COOKIE)
    with db.transaction() as s:
        token = repo.start_session(s, member.id, replaces=old, ttl=repo.GUEST_TTL if member.guest else repo.SESSION_TTL)
        _announce_session_end(request, s, old)
    request.app.state.session_cache.forget(old)
    request.app.state.sockets.end_session(old)
    secure = settings.secure_cookies
    max_age = None if member.guest else SESSION_MAX_AGE
    response.set_cookie(SESSION_COOKIE, token, max_age=max_age, httponly=True, secure=secure,
                        samesite="lax", path="/")
    response.set_cookie(CSRF_COOKIE, csrf_token(token), max_age=max_age, httponly=False,
                        secure=secure, samesite="lax", path="/")


# --- sign-in ------------------------------------------------------------------------------------------------------


class LocalSignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StrictStr = Field(description="display name, 1–40 visible characters (runs of spaces count as one)",
                            examples=["小明"], json_schema_extra={"minLength": 1})


NAME_CHARS = 40


def clean_name(raw: str) -> str:
    """A name a member typed: 1 to 40 visible characters (runs of spaces as one), or ``bad_name``."""
    name = " ".join(raw.split())
    if not 1 <= len(name) <= NAME_CHARS or any(unicodedata.category(ch).startswith("C") for ch in name):
        raise AuthError("a name has 1 to 40 visible characters", code="bad_name")
    return name


def tidy_name(raw: str, fallback: str) -> str:
    """A name from elsewhere (a Google profile), made what :func:`clean_name` accepts: control and format
    characters (a right-to-left override, say) dropped, runs of spaces as one, at most 40 characters;
    ``fallback`` when nothing visible is left."""
    spaced = " ".join(raw.split())  # tabs and new lines are spaces
    visible = "".join(ch for ch in spaced if not unicodedata.category(ch).startswith("C"))
    name = " ".join(visible.split())[:NAME_CHARS].strip()
    return name or fallback


@router.get("/api/me", tags=["members"])
def me(request: Request, member: OptionalMember) -> dict[str, Any]:
    """Who is signed in, and which sign-in methods this server offers."""
    settings = request.app.state.settings
    return {"member": member_json(member), "local_signin": settings.local_mode,
            "google_client_id": settings.google_client_id,
            "csrf": csrf_token(request.cookies[SESSION_COOKIE]) if member else None}


@router.post("/api/auth/local", tags=["members"], dependencies=[SignInProof, rate_limit("signin")])
def local_sign_in(request: Request, body: LocalSignIn, response: Response) -> dict[str, Any]:
    """Local sign-in with a display name: only without a Google client ID and on localhost (clearly a test mode)."""
    settings, db, _ = services(request)
    if not settings.local_mode:
        raise AuthError("local sign-in is off on this server", code="local_signin_disabled")
    name = clean_name(body.name)
    with db.transaction() as s:
        member = repo.create_local_member(s, name)
    _start_session(request, response, member)
    return {"member": member_json(member)}


MAX_GUESTS_PER_DAY = 10_000  # guests live one day; past this many the server asks visitors to sign in


@router.post("/api/auth/guest", tags=["members"], dependencies=[SignInProof, rate_limit("guest")])
def guest_sign_in(request: Request, response: Response, member: OptionalMember) -> dict[str, Any]:
    """Play as a guest, without an account: against bots only, one table at a time, kept for a day at most.

    A signed-in member is never turned into a guest: they sign out first."""
    if member is not None and not member.guest:
        raise AuthError("you are signed in as a member; sign out first to play as a guest", code="member_signed_in")
    _, db, _ = services(request)
    with db.transaction() as s:
        if repo.guests_since(s, utcnow() - repo.GUEST_TTL) >= MAX_GUESTS_PER_DAY:
            raise AuthError("too many guests right now; please sign in to play", code="guests_full")
        member = repo.create_guest(s)
    _start_session(request, response, member)
    return {"member": member_json(member)}


@router.post("/auth/google", include_in_schema=False)
async def google_sign_in(
    request: Request, credential: Annotated[str, Form()] = "", g_csrf_token: Annotated[str, Form()] = "",
    next: str = "/lobby",
) -> RedirectResponse:
    """Google Identity Services posts the ID token here; the server verifies it and starts a session.

    The work runs on the sign-in pool (:mod:`.signin_pool`): a slow certificate
    endpoint holds up sign-ins only, never the tables.
    """
    settings, db, _ = services(request)
    target = safe_next(next)
    cookie_csrf = request.cookies.get("g_csrf_token")
    if not same_site(request, GOOGLE_SIGNIN_ORIGIN):
        return RedirectResponse("/signin?error=cross_site", status_code=303)
    try:
        request.app.state.rate_limiter.check("signin", None, client_address(request))
    except TaiwanPokerError as exc:
        return RedirectResponse(f"/signin?error={quote(exc.code)}", status_code=303)

    def verify_and_store() -> Member:
        if not settings.google_client_id:
            raise TokenRejected("Google sign-in is not configured on this server", code="local_signin_disabled")
        check_csrf(cookie_csrf, g_csrf_token)
        verifier: GoogleTokenVerifier = request.app.state.google_verifier
        identity = verifier.verify(credential)
        with db.transaction() as s:
            name = tidy_name(identity.name, tidy_name((identity.email or "").partition("@")[0], "Google"))
            return repo.upsert_google_member(s, identity.sub, name, identity.email, identity.picture)

    try:
        member = await request.app.state.signin_pool.run(verify_and_store)
    except TaiwanPokerError as exc:
        return RedirectResponse(f"/signin?error={quote(exc.code)}", status_code=303)
    response = RedirectResponse(target, status_code=303)
    await asyncio.to_thread(_start_session, request, response, member)
    return response


@router.post("/api/auth/logout", tags=["members"], dependencies=[Csrf])
def sign_out(request: Request, response: Response) -> dict[str, bool]:
    """End the session."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        with request.app.state.db.transaction() as s:
            repo.end_session(s, token)
            _announce_session_end(request, s, token)
        request.app.state.session_cache.forget(token)
        request.app.state.sockets.end_session(token)
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.delete_cookie(CSRF_COOKIE, path="/")
    return {"ok": True}
