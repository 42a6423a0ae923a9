"""Start the real ``taiwan-poker serve`` in a subprocess (for browser, restart and load tests)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """One server process; ``start()`` waits for ``/healthz``, ``kill()`` is a hard kill (no clean shut-down)."""

    def __init__(self, data_dir: Path, log_path: Path, env: dict[str, str] | None = None, port: int | None = None,
                 max_descriptors: int | None = None, exe: Path | None = None,
                 base_env: Mapping[str, str] | None = None, cwd: Path | None = None, log_level: str = "warning"):
        self.data_dir = data_dir
        self.log_path = log_path
        # tests drive the server at machine speed from one address: the rate limits stay on, 50 times wider
        self.env = {**(os.environ if base_env is None else base_env), "TP_RATE_LIMIT_SCALE": "50",
                    "TP_BOT_PAUSE": "0,0", **(env or {})}
        self.exe = exe  # another installation's taiwan-poker (None: this environment's)
        self.cwd = cwd
        self.log_level = log_level  # tests keep their logs short; the load benchmark runs a host's default (info)
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.max_descriptors = max_descriptors  # the server's RLIMIT_NOFILE, soft and hard (None: inherited)
        self.proc: subprocess.Popen[bytes] | None = None

    def _limit_descriptors(self) -> None:
        import resource

        assert self.max_descriptors is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.max_descriptors, self.max_descriptors))

    def start(self, timeout: float = 90) -> str:  # a loaded 2-core CI machine starts a server slowly
        exe = self.exe or Path(sys.executable).with_name("taiwan-poker")
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-c", "from taiwan_poker.cli import main; main()"]
        log = self.log_path.open("a")
        self.proc = subprocess.Popen(
            [*cmd, "serve", "--port", str(self.port), "--data-dir", str(self.data_dir), "--log-level", self.log_level],
            stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=self.cwd,
            preexec_fn=self._limit_descriptors if self.max_descriptors is not None else None,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self.base
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"server did not start; see {self.log_path}:\n{self.log_path.read_text()[-3000:]}")
            time.sleep(0.1)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
