"""Prometheus metrics. One registry per process; domain code imports the metric it updates.

Several processes (``agora serve --workers N``, uvicorn workers) share one scrape through
``prometheus_client``'s multiprocess mode: with ``PROMETHEUS_MULTIPROC_DIR`` set before the
process starts, every counter and histogram is kept in a file of that directory, and
``scrape_registry()`` sums every process's files (docs/operations.md, "Traces and metrics").

Request metrics are labelled by route template (never raw paths: bounded cardinality).
Database-derived gauges (jobs by state, ledger totals) are read at scrape time.
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.types import Scope

REGISTRY = CollectorRegistry(auto_describe=True)
MULTIPROC_DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"


def scrape_registry() -> CollectorRegistry:
    """What GET /metrics shows: this process's registry, or, in multiprocess mode, a registry
    that reads every process's files (summed: counters and histograms add up across workers)."""
    directory = os.environ.get(MULTIPROC_DIR_ENV)
    if not directory:
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    return registry


HTTP_REQUESTS = Counter(
    "agora_http_requests_total",
    "HTTP requests by method, route template and status.",
    ["method", "route", "status"],
    registry=REGISTRY,
)
HTTP_LATENCY = Histogram(
    "agora_http_request_duration_seconds",
    "HTTP request latency by method and route template.",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
    registry=REGISTRY,
)
DISPATCH_LATENCY = Histogram(
    "agora_dispatch_latency_seconds",
    "Time from a job's creation to the agent accepting /start_job.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
    registry=REGISTRY,
)
AGENT_CALL_ERRORS = Counter(
    "agora_agent_call_errors_total",
    "Failed calls to agents by endpoint and error kind.",
    ["endpoint", "error"],
    registry=REGISTRY,
)
JOB_TRANSITIONS = Counter(
    "agora_job_transitions_total",
    "Job status changes by target status.",
    ["to_status"],
    registry=REGISTRY,
)


def route_label(scope: Scope) -> str:
    route = scope.get("route")
    template = getattr(route, "path_format", None)
    if not isinstance(template, str):
        return "unmatched"
    path: str = scope.get("path", "")
    for prefix in ("/api/v1", "/v1"):
        if path.startswith(prefix + "/") or path == prefix:
            return prefix + template
    return template


# The labelled children of the request metrics, by (method, route, status): ``labels()`` takes a
# lock and builds its key on every call; the label sets are few (route templates, not paths).
_REQUEST_CHILDREN: dict[tuple[str, str, int], tuple[Any, Any]] = {}


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    """Count and time a finished request (``kit.observe.ObserveMiddleware``)."""
    key = (method, route, status)
    children = _REQUEST_CHILDREN.get(key)
    if children is None:
        children = (
            HTTP_REQUESTS.labels(method, route, str(status)),
            HTTP_LATENCY.labels(method, route),
        )
        _REQUEST_CHILDREN[key] = children
    children[0].inc()
    children[1].observe(seconds)
