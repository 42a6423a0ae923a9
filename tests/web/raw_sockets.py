"""Raw sockets against a real server process: connect from a chosen loopback address, see when the server
closes a connection, read the connection guard's counts from ``/metrics`` (tests of slow and many clients)."""

from __future__ import annotations

import contextlib
import resource
import selectors
import socket
import time

import httpx
import pytest

from tests.server_process import ServerProcess

UNFINISHED = b"GET / HTTP/1.1\r\nHost: x\r\n"


def guard_counts(server: ServerProcess) -> dict[str, float]:
    """The guard's metrics: open connections and drops by reason."""
    counts = {}
    for line in httpx.get(server.base + "/metrics", timeout=10).text.splitlines():
        if line.startswith("tp_connections_open "):
            counts["open"] = float(line.split()[-1])
        elif line.startswith("tp_connections_dropped_total{"):
            counts[line.split('"')[1]] = float(line.split()[-1])
    return counts


def descriptors(needed: int) -> None:
    """Raise this process's soft descriptor limit to hold ``needed`` sockets (skip if the hard limit is lower)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"the test needs {needed} descriptors; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def connect(port: int, source: str, head: bytes = UNFINISHED) -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    if head:
        s.sendall(head)
    return s


def closed_by_server(s: socket.socket) -> bool:
    """True if the server has closed (or reset) the connection; does not wait (reads what it sent before)."""
    s.setblocking(False)
    try:
        while True:
            data = s.recv(65536)
            if data == b"":
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        s.setblocking(True)


def close_times(socks: list[socket.socket], within: float) -> list[float | None]:
    """When (time.monotonic()) the server closed each socket, None for those still open after ``within`` s."""
    closed: list[float | None] = [None] * len(socks)
    with selectors.DefaultSelector() as sel:
        for i, s in enumerate(socks):
            sel.register(s, selectors.EVENT_READ, i)
        deadline = time.monotonic() + within
        while sel.get_map() and (left := deadline - time.monotonic()) > 0:
            for key, _ in sel.select(min(left, 0.1)):
                if closed_by_server(socks[key.data]):
                    closed[key.data] = time.monotonic()
                    sel.unregister(key.fileobj)
    return closed


def open_storm(port: int, sources: list[str], per_source: int, first: bytes) -> list[socket.socket]:
    """Non-blocking connects from the sources in turn, 8 every 5 ms (1,600 a second: faster than they time out,
    slow enough for the server's short listen queue); each sends ``first`` once connected."""
    socks = []
    with selectors.DefaultSelector() as sel:
        for i in range(per_source * len(sources)):
            s = socket.socket()
            s.bind((sources[i % len(sources)], 0))
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
            sel.register(s, selectors.EVENT_WRITE)
            socks.append(s)
            if i % 8 == 7:
                time.sleep(0.005)
        deadline = time.monotonic() + 5
        while sel.get_map() and time.monotonic() < deadline:
            for key, _ in sel.select(0.1):
                s = key.fileobj  # type: ignore[assignment]
                sel.unregister(s)
                if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                    with contextlib.suppress(OSError):
                        s.send(first)
    return socks


def log_lines(server: ServerProcess) -> int:
    return len(server.log_path.read_text(errors="replace").splitlines())
