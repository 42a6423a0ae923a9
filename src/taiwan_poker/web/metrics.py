"""Prometheus metrics of one app instance (``GET /metrics``, the Prometheus text format).

Requests by route and status, how long table moves take, open sockets, rooms
held in memory, database errors, room errors, requests refused by the rate
limits, and the connection guard's counts (open connections, and those refused,
evicted or timed out before a request head).  Each app has a registry of its
own, so several apps in one process (the tests) do not collide.  The counts kept by the room service and the rate
limiter are read when Prometheus scrapes, so those layers need no Prometheus.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
ACTION_KINDS = ("action", "timeout", "next")


class _Counts(Collector):
    """Counters kept as plain dicts elsewhere (room errors, rate-limit refusals), read at scrape time."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def collect(self) -> Iterator[Metric]:
        rooms = CounterMetricFamily("tp_room_errors", "Room errors by kind (sweep errors, quarantined rooms)",
                                    labels=["kind"])
        for kind, n in sorted(self.app.state.rooms.errors.items()):
            rooms.add_metric([kind], n)
        yield rooms
        limited = CounterMetricFamily("tp_rate_limited", "Requests refused by a rate limit", labels=["policy"])
        for policy, n in sorted(self.app.state.rate_limiter.rejected.items()):
            limited.add_metric([policy], n)
        yield limited
        bus = self.app.state.rooms.bus
        if bus is not None:  # several instances: what crossed, and what the version check had to announce
            pushes = CounterMetricFamily("tp_bus_messages", "Push-bus messages from other instances handed on, "
                                         "and tables announced by the version check (lost or late)", labels=["kind"])
            pushes.add_metric(["heard"], bus.heard)
            pushes.add_metric(["resynced"], bus.resynced)
            pushes.add_metric(["reconnects"], bus.reconnects)
            pushes.add_metric(["absorbed"], bus.absorbed)
            yield pushes
        guard = getattr(self.app.state, "connection_guard", None)
        if guard is not None:  # `taiwan-poker serve`'s connection guard (web/connection_guard.py)
            yield GaugeMetricFamily("tp_connections_open", "Open HTTP connections (WebSockets included)",
                                    value=guard.open)
            yield GaugeMetricFamily("tp_connections_waiting_for_head", "Open connections waiting for a request head",
                                    value=guard.waiting)
            dropped = CounterMetricFamily("tp_connections_dropped", "Connections refused (per-address cap, "
                                          "descriptor limit), evicted or timed out before a request head, and "
                                          "failed accepts", labels=["reason"])
            for reason, n in sorted(guard.storm.totals.items()):
                dropped.add_metric([reason], n)
            yield dropped


class Metrics:
    def __init__(self, app: Any) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter("tp_http_requests", "HTTP requests by route template, method and status",
                                ["route", "method", "status"], registry=self.registry)
        self.request_seconds = Histogram("tp_http_request_seconds", "HTTP request duration by route template",
                                         ["route"], registry=self.registry)
        self.action_seconds = Histogram("tp_action_seconds", "Time to apply a table move (HTTP or socket)",
                                        ["kind"], registry=self.registry,
                                        buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5))
        for kind in ACTION_KINDS:
            self.action_seconds.labels(kind)
        self.database_errors = Counter("tp_database_errors", "Requests that failed because the database did not "
                                       "answer", registry=self.registry)
        Gauge("tp_open_sockets", "Open room sockets", registry=self.registry).set_function(
            lambda: len(app.state.sockets))
        Gauge("tp_rooms_in_memory", "Rooms whose state this instance holds in memory",
              registry=self.registry).set_function(lambda: len(app.state.rooms.loader))
        self.registry.register(_Counts(app))
        self.gc_seconds = Histogram("tp_gc_pause_seconds", "Garbage-collector pauses by generation (GIL held)",
                                    ["generation"], registry=self.registry,
                                    buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5))
        self._gc_started = 0.0

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.gc_seconds.labels(str(info.get("generation"))).observe(time.perf_counter() - self._gc_started)

    def watch_gc(self) -> None:
        """Time every collection (a start/stop callback pair: a few microseconds each)."""
        if self._gc not in gc.callbacks:
            gc.callbacks.append(self._gc)

    def unwatch_gc(self) -> None:
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)

    def render(self) -> bytes:
        return generate_latest(self.registry)


@contextmanager
def observe_action(app: Any, kind: object) -> Iterator[None]:
    """Time a table move into ``tp_action_seconds``."""
    start = time.perf_counter()
    try:
        yield
    finally:
        metrics: Metrics = app.state.metrics
        metrics.action_seconds.labels(str(kind) if kind in ACTION_KINDS else "other").observe(
            time.perf_counter() - start)
