"""A real streaming read replica (docs/operations.md, "Read replica"): the test makes its own
primary cluster and a replica of it with ``pg_basebackup -R`` (PostgreSQL 15's binaries, run as
the ``postgres`` user, each on a random port in a temporary directory), then serves Agora on them.

Lists read the replica (with replay paused, another person does not see a fresh project, and the
writer stops seeing it once the read-your-writes window has passed), the writer reads the primary
within the window on every API process (the mark is in Redis), a lagging replica and a stopped
replica fall back to the primary (never a 500)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import httpx2
import pytest

from tests.conftest import unavailable
from tests.production.conftest import wait_until
from tests.support.server import agora_env, create_user, free_port, run_cli, running_server

pytestmark = [pytest.mark.redis, pytest.mark.process]  # real processes: make prove

PG_BIN = Path(os.environ.get("AGORA_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))
WINDOW = 3.0  # read-your-writes seconds of the servers here


def _as_postgres(*args: str) -> list[str]:
    """The server refuses to run as root: its binaries run as the ``postgres`` user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return list(args)


def _run(*args: str, timeout: float = 120) -> None:
    result = subprocess.run(
        _as_postgres(*args), capture_output=True, text=True, timeout=timeout, check=False
    )
    if result.returncode != 0:
        raise AssertionError(f"{args[0]} failed: {result.stdout}\n{result.stderr}")


@dataclass
class Cluster:
    data: Path
    port: int
    log: Path

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.data.parent} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c max_wal_senders=4 -c wal_level=replica"
        )
        _run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options,
             "-w", "-t", "60", "start")  # fmt: skip

    def stop(self) -> None:
        _run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def url(self, database: str = "agora") -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str) -> Any:
        async def run() -> Any:
            conn = await asyncpg.connect(
                host="127.0.0.1", port=self.port, user="postgres", database="agora", timeout=10
            )
            try:
                return await conn.fetchval(statement)
            finally:
                await conn.close()

        return asyncio.run(run())


@pytest.fixture(scope="module")
def clusters() -> Iterator[tuple[Cluster, Cluster]]:
    """A migrated primary and its streaming replica (``pg_basebackup -R``); removed after."""
    if not (PG_BIN / "pg_basebackup").exists() or shutil.which("runuser") is None:
        unavailable("PostgreSQL's server binaries", str(PG_BIN))
    root = Path(tempfile.mkdtemp(prefix="agora-replica-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    primary = Cluster(root / "primary", free_port(), root / "primary.log")
    replica = Cluster(root / "replica", free_port(), root / "replica.log")
    started: list[Cluster] = []
    try:
        # initdb's pg_hba.conf already trusts replication connections from 127.0.0.1
        _run(str(PG_BIN / "initdb"), "-D", str(primary.data), "-U", "postgres",
             "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")  # fmt: skip
        primary.start()
        started.append(primary)
        _run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(primary.port),
             "-U", "postgres", "agora")  # fmt: skip
        run_cli(agora_env(root, AGORA_DATABASE_URL=primary.url()), "migrate")
        _run(str(PG_BIN / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(primary.port),
             "-U", "postgres", "-D", str(replica.data), "-R", "-X", "stream",
             "-c", "fast", "--no-sync")  # fmt: skip
        replica.start()
        started.append(replica)
        assert replica.sql("SELECT pg_is_in_recovery()") is True
        yield primary, replica
    finally:
        for cluster in reversed(started):
            with contextlib.suppress(AssertionError):  # already stopped by a test
                cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


def _server_env(
    tmp_path: Path, primary: Cluster, replica: Cluster, redis_url: str, prefix: str, **extra: str
) -> dict[str, str]:
    return agora_env(
        tmp_path,
        AGORA_DATABASE_URL=primary.url(),
        AGORA_DATABASE_REPLICA_URL=replica.url(),
        AGORA_DATABASE_REPLICA_READ_YOUR_WRITES_SECONDS=str(WINDOW),
        AGORA_REDIS_URL=redis_url,
        AGORA_RATE_LIMIT_KEY_PREFIX=prefix,
        AGORA_DEMO="false",
        AGORA_RUN_DISPATCHER="false",
        AGORA_METRICS_PUBLIC="true",
        **extra,
    )


def _names(http: httpx2.Client, base: str, key: str, slug: str) -> set[str]:
    response = http.get(
        f"{base}/v1/projects", headers={"x-api-key": key, "x-organization-slug": slug}
    )
    assert response.status_code == 200, response.text
    return {project["name"] for project in response.json()["data"]}


def _create(http: httpx2.Client, base: str, key: str, slug: str, name: str) -> str:
    response = http.post(
        f"{base}/v1/projects",
        json={"name": name},
        headers={"x-api-key": key, "x-organization-slug": slug},
    )
    assert response.status_code == 201, response.text
    project_id: str = response.json()["data"]["id"]
    return project_id


def _get(http: httpx2.Client, base: str, key: str, slug: str, project_id: str) -> int:
    """GET one project (read through the ORM session, not the lean reads): its status."""
    response = http.get(
        f"{base}/v1/projects/{project_id}",
        headers={"x-api-key": key, "x-organization-slug": slug},
    )
    assert response.status_code in (200, 404), response.text
    return response.status_code


def _routing(http: httpx2.Client, base: str) -> dict[str, float]:
    """``agora_replica_routing_total`` by target, from the server's /metrics."""
    counts: dict[str, float] = {}
    for line in http.get(f"{base}/metrics").text.splitlines():
        if line.startswith("agora_replica_routing_total{"):
            label, value = line.split("} ")
            counts[label.split('target="')[1].rstrip('"')] = float(value)
    return counts


def _replayed(replica: Cluster, primary: Cluster) -> bool:
    """Whether the replica has replayed everything the primary has written so far."""
    wanted = primary.sql("SELECT pg_current_wal_lsn()::text")
    return bool(replica.sql(f"SELECT pg_last_wal_replay_lsn() >= '{wanted}'::pg_lsn"))


def test_lists_read_the_replica_writers_read_their_writes_and_failures_fall_back(
    clusters: tuple[Cluster, Cluster], tmp_path: Path, redis_url: str
) -> None:
    primary, replica = clusters
    prefix = f"agora-replica-{uuid.uuid4().hex[:8]}"
    tolerant = _server_env(  # measures once, tolerates any lag here: the replica until it fails
        tmp_path / "a",
        primary,
        replica,
        redis_url,
        prefix,
        AGORA_DATABASE_REPLICA_MAX_LAG_SECONDS="600",
        AGORA_DATABASE_REPLICA_CHECK_SECONDS="3600",
    )
    strict = _server_env(  # a second of lag at most, measured every 0.2 s
        tmp_path / "c",
        primary,
        replica,
        redis_url,
        prefix,
        AGORA_DATABASE_REPLICA_MAX_LAG_SECONDS="1",
        AGORA_DATABASE_REPLICA_CHECK_SECONDS="0.2",
    )
    slug = f"rep-{uuid.uuid4().hex[:8]}"
    emails = f"alice-{slug}@example.com", f"bob-{slug}@example.com"
    alice, bob = (create_user(tolerant, email) for email in emails)
    run_cli(tolerant, "orgs", "create", "--slug", slug, "--name", "R", "--owner", emails[0])
    run_cli(tolerant, "orgs", "add-member", "--slug", slug, "--user", emails[1])
    a_key, b_key = alice["apiKey"], bob["apiKey"]
    with (
        running_server(tolerant) as one,
        running_server({**tolerant, "AGORA_DATA_DIR": str(tmp_path / "b")}) as two,
        running_server(strict) as lagging,
        httpx2.Client(timeout=15) as http,
    ):
        _create(http, one, a_key, slug, "before")
        wait_until(lambda: _replayed(replica, primary), "replayed", seconds=30)
        assert _names(http, one, b_key, slug) == {"before"}
        # The replica serves these reads: its own sessions show Agora's connections.
        assert replica.sql(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = 'agora'"
            " AND pid <> pg_backend_pid()"
        ) > 0  # fmt: skip

        # Replay paused: a fresh project is on the primary only.
        replica.sql("SELECT pg_wal_replay_pause()")
        fresh = _create(http, one, a_key, slug, "fresh")
        written = time.monotonic()
        # The writer sees it at once, on this process and on the other (the mark is in Redis) …
        assert _names(http, one, a_key, slug) == {"before", "fresh"}
        assert _names(http, two, a_key, slug) == {"before", "fresh"}
        # … another person does not: their list reads the paused replica, on both processes.
        assert _names(http, one, b_key, slug) == {"before"}
        assert _names(http, two, b_key, slug) == {"before"}
        assert (_get(http, two, a_key, slug, fresh), _get(http, two, b_key, slug, fresh)) == (
            200,
            404,  # the ORM's statements read the replica too
        )
        assert time.monotonic() - written < WINDOW, "the machine was too slow to tell"
        # Past the window the writer reads the replica too.
        time.sleep(WINDOW + 0.5)
        assert _names(http, one, a_key, slug) == {"before"}
        assert _names(http, two, a_key, slug) == {"before"}
        counts = _routing(http, one)
        assert counts.get("replica", 0) >= 3 and counts.get("own_write", 0) >= 1

        # A replica lagging past a server's limit: that server reads the primary.
        assert _names(http, lagging, b_key, slug) == {"before", "fresh"}
        assert _routing(http, lagging).get("lagging", 0) >= 1
        assert _names(http, one, b_key, slug) == {"before"}  # the tolerant one still the replica

        replica.sql("SELECT pg_wal_replay_resume()")
        wait_until(
            lambda: _names(http, one, b_key, slug) == {"before", "fresh"}, "replayed", seconds=30
        )
        wait_until(  # caught up: the strict server reads the replica again
            lambda: (
                _names(http, lagging, b_key, slug) == {"before", "fresh"}
                and _routing(http, lagging).get("replica", 0) >= 1
            ),
            "back on the replica",
            seconds=30,
        )

        # A stopped replica: the reads it was serving are answered from the primary, no 500.
        # The second process still takes the replica for good (it measures once an hour): its
        # first read after the stop fails there and runs again on the primary.
        replica.stop()
        assert _get(http, two, b_key, slug, fresh) == 200  # the ORM's read, run again
        after = _create(http, one, a_key, slug, "after")
        time.sleep(WINDOW + 0.5)  # the writer's window over: everyone would read the replica
        for base in (one, two, lagging):
            for key in (a_key, b_key):
                assert _names(http, base, key, slug) == {"before", "fresh", "after"}
                assert _get(http, base, key, slug, after) == 200
        assert _routing(http, two).get("unavailable", 0) >= 1
        assert http.get(f"{one}/agents").status_code == 200  # a public page, no credentials
