"""A cap on request bodies: anything larger is answered 413 before more of it is read.

A pure ASGI middleware (outermost, so no other layer buffers the body first).
A ``Content-Length`` over the cap is refused before a single body byte is
read; a chunked body is counted as it arrives, and the moment it passes the
cap the 413 goes out and the application is told the client disconnected, so
it stops reading. Whatever the application tries to send after that is
dropped. The server closes the connection rather than drain the rest.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .raw_errors import send_error

MAX_BODY_BYTES = 64 * 1024


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 ``body_too_large``."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, send)
            return
        received = 0
        refused = False
        started = False

        async def limited_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    if not started:
                        await self._refuse(scope, send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 went out already
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not refused:
                raise
            # the application noticed the "disconnect" (e.g. ClientDisconnect): the 413 already answered

    async def _refuse(self, scope: Scope, send: Send) -> None:
        await send_error(scope, send, 413, "body_too_large", (b"connection", b"close"), kib=self.limit // 1024)
