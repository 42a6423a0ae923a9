#!/usr/bin/env python3
"""Several Taiwan Poker instances on one PostgreSQL behind HAProxy, on this machine: try the scale-out set-up.

    .venv/bin/python deploy/cluster.py --instances 2 --port 8080 \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test

starts ``taiwan-poker serve`` N times (ports 8081, 8082, ... unless ``--instance-ports``), each with the
same ``DATABASE_URL`` and ``TP_PUSH_BUS=1``, then HAProxy on ``--port`` with ``deploy/haproxy.cfg``
rendered for them; open http://127.0.0.1:8080.  Kill an instance (its pid is printed) and watch the tables
carry on on the others.  Ctrl-C stops everything.  Logs and the rendered config go to ``--work-dir``.

Needs HAProxy (Debian: ``apt-get install haproxy``; ``python3 dev.py test`` installs it).  The test
``tests/scale/test_proxy.py`` drives the same :class:`Cluster`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "haproxy.cfg"
HAPROXY = Path("/usr/sbin/haproxy")
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def haproxy_path() -> Path | None:
    """The HAProxy executable (Debian's, else the first on PATH), or None."""
    if HAPROXY.exists():
        return HAPROXY
    found = shutil.which("haproxy")
    return Path(found) if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def render_haproxy(bind: str, servers: Sequence[tuple[str, int]], template: str | None = None, *,
                   tls: tuple[str, str] | None = None, server_options: str = "") -> str:
    """``deploy/haproxy.cfg`` for ``servers`` ((host, port) each, named app1, app2, ...) listening on ``bind``.

    Placeholders are replaced outside comments only (the template's comments name them). ``tls`` is
    ``(address:port, certificate)``: the frontend then also listens there with TLS (the certificate file holds
    the chain and the key, PEM), plain HTTP on ``bind`` is redirected to it, and the app is told the scheme
    (``X-Forwarded-Proto``). ``server_options`` go on every health-checked server line (the compose recipe's
    ``init-addr libc,none``: instances named by host name may start after the proxy).
    """
    if not servers:
        raise ValueError("at least one server")
    names = [f"app{i}" for i in range(1, len(servers) + 1)]
    options = f" {server_options}" if server_options else ""
    values = {
        "bind": bind,
        "room_servers": "\n".join(f"    server {n} {h}:{p} id {i} check{options}"
                                  for i, (n, (h, p)) in enumerate(zip(names, servers, strict=True), 1)),
        "app_servers": "\n".join(f"    server {n} {h}:{p} id {i} track rooms/{n} cookie {n}{options}"
                                 for i, (n, (h, p)) in enumerate(zip(names, servers, strict=True), 1)),
    }
    text = TEMPLATE.read_text() if template is None else template
    lines = []
    for line in text.splitlines():
        if not line.lstrip().startswith("#"):
            line = _PLACEHOLDER.sub(lambda m: values[m.group(1)], line)
        lines.append(line)
        if tls is not None and line.strip() == f"bind {bind}":
            lines.append(f"    bind {tls[0]} ssl crt {tls[1]} alpn h2,http/1.1")
        if tls is not None and line.strip().startswith("tcp-request connection reject if { sc1_conn_cur"):
            lines += ["    # TLS: plain HTTP is redirected; the app is told the scheme (links and cookies say https)",
                      "    http-request redirect scheme https code 301 unless { ssl_fc }",
                      "    http-request set-header X-Forwarded-Proto https if { ssl_fc }",
                      '    http-response set-header Strict-Transport-Security "max-age=31536000" if { ssl_fc }']
    return "\n".join(lines) + "\n"


COMPOSE_CERTIFICATE = "/usr/local/etc/haproxy/certs/site.pem"


def compose_config() -> str:
    """The HAProxy configuration of ``deploy/compose.yaml`` (committed as ``deploy/compose/haproxy.cfg``; a test
    keeps the two equal): instances app1 and app2 on port 8000, plain HTTP on 8080 redirected to TLS on 8443."""
    return render_haproxy("*:8080", [("app1", 8000), ("app2", 8000)], tls=("*:8443", COMPOSE_CERTIFICATE),
                          server_options="init-addr libc,none")


def check_config(path: Path) -> subprocess.CompletedProcess[str]:
    """``haproxy -c -f path`` (return code 0: the configuration is valid)."""
    exe = haproxy_path()
    if exe is None:
        raise FileNotFoundError("haproxy is not installed")
    return subprocess.run([str(exe), "-c", "-f", str(path)], capture_output=True, text=True, timeout=30)


def _get(url: str, timeout: float = 1.0) -> int:
    """The status of GET ``url`` (0: no answer)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0



def _await_ready(proc: subprocess.Popen[bytes], base: str, timeout: float, name: str, log_path: Path,
                 give_up: Callable[[], None]) -> None:
    """Wait for ``base``'s ``/readyz`` to answer 200; on a dead process or the timeout, ``give_up`` and raise."""
    deadline = time.monotonic() + timeout
    while _get(base + "/readyz") != 200:
        if proc.poll() is not None or time.monotonic() > deadline:
            give_up()
            raise RuntimeError(f"{name} did not start; see {log_path}:\n"
                               f"{log_path.read_text(errors='replace')[-3000:]}")
        time.sleep(0.1)


def _terminate(proc: subprocess.Popen[bytes] | None, seconds: float) -> None:
    """SIGTERM, then SIGKILL if the process has not ended within ``seconds``."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)

class Instance:
    """One ``taiwan-poker serve`` process; ``start()`` waits for ``/readyz``; ``kill()`` is SIGKILL."""

    def __init__(self, name: str, port: int, data_dir: Path, log_path: Path, env: Mapping[str, str]):
        self.name = name
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.data_dir = data_dir
        self.log_path = log_path
        self.env = dict(env)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = 60, log_level: str = "info") -> None:
        exe = Path(sys.executable).with_name("taiwan-poker")
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-c", "from taiwan_poker.cli import main; main()"]
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                [*cmd, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data_dir),
                 "--log-level", log_level],
                stdout=log, stderr=subprocess.STDOUT, env=self.env, start_new_session=True,
            )
        _await_ready(self.proc, self.base, timeout, self.name, self.log_path, self.kill)

    def kill(self) -> None:
        """A hard kill: no clean shut-down, open sockets and requests cut."""
        if self.alive:
            assert self.proc is not None
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM: the server finishes what it is doing and closes its sockets."""
        _terminate(self.proc, 15)


class HAProxy:
    """HAProxy in the foreground (``-db``) with a rendered config; ``start()`` waits for its ``/readyz``."""

    def __init__(self, config_path: Path, port: int, log_path: Path):
        self.config_path = config_path
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30) -> None:
        exe = haproxy_path()
        if exe is None:
            raise FileNotFoundError("haproxy is not installed (Debian: apt-get install haproxy)")
        checked = check_config(self.config_path)
        if checked.returncode != 0:
            raise RuntimeError(f"haproxy refused {self.config_path}:\n{checked.stdout}{checked.stderr}")
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen([str(exe), "-db", "-f", str(self.config_path)],
                                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        _await_ready(self.proc, self.base, timeout, "haproxy", self.log_path, self.stop)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        _terminate(self.proc, 10)


class Cluster:
    """N instances sharing ``database_url`` with the push bus on, and HAProxy in front (a context manager).

    ``env`` is added to each instance's environment (the tests widen the rate limits there); nothing else
    is set but ``DATABASE_URL``, ``TP_PUSH_BUS=1``, ``TP_MAX_CONNECTIONS_PER_ADDRESS=0`` and
    ``TP_MAX_CONNECTIONS_PER_NETWORK=0`` (the proxy caps connections per client address and network; ``env``
    may set them).
    """

    def __init__(self, database_url: str, work_dir: Path, instances: int = 2, port: int | None = None,
                 instance_ports: Sequence[int] | None = None, bind_host: str = "127.0.0.1",
                 env: Mapping[str, str] | None = None, log_level: str = "info", template: str | None = None):
        if instances < 1:
            raise ValueError("at least one instance")
        self.work_dir = work_dir
        self.port = port or free_port()
        ports = list(instance_ports) if instance_ports else [free_port() for _ in range(instances)]
        if len(ports) != instances:
            raise ValueError("one port per instance")
        # the per-address and per-network connection caps are HAProxy's: every connection an instance sees
        # comes from the proxy
        base_env = {**os.environ, "TP_MAX_CONNECTIONS_PER_ADDRESS": "0", "TP_MAX_CONNECTIONS_PER_NETWORK": "0",
                    **(env or {}),
                    "DATABASE_URL": database_url, "TP_PUSH_BUS": "1"}
        self.instances = [Instance(f"app{i}", p, work_dir / f"app{i}", work_dir / f"app{i}.log", base_env)
                          for i, p in enumerate(ports, 1)]
        self.config_path = work_dir / "haproxy.cfg"
        self.bind = f"{bind_host}:{self.port}"
        self.proxy = HAProxy(self.config_path, self.port, work_dir / "haproxy.log")
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_level = log_level
        self.template = template  # None: deploy/haproxy.cfg

    def start(self) -> Cluster:
        self.work_dir.mkdir(parents=True, exist_ok=True)
        self.config_path.write_text(render_haproxy(self.bind, [("127.0.0.1", i.port) for i in self.instances],
                                                   self.template))
        try:
            # one by one: the first migrates the schema, the others find it done
            for instance in self.instances:
                instance.start(log_level=self.log_level)
            self.proxy.start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        self.proxy.stop()
        for instance in self.instances:
            instance.stop()

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
                 ) -> None:
        self.stop()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--instances", type=int, default=2, help="how many app instances (default 2)")
    parser.add_argument("--port", type=int, default=8080, help="HAProxy's port (default 8080)")
    parser.add_argument("--bind-host", default="127.0.0.1", help="HAProxy's address (default 127.0.0.1)")
    parser.add_argument("--instance-ports", help="comma-separated ports of the instances (default: --port + 1, ...)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"),
                        help="the shared PostgreSQL (default: $DATABASE_URL)")
    parser.add_argument("--work-dir", type=Path, help="data directories, logs and haproxy.cfg (default: a temp dir)")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--compose-config", action="store_true",
                        help="print the HAProxy configuration of deploy/compose.yaml and exit")
    args = parser.parse_args(argv)
    if args.compose_config:
        print(compose_config(), end="")
        return 0
    if not args.database_url or not args.database_url.startswith("postgresql"):
        parser.error("--database-url (or DATABASE_URL) must be a PostgreSQL URL: instances share one database")
    if haproxy_path() is None:
        parser.error("haproxy is not installed (Debian: apt-get install haproxy)")
    ports = ([int(p) for p in args.instance_ports.split(",")] if args.instance_ports
             else [args.port + i for i in range(1, args.instances + 1)])
    work_dir = args.work_dir or Path(tempfile.mkdtemp(prefix="tp-cluster-"))
    cluster = Cluster(args.database_url, work_dir, args.instances, args.port, ports, args.bind_host,
                      log_level=args.log_level)
    signal.signal(signal.SIGTERM, _interrupt)  # `kill <pid of this script>` stops everything too
    print(f"starting {args.instances} instances and HAProxy; logs in {work_dir}", flush=True)
    try:
        cluster.start()
        for instance in cluster.instances:
            pid = instance.proc.pid if instance.proc else "?"
            print(f"  {instance.name}: {instance.base}  (pid {pid}, log {instance.log_path})", flush=True)
        print(f"HAProxy: http://{cluster.bind}  (config {cluster.config_path}, log {cluster.proxy.log_path})\n"
              "Ctrl-C stops everything.", flush=True)
        down: set[str] = set()
        while cluster.proxy.alive:
            for instance in cluster.instances:
                if not instance.alive and instance.name not in down:
                    down.add(instance.name)
                    print(f"{instance.name} has stopped; its tables carry on on the others", flush=True)
            time.sleep(0.5)
        print("HAProxy has stopped", flush=True)
        return 1
    except KeyboardInterrupt:
        return 0
    except (RuntimeError, OSError) as exc:
        print(exc, file=sys.stderr, flush=True)
        return 1
    finally:
        print("stopping...", flush=True)
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
