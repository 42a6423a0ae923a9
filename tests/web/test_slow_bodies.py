"""Slow request bodies and crowded networks against the real server (audit issue 51, finding 1).

The audit sent a whole head with ``Content-Length: 60000``, then one body byte every 20 seconds: such a connection
counted as busy, was never timed out or evicted, and 19,500 of them filled the server (no ``/healthz`` answered,
players' idle keep-alive connections went first).  Now a body has a deadline (``TP_BODY_TIMEOUT``) and a minimum
rate (1 KiB/s on average once 2 seconds have passed), a slow body is evicted like a slow head and before any idle
keep-alive connection, and each network (an IPv4 /24) has a cap of its own.  Attackers connect from other
loopback addresses (Linux routes all of 127/8 to ``lo``); ``/healthz`` and the player use 127.0.0.1.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from taiwan_poker.web.connection_guard import ConnectionGuard, StormLog, network_of
from tests.server_process import ServerProcess
from tests.web.raw_sockets import close_times, closed_by_server, connect, descriptors, guard_counts, open_storm

BODY_TIMEOUT = 4.0
PER_ADDRESS = 50
PER_NETWORK = 120
DESCRIPTORS = 512
SLOW_HEAD = (b"POST /api/auth/local HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 60000\r\n\r\n{")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """512 descriptors (room for 448 connections), a 4-second body deadline, a 30-second head deadline (so a
    test's idle keep-alive connection outlives the storm however loaded the machine is), 50 connections an
    address and 120 a network."""
    tmp = tmp_path_factory.mktemp("slow-bodies")
    process = ServerProcess(tmp / "data", tmp / "server.log", {
        "TP_HEAD_TIMEOUT": "30", "TP_BODY_TIMEOUT": str(BODY_TIMEOUT), "TP_RATE_LIMIT_SCALE": "1",
        "TP_MAX_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS), "TP_MAX_CONNECTIONS_PER_NETWORK": str(PER_NETWORK)},
        max_descriptors=DESCRIPTORS)
    process.start(timeout=60)  # a loaded CI machine starts it slowly
    yield process
    process.stop()


def _answer(s: socket.socket, within: float) -> tuple[float | None, bytes]:
    """Read until the server closes: when it closed (None: still open after ``within`` s) and what it sent."""
    s.settimeout(0.2)
    data = b""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            chunk = s.recv(65536)
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic(), data
        if not chunk:
            return time.monotonic(), data
        data += chunk
    return None, data


def test_a_body_trickled_a_byte_at_a_time_is_answered_408_and_closed(server: ServerProcess) -> None:
    """Under the minimum rate (a byte every half second), the body is refused 2-3 s after its head."""
    with connect(server.port, "127.0.2.1", SLOW_HEAD) as s:
        started = time.monotonic()
        stop = threading.Event()

        def trickle() -> None:
            while not stop.wait(0.5):
                try:
                    s.send(b" ")
                except OSError:
                    return

        dripper = threading.Thread(target=trickle)
        dripper.start()
        try:
            closed, data = _answer(s, BODY_TIMEOUT + 6)
        finally:
            stop.set()
            dripper.join()
    assert closed is not None, "a body trickled a byte every 0.5 s was held for 10 s"
    assert 1.8 < closed - started < 3.5, closed - started
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), data[:200]
    assert json.loads(body)["error"]["code"] == "request_timeout"


def test_a_body_over_the_minimum_rate_is_cut_at_the_deadline(server: ServerProcess) -> None:
    """2 KiB a second passes the minimum rate, but 60,000 bytes would take 30 s: refused at the 4-second
    deadline.  A whole body sent at once is served as usual on the same server."""
    with connect(server.port, "127.0.2.2", SLOW_HEAD) as s:
        started = time.monotonic()
        stop = threading.Event()

        def stream() -> None:
            while not stop.wait(0.25):
                try:
                    s.send(b" " * 512)
                except OSError:
                    return

        sender = threading.Thread(target=stream)
        sender.start()
        try:
            closed, data = _answer(s, BODY_TIMEOUT + 6)
        finally:
            stop.set()
            sender.join()
    assert closed is not None, "a 60,000-byte body at 2 KiB/s was held past the deadline"
    assert BODY_TIMEOUT - 0.3 < closed - started < BODY_TIMEOUT + 1.5, closed - started
    assert data.startswith(b"HTTP/1.1 408"), data[:200]
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("POST", "/api/auth/local", body=json.dumps({"name": "Quick"}),
                 headers={"Content-Type": "application/json", "X-CSRF-Token": "new"})
    assert conn.getresponse().status == 200
    conn.close()


def test_slow_bodies_make_way_and_never_take_health_checks_or_players_keep_alive(server: ServerProcess) -> None:
    """1,000 slow bodies from 20 addresses in 20 networks at a server with room for 448: the oldest slow bodies
    make way for new connections; /healthz answers throughout; a player's idle keep-alive connection is not
    evicted (slow bodies go first) and serves its next request after the storm."""
    assert server.proc is not None
    descriptors(2000)
    before = guard_counts(server)
    player = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    player.request("GET", "/healthz")
    assert player.getresponse().read() and player.sock is not None
    kept = player.sock
    probes: list[tuple[float, int | str]] = []
    stop = threading.Event()

    def probe() -> None:
        while not stop.is_set():
            started = time.monotonic()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=8)
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
        socks = open_storm(server.port, [f"127.{10 + i}.0.1" for i in range(20)], 50, SLOW_HEAD)
        time.sleep(1)
        after = guard_counts(server)
        held = len(list(Path(f"/proc/{server.proc.pid}/fd").iterdir()))
    finally:
        stop.set()
        prober.join(15)
        for s in socks:
            s.close()
    assert server.proc.poll() is None, "the server died"
    statuses = [status for _, status in probes]
    assert statuses and all(status == 200 for status in statuses), statuses
    seconds = sorted(took for took, _ in probes)
    assert statistics.median(seconds) < 0.5 and seconds[-1] < 4, seconds
    assert held < DESCRIPTORS
    assert after.get("evicted", 0) - before.get("evicted", 0) > 300, (before, after)
    assert after.get("evicted_idle", 0) == before.get("evicted_idle", 0), "an idle keep-alive went before a slow body"
    assert not closed_by_server(kept), "the player's keep-alive connection was dropped"
    player.request("GET", "/healthz")
    assert player.getresponse().status == 200 and player.sock is kept
    player.close()


def test_connections_over_the_per_network_cap_are_refused_at_once(server: ServerProcess) -> None:
    """Three addresses of one /24, each under its own cap of 50: the network's 121st connection is refused at
    once; an address of another network is not."""
    held: list[socket.socket] = []
    before = guard_counts(server)
    try:
        for i in range(PER_NETWORK):
            held.append(connect(server.port, f"127.0.3.{1 + i // 40}"))
            time.sleep(0.005)  # one at a time into the server's short listen queue
        deadline = time.monotonic() + 10
        while guard_counts(server).get("open", 0) < before.get("open", 0) + PER_NETWORK:
            assert time.monotonic() < deadline, "the server did not accept 120 connections in 10 s"
            time.sleep(0.05)
        extra = connect(server.port, "127.0.3.9")
        held.append(extra)
        refused = close_times([extra], 2.0)[0]
        other = connect(server.port, "127.0.4.1")
        held.append(other)
        other_closed = close_times([other], 0.3)[0]
        after = guard_counts(server)
    finally:
        for s in held:
            s.close()
    assert refused is not None, "the 121st connection of one network was not refused"
    assert other_closed is None, "another network's connection was refused"
    assert after.get("refused_network", 0) - before.get("refused_network", 0) == 1


class _Conn:
    def __init__(self, name: str) -> None:
        self.name = name
        self.evicted = False

    def evict(self) -> None:
        self.evicted = True

    def __repr__(self) -> str:
        return self.name


def test_the_guard_evicts_slow_bodies_and_first_heads_before_idle_keep_alives() -> None:
    guard = ConnectionGuard(per_address=None, per_network=None, capacity=3,
                            storm=StormLog(log=logging.getLogger("test")))
    player, body, fresh = _Conn("player"), _Conn("body"), _Conn("fresh")
    for conn in (player, body, fresh):
        assert guard.admit(conn, "10.0.0.1")
    guard.busy(player)
    guard.wait_for_head(player)  # answered: an idle keep-alive, and the oldest connection here
    guard.reading_body(body)  # a head arrived, the body trickles
    a = _Conn("a")
    assert guard.admit(a, "10.0.0.2")
    assert fresh.evicted and not body.evicted and not player.evicted  # fresh waited longest of the unproven
    guard.release(fresh)
    b = _Conn("b")
    assert guard.admit(b, "10.0.0.3")
    assert body.evicted and not player.evicted
    guard.release(body)
    guard.busy(a)
    guard.busy(b)
    assert guard.admit(_Conn("c"), "10.0.0.4")  # only the idle keep-alive is left to make way
    assert player.evicted
    assert dict(guard.storm.totals) == {"evicted": 2, "evicted_idle": 1}


def test_networks_are_ipv4_slash_24_and_ipv6_slash_64() -> None:
    assert network_of("203.0.113.77") == "203.0.113.0/24"
    assert network_of("::ffff:203.0.113.77") == "203.0.113.0/24"
    assert network_of("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert network_of("not-an-ip") == "not-an-ip"
    guard = ConnectionGuard(per_address=2, per_network=3, capacity=None)
    assert all(guard.admit(_Conn(str(i)), f"198.51.100.{i % 2 + 1}") for i in range(3))
    assert not guard.admit(_Conn("x"), "198.51.100.9")  # the network is full, the address is new
    assert guard.admit(_Conn("y"), "198.51.101.9")
    assert ConnectionGuard.from_env({}).per_network == 1200
    assert ConnectionGuard.from_env({"TP_MAX_CONNECTIONS_PER_NETWORK": "0"}).per_network is None
    assert ConnectionGuard.from_env({"TP_BODY_TIMEOUT": "3"}).body_timeout == 3.0
