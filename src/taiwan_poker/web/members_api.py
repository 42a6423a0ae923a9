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
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from sqlalchemy.orm import Session

from ..auth.google import GoogleTokenVerifier, TokenRejected, check_csrf
from ..errors import TaiwanPokerError
from ..rooms.service import ActResult, RoomService
from ..store import repo
from ..store.db import Database
from ..store.models import Member, utcnow
from ..tables.limits import (
    BOT_LEVELS,
    BOUNDS,
    DEFAULT_BLINDS,
    DEFAULT_BOT_LEVEL,
    DEFAULT_DECKS,
    DEFAULT_SEATS,
    DEFAULT_STACK,
)
from .config import Settings
from .error_model import ERROR_RESPONSES
from .metrics import observe_action
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


def clean_name(raw: str) -> str:
    name = " ".join(raw.split())
    if not 1 <= len(name) <= 40 or any(unicodedata.category(ch).startswith("C") for ch in name):
        raise AuthError("a name has 1 to 40 visible characters", code="bad_name")
    return name


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
            return repo.upsert_google_member(s, identity.sub, identity.name, identity.email, identity.picture)

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


# --- rooms --------------------------------------------------------------------------------------------------------


class NewRoom(BaseModel):
    """A table's settings; every field is optional (the defaults are the spec's heads-up table)."""

    model_config = ConfigDict(extra="forbid")
    decks: StrictInt = Field(DEFAULT_DECKS, description=f"decks in the shoe, {BOUNDS.decks[0]}–{BOUNDS.decks[1]}",
                             json_schema_extra={"minimum": BOUNDS.decks[0], "maximum": BOUNDS.decks[1]})
    seats: StrictInt = Field(DEFAULT_SEATS, description=f"seats, {BOUNDS.seats[0]}–{BOUNDS.seats[1]}",
                             json_schema_extra={"minimum": BOUNDS.seats[0], "maximum": BOUNDS.seats[1]})
    stack: StrictInt = Field(DEFAULT_STACK, description="starting stack (at least 10 big blinds)",
                             json_schema_extra={"minimum": BOUNDS.stack[0], "maximum": BOUNDS.stack[1]})
    blinds: list[StrictInt] = Field(list(DEFAULT_BLINDS), description=(
        f"[small blind, big blind]: the big blind {BOUNDS.big_blind[0]}–{BOUNDS.big_blind[1]}, the small blind 1 "
        "up to the big blind"), examples=[[10, 20]], json_schema_extra={
        "minItems": 2, "maxItems": 2, "items": {"type": "integer", "minimum": 1, "maximum": BOUNDS.big_blind[1]}})

    def settings(self) -> dict[str, Any]:
        return {"decks": self.decks, "seats": self.seats, "stack": self.stack, "blinds": self.blinds}


class NewTable(NewRoom):
    """A new table's settings, and bots to seat beside its creator at once (a full table deals straight away)."""

    bots: StrictInt = Field(0, description="bots to seat at once, 0 to seats − 1 (fills the table: a solo game)")
    level: StrictStr | None = Field(None, description=f"the bots' level: {', '.join(BOT_LEVELS)} (default "
                                                      f"{DEFAULT_BOT_LEVEL})")

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "bots": self.bots, "level": self.level}


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: StrictStr | None = Field(None, description=f"{', '.join(BOT_LEVELS)}; omitted: {DEFAULT_BOT_LEVEL}",
                                    json_schema_extra={"enum": [*BOT_LEVELS, None]})


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: StrictInt = Field(description="the room version the action was made against",
                               json_schema_extra={"minimum": 0})
    key: StrictStr | None = Field(None, description="idempotency key (e.g. a UUID); a repeat changes nothing",
                                  json_schema_extra={"minLength": 1, "maxLength": 64})
    action: dict[str, Any] = Field(description='{"kind": "fold|check|call|bet|raise|allin", "to": street total}',
                                   examples=[{"kind": "raise", "to": 120}])


class VersionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: StrictInt = Field(json_schema_extra={"minimum": 0})


def room_url(request: Request, code: str) -> str:
    return str(request.base_url).rstrip("/") + f"/rooms/{code}"


def act_json(result: ActResult) -> dict[str, Any]:
    return {"applied": result.applied, "reason": result.reason, "state": result.state}


@router.get("/api/rooms", tags=["rooms"])
def lobby(request: Request, member: MemberDep) -> dict[str, Any]:
    """The member's rooms, newest first."""
    return {"rooms": services(request)[2].reads.lobby(member)}


@router.post("/api/rooms", tags=["rooms"], dependencies=[Csrf, rate_limit("room_create")])
def create_room(request: Request, member: MemberDep, body: NewTable | None = None) -> dict[str, str]:
    """Open a table (by default heads-up, 2 decks, 2,000 chips, blinds 10/20) and take seat 0.

    A guest opens solo tables only (bots in every other seat); their previous table ends.
    """
    code = services(request)[2].create_room(member, **(body or NewTable.model_validate({})).settings())
    return {"code": code, "url": room_url(request, code)}


@router.get("/api/tables/limits", tags=["rooms"])
def table_limits() -> dict[str, Any]:
    """The ranges and defaults of a table's settings (decks, seats, stack, blinds, clock)."""
    return BOUNDS.to_json()


@router.post("/api/rooms/{code}/settings", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def configure_room(request: Request, code: str, body: NewRoom, member: MemberDep) -> dict[str, Any]:
    """The creator changes the table's settings until the first hand is dealt."""
    return services(request)[2].configure(code, member, **body.settings())


@router.post("/api/rooms/{code}/bots", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def add_bot(request: Request, code: str, member: MemberDep, body: BotIn | None = None) -> dict[str, Any]:
    """The creator seats a bot in the next empty seat (before the first hand or between hands)."""
    return services(request)[2].add_bot(code, member, (body or BotIn.model_validate({})).level)


@router.delete("/api/rooms/{code}/bots/{seat}", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def remove_bot(request: Request, code: str, seat: int, member: MemberDep) -> dict[str, Any]:
    """The creator takes a bot off the table between hands."""
    return services(request)[2].remove_bot(code, member, seat)


class CoachIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    on: StrictBool = Field(description="the coach on (true) or off (false) for everyone at the table")


@router.get("/api/rooms/{code}/coach", tags=["rooms"])
def coach(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    """The coach's advice for your turn, from your seat's view only (``advice`` is null when it is not your turn)."""
    return services(request)[2].reads.coach(code, member)


@router.post("/api/rooms/{code}/coach", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def set_coach(request: Request, code: str, body: CoachIn, member: MemberDep) -> dict[str, Any]:
    """The creator turns the coach on or off for everyone at the table (between hands)."""
    return services(request)[2].set_coach(code, member, body.on)


@router.post("/api/rooms/{code}/away", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def away(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    """Step away: your hands are checked or folded at once until you are back."""
    return services(request)[2].away(code, member)


@router.post("/api/rooms/{code}/back", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def back(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    """Come back to the table after being away."""
    return services(request)[2].back(code, member)


@router.get("/api/rooms/{code}", tags=["rooms"])
def room_state(request: Request, code: str, member: OptionalMember) -> dict[str, Any]:
    """The room as the caller may see it (a spectator: public information only)."""
    return services(request)[2].state(code, member)


@router.post("/api/rooms/{code}/join", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def join_room(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    return services(request)[2].join(code, member)


@router.post("/api/rooms/{code}/leave", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def leave_room(request: Request, code: str, member: MemberDep) -> dict[str, bool]:
    """Leave the seat for good (a match in progress is forfeited)."""
    services(request)[2].leave(code, member)
    return {"ok": True}


@router.post("/api/rooms/{code}/rematch", tags=["rooms"], dependencies=[Csrf, rate_limit("room_create")])
def rematch(request: Request, code: str, member: MemberDep) -> dict[str, str]:
    new = services(request)[2].rematch(code, member)
    return {"code": new, "url": room_url(request, new)}


@router.post("/api/rooms/{code}/actions", tags=["rooms"], dependencies=[Csrf, rate_limit("action")])
def act(request: Request, code: str, body: ActionIn, member: MemberDep) -> dict[str, Any]:
    """Act against a version; a stale or repeated request changes nothing and returns the current state."""
    with observe_action(request.app, "action"):
        return act_json(services(request)[2].act(code, member, body.action, body.version, body.key))


@router.post("/api/rooms/{code}/timeout", tags=["rooms"], dependencies=[Csrf, rate_limit("action")])
def timeout(request: Request, code: str, body: VersionIn, member: MemberDep) -> dict[str, Any]:
    """After the action clock runs out, a seated member applies the time-out: check if possible, else fold."""
    with observe_action(request.app, "timeout"):
        return act_json(services(request)[2].timeout(code, member, body.version))


@router.post("/api/rooms/{code}/next", tags=["rooms"], dependencies=[Csrf, rate_limit("action")])
def next_hand(request: Request, code: str, body: VersionIn, member: MemberDep) -> dict[str, Any]:
    """Deal the next hand once the last one is over."""
    with observe_action(request.app, "next"):
        return act_json(services(request)[2].next_hand(code, member, body.version))
