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

import pytest

from tests.server_process import ServerProcess
from tests.web.test_hardening_round2 import random_code

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
        statuses = _together([s.port for s in servers], _loopback(), 250)
    finally:
        for server in servers:
            server.stop()
    assert statuses[404] == 20 and statuses[429] == 230, statuses
