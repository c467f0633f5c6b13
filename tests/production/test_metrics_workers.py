"""`agora serve --workers 4`: one /metrics sums every worker's counters (prometheus_client's
multiprocess mode), whichever worker answers the scrape."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx2
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.support.server import free_port

pytestmark = pytest.mark.process  # real processes: make prove
WORKERS = 4
REQUESTS = 240
THREADS = 8
# Four workers import the app at once: on a loaded 2-CPU machine that took 115 s once.
STARTUP_SECONDS = 300
STOP_SECONDS = 60


@contextmanager
def serving(env: dict[str, str], port: int, log: Path) -> Iterator[str]:
    """``agora serve --workers 4`` in its own process group: stopping it (always) stops the
    workers too, even if the supervisor has to be killed."""
    args = ["-m", "agora.cli.main", "serve", "--port", str(port), "--workers", str(WORKERS)]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, *args], env=env, stdout=out, stderr=out, start_new_session=True
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + STARTUP_SECONDS
            while True:
                assert process.poll() is None, log.read_text()
                try:
                    if httpx2.get(f"{base}/healthz", timeout=2).status_code == 200:
                        break
                except httpx2.TransportError:
                    pass
                assert time.monotonic() < deadline, f"not up in {STARTUP_SECONDS} s"
                time.sleep(0.5)
            yield base
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            with suppress(subprocess.TimeoutExpired):
                process.wait(timeout=STOP_SECONDS)
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # any worker left behind
            process.wait(timeout=10)


def _readyz_count(text: str) -> float:
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if (
                sample.name == "agora_http_requests_total"
                and sample.labels.get("route") == "/readyz"
                and sample.labels.get("status") == "200"
            ):
                total += sample.value
    return total


def _spread(base: str, count: int) -> None:
    # A new connection per request: the kernel hands each accept to whichever worker takes it.
    for _ in range(count):
        answer = httpx2.get(f"{base}/readyz", timeout=30, headers={"connection": "close"})
        assert answer.status_code == 200, answer.text


def test_a_four_worker_server_sums_every_workers_counts(
    postgres_env: dict[str, str], tmp_path: Path
) -> None:
    (tmp_path / "metrics").mkdir()  # prometheus_client asks for an existing directory
    env = {
        **postgres_env,
        "AGORA_METRICS_PUBLIC": "true",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
    }
    with serving(env, free_port(), tmp_path / "serve.log") as base:
        with ThreadPoolExecutor(THREADS) as pool:
            for done in [pool.submit(_spread, base, REQUESTS // THREADS) for _ in range(THREADS)]:
                done.result(timeout=120)
        # A request is counted as its answer finishes: poll (bounded) until all are in.
        deadline, seen = time.monotonic() + 60, -1.0
        while time.monotonic() < deadline:
            scrape = httpx2.get(f"{base}/metrics", timeout=30, headers={"connection": "close"})
            assert scrape.status_code == 200, scrape.text
            seen = _readyz_count(scrape.text)
            if seen == REQUESTS:
                break
            time.sleep(0.2)
        assert seen == REQUESTS, f"/metrics counted {seen} of {REQUESTS} /readyz requests"
        # Each worker that counted something keeps its own file; more than one took requests.
        pids = {p.name for p in (tmp_path / "metrics").glob("counter_*.db")}
        assert len(pids) > 1, pids
