"""Schemathesis against ``/openapi.json``: every documented operation fuzzed in-process, signed in.

The app is built as ``tests/members/conftest.py`` builds it, with rate limits off
(``rate_limit_scale=0``) so the fuzzer is not throttled.  Every request carries the
fuzz member's session cookie and the ``X-CSRF-Token`` header equal to its
``tp_csrf`` cookie (sign-in and sign-out, which end the session they are sent with,
get a throwaway member's); every other case of a room or lab operation is aimed at a
real room (both seats taken, a hand running) or lab hand instead of a made-up id.

Per operation: schemathesis' deterministic coverage cases (boundary values, each field
of the wrong type, missing or extra), then 8 positive and 6 negative generated
cases, derandomized, so every run sends the same ~920 requests (about 8 s here).

Checks: no 5xx (``not_a_server_error``); a documented status code, content type and
body schema (``status_code_conformance``, ``content_type_conformance``,
``response_schema_conformance``); invalid input refused (``negative_data_rejection``).
Error bodies are the shared ``{"error": {"code", "message"}}`` model that ``web/api.py``
declares for every 4xx (``web/error_model.py``, ``ERROR_RESPONSES``), on the odds
and lab routes and the member routes alike.

The operations are driven by hand (``operation.as_strategy()`` under
``hypothesis.given``), not by ``schemathesis.pytest.from_fixture``: that lazy-schema
plugin of schemathesis 4.32.5 reads ``request.node._nodeid``, which pytest 9 no
longer has.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.python import asgi as st_asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from starlette.types import Message, Receive, Scope, Send

from taiwan_poker.web import api, create_app, members_api
from taiwan_poker.web.config import Settings

EXAMPLES = {GenerationMode.POSITIVE: 8, GenerationMode.NEGATIVE: 6}  # per operation
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          negative_data_rejection]
UNDOCUMENTED_ERROR_CHECKS = [not_a_server_error, content_type_conformance]
SESSION_OPS = {"POST /api/auth/local", "POST /api/auth/guest", "POST /api/auth/logout"}  # each ends the session sent
ERROR_REF = "#/components/schemas/ErrorOut"


class CountingApp:
    """The ASGI app, counting the HTTP requests that reach it (and the 5xx answers)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.requests = 0
        self.server_errors = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.requests += 1

        async def counting_send(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] >= 500:
                self.server_errors += 1
            await send(message)

        await self.app(scope, receive, counting_send)


def documents_errors(definition: dict[str, Any]) -> bool:
    """The operation declares the shared error body for its 4xx answers."""
    four = definition.get("responses", {}).get("4XX", {})
    return bool(four.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref") == ERROR_REF)


def _types(schema: Any) -> set[str]:
    if isinstance(schema, dict):
        found = {schema["type"]} if isinstance(schema.get("type"), str) else set()
        for value in schema.values():
            found |= _types(value)
        return found
    if isinstance(schema, list):
        return set().union(*(_types(x) for x in schema)) if schema else set()
    return set()


def negatable(definition: dict[str, Any]) -> bool:
    """Something in the request can be made invalid: a body, or a parameter that is not free text."""
    params = [p.get("schema", {}) for p in definition.get("parameters", [])]
    return "requestBody" in definition or bool(_types(params) - {"string", "null"})


class Fuzz:
    """The app, the fuzz member's cookies, a live room per room operation to aim at, and the request count."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.counting = CountingApp(app)
        self.cases: dict[str, int] = {}
        self.rooms: dict[str, str] = {}
        self.me = self.client("fuzz")
        self.partner = self.client("partner")
        self.cookies = {"tp_session": self.me.cookies["tp_session"], "tp_csrf": self.me.cookies["tp_csrf"]}
        self.lab_hand = self.me.post("/api/lab/hands", json={"decks": 2}).json()["id"]
        assert self.me.get("/api/odds").status_code == 200  # the exact tables, built once here (seconds, cold)

    @property
    def requests(self) -> int:
        return self.counting.requests

    def client(self, name: str) -> TestClient:
        """A client signed in as ``name`` (the cookie jar holds the session, the headers the CSRF token)."""
        c = TestClient(self.counting)
        r = c.post("/api/auth/local", json={"name": name}, headers={"X-CSRF-Token": "signin"})
        assert r.status_code == 200, r.text
        c.headers["X-CSRF-Token"] = c.cookies["tp_csrf"]
        return c

    def room_for(self, label: str) -> str:
        """A room of its own for each room operation, with both seats taken and a hand being played."""
        if label not in self.rooms:
            code = self.me.post("/api/rooms", json={"decks": 2}).json()["code"]
            assert self.partner.post(f"/api/rooms/{code}/join").status_code == 200
            self.rooms[label] = code
        return self.rooms[label]

    def credentials(self, label: str) -> dict[str, str]:
        """The fuzz member's cookies; sign-in and sign-out (which end the session sent) get a throwaway one."""
        if label not in SESSION_OPS:
            return self.cookies
        c = self.client("throwaway")
        return {"tp_session": c.cookies["tp_session"], "tp_csrf": c.cookies["tp_csrf"]}

    def run(self, case: Any) -> None:
        operation = case.operation
        label = operation.label
        n = self.cases[label] = self.cases.get(label, 0) + 1
        params = case.path_parameters or {}
        if n % 2 == 0:  # every other case aims at a real room / lab hand instead of a made-up one
            if "code" in params:
                params["code"] = self.room_for(label)
            if "hand_id" in params:
                params["hand_id"] = self.lab_hand
        cookies = self.credentials(label)
        headers = {"X-CSRF-Token": cookies["tp_csrf"]}
        response = case.call(cookies=cookies, headers=headers)
        documented = documents_errors(operation.definition.raw) or response.status_code < 400
        case.validate_response(response, checks=CHECKS if documented else UNDOCUMENTED_ERROR_CHECKS,
                               headers=headers)


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzz]:
    tmp: Path = tmp_path_factory.mktemp("fuzz")
    app = create_app(tmp, warm=False, settings=Settings(
        data_dir=tmp, database_url=f"sqlite:///{tmp / 'tp.sqlite3'}", google_client_id=None, host="127.0.0.1",
        action_clock_seconds=45, rate_limit_scale=0,
    ))
    state = Fuzz(app)
    yield state
    st_asgi.shutdown_lifespans()  # the app's lifespan (started by schemathesis) ends with the module


def test_api_conforms_to_its_openapi(fuzz: Fuzz, record_property: Any) -> None:
    """Every operation: no 5xx; documented status code, content type and body schema."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzz.counting)
    failures: list[str] = []
    start = time.perf_counter()
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), f"the schema does not load: {result}"
        operation = result.ok()
        # schemathesis' deterministic coverage cases: boundary values, each field of the wrong type, missing, extra
        coverage = schema.config.generation_for(operation=operation, phase="coverage")
        for case in schema.iter_coverage_cases(operation, generation_modes=list(GenerationMode),
                                               generation_config=coverage):
            try:
                fuzz.run(case)
            except (Exception, BaseExceptionGroup) as exc:  # schemathesis' FailureGroup is a BaseExceptionGroup
                failures.append(f"{operation.label} (coverage): {exc}")
        for mode, examples in EXAMPLES.items():
            if mode is GenerationMode.NEGATIVE and not negatable(operation.definition.raw):
                continue  # every string is a valid path parameter: nothing to make invalid

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=examples, derandomize=True, deadline=None, database=None,
                      phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
            def check(case: Any) -> None:
                fuzz.run(case)

            try:
                check()
            except (Exception, BaseExceptionGroup) as exc:  # schemathesis' FailureGroup is a BaseExceptionGroup
                failures.append(f"{operation.label} ({mode.value}): {exc}")
    elapsed = time.perf_counter() - start
    record_property("schemathesis_requests", fuzz.requests)
    print(f"\nschemathesis: {fuzz.requests} requests ({sum(fuzz.cases.values())} generated cases) "
          f"over {len(fuzz.cases)} operations in {elapsed:.1f} s; {fuzz.counting.server_errors} answered 5xx")
    assert not failures, "\n\n".join(failures)
    assert fuzz.counting.server_errors == 0
    assert len(fuzz.cases) == len(list(schema.get_all_operations())), "every operation was exercised"


@pytest.mark.parametrize("module", [
    api,
    members_api,
], ids=["api", "members_api"])
def test_every_operation_documents_its_error_body(fuzz: Fuzz, module: ModuleType) -> None:
    """Every JSON operation declares ``4XX: ErrorOut`` (and so not FastAPI's unused ``HTTPValidationError``)."""
    spec = fuzz.app.openapi()
    routes = [r for r in module.router.routes if isinstance(r, APIRoute) and r.include_in_schema]
    assert routes
    missing = [f"{m} {r.path}" for r in routes for m in sorted(r.methods or ())
               if not documents_errors(spec["paths"][r.path][m.lower()])]
    assert missing == []
