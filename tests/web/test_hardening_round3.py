"""Audit round 3 against real server processes (issue 51): limits that count before they answer, integers too
big to store, co-host powers and the info findings.  (Slow request bodies: ``test_slow_bodies.py``; the proxy's
body deadline: ``tests/scale/test_proxy.py``.)

Each server here runs with the rate limits as shipped (``TP_RATE_LIMIT_SCALE=1``).
"""

from __future__ import annotations

import http.client
import random
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server_process import ServerProcess
from tests.web.test_hardening_round2 import clear_of_a_minute_edge, random_code

REDIS = ("127.0.0.1", 6379)


@pytest.fixture
def shipped(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "data", tmp_path / "server.log", env={"TP_RATE_LIMIT_SCALE": "1"})
    process.start()
    yield process
    process.stop()


def _loopback() -> str:
    """A fresh loopback address: its counters (in a shared Redis too) are this test's alone."""
    return f"127.{random.randint(100, 250)}.{random.randint(0, 255)}.{random.randint(1, 254)}"


def _together(ports: list[int], source: str, n: int) -> Counter[int]:
    """``n`` reads of unknown table codes from ``source``, each on its own connection (spread over ``ports``),
    all sent at the same moment: the statuses they got."""
    conns = []
    for i in range(n):
        conn = http.client.HTTPConnection("127.0.0.1", ports[i % len(ports)], timeout=60,
                                          source_address=(source, 0))
        conn.connect()
        conns.append(conn)
    start = threading.Barrier(n)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def read(conn: http.client.HTTPConnection) -> None:
        start.wait()
        conn.request("GET", f"/api/rooms/{random_code()}")
        status = conn.getresponse().status
        with lock:
            statuses[status] += 1

    threads = [threading.Thread(target=read, args=(conn,)) for conn in conns]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for conn in conns:
        conn.close()
    return statuses


def test_round3_250_simultaneous_code_guesses_get_at_most_20_answers(shipped: ServerProcess) -> None:
    """The audit sent 250 unknown-code reads at once from one address and got 250 answers: the limit was
    checked before each request and counted after.  Each miss is now counted before it is answered."""
    clear_of_a_minute_edge()
    statuses = _together([shipped.port], _loopback(), 250)
    assert sum(statuses.values()) == 250, statuses
    assert statuses[404] == 20 and statuses[429] == 230, statuses


def _redis_up() -> bool:
    try:
        socket.create_connection(REDIS, timeout=1).close()
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _redis_up(), reason="no Redis at 127.0.0.1:6379")
def test_round3_two_instances_sharing_redis_answer_20_of_250_simultaneous_guesses(tmp_path: Path) -> None:
    """The same burst split over two instances that share their counters (``TP_RATE_LIMIT_STORAGE``)."""
    env = {"TP_RATE_LIMIT_SCALE": "1", "TP_RATE_LIMIT_STORAGE": f"redis://{REDIS[0]}:{REDIS[1]}"}
    servers = [ServerProcess(tmp_path / f"data{i}", tmp_path / f"server{i}.log", env=env) for i in (1, 2)]
    try:
        for server in servers:
            server.start()
        clear_of_a_minute_edge()
        statuses = _together([s.port for s in servers], _loopback(), 250)
    finally:
        for server in servers:
            server.stop()
    assert statuses[404] == 20 and statuses[429] == 230, statuses


BIG = 2**63


def _member(base: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=base, timeout=30)
    assert c.post("/api/auth/local", json={"name": name}, headers={"X-CSRF-Token": "signin"}).status_code == 200
    c.headers["X-CSRF-Token"] = c.cookies["tp_csrf"]
    return c


def test_round3_numbers_of_2_63_get_a_422_on_the_same_connection_and_a_short_log(shipped: ServerProcess) -> None:
    """Each of these gave a 500, dropped the connection and logged 15.9 KB (a database overflow)."""
    alice = _member(shipped.base, "Alice")
    code = alice.post("/api/rooms", json={"seats": 2}).json()["code"]
    line = alice.post(f"/api/rooms/{code}/chat", json={"text": "hi"}).json()["message"]["id"]
    stranger = httpx.Client(base_url=shipped.base, timeout=30)
    for c, method, path, body in ((stranger, "GET", f"/api/rooms/{code}/chat?after={BIG}", None),
                                  (alice, "DELETE", f"/api/rooms/{code}/chat/{BIG}", None),
                                  (alice, "POST", f"/api/rooms/{code}/chat", {"reaction": "👍", "to": BIG}),
                                  (alice, "POST", f"/api/rooms/{code}/chat", {"reaction": "👍", "to": -BIG})):
        log_before = shipped.log_path.stat().st_size
        r = c.request(method, path, json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request", (path, r.status_code, r.text)
        assert shipped.log_path.stat().st_size - log_before < 2000, "a bad number logged a traceback"
        again = c.get("/healthz")  # the same keep-alive connection answers on
        assert again.status_code == 200
    assert alice.post(f"/api/rooms/{code}/chat", json={"reaction": "👍", "to": line}).status_code == 200


def _integers(node: object, where: str, found: list[tuple[str, dict[str, object]]]) -> None:
    if isinstance(node, dict):
        if node.get("type") == "integer":
            found.append((where, node))
        for key, value in node.items():
            _integers(value, f"{where}/{key}", found)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _integers(value, f"{where}/{i}", found)


def test_round3_every_integer_the_api_takes_has_bounds_in_the_schema(shipped: ServerProcess) -> None:
    """The fuzzer could not find the 2^63 answers because the schema gave these integers no bounds."""
    spec = httpx.get(shipped.base + "/openapi.json", timeout=30).json()
    found: list[tuple[str, dict[str, object]]] = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            _integers(op.get("parameters", []), f"{method.upper()} {path} parameters", found)
            _integers(op.get("requestBody", {}), f"{method.upper()} {path} body", found)
    _integers({k: v for k, v in spec["components"]["schemas"].items() if k.endswith("In") or k in (
        "NewRoom", "NewTable", "Body_google_sign_in_auth_google_post")}, "schemas", found)
    assert len(found) > 30, found
    unbounded = [where for where, node in found if "minimum" not in node or "maximum" not in node]
    assert not unbounded, unbounded


def _three(base: str) -> tuple[list[httpx.Client], str]:
    """Alice (host), Bob and Carol at a four-seat table; the first hand folded round; the table paused."""
    players = [_member(base, n) for n in ("Alice", "Bob", "Carol")]
    alice = players[0]
    code = alice.post("/api/rooms", json={"seats": 4, "spectator_chat": True}).json()["code"]
    for p in players[1:]:
        assert p.post(f"/api/rooms/{code}/join").status_code == 200
    assert alice.post(f"/api/rooms/{code}/next", json={"version": alice.get(f"/api/rooms/{code}").json()["version"]}
                      ).status_code == 200
    assert alice.post(f"/api/rooms/{code}/pause").status_code == 200
    while not (s := alice.get(f"/api/rooms/{code}").json())["hand"]["complete"]:
        r = players[s["hand"]["to_act"]].post(f"/api/rooms/{code}/actions",
                                              json={"version": s["version"], "action": {"kind": "fold"}})
        assert r.status_code == 200 and r.json()["applied"], r.text
    return players, code


def _code(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def test_round3_a_cohost_cannot_pay_itself_and_big_stacks_need_the_host(shipped: ServerProcess) -> None:
    """A co-host set its own stack to 999,999 and the host's to 1; now neither, and no stack above ten starting
    stacks (20,000 here) without the host's confirmation."""
    (alice, bob, _carol), code = _three(shipped.base)
    assert alice.post(f"/api/rooms/{code}/cohosts", json={"seat": 1}).status_code == 200
    stack = f"/api/rooms/{code}/players/{{}}/stack"
    assert _code(bob.post(stack.format(1), json={"stack": 999_999})) == (403, "cohost_stack")
    assert _code(bob.post(stack.format(0), json={"stack": 1})) == (403, "cohost_stack")
    assert _code(bob.post(stack.format(2), json={"stack": 999_999, "confirm": True})) == (409, "stack_confirm")
    assert _code(alice.post(stack.format(2), json={"stack": 999_999})) == (409, "stack_confirm")
    assert bob.post(stack.format(2), json={"stack": 20_000}).status_code == 200
    view = alice.post(stack.format(2), json={"stack": 999_999, "confirm": True}).json()
    assert next(p for p in view["players"] if p["seat"] == 2)["stack"] == 999_999
    stacks = [p["stack"] for p in alice.get(f"/api/rooms/{code}").json()["players"]]
    assert stacks[0] != 1 and stacks[1] != 999_999


def test_round3_spectators_can_be_silenced_and_strangers_learn_nothing_of_players_chat(
        shipped: ServerProcess) -> None:
    (alice, bob, carol), code = _three(shipped.base)
    dave = _member(shipped.base, "Dave")  # a spectator: the table lets spectators chat
    line = dave.post(f"/api/rooms/{code}/chat", json={"text": "spam"}).json()["message"]["id"]
    assert _code(bob.post(f"/api/rooms/{code}/silence", json={"line": line})) == (403, "not_host")
    view = alice.post(f"/api/rooms/{code}/silence", json={"line": line, "on": True}).json()
    assert view["silenced_spectators"] == [{"name": "Dave", "line": line}]
    assert _code(dave.post(f"/api/rooms/{code}/chat", json={"text": "more"})) == (403, "chat_silenced")
    assert alice.post(f"/api/rooms/{code}/silence", json={"line": line, "on": False}).json()[
        "silenced_spectators"] == []
    assert dave.post(f"/api/rooms/{code}/chat", json={"text": "sorry"}).status_code == 200
    assert _code(alice.post(f"/api/rooms/{code}/silence", json={"line": line, "seat": 1})) == (400, "bad_request")
    # a players-only table: a stranger reads neither its lines nor its newest line's id
    assert alice.post(f"/api/rooms/{code}/options", json={"spectator_chat": False}).status_code == 200
    alice.post(f"/api/rooms/{code}/chat", json={"text": "players only"})
    stranger = httpx.get(f"{shipped.base}/api/rooms/{code}/chat", timeout=30).json()
    assert stranger["messages"] == [] or all(m["audience"] == "everyone" for m in stranger["messages"])
    newest_public = max((m["id"] for m in stranger["messages"]), default=0)
    assert stranger["last"] == newest_public, stranger
    assert carol.get(f"/api/rooms/{code}/chat").json()["last"] > newest_public


def test_round3_info_findings(shipped: ServerProcess) -> None:
    with httpx.Client(base_url=shipped.base, timeout=30) as c:
        big = c.post("/api/calc/pot-odds", content=b"x" * 70_000, headers={"content-type": "application/json"})
        assert big.status_code == 413 and big.headers.get("x-request-id"), big.headers
        put = c.put("/api/rooms")
        assert put.status_code == 405 and {"GET", "POST"} <= set(put.headers["allow"].split(", ")), put.headers
        page = c.get("/rooms/ABCDEF/hands/99999999999", headers={"accept": "text/html"})
        assert page.status_code == 422 and page.headers["content-type"].startswith("text/html")
