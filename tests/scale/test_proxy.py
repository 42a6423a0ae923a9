"""HAProxy in front of two instances on one PostgreSQL (issue 14, ``deploy/haproxy.cfg``).

Through the proxy two members play a heads-up table over WebSockets; the instance the table is hashed to is
killed (SIGKILL) mid-hand; the clients reconnect through the proxy, finish the hand and play another.  Every
move the server acknowledged is stored exactly once, chips are conserved, the table goes on.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest
import sqlalchemy as sa
from deploy.cluster import TEMPLATE, Cluster, Instance, check_config, haproxy_path, render_haproxy
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

pytestmark = pytest.mark.skipif(
    haproxy_path() is None,
    reason="HAProxy is not installed (/usr/sbin/haproxy; `python3 dev.py test` installs it with apt-get as root)")

# machine-speed play from one address: the rate limits 50 times wider, bots without a pause (as ServerProcess)
TEST_ENV = {"TP_RATE_LIMIT_SCALE": "50", "TP_BOT_PAUSE": "0,0"}
CHIPS = 2 * 2000  # heads-up, 2,000 each


@pytest.fixture
def cluster(pg_url: str, tmp_path: Path) -> Iterator[Cluster]:
    with Cluster(pg_url, tmp_path / "cluster", instances=2, env=TEST_ENV, log_level="warning") as c:
        yield c


class Ack(NamedTuple):
    """A move the server acknowledged: applied (or, repeated with its key after a crash, already applied)."""

    key: str
    seat: int
    kind: str
    before: int  # the room version the move was made against
    after: int | None  # the version it produced (None: answered "duplicate", stored before the crash)


class Player:
    """A member's HTTP client and WebSocket, both through the proxy."""

    def __init__(self, proxy: str, name: str):
        self.proxy = proxy
        self.http = httpx.Client(base_url=proxy, timeout=10, trust_env=False)
        r = self.http.post("/api/auth/local", json={"name": name}, headers={"X-CSRF-Token": "signin"})
        assert r.status_code == 200, r.text
        self.http.headers["X-CSRF-Token"] = self.http.cookies["tp_csrf"]
        self.sockets = contextlib.ExitStack()
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}

    def connect(self, code: str, within: float = 20.0) -> int:
        """Open the room socket (retrying while the proxy has nowhere to send it) and read the first state."""
        deadline = time.monotonic() + within
        attempts = 0
        while True:
            attempts += 1
            try:
                cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
                self.ws = self.sockets.enter_context(connect(
                    f"ws{self.proxy.removeprefix('http')}/ws/rooms/{code}", proxy=None, open_timeout=5,
                    additional_headers={"Cookie": cookie, "Origin": self.proxy}))
                first = json.loads(self.ws.recv(timeout=5))
                assert first["type"] == "state", first
                self.see(first["state"])
                return attempts
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def see(self, state: dict[str, Any]) -> None:
        check_chips(state)
        if not self.state or state["version"] >= self.state["version"]:
            self.state = state

    def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(message))

    def reply(self) -> dict[str, Any]:
        """The answer to this socket's last message (pushes read on the way are kept)."""
        assert self.ws is not None
        while True:
            msg = json.loads(self.ws.recv(timeout=10))
            if msg.get("state"):
                self.see(msg["state"])
            if msg["type"] == "error" or "applied" in msg:
                return dict(msg)

    def sync_to(self, version: int) -> None:
        """Read pushes until this member's view has reached ``version``."""
        assert self.ws is not None
        while self.state["version"] < version:
            msg = json.loads(self.ws.recv(timeout=10))
            if msg.get("state"):
                self.see(msg["state"])

    def close(self) -> None:
        self.sockets.close()
        self.http.close()


def check_chips(state: dict[str, Any]) -> None:
    """No chip made or lost: stacks plus the pot while a hand runs, the match's stacks between hands."""
    hand = state.get("hand")
    if hand and not hand["complete"]:
        assert sum(s["stack"] for s in hand["seats"]) + hand["pot"] == CHIPS, hand
    else:
        assert sum(state["match"]["stacks"]) == CHIPS, state["match"]


def choose(legal: dict[str, Any]) -> dict[str, Any]:
    """Call a bet, else bet or raise the minimum, else check: a hand reaches the showdown in a few moves."""
    if "call" in legal["actions"]:
        return {"kind": "call"}
    if "bet" in legal["actions"]:
        return {"kind": "bet", "to": legal["min_bet_to"]}
    if "raise" in legal["actions"]:
        return {"kind": "raise", "to": legal["min_raise_to"]}
    return {"kind": "check"}


def open_sockets(instance: Instance) -> int:
    text = httpx.get(instance.base + "/metrics", timeout=5, trust_env=False).text
    match = re.search(r"^tp_open_sockets (\S+)$", text, re.MULTILINE)
    assert match, text[:500]
    return int(float(match.group(1)))


def wait_for_sockets(instances: list[Instance], want: int, within: float = 10.0) -> Instance:
    """The one instance holding ``want`` open sockets (the others none)."""
    deadline = time.monotonic() + within
    while True:
        counts = [open_sockets(i) for i in instances]
        if sorted(counts) == [0] * (len(counts) - 1) + [want]:
            return instances[counts.index(want)]
        assert time.monotonic() < deadline, f"sockets per instance: {counts}"
        time.sleep(0.1)


def test_haproxy_accepts_the_rendered_config(tmp_path: Path) -> None:
    text = render_haproxy("127.0.0.1:8080", [("127.0.0.1", 8081), ("127.0.0.1", 8082), ("10.0.0.7", 8000)])
    live = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    assert not any("{{" in line for line in live), "every placeholder filled"
    assert "    server app3 10.0.0.7:8000 id 3 check" in live
    assert "    server app3 10.0.0.7:8000 id 3 track rooms/app3 cookie app3" in live
    path = tmp_path / "haproxy.cfg"
    path.write_text(text)
    checked = check_config(path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Configuration file is valid" in checked.stdout + checked.stderr


def test_the_proxy_answers_a_slow_request_body_itself_at_its_deadline(tmp_path: Path) -> None:
    """The recipe buffers whole requests (``option http-buffer-request``): a head with ``Content-Length: 60000``
    and then a byte now and then is answered 408 by HAProxy at its ``timeout http-request`` (shortened here to
    2 s) and never reaches the instance, whose own body deadline is set to a minute so it cannot be the one
    that answers."""
    template = TEMPLATE.read_text().replace("timeout http-request 10s", "timeout http-request 2s")
    env = {**TEST_ENV, "TP_BODY_TIMEOUT": "60"}
    with Cluster(f"sqlite:///{tmp_path / 'tp.sqlite3'}", tmp_path / "cluster", instances=1, env=env,
                 log_level="warning", template=template) as cluster:
        with socket.create_connection(("127.0.0.1", cluster.port), timeout=10) as s:
            s.sendall(b"POST /api/auth/local HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 60000\r\n\r\n{")
            started = time.monotonic()
            s.settimeout(0.5)
            answer = b""
            while time.monotonic() - started < 8:
                with contextlib.suppress(OSError):
                    s.send(b" ")
                try:
                    chunk = s.recv(4096)
                except TimeoutError:
                    continue
                except OSError:
                    break
                if not chunk:
                    break
                answer += chunk
            held = time.monotonic() - started
        metrics = httpx.get(cluster.instances[0].base + "/metrics", timeout=10).text
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert held < 5, held
    assert not re.search(r'tp_http_requests_total\{[^}]*route="/api/auth/local"', metrics), \
        "the slow request reached the instance"


def room_version(engine: sa.Engine, code: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(sa.text("SELECT version FROM rooms WHERE code = :c"), {"c": code}).scalar_one())


@pytest.mark.parametrize("kill", ["sent", "stored"])
def test_a_table_survives_its_instance_killed_mid_hand_behind_haproxy(cluster: Cluster, pg_url: str, kill: str
                                                                      ) -> None:
    """``kill``: the instance dies as soon as a move is sent (stored or not: a race), or once it is stored
    (its answer then counts as lost: the client saw its socket drop)."""
    proxy = cluster.url
    assert httpx.get(proxy + "/readyz", trust_env=False).status_code == 200

    # the lab table's hands live in one instance's memory: the TPSRV cookie keeps its user there
    with httpx.Client(base_url=proxy, timeout=10, trust_env=False) as lab:
        r = lab.post("/api/lab/hands", json={"decks": 2})
        assert r.status_code == 201, r.text
        assert lab.cookies.get("TPSRV") in {i.name for i in cluster.instances}
        for _ in range(8):  # without stickiness about half of these would reach the other instance: 404
            assert lab.get(f"/api/lab/hands/{r.json()['id']}").status_code == 200

    alice, bob = Player(proxy, "Alice"), Player(proxy, "Bob")
    engine = sa.create_engine(pg_url)  # to read the table's log directly
    try:
        code = alice.http.post("/api/rooms", json={"decks": 2}).json()["code"]
        assert bob.http.post(f"/api/rooms/{code}/join").status_code == 200
        players = [alice, bob]
        for p in players:
            p.connect(code)
        by_seat = {p.state["you"]: p for p in players}
        assert sorted(by_seat) == [0, 1]

        # the room code is hashed: both sockets and every room request went to one instance
        home = wait_for_sockets(cluster.instances, 2)
        [survivor] = [i for i in cluster.instances if i is not home]
        log_before = cluster.proxy.log_path.read_text()
        room_lines = [line for line in log_before.splitlines() if f"/rooms/{code}" in line]
        assert room_lines and all(f" rooms/{home.name} " in line for line in room_lines), room_lines

        acked: list[Ack] = []
        seen: dict[str, Any] = {}  # what happened at the crash (printed)

        def latest() -> dict[str, Any]:
            return max((p.state for p in players), key=lambda s: s["version"])

        def crash(actor: Player, message: dict[str, Any]) -> dict[str, Any]:
            """Kill the table's instance with ``message`` in flight; reconnect through the proxy, repeat it."""
            if kill == "stored":  # once it is committed; its answer is then lost with the socket, unread
                deadline = time.monotonic() + 10
                while room_version(engine, code) == message["version"]:
                    assert time.monotonic() < deadline, "the move was not stored"
                    time.sleep(0.01)
            home.kill()  # SIGKILL: no clean shut-down, the sockets through the proxy are cut
            reply: dict[str, Any] | None = None
            if kill == "sent":  # stored or not: a race
                with contextlib.suppress(ConnectionClosed, TimeoutError):
                    reply = actor.reply()
            seen["answer"] = "lost" if reply is None else "received before the kill"
            seen["attempts"] = [p.connect(code) for p in players]  # as the page does, through the proxy
            if reply is None:
                actor.send(message)  # the same key and version: stored at most once
                reply = actor.reply()
                seen["repeat"] = reply.get("reason") or "applied"
            actor.send(message)  # once more, now surely stored: changes nothing
            again = actor.reply()
            assert not again["applied"] and again["reason"] == "duplicate", again
            return reply

        def move(with_crash: bool = False) -> None:
            st = latest()
            actor = by_seat[st["hand"]["to_act"]]
            actor.sync_to(st["version"])
            action = choose(actor.state["hand"]["legal"])
            key = f"k{st['version']}"
            message = {"type": "action", "version": st["version"], "key": key, "action": action}
            actor.send(message)
            reply = crash(actor, message) if with_crash else actor.reply()
            assert reply.get("applied") or reply.get("reason") == "duplicate", reply
            after = reply["state"]["version"] if reply["applied"] else None
            acked.append(Ack(key, st["hand"]["to_act"], action["kind"], st["version"], after))
            for p in players:
                p.sync_to(latest()["version"])

        def next_hand() -> None:
            st = latest()
            bob.send({"type": "next", "version": st["version"]})
            reply = bob.reply()  # applied, or the sweeper dealt it first (stale_version): either way, one deal
            assert reply.get("applied") or reply.get("reason") == "stale_version", reply
            for p in players:
                p.sync_to(latest()["version"])

        def finish_hand() -> None:
            while not latest()["hand"]["complete"]:
                move()

        # hand 1: preflop, then the flop's first move; the instance dies with the next move in flight
        while latest()["hand"]["street"] == "preflop":
            move()
        move()
        assert latest()["hand"]["street"] == "flop" and not latest()["hand"]["complete"]
        move(with_crash=True)
        assert not home.alive
        wait_for_sockets([survivor], 2)  # the table's sockets are on the surviving instance
        for p in players:  # plain requests go on (a TPSRV cookie naming the dead instance is ignored)
            assert p.http.get("/api/me").json()["member"] is not None
        assert httpx.get(proxy + "/readyz", trust_env=False).status_code == 200
        finish_hand()
        assert latest()["hand"]["hand_no"] == 1

        # hand 2, all on the survivor
        next_hand()
        assert latest()["hand"]["hand_no"] == 2 and not latest()["hand"]["complete"]
        finish_hand()
        final = alice.http.get(f"/api/rooms/{code}").json()
        assert final["hand"]["hand_no"] == 2 and final["hand"]["complete"], "the second hand completed"
        assert sum(final["match"]["stacks"]) == CHIPS
        hands = alice.http.get(f"/api/rooms/{code}/history").json()["hands"]
        assert [h["hand_no"] for h in hands] == [1, 2] and all(h["final"]["complete"] for h in hands)

        # the log: every acknowledged move stored exactly once, and no other move stored
        with engine.connect() as conn:
            room_id = conn.execute(sa.text("SELECT id FROM rooms WHERE code = :c"), {"c": code}).scalar_one()
            rows = conn.execute(sa.text("SELECT seq, payload FROM room_events WHERE room_id = :r ORDER BY seq"),
                                {"r": room_id}).all()
            keys = {str(k): int(v) for k, v in conn.execute(
                sa.text("SELECT key, version FROM action_keys WHERE room_id = :r"), {"r": room_id})}
        assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1)), "the log is gap-free"
        events = {seq: (p if isinstance(p, dict) else json.loads(p)) for seq, p in rows}
        moves = {seq: e["event"] for seq, e in events.items()
                 if e["type"] == "hand" and e["event"]["type"] == "action" and not e["event"]["timeout"]}
        assert len(acked) == len({a.key for a in acked}), acked
        claimed: set[int] = set()
        for ack in acked:
            after = keys[ack.key]  # KeyError: an acknowledged move was not stored
            assert ack.after in (None, after), ack
            # a move's events follow the version it was made against: its action first (then a deal, a showdown)
            mine = [seq for seq in moves if ack.before < seq <= after]
            assert len(mine) == 1, ("the move stored once", ack, mine)
            assert (moves[mine[0]]["seat"], moves[mine[0]]["kind"]) == (ack.seat, ack.kind), ack
            claimed.add(mine[0])
        assert claimed == set(moves), ("no move stored but the acknowledged ones", sorted(moves), acked, seen)
        print(f"proxy test: {len(acked)} moves; the crash: {seen}")
    finally:
        alice.close()
        bob.close()
        engine.dispose()
