"""Security headers on every HTTP response: a strict Content-Security-Policy and anti-framing.

The policy allows scripts, styles, images, fonts and connections from this server only: no inline
``<script>``, no ``style=""`` attributes, no ``eval``; pages set computed styles through the CSSOM
(``element.style``), which CSP does not restrict. ``frame-ancestors 'none'`` (and ``X-Frame-Options: DENY``
for old browsers) keeps every page out of other sites' frames. With Google sign-in configured, the
sources Google documents for Identity Services are added (its client script, its button frame and
stylesheet, and member pictures from ``*.googleusercontent.com``).

WebSockets need no extra source: CSP Level 3 matches ``ws:``/``wss:`` of the same host and port under
``'self'`` (tests/web/test_csp.py checks a room's socket connects in Chromium).

Responses of the catch-all ``Exception`` handler (500) go out through Starlette's ServerErrorMiddleware,
which sits outside every added middleware, so they lack these headers (they are JSON, never framed).

A pure ASGI middleware, so streaming and static-file responses get the headers too; WebSocket and
lifespan scopes pass through untouched.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .config import Settings

GSI = "https://accounts.google.com/gsi/"
GOOGLE_PICTURES = "https://*.googleusercontent.com"


def content_security_policy(settings: Settings) -> str:
    """The ``Content-Security-Policy`` header value for these settings."""
    google = bool(settings.google_client_id)
    directives: list[tuple[str, list[str]]] = [
        ("default-src", ["'self'"]),
        ("script-src", ["'self'", *([GSI + "client"] if google else [])]),
        ("style-src", ["'self'", *([GSI + "style"] if google else [])]),
        ("img-src", ["'self'", "data:", *([GOOGLE_PICTURES] if google else [])]),
        ("connect-src", ["'self'", *([GSI] if google else [])]),
        ("font-src", ["'self'"]),
        *([("frame-src", [GSI])] if google else []),
        ("object-src", ["'none'"]),
        ("base-uri", ["'self'"]),
        ("form-action", ["'self'"]),
        ("frame-ancestors", ["'none'"]),
    ]
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives)


def security_headers(settings: Settings) -> list[tuple[str, str]]:
    """Every header the middleware adds, in order."""
    return [
        ("Content-Security-Policy", content_security_policy(settings)),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        # Google's sign-in button checks the page's origin from the Referer: send the origin (never the path)
        # to other sites when Google sign-in is on; nothing at all otherwise
        ("Referrer-Policy", "strict-origin-when-cross-origin" if settings.google_client_id else "same-origin"),
    ]


class SecurityHeadersMiddleware:
    """Adds :func:`security_headers` to every HTTP response (a header the response already set is kept)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.headers = security_headers(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                headers = MutableHeaders(scope=message)
                for name, value in self.headers:
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
