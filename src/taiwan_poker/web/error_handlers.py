"""The app's error answers: a core error by its registered status and message, bad request bodies, HTTP
errors (a page or JSON, by what was asked), the database down, and anything unexpected."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from ..errors import TaiwanPokerError
from .code_guessing import answer_miss
from .error_registry import status_of
from .i18n import error_message, t
from .members_api import client_address
from .rendering import render
from .state import lang_of

log = logging.getLogger("taiwan_poker.web")
HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def allowed_methods(request: Request) -> str:
    """Every method some route serves at this request's path (for a 405's ``Allow``)."""
    routes = request.app.router.routes
    return ", ".join(method for method in HTTP_METHODS
                     if any(route.matches({**request.scope, "method": method})[0] is Match.FULL for route in routes))


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the JSON API) gets the error as a page."""
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get("accept", "")


def _validation_message(lang: str, exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(x) for x in err.get("loc", ()) if x not in ("body", "query", "path"))
        kind = str(err.get("type", ""))
        key = {"missing": "missing", "extra_forbidden": "extra", "json_invalid": "json"}.get(kind.split(".")[0],
                                                                                          "type")
        if kind.startswith(("int_", "string_", "list_", "bool_", "float_")):
            key = "type"
        ctx = err.get("ctx") or {}
        bound = next((ctx[k] for k in ("ge", "gt", "le", "lt") if k in ctx), None)
        if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than") and bound is not None:
            key = "too_small" if kind.startswith("greater") else "too_large"
        parts.append(t(lang, f"error.field.{key}", field=loc or "body", limit=f"{bound:,}" if bound is not None
                       else ""))
    if lang == "zh-TW":
        return t(lang, "error.bad_request") + "；".join(parts) + "。"
    return t(lang, "error.bad_request") + " " + "; ".join(parts) + "."


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error in the reader's language, with its registered status."""

    @app.exception_handler(TaiwanPokerError)
    async def core_error(request: Request, exc: TaiwanPokerError) -> JSONResponse:
        if exc.code == "room_not_found":
            try:
                answer_miss(app.state.rate_limiter, client_address(request))
            except TaiwanPokerError as refused:  # the address has used up its misses: no answer about the code
                exc = refused
        status = status_of(exc.code)
        response = _error(status, exc.code, error_message(lang_of(request), exc))
        if "retry_after" in exc.params:  # rate limits, a full calculator queue
            response.headers["Retry-After"] = str(exc.params["retry_after"])
        return response

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        message = _validation_message(lang_of(request), exc)
        if _wants_page(request):
            return render(request, "error.html", "home", status_code=422, message=message)
        return _error(422, "bad_request", message)

    @app.exception_handler(Exception)
    async def unexpected_error(request: Request, exc: Exception) -> JSONResponse:
        # RequestContext has logged it with the request id and the traceback
        return _error(500, "internal_error", t(lang_of(request), "error.internal_error"))

    @app.exception_handler(DBAPIError)
    async def database_error(request: Request, exc: DBAPIError) -> JSONResponse:
        """The database did not answer (down, restarting, connection cut): 503, try again shortly."""
        app.state.metrics.database_errors.inc()
        log.error("database error: %s", type(exc.orig or exc).__name__, exc_info=exc)
        response = _error(503, "database_unavailable", t(lang_of(request), "error.database_unavailable"))
        response.headers["Retry-After"] = "2"
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        lang = lang_of(request)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = t(lang, f"error.{code}")
        if _wants_page(request):
            response: Response = render(request, "error.html", "home", status_code=exc.status_code, message=message)
        else:
            response = _error(exc.status_code, code, message)
        response.headers.update(exc.headers or {})
        if exc.status_code == 405:  # Starlette names the first matching route's methods; the path may have more
            response.headers["Allow"] = allowed_methods(request)
        return response
