"""Error answers written below the app (by ASGI middleware or the connection's protocol): the same
``{"error": {"code", "message"}}`` body as the app's, in the reader's language from the request alone."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import HTTPConnection
from starlette.types import Scope, Send

from .i18n import LANG_COOKIE, negotiate, t


def error_body(scope: Scope, code: str, **params: Any) -> bytes:
    """The JSON error body for ``code`` (message ``error.<code>``), in the language the request asks for."""
    conn = HTTPConnection(scope)
    lang = negotiate(conn.query_params.get("lang"), conn.cookies.get(LANG_COOKIE), conn.headers.get("accept-language"))
    message = t(lang, f"error.{code}", **params)
    return json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False).encode()


def error_headers(body: bytes, *extra: tuple[bytes, bytes]) -> list[tuple[bytes, bytes]]:
    return [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra]


async def send_error(scope: Scope, send: Send, status: int, code: str, *extra: tuple[bytes, bytes],
                     **params: Any) -> None:
    """Answer the request with ``status`` and the error ``code`` (an ASGI middleware's refusal)."""
    body = error_body(scope, code, **params)
    await send({"type": "http.response.start", "status": status, "headers": error_headers(body, *extra)})
    await send({"type": "http.response.body", "body": body})
