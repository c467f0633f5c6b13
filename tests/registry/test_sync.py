"""Registry import against an emulation of the Masumi registry service (tests/support/
masumi_registry.py, masumi-registry-service 53c29e3): the token, page sizes, the two paging
rules, the default Online filter, the real entry shape; 250 entries imported twice, then
deregistrations and status changes through registry-diff; overrides survive re-imports; CLI."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx2
import pytest
from pydantic import ValidationError
from sqlalchemy import func, select

from agora.app import create_app
from agora.kit.db import Database
from agora.kit.logging import configure_logging
from agora.kit.timeutil import utcnow
from agora.models import Agent, RegistryCheckpoint, RegistryQuarantine
from agora.registry.client import RegistryError
from agora.registry.worker import RegistrySyncLoop, sync
from agora.settings import Settings
from tests.conftest import TestUser
from tests.jobs.helpers import echo
from tests.support.agents import LoopbackAgents
from tests.support.masumi_registry import (
    ADA,
    V1_POLICY,
    V2_POLICY,
    MasumiRegistry,
    masumi_registry,
    registry_row,
)
from tests.support.server import PYTHON, agora_env, run_cli

NOWHERE = "http://127.0.0.1:9"  # agents are never called by an import


@pytest.fixture
def registry() -> Iterator[MasumiRegistry]:
    with masumi_registry() as served:
        yield served


@pytest.fixture
def configured(settings: Settings, registry: MasumiRegistry) -> Settings:
    return settings.with_changes(registry_token=registry.token)


async def _agents(db: Database) -> dict[str, Agent]:
    async with db.transaction(write=False) as session:
        rows = list(await session.scalars(select(Agent)))
    return {a.agent_identifier or "": a for a in rows}


async def _count(db: Database, model: Any) -> int:
    async with db.transaction(write=False) as session:
        return int(await session.scalar(select(func.count()).select_from(model)) or 0)


def _ident(n: int, policy: str = V1_POLICY) -> str:
    return f"{policy}{n:064x}"


# ---- item 1: the token header ---------------------------------------------------------------


async def test_sync_sends_the_token_header_and_a_missing_token_is_named(
    registry: MasumiRegistry, db: Database, settings: Settings, configured: Settings
) -> None:
    registry.add([registry_row(n, NOWHERE) for n in range(3)])
    with pytest.raises(RegistryError) as refused:
        await sync(db, settings, registry.base_url)  # no AGORA_REGISTRY_TOKEN
    message = str(refused.value)
    assert "answered 401: No token provided" in message and "AGORA_REGISTRY_TOKEN" in message
    assert await _count(db, Agent) == 0

    wrong = settings.with_changes(registry_token="not-a-key")
    with pytest.raises(RegistryError, match="401: Invalid token"):
        await sync(db, wrong, registry.base_url)

    registry.requests.clear()
    report = await sync(db, configured, registry.base_url)
    assert report.created == 3
    assert registry.requests and all(r["token"] == registry.token for r in registry.requests)


# ---- item 2: page size ≤ 50 -----------------------------------------------------------------


def test_page_size_defaults_to_50_and_more_is_refused() -> None:
    assert Settings().registry.page_size == 50
    with pytest.raises(ValidationError, match="AGORA_REGISTRY_PAGE_SIZE must be between 2 and 50"):
        Settings(registry_page_size=51)
    with pytest.raises(ValidationError, match="between 2 and 50"):
        Settings(registry_page_size=1)
    assert Settings(registry_page_size=2).registry.page_size == 2


async def test_default_page_size_is_accepted_by_the_registry(
    registry: MasumiRegistry, db: Database, configured: Settings
) -> None:
    registry.add([registry_row(n, NOWHERE) for n in range(120)])
    report = await sync(db, configured, registry.base_url)
    assert report.created == 120
    assert {r["limit"] for r in registry.requests} == {50}


# ---- item 8: registry-diff's two-part paging ------------------------------------------------


async def test_diff_pages_by_status_time_and_cursor_until_every_change_is_seen(
    registry: MasumiRegistry, db: Database, configured: Settings
) -> None:
    """25 entries written in one transaction share one statusUpdatedAt: only the cursor tells
    the pages apart. Then three more moments: the time must advance too."""
    settings = configured.with_changes(registry_page_size=10)
    first = registry.add([registry_row(n, NOWHERE) for n in range(25)])
    for n in range(25, 28):
        registry.add([registry_row(n, NOWHERE)])
    since = "2020-01-01T00:00:00Z"
    report = await sync(db, settings, registry.base_url, updated_after=since)
    assert (report.created, report.seen) == (28, 28)
    assert await _count(db, Agent) == 28
    diffs = [r for r in registry.requests if r["path"] == "/api/v1/registry-diff"]
    assert diffs[0]["statusUpdatedAfter"] == "2020-01-01T00:00:00.000Z"
    assert "cursorId" not in diffs[0]
    shared = first[0].serialized("")["statusUpdatedAt"]
    assert (diffs[1]["statusUpdatedAfter"], diffs[1]["cursorId"]) == (shared, first[9].id)
    assert (diffs[2]["statusUpdatedAfter"], diffs[2]["cursorId"]) == (shared, first[18].id)
    # the fourth page starts at a later moment: the time advanced with the cursor
    assert diffs[3]["statusUpdatedAfter"] > shared
    assert len(diffs) == 4  # 10 + 9 new + 9 new + 0..3 new (a short page ends it)
    assert report.checkpoint == diffs[-1]["statusUpdatedAfter"]


# ---- item 9: the real field names, links kept as data ---------------------------------------


async def test_real_entry_shape_is_read_and_non_http_links_are_data(
    registry: MasumiRegistry,
    db: Database,
    configured: Settings,
    client: httpx2.AsyncClient,
    admin: TestUser,
    agents_server: LoopbackAgents,
) -> None:
    live = agents_server.serve(echo())
    registry.add(
        [
            registry_row(
                1,
                NOWHERE,
                api_base_url=live,
                image="ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
                privacy_policy="ipfs://QmPrivacy",
                terms_and_condition="See the terms in our office",
                other_legal="mailto:legal@example.com",
                author_contact_other="@someone on Discord",
                example_outputs=[
                    {"name": "On IPFS", "mimeType": "image/png", "url": "ipfs://QmExample"},
                    {"name": "On the web", "mimeType": "text/plain",
                     "url": "https://example.com/1.txt"},
                    {"name": "Script", "mimeType": "odd mime", "url": "javascript:alert(1)"},
                ],
            )
        ]
    )  # fmt: skip
    report = await sync(db, configured, registry.base_url)
    assert (report.created, report.quarantined) == (1, 0), report.reasons
    queue = await client.get(
        "/v1/admin/agents", params={"status": "PENDING"}, headers=admin.bearer_headers
    )
    [agent] = queue.json()["data"]
    assert agent["image"].startswith("ipfs://bafy")
    assert [e["url"] for e in agent["exampleOutputs"]] == [
        "ipfs://QmExample",
        "https://example.com/1.txt",
        "javascript:alert(1)",
    ]
    assert agent["legal"] == {
        "privacyPolicy": "ipfs://QmPrivacy",
        "terms": "See the terms in our office",
        "other": "mailto:legal@example.com",
    }
    assert agent["author"]["name"] == "Someone"
    assert agent["tags"] == ["imported", "t1"]

    approved = await client.post(
        f"/v1/admin/agents/{agent['id']}/approve", headers=admin.bearer_headers
    )
    assert approved.status_code == 200, approved.text
    html = (await client.get(f"/agents/{agent['id']}")).text
    examples = html.split('id="examples">', 1)[1].split("</ul>", 1)[0]
    assert '<a href="https://example.com/1.txt"' in examples
    assert "ipfs://QmExample" in examples and 'href="ipfs:' not in examples
    assert "javascript:alert(1)" in examples and 'href="javascript:' not in examples
    assert examples.count("<a ") == 1

    # The registry's health check finds another agent at that URL: back to review, hidden.
    registry.set_status([_ident(1)], "Invalid")
    marked = await sync(db, configured, registry.base_url)
    assert (marked.updated, marked.quarantined) == (1, 1)
    hidden = (await _agents(db))[_ident(1)]
    assert (hidden.status, hidden.review_state, hidden.is_shown) == ("PENDING", "pending", False)
    assert hidden.review_note == "the registry marks this entry Invalid: waiting for review again"
    registry.set_status([_ident(1)], "Offline")
    registry.set_status([_ident(1)], "Invalid")
    again = await sync(db, configured, registry.base_url)
    assert (again.updated, again.quarantined) == (0, 1)


async def test_old_spellings_still_read(
    registry: MasumiRegistry, db: Database, configured: Settings
) -> None:
    """The payment node's POST /registry names (ExampleOutputs, Tags, Author, Legal) still
    import: the same entry through the parser (no feed sends them any more)."""
    from agora.registry.entries import parse_entry

    entry = parse_entry(
        {
            "agentIdentifier": _ident(7),
            "name": "Old",
            "apiBaseUrl": "https://agent.example.com",
            "Tags": ["a"],
            "ExampleOutputs": [{"name": "x", "mimeType": "text/plain", "url": "https://e.x/1"}],
            "Author": {"name": "A", "contactEmail": "a@example.com"},
            "Legal": {"terms": "https://example.com/t"},
            "AgentPricing": {"pricingType": "Fixed", "Pricing": [{"unit": "", "amount": "2"}]},
        },
        configured.registry.unit_credits,
    )
    assert entry.listing["tags"] == ["a"]
    assert entry.listing["exampleOutputs"][0]["url"] == "https://e.x/1"
    assert entry.listing["legal"] == {"terms": "https://example.com/t"}
    assert entry.listing["pricing"] == {
        "pricingType": "Fixed",
        "amounts": [{"amount": "2", "unit": ""}],
    }


# ---- the 250 entries, twice; then registry-diff ---------------------------------------------


def _kind(n: int) -> dict[str, Any]:
    """Entry ``n`` of the big feed: every 10th Offline, Dynamic, ipfs image, V2 source, Free."""
    values: dict[str, Any] = {}
    if n % 10 == 3:
        values["status"] = "Offline"
    if n % 10 == 5:
        values.update(pricing_type="Dynamic", amounts=[])
    if n % 10 == 7:
        values["image"] = f"ipfs://QmImage{n}"
    if n % 10 == 9:
        values.update(asset_identifier=_ident(n, V2_POLICY), policy_id=V2_POLICY)
    if n % 10 == 1:
        values.update(pricing_type="Free", amounts=[], payment_type="None")
    return values


def _identifier(n: int) -> str:
    return _ident(n, V2_POLICY if n % 10 == 9 else V1_POLICY)


async def test_250_entries_twice_then_deregistrations_through_the_diff(
    registry: MasumiRegistry,
    db: Database,
    configured: Settings,
    client: httpx2.AsyncClient,
    admin: TestUser,
) -> None:
    for batch in range(5):  # five chain syncs: 50 rows each share a statusUpdatedAt
        numbers = range(batch * 50, batch * 50 + 50)
        registry.add([registry_row(n, NOWHERE, **_kind(n)) for n in numbers])
    registry.add([registry_row(n, NOWHERE, status="Deregistered") for n in range(900, 905)])
    registry.add([registry_row(n, NOWHERE, status="Invalid") for n in range(950, 953)])

    first = await sync(db, configured, registry.base_url)
    assert first.full and first.created == 250, first.as_dict()
    assert first.quarantined == 3  # the Invalid ones, seen by the diff after the full pass
    agents = await _agents(db)
    assert len(agents) == 250 and set(agents) == {_identifier(n) for n in range(250)}
    assert await _count(db, RegistryQuarantine) == 3
    entry_calls = [r for r in registry.requests if r["path"] == "/api/v1/registry-entry"]
    assert len(entry_calls) == 6  # 250 / 50 (+1: a full page may be the last)
    assert all(r["filter"] == {"status": ["Online", "Offline"]} for r in entry_calls)
    assert all(r["token"] == registry.token and r["limit"] <= 50 for r in registry.requests)

    def check_states(agents: dict[str, Agent], deregistered: set[int]) -> None:
        for n in range(250):
            agent = agents[_identifier(n)]
            kind = _kind(n)
            listing = agent.listing
            if n in deregistered:
                assert (agent.status, agent.review_state) == ("REVOKED", "withdrawn"), n
                assert listing["registryStatus"] == "Deregistered"
                continue
            assert (agent.status, agent.review_state) == ("PENDING", "pending"), n
            assert agent.is_shown is False
            assert listing["registryStatus"] == kind.get("status", "Online"), n
            if kind.get("pricing_type") == "Dynamic":
                assert (agent.pricing_type, agent.price) == ("DYNAMIC", 0)
                assert listing["pricing"] == {"pricingType": "Dynamic"}
            elif kind.get("pricing_type") == "Free":
                assert (agent.pricing_type, agent.price) == ("FREE", 0)
                assert listing["registry"]["paymentType"] == "None"
            else:
                assert (agent.pricing_type, agent.price) == ("FIXED", 3_000_000)
                assert listing["pricing"] == {
                    "pricingType": "Fixed",
                    "amounts": [{"amount": "3000000", "unit": ADA}],
                }
            if n % 10 == 7:
                assert agent.image == f"ipfs://QmImage{n}"
            policy = V2_POLICY if n % 10 == 9 else V1_POLICY
            assert listing["registry"]["policyId"] == policy
            assert listing["exampleOutputs"][0]["url"] == f"https://example.com/{n}.txt"

    check_states(agents, set())

    # Twice: the second sync is a diff from the stored checkpoint and changes nothing.
    registry.requests.clear()
    second = await sync(db, configured, registry.base_url)
    assert not second.full
    assert (second.created, second.updated, second.deregistered) == (0, 0, 0)
    assert {r["path"] for r in registry.requests} == {"/api/v1/registry-diff"}
    assert await _count(db, Agent) == 250
    check_states(await _agents(db), set())

    # Later: 20 deregistered on chain, and two health-check flips (Online ↔ Offline).
    leaving = [n for n in range(250) if n % 12 == 0][:20]
    registry.set_status([_identifier(n) for n in leaving], "Deregistered")
    registry.set_status([_identifier(2)], "Offline")
    registry.set_status([_identifier(3)], "Online")
    third = await sync(db, configured, registry.base_url)
    assert not third.full
    assert (third.created, third.deregistered, third.updated) == (0, 20, 22), third.as_dict()
    agents = await _agents(db)
    assert len(agents) == 250
    assert agents[_identifier(2)].listing["registryStatus"] == "Offline"
    assert agents[_identifier(3)].listing["registryStatus"] == "Online"
    flipped = {2: "Offline", 3: "Online"}
    for n, status in flipped.items():
        assert agents[_identifier(n)].listing["registryStatus"] == status

    fourth = await sync(db, configured, registry.base_url)
    assert (fourth.created, fourth.updated, fourth.deregistered) == (0, 0, 0)
    assert await _count(db, Agent) == 250
    queue = await client.get(
        "/v1/admin/agents", params={"status": "REVOKED", "limit": 100},
        headers=admin.bearer_headers,
    )  # fmt: skip
    assert queue.json()["meta"]["pagination"]["total"] == 20
    async with db.transaction(write=False) as session:
        [checkpoint] = list(await session.scalars(select(RegistryCheckpoint)))
    assert checkpoint.network == "Preprod" and checkpoint.full_pass_at is not None
    assert checkpoint.status_updated_after == fourth.checkpoint


async def test_a_metadata_change_without_a_status_change_arrives_with_a_full_pass(
    registry: MasumiRegistry, db: Database, configured: Settings
) -> None:
    registry.add([registry_row(n, NOWHERE) for n in range(3)])
    assert (await sync(db, configured, registry.base_url)).created == 3
    registry.update(_ident(1), name="Renamed upstream", amounts=[(5_000_000, ADA)])
    quiet = await sync(db, configured, registry.base_url)  # statusUpdatedAt did not move
    assert (quiet.full, quiet.updated) == (False, 0)
    forced = await sync(db, configured, registry.base_url, full=True)
    assert (forced.full, forced.updated) == (True, 1)
    agent = (await _agents(db))[_ident(1)]
    assert (agent.name, agent.price) == ("Renamed upstream", 5_000_000)

    # The periodic sync runs a full pass once the last one is 24 hours old.
    registry.update(_ident(2), description="Changed again")
    async with db.transaction() as session:
        [checkpoint] = list(await session.scalars(select(RegistryCheckpoint)))
        checkpoint.full_pass_at = utcnow() - timedelta(hours=23)
    assert (await sync(db, configured, registry.base_url)).full is False
    async with db.transaction() as session:
        [checkpoint] = list(await session.scalars(select(RegistryCheckpoint)))
        checkpoint.full_pass_at = utcnow() - timedelta(hours=24, seconds=1)
    due = await sync(db, configured, registry.base_url)
    assert (due.full, due.updated) == (True, 1)


async def test_overrides_survive_and_a_fixed_entry_leaves_the_quarantine(
    registry: MasumiRegistry,
    db: Database,
    configured: Settings,
    client: httpx2.AsyncClient,
    admin: TestUser,
) -> None:
    [first, bad] = registry.add(
        [registry_row(0, NOWHERE), registry_row(1, NOWHERE, api_base_url="ftp://x")]
    )
    report = await sync(db, configured, registry.base_url)
    assert (report.created, report.quarantined) == (1, 2)  # bad: in the pass and in the diff
    kept = await client.get("/v1/admin/registry/quarantine", headers=admin.bearer_headers)
    [row] = kept.json()["data"]
    assert row["entryKey"] == f"agentIdentifier:{_ident(1)}"
    assert row["reason"].startswith("apiBaseUrl:")
    assert row["entry"]["id"] == bad.id

    agent = (await _agents(db))[_ident(0)]
    fixed = await client.patch(
        f"/v1/admin/agents/{agent.id}/override",
        json={"name": "Curated name"},
        headers=admin.bearer_headers,
    )
    assert fixed.status_code == 200, fixed.text
    registry.update(_ident(0), name="Renamed upstream", description="New text")
    registry.update(_ident(1), api_base_url=f"{NOWHERE}/fixed")
    again = await sync(db, configured, registry.base_url, full=True)
    assert (again.created, again.updated, again.quarantined) == (1, 1, 0)
    shown = (await _agents(db))[_ident(0)]
    assert (shown.name, shown.description) == ("Curated name", "New text")
    assert await _count(db, RegistryQuarantine) == 0
    assert first.id


# ---- the periodic job, failures, the CLI ----------------------------------------------------


async def test_periodic_job_uses_the_token(
    registry: MasumiRegistry, db: Database, configured: Settings
) -> None:
    registry.add([registry_row(n, NOWHERE) for n in range(5)])
    app = create_app(configured.with_changes(registry_url=registry.base_url), db=db, migrate=False)
    await app.state.agent_client.aclose()  # built with the app; unused here
    loop = next(s for s in app.state.background if isinstance(s, RegistrySyncLoop))
    await loop.run_once()
    assert await _count(db, Agent) == 5
    assert registry.requests[0]["path"] == "/api/v1/registry-entry"
    assert registry.requests[0]["network"] == "Preprod"
    assert registry.requests[0]["token"] == registry.token


async def test_a_registry_slower_than_the_timeout_fails_the_sync(
    registry: MasumiRegistry, db: Database, configured: Settings
) -> None:
    """registry-entry waits for the registry's chain catch-up first: bounded by
    AGORA_REGISTRY_TIMEOUT_SECONDS."""
    registry.add([registry_row(1, NOWHERE)])
    registry.entry_delay = 1.5
    hurried = configured.with_changes(registry_timeout_seconds=0.5)
    with pytest.raises(RegistryError) as slow:
        await sync(db, hurried, registry.base_url)
    assert str(slow.value).endswith(": no answer in time"), slow.value
    assert await _count(db, Agent) == 0


async def test_unix_times_are_refused_before_any_call(
    registry: MasumiRegistry, db: Database, configured: Settings
) -> None:
    with pytest.raises(RegistryError, match="ISO 8601"):
        await sync(db, configured, registry.base_url, updated_after="1763900000000")
    assert registry.requests == []


async def test_an_unreachable_feed_fails_the_sync_but_not_the_periodic_job(
    db: Database, settings: Settings
) -> None:
    configure_logging("WARNING")  # this test logs a warning: to this test's stderr
    with pytest.raises(RegistryError, match="unreachable"):
        await sync(db, settings, NOWHERE)
    await RegistrySyncLoop(db, settings.with_changes(registry_url=NOWHERE)).run_once()
    assert await _count(db, Agent) == 0


@pytest.mark.sqlite_only
def test_cli_sync(registry: MasumiRegistry, tmp_path: Path, db: Database) -> None:
    registry.add([registry_row(n, NOWHERE) for n in range(3)])
    registry.add([registry_row(9, NOWHERE, asset_identifier="bad id with spaces")])
    env = agora_env(tmp_path, AGORA_DEMO="false", AGORA_REGISTRY_TOKEN=registry.token)
    out = json.loads(run_cli(env, "registry", "sync", "--url", registry.base_url, "--json"))
    assert out["created"] == 3 and out["full"] is True
    assert "agentIdentifier" in out["quarantineReasons"][0]
    again = json.loads(run_cli(env, "registry", "sync", "--url", registry.base_url, "--json"))
    assert again["created"] == 0 and again["full"] is False and again["updated"] == 0

    refused = subprocess.run(
        [PYTHON, "-m", "agora.cli.main", "registry", "sync", "--url", registry.base_url],
        env={**env, "AGORA_REGISTRY_PAGE_SIZE": "51"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2
    assert "AGORA_REGISTRY_PAGE_SIZE must be between 2 and 50 (got 51)" in refused.stderr
    assert "Traceback" not in refused.stderr
