"""Registry import against a feed on loopback: 250 entries twice → 250 agents, one malformed
entry quarantined (not fatal), overrides survive re-imports, CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from agora.app import create_app
from agora.kit.db import Database
from agora.kit.logging import configure_logging
from agora.models import Agent, RegistryQuarantine
from agora.registry.client import RegistryError
from agora.registry.scheduler import RegistrySyncLoop
from agora.registry.service import sync
from agora.settings import Settings
from tests.conftest import TestUser
from tests.support.registry_feed import RegistryFeedServer, entry, registry_feed
from tests.support.server import agora_env, run_cli


@pytest.fixture(scope="module")
def feed() -> Iterator[RegistryFeedServer]:
    with registry_feed() as served:
        yield served


async def _counts(db: Database) -> tuple[int, int]:
    async with db.transaction(write=False) as session:
        agents = await session.scalar(select(func.count()).select_from(Agent))
        quarantined = await session.scalar(select(func.count()).select_from(RegistryQuarantine))
    return int(agents or 0), int(quarantined or 0)


async def test_250_entries_twice_no_duplicates_and_a_quarantine(
    feed: RegistryFeedServer,
    app: FastAPI,
    db: Database,
    settings: Settings,
    client: httpx2.AsyncClient,
    admin: TestUser,
) -> None:
    agents_base = "http://127.0.0.1:9"  # never called: an import does not probe
    entries: list[object] = [entry(n, agents_base) for n in range(250)]
    entries.insert(100, {"id": "entry-bad", "agentIdentifier": "zz-bad", "name": "Bad"})
    feed.entries = entries
    feed.requests.clear()

    first = await sync(db, settings, feed.base_url)
    assert (first.created, first.quarantined, first.seen) == (250, 1, 251)
    assert first.pages == 3  # 100 + 100 + 51 (cursor entries are dropped, not doubled)
    assert "apiBaseUrl is missing" in first.reasons[0]
    assert await _counts(db) == (250, 1)
    kept = await client.get("/v1/admin/registry/quarantine", headers=admin.bearer_headers)
    assert kept.status_code == 200, kept.text
    [row] = kept.json()["data"]
    assert (row["entryKey"], row["reason"]) == ("agentIdentifier:zz-bad", "apiBaseUrl is missing")
    assert row["entry"]["name"] == "Bad"

    second = await sync(db, settings, feed.base_url)
    assert (second.created, second.updated, second.unchanged) == (0, 0, 250)
    assert await _counts(db) == (250, 1)

    # Imported as PENDING, hidden, with identifier, price, tags and example outputs.
    listing = await client.get("/v1/agents", params={"status": "PENDING"})
    assert listing.json()["data"] == []
    queue = await client.get(
        "/v1/admin/agents",
        params={"status": "PENDING", "limit": 100},
        headers=admin.bearer_headers,
    )
    assert queue.json()["meta"]["pagination"]["total"] == 250
    first_agent = queue.json()["data"][0]
    assert first_agent["source"] == "registry"
    assert first_agent["agentIdentifier"] == f"{0:064x}"
    assert first_agent["price"] == {"credits": 3.15, "includedFee": 0.15}  # 3 ADA = 3 credits
    assert first_agent["tags"] == ["imported", "t0"]
    assert first_agent["exampleOutputs"][0]["url"] == "https://example.com/0.txt"
    assert first_agent["published"]["isShown"] is False

    # An admin override survives a re-import that changes the entry's text.
    agent_id = first_agent["id"]
    fixed = await client.patch(
        f"/v1/admin/agents/{agent_id}/override",
        json={"name": "Curated name", "tags": ["curated"]},
        headers=admin.bearer_headers,
    )
    assert fixed.status_code == 200, fixed.text
    entries[0] = entry(0, agents_base, name="Renamed upstream", description="New text")
    third = await sync(db, settings, feed.base_url)
    assert (third.created, third.updated) == (0, 1)
    again = (await client.get(f"/v1/admin/agents/{agent_id}", headers=admin.bearer_headers)).json()[
        "data"
    ]
    assert again["name"] == "Curated name"
    assert again["description"] == "New text"

    # The malformed entry, fixed upstream, leaves the quarantine.
    entries[100] = entry(999, agents_base, id="entry-bad", agentIdentifier="zz-bad")
    fourth = await sync(db, settings, feed.base_url)
    assert (fourth.created, fourth.quarantined) == (1, 0)
    assert await _counts(db) == (251, 0)


async def test_deregistered_entry_withdraws_the_agent(
    feed: RegistryFeedServer, db: Database, settings: Settings
) -> None:
    feed.entries = [entry(1, "http://127.0.0.1:9"), entry(2, "http://127.0.0.1:9")]
    assert (await sync(db, settings, feed.base_url)).created == 2
    feed.entries[1] = entry(2, "http://127.0.0.1:9", status="Deregistered")
    report = await sync(db, settings, feed.base_url)
    assert report.deregistered == 1
    async with db.transaction(write=False) as session:
        gone = await session.scalar(select(Agent).where(Agent.agent_identifier == f"{2:064x}"))
    assert gone is not None and gone.status == "REVOKED" and gone.review_state == "withdrawn"


@pytest.mark.sqlite_only
def test_cli_sync(feed: RegistryFeedServer, tmp_path: Path, db: Database) -> None:
    feed.entries = [entry(n, "http://127.0.0.1:9") for n in range(3)] + [
        {"id": "x", "agentIdentifier": "bad id with spaces", "apiBaseUrl": "file:///etc"}
    ]
    env = agora_env(tmp_path, AGORA_DEMO="false")
    out = json.loads(run_cli(env, "registry", "sync", "--url", feed.base_url, "--json"))
    assert out["created"] == 3 and out["quarantined"] == 1
    assert "agentIdentifier" in out["quarantineReasons"][0]
    again = json.loads(run_cli(env, "registry", "sync", "--url", feed.base_url, "--json"))
    assert again["created"] == 0 and again["unchanged"] == 3


async def test_periodic_job_and_diff_feed(
    feed: RegistryFeedServer, db: Database, settings: Settings
) -> None:
    feed.entries = [entry(n, "http://127.0.0.1:9") for n in range(5)]
    feed.requests.clear()
    configured = settings.model_copy(update={"registry_url": feed.base_url})
    app = create_app(configured, db=db, migrate=False)
    await app.state.agent_client.aclose()  # built with the app; unused here
    loop = next(s for s in app.state.background if isinstance(s, RegistrySyncLoop))
    await loop.run_once()
    assert await _counts(db) == (5, 0)
    assert feed.requests[0]["path"] == "/api/v1/registry-entry"
    assert feed.requests[0]["network"] == "Preprod"

    report = await sync(db, settings, feed.base_url, updated_after="1763900000000")
    assert report.unchanged == 5
    assert feed.requests[-1]["path"] == "/api/v1/registry-diff"
    assert feed.requests[-1]["statusUpdatedAfter"] == "1763900000000"


async def test_an_unreachable_feed_fails_the_sync_but_not_the_periodic_job(
    db: Database, settings: Settings
) -> None:
    configure_logging("WARNING")  # this test logs a warning: to this test's stderr
    dead = "http://127.0.0.1:9"  # discard port: connection refused
    with pytest.raises(RegistryError, match="unreachable"):
        await sync(db, settings, dead)
    await RegistrySyncLoop(db, settings.model_copy(update={"registry_url": dead})).run_once()
    assert await _counts(db) == (0, 0)
