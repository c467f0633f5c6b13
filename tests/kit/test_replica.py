"""Read routing with a replica configured (kit/replica.py), in process and through HTTP. Here the
"replica" is the test's PostgreSQL database itself (not in recovery: no lag), so what is proven is
the routing, as counted in ``agora_replica_routing_total``; the real streaming replica, paused and
stopped, is tests/production/test_replica.py (``make prove``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest

from agora.app import create_app
from agora.kit.db import Database
from agora.kit.metrics import REGISTRY
from agora.kit.replica import ReplicaOptions
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.support.server import free_port


def _count(target: str) -> float:
    value = REGISTRY.get_sample_value("agora_replica_routing_total", {"target": target})
    return value or 0.0


@asynccontextmanager
async def _served(
    settings: Settings, url: str, **options: Any
) -> AsyncIterator[httpx2.AsyncClient]:
    database = Database(url, replica=ReplicaOptions(url=options.pop("replica_url", url), **options))
    app = create_app(settings, db=database, migrate=False, background=False)
    try:
        async with app.router.lifespan_context(app):
            transport = httpx2.ASGITransport(app=app)
            async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
                yield c
    finally:
        await database.dispose()


async def _list(client: httpx2.AsyncClient, headers: dict[str, str]) -> set[str]:
    response = await client.get("/v1/projects", headers=headers)
    assert response.status_code == 200, response.text
    return {project["name"] for project in response.json()["data"]}


class Counted:
    """The routing counter's increase by target since it was made."""

    def __init__(self) -> None:
        self.start = {t: _count(t) for t in ("replica", "own_write", "redis_unavailable")}
        self.start |= {t: _count(t) for t in ("unavailable", "lagging", "unchecked")}

    def __getitem__(self, target: str) -> float:
        return _count(target) - self.start[target]


@pytest.mark.postgres_only
async def test_read_units_read_the_replica_and_a_writer_the_primary_within_the_window(
    settings: Settings, db: Database, make_user: MakeUser
) -> None:
    alice, bob = await make_user(), await make_user()
    async with _served(settings, db.url, read_your_writes_seconds=2) as client:
        counted = Counted()
        ready = await client.get("/readyz")
        assert (ready.status_code, ready.json()["checks"]["replica"]) == (200, "ok")
        assert ready.json()["status"] == "ok"
        assert await _list(client, alice.key_headers) == set()
        assert counted["replica"] == 1
        created = await client.post("/v1/projects", json={"name": "p"}, headers=alice.key_headers)
        assert created.status_code == 201
        assert await _list(client, alice.key_headers) == {"p"}  # her own write: the primary
        assert (counted["replica"], counted["own_write"]) == (1, 1)
        await _list(client, bob.key_headers)  # another person: the replica
        assert (counted["replica"], counted["own_write"]) == (2, 1)
        # Public reads without credentials: the replica, whether the route authenticates
        # optionally (the catalogue) or not at all (categories).
        assert (await client.get("/v1/agents")).status_code == 200
        assert (await client.get("/v1/categories")).status_code == 200
        assert counted["replica"] == 4
        await asyncio.sleep(2.1)  # the window is over
        assert await _list(client, alice.key_headers) == {"p"}
        assert (counted["replica"], counted["own_write"]) == (5, 1)


@pytest.mark.postgres_only
async def test_without_redis_answering_a_signed_in_reader_reads_the_primary(
    settings: Settings, db: Database, make_user: MakeUser
) -> None:
    alice = await make_user()
    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    async with _served(settings.with_changes(redis_url=dead), db.url, redis_url=dead) as client:
        counted = Counted()
        assert await _list(client, alice.key_headers) == set()
        assert (await client.get("/v1/categories")).status_code == 200
        assert (counted["redis_unavailable"], counted["replica"]) == (1, 1)


@pytest.mark.postgres_only
async def test_an_unreachable_replica_sends_reads_to_the_primary(
    settings: Settings, db: Database, make_user: MakeUser
) -> None:
    alice = await make_user()
    nowhere = db.url.replace(db.url.split("@")[1].split("/")[0], f"127.0.0.1:{free_port()}")
    async with _served(settings, db.url, replica_url=nowhere) as client:
        counted = Counted()
        created = await client.post("/v1/projects", json={"name": "p"}, headers=alice.key_headers)
        assert created.status_code == 201
        bob = await make_user()
        assert await _list(client, bob.key_headers) == set()  # answered, from the primary
        assert (await client.get("/v1/categories")).status_code == 200
        assert counted["unavailable"] == 2 and counted["replica"] == 0
        ready = await client.get("/readyz")  # served, and said so: reads go to the primary
        assert ready.status_code == 200 and ready.json()["status"] == "degraded"
        assert (
            ready.json()["checks"]["replica"] == "degraded: reads go to the primary (unavailable)"
        )


@pytest.mark.sqlite_only
def test_a_replica_needs_postgresql(settings: Settings) -> None:
    replicated = settings.with_changes(database_replica_url="postgresql://replica/agora")
    with pytest.raises(ValueError, match="needs PostgreSQL"):
        create_app(replicated)
