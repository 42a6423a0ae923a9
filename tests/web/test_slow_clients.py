"""Unfinished request heads against the real server (audit issue 19, item 1): ``web/connection_guard.py``.

Before the guard, uvicorn held a connection that sent ``GET / HTTP/1.1\\r\\nHost: x\\r\\n`` and nothing more
for ever; 20,000 of them used up the descriptors, ``/healthz`` stopped answering and asyncio logged every
failed accept.  The server here runs with a 2-second head deadline, 50 connections per address and 512
descriptors; the attackers connect from other loopback addresses (Linux routes all of 127/8 to ``lo``), so
``/healthz`` from 127.0.0.1 is a separate address.
"""

from __future__ import annotations

import http.client
import logging
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets.sync.client

from taiwan_poker.web.connection_guard import (
    AcceptErrorFilter,
    ConnectionGuard,
    StormLog,
    backlog_for,
    capacity_for,
)
from tests.server_process import ServerProcess
from tests.web.raw_sockets import (
    UNFINISHED,
    close_times,
    closed_by_server,
    connect,
    descriptors,
    guard_counts,
    log_lines,
    open_storm,
)

HEAD_TIMEOUT = 2.0
PER_ADDRESS = 50
DESCRIPTORS = 512


def _server(tmp: Path, head_timeout: float, max_descriptors: int | None = None) -> ServerProcess:
    return ServerProcess(tmp / "data", tmp / "server.log", {
        "TP_HEAD_TIMEOUT": str(head_timeout), "TP_MAX_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS),
        "TP_RATE_LIMIT_SCALE": "1"}, max_descriptors=max_descriptors)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A 2-second head deadline and 50 connections per address."""
    process = _server(tmp_path_factory.mktemp("slow-clients"), HEAD_TIMEOUT)
    process.start(timeout=60)  # a loaded CI machine starts it slowly
    yield process
    process.stop()


@pytest.fixture(scope="module")
def small_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """512 descriptors (room for 448 connections), 50 per address, and a 10-second head deadline, so that
    the connections of a test stay open until it has checked them however loaded the machine is."""
    process = _server(tmp_path_factory.mktemp("slow-clients-small"), 10.0, DESCRIPTORS)
    process.start(timeout=60)  # a loaded CI machine starts it slowly
    yield process
    process.stop()


def test_unfinished_heads_are_closed_at_the_deadline(server: ServerProcess) -> None:
    socks, opened = [], []
    try:
        for _ in range(20):
            socks.append(connect(server.port, "127.0.0.2"))
            opened.append(time.monotonic())
            time.sleep(0.01)  # one at a time into the server's short listen queue
        closed = close_times(socks, HEAD_TIMEOUT + 4)
    finally:
        for s in socks:
            s.close()
    held = [c - o for c, o in zip(closed, opened, strict=True) if c is not None]
    assert len(held) == len(socks), f"{len(socks) - len(held)} of {len(socks)} unfinished heads still open"
    assert min(held) > HEAD_TIMEOUT - 0.2, held
    assert max(held) < HEAD_TIMEOUT + 1.5, held


def test_a_head_trickled_a_byte_every_half_second_is_closed_at_the_deadline(server: ServerProcess) -> None:
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    with connect(server.port, "127.0.0.3", b"") as s:
        started = time.monotonic()
        closed_after = None
        for byte in head:
            try:
                s.sendall(bytes([byte]))
            except OSError:  # reset by the server
                closed_after = time.monotonic() - started
                break
            if close_times([s], 0.5)[0] is not None:
                closed_after = time.monotonic() - started
                break
            if time.monotonic() - started > HEAD_TIMEOUT + 4:
                break
    assert closed_after is not None, "a head trickled one byte every 0.5 s was held for more than 6 s"
    assert HEAD_TIMEOUT - 0.2 < closed_after < HEAD_TIMEOUT + 1.5, closed_after


def test_connections_over_the_per_address_cap_are_refused_at_once(small_server: ServerProcess) -> None:
    held: list[socket.socket] = []
    extra: list[socket.socket] = []
    before = guard_counts(small_server)
    try:
        for _ in range(PER_ADDRESS):
            held.append(connect(small_server.port, "127.0.0.4"))
            time.sleep(0.005)  # one at a time into the server's short listen queue
        deadline = time.monotonic() + 10
        while (counts := guard_counts(small_server)).get("open", 1e9) < before.get("open", 0) + PER_ADDRESS:
            assert time.monotonic() < deadline, "the server did not accept 50 connections in 10 s"
            time.sleep(0.05)
        if "open" not in counts:  # no guard (the code before it): give the server a moment instead
            time.sleep(0.5)
        started = time.monotonic()
        extra = [connect(small_server.port, "127.0.0.4") for _ in range(10)]
        refused = close_times(extra, 5.0)
        still_open = sum(not closed_by_server(s) for s in held)
        other = connect(small_server.port, "127.0.0.5")  # another address is not affected
        other_closed = close_times([other], 0.3)[0]
        other.close()
        after = guard_counts(small_server)
    finally:
        for s in held + extra:
            s.close()
    assert all(t is not None for t in refused), f"{refused.count(None)} of 10 over the cap were not refused"
    assert max(t for t in refused if t is not None) - started < 2.0, "refused, but not at once"
    assert after.get("refused_address", 0) - before.get("refused_address", 0) == 10
    assert still_open == PER_ADDRESS, f"only {still_open} of the first {PER_ADDRESS} are still open"
    assert other_closed is None


def test_health_checks_are_answered_while_attackers_exceed_the_descriptor_limit(small_server: ServerProcess) -> None:
    """1,200 unfinished heads from 30 addresses at a server with room for 448: the oldest make way, /healthz
    still answers in a second or two, and the storm is logged in a line or two instead of once per accept."""
    assert small_server.proc is not None
    sources = [f"127.0.1.{i}" for i in range(1, 31)]
    descriptors(2000)
    lines_before = log_lines(small_server)
    probes: list[tuple[float, int | str]] = []
    stop = threading.Event()

    def probe() -> None:
        while not stop.is_set():
            started = time.monotonic()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", small_server.port, timeout=8)
                conn.request("GET", "/healthz")
                status: int | str = conn.getresponse().status
                conn.close()
            except OSError as exc:
                status = repr(exc)
            probes.append((time.monotonic() - started, status))
            stop.wait(0.2)

    prober = threading.Thread(target=probe)
    socks: list[socket.socket] = []
    try:
        prober.start()
        socks = open_storm(small_server.port, sources, 40, UNFINISHED)
        time.sleep(3)
        held = len(list(Path(f"/proc/{small_server.proc.pid}/fd").iterdir()))
    finally:
        stop.set()
        prober.join(15)
        for s in socks:
            s.close()
    assert small_server.proc.poll() is None, "the server died"
    statuses = [status for _, status in probes]
    assert statuses and all(status == 200 for status in statuses), statuses
    seconds = sorted(took for took, _ in probes)
    assert statistics.median(seconds) < 0.5 and seconds[-1] < 4, seconds
    assert held < DESCRIPTORS
    assert guard_counts(small_server).get("evicted", 0) > 0, "the storm did not reach the descriptor limit"
    grown = log_lines(small_server) - lines_before
    assert grown <= 5, small_server.log_path.read_text(errors="replace")[-3000:]


def test_keep_alive_connections_and_websockets_outlive_the_head_deadline(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base) as c:
        signed_in = c.post("/api/auth/local", json={"name": "Patient"}, headers={"X-CSRF-Token": "new"})
        assert signed_in.status_code == 200, signed_in.text
        code = c.post("/api/rooms", json={"decks": 2}, headers={"X-CSRF-Token": c.cookies["tp_csrf"]}).json()["code"]
        cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
    url = server.base.replace("http", "ws") + f"/ws/rooms/{code}"
    with websockets.sync.client.connect(url, additional_headers={"Cookie": cookie, "Origin": server.base}) as ws:
        ws.recv(timeout=5)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        try:
            first = None
            for _ in range(3):  # three requests on one connection, idle 1.2 s (< the deadline) between them
                conn.request("GET", "/healthz")
                response = conn.getresponse()
                response.read()
                assert response.status == 200
                first = first or conn.sock
                assert conn.sock is first, "the keep-alive connection was not reused"
                time.sleep(0.6 * HEAD_TIMEOUT)
        finally:
            conn.close()
        ws.ping().wait(5)  # open for 3.6 s: a WebSocket is neither timed out nor evicted


class _Conn:
    def __init__(self, name: str) -> None:
        self.name = name
        self.evicted = False

    def evict(self) -> None:
        self.evicted = True

    def __repr__(self) -> str:
        return self.name


def test_the_guard_evicts_the_oldest_connection_waiting_for_a_head_never_a_busy_one() -> None:
    guard = ConnectionGuard(per_address=3, capacity=4, storm=StormLog(log=logging.getLogger("test")))
    a, b, c, d = (_Conn(n) for n in "abcd")
    for conn, address in ((a, "1"), (b, "1"), (c, "2"), (d, "2")):
        assert guard.admit(conn, address)
    guard.busy(a)  # a is serving a request
    guard.busy(c)  # c is a WebSocket
    e = _Conn("e")
    assert guard.admit(e, "3")  # full: b, the oldest waiting, makes way
    assert b.evicted and not a.evicted and not c.evicted and not d.evicted
    guard.release(b)  # its connection_lost comes later: counted once
    assert guard.open == 4
    guard.wait_for_head(a)  # a answered and waits for its next head: now the newest waiting
    f = _Conn("f")
    assert guard.admit(f, "3")
    assert d.evicted and not a.evicted  # d waited longer than a
    guard.busy(a)
    guard.busy(e)
    guard.busy(f)
    assert not guard.admit(_Conn("g"), "4")  # full and nobody waits: refused
    guard.release(a)
    assert guard.admit(_Conn("h"), "1")  # room again
    assert dict(guard.storm.totals) == {"evicted": 2, "refused_full": 1}
    small = ConnectionGuard(per_address=2, capacity=None)
    assert small.admit(_Conn("x"), "9") and small.admit(_Conn("y"), "9")
    assert not small.admit(_Conn("z"), "9") and small.admit(_Conn("z"), None)
    assert small.storm.totals["refused_address"] == 1


def test_limits_follow_the_descriptor_limit_and_the_environment() -> None:
    assert capacity_for(512) == 448 and capacity_for(20_000) == 18_000 and capacity_for(None) is None
    assert backlog_for(512) == 8 and backlog_for(20_000) == 250 and backlog_for(1 << 20) == 2048
    assert ConnectionGuard.from_env({}).per_address == 300
    assert ConnectionGuard.from_env({"TP_RATE_LIMIT_SCALE": "50"}).per_address == 15_000
    assert ConnectionGuard.from_env({"TP_RATE_LIMIT_SCALE": "0"}).per_address is None
    assert ConnectionGuard.from_env({"TP_MAX_CONNECTIONS_PER_ADDRESS": "0"}).per_address is None
    assert ConnectionGuard.from_env({"TP_HEAD_TIMEOUT": "2.5"}).head_timeout == 2.5
    assert ConnectionGuard.from_env({"TP_HEAD_TIMEOUT": "x"}).head_timeout == 5.0


def test_a_storm_is_logged_once_then_summed_up_at_most_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    storm = StormLog(clock=lambda: now[0], log=logging.getLogger("test.storm"))
    accept_log = logging.getLogger("test.asyncio")
    accept_log.addFilter(AcceptErrorFilter(storm))
    with caplog.at_level(logging.WARNING):
        for i in range(20_000):  # 20,000 events over 150 s
            now[0] = i * 0.0075
            if i % 2:
                accept_log.error("socket.accept() out of system resource\nsocket: ...",
                                 exc_info=OSError(24, "Too many open files"))
            else:
                storm.note("head_timeout", "127.0.0.2")
        accept_log.error("something else")
    lines = [r.getMessage() for r in caplog.records if r.name == "test.storm"]
    assert len(lines) == 3, lines  # the first, then one summary at 60 s and one at 120 s
    assert "first of request heads timed out" in lines[0]
    assert "failed accepts" in lines[1] and "request heads timed out" in lines[1]
    assert [r.getMessage() for r in caplog.records if r.name == "test.asyncio"] == ["something else"]
    assert storm.totals == {"head_timeout": 10_000, "accept_failed": 10_000}
