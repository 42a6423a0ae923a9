"""How long a stalled Google certificate endpoint holds a sign-in (audit round 2, finding 2): figures, not asserts.

Starts the real server with Google sign-in configured and its certificate URL pointed at a local endpoint that
sends its headers at once and then one body byte every 2 s (never tripping a timeout between bytes). Posts
``--signins`` Google sign-ins at once, then more during the stall, and prints how long each was held before
it got its answer (``certs_unavailable``), and how long ``/healthz`` took meanwhile.

    .venv/bin/python benchmarks/bench_signin_stall.py [--signins 20]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.auth.test_google_token import CLIENT_ID, claims, make_key, sign  # noqa: E402
from tests.server_process import ServerProcess  # noqa: E402


def trickling_endpoint(stop: threading.Event) -> str:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)

    def trickle(conn: socket.socket) -> None:
        with conn:
            conn.recv(4096)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n")
            while not stop.wait(2.0):
                try:
                    conn.sendall(b" ")
                except OSError:
                    return

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn = listener.accept()[0]
            except OSError:
                continue
            threading.Thread(target=trickle, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}/oauth2/v1/certs"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--signins", type=int, default=20)
    args = ap.parse_args()
    stop = threading.Event()
    url = trickling_endpoint(stop)
    tmp = Path(tempfile.mkdtemp(prefix="tp-stall-"))
    server = ServerProcess(tmp / "data", tmp / "server.log",
                           env={"TP_GOOGLE_CLIENT_ID": CLIENT_ID, "TP_GOOGLE_CERTS_URL": url})
    base = server.start()
    signer, _ = make_key("kid-bench")
    token = sign(signer, claims())
    held: list[float] = []
    answers: list[str] = []

    def sign_in() -> None:
        started = time.monotonic()
        with httpx.Client(base_url=base, timeout=300, cookies={"g_csrf_token": "t"}) as c:
            r = c.post("/auth/google", data={"credential": token, "g_csrf_token": "t"}, follow_redirects=False,
                       headers={"Origin": base})
        held.append(time.monotonic() - started)
        answers.append(r.headers.get("location", str(r.status_code)))

    health: list[float] = []
    try:
        waves = []
        for wave in range(3):  # at once, then while the first fetch still hangs, then after the retry pause
            threads = [threading.Thread(target=sign_in) for _ in range(args.signins)]
            for th in threads:
                th.start()
            waves.append(threads)
            for _ in range(3):
                t0 = time.monotonic()
                httpx.get(f"{base}/healthz", timeout=30)
                health.append(time.monotonic() - t0)
            time.sleep(3 if wave == 0 else 6)
        for threads in waves:
            for th in threads:
                th.join(timeout=300)
    finally:
        server.stop()
        stop.set()
    ms = sorted(held)
    print(f"{len(ms)} Google sign-ins against an endpoint trickling one byte every 2 s (three waves)")
    print("| held p50 s | p95 s | max s | answers | /healthz max s |")
    print("|---|---|---|---|---|")
    print(f"| {statistics.median(ms):.2f} | {ms[int(0.95 * len(ms))]:.2f} | {ms[-1]:.2f} | "
          f"{', '.join(sorted(set(answers)))} | {max(health):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
