"""What a huge upload costs the server: the audit's 1 GiB and 512 MiB bodies against a real server process.

For each case the client offers the whole body (declared with Content-Length,
or streamed chunked with none) and sends until the server answers and closes.
The table gives the answer, how much of the body the client got to send before
it saw the answer, how long that took, and the server's resident memory before
the upload and its peak during it (VmHWM, reset before each case; needs root).
Before the body cap the audit measured peaks of 3.5 GB (1 GiB body) and
1.9 GB (512 MiB body).

    .venv/bin/python benchmarks/bench_upload_memory.py
"""

from __future__ import annotations

import contextlib
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server_process import ServerProcess

GIB = 1 << 30
CHUNK = 1 << 16


def vm(pid: int, field: str) -> float:
    """A /proc status field of the server, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(field)


def offer(port: int, path: str, size: int, chunked: bool) -> tuple[str, int, float]:
    """Send up to ``size`` body bytes; returns the status line, the bytes the server accepted, the seconds."""
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {size}\r\n\r\n"
    payload = b"x" * CHUNK
    frame = f"{CHUNK:x}\r\n".encode() + payload + b"\r\n" if chunked else payload

    def body() -> Iterator[bytes]:
        for _ in range(size // CHUNK):
            yield frame

    sent = 0
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(head.encode())
        conn.settimeout(0.5)
        answer = b""
        try:
            for block in body():
                with contextlib.suppress(BlockingIOError, TimeoutError):  # an answer there: the server is done
                    answer += conn.recv(65536, socket.MSG_DONTWAIT)
                if answer:
                    break
                conn.sendall(block)
                sent += len(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass
        conn.settimeout(10)
        try:
            while not answer.endswith(b"}") and (chunk := conn.recv(65536)):
                answer += chunk
        except (ConnectionResetError, TimeoutError):
            pass
    status = answer.split(b"\r\n", 1)[0].decode() or "(closed)"
    return status, sent, time.perf_counter() - started


def settle(base: str, pid: int) -> None:
    """Let the server finish its start-up work (the odds tables it warms in the background) first."""
    import urllib.request

    for page in ("/odds", "/practice", "/calculators"):
        urllib.request.urlopen(base + page, timeout=120).read()
    last = -1.0
    while (now := vm(pid, "VmRSS")) != last:
        last = now
        time.sleep(2)


def main() -> int:
    cases = [
        ("/api/rooms/ZZZZZZ/actions", GIB, False),
        ("/api/rooms/ZZZZZZ/actions", GIB, True),
        ("/api/auth/local", GIB // 2, False),
        ("/api/auth/local", GIB // 2, True),
    ]
    tmp = Path(tempfile.mkdtemp(prefix="tp-upload-"))
    server = ServerProcess(tmp / "data", tmp / "server.log")
    server.start()
    assert server.proc is not None
    pid = server.proc.pid
    settle(server.base, pid)
    rows = []
    try:
        for path, size, chunked in cases:
            Path(f"/proc/{pid}/clear_refs").write_text("5")  # reset the peak (VmHWM) to the current RSS
            before = vm(pid, "VmHWM")
            status, sent, seconds = offer(server.port, path, size, chunked)
            rows.append((path, f"{size / GIB:g} GiB", "chunked" if chunked else "Content-Length", status,
                         f"{sent / 1024:.0f} KiB", f"{seconds:.3f}", f"{before:.1f}", f"{vm(pid, 'VmHWM'):.1f}",
                         f"{vm(pid, 'VmRSS'):.1f}"))
    finally:
        server.stop()
    head = ("route", "offered", "framing", "answer", "sent before answer", "s", "RSS MiB before",
            "peak MiB during", "RSS MiB after")
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
