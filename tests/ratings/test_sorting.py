"""``sort=`` on ``GET /v1/agents`` (both shapes) on a fixed data set, the documented Bayesian
formula, featured agents, comparison, and a sorted page's statement count (one per kind)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx2
import pytest
from sqlalchemy import select, update

from agora.jobs import lifecycle
from agora.kit.db import Database
from agora.kit.migrate import upgrade
from agora.kit.timeutil import utcnow
from agora.models import Agent, AgentCheck, AgentDailyCompletions, Job, User, Workspace
from tests.conftest import MakeUser, TestUser
from tests.contract.test_list_statements import counted
from tests.kit.test_migrations import _fresh_database
from tests.ratings.test_ratings import make_agent, make_jobs, rate
from tests.support.legacy import insert_old

# name: (ratings as {stars: how many}, base price, days since registration)
FIXED = {
    "One five": ({5: 1}, 3_000_000, 1),
    "Fifty 4.8s": ({5: 40, 4: 10}, 1_000_000, 50),
    "Middling": ({4: 8}, 2_000_000, 10),
    "Unrated": ({}, 0, 5),
    "Poor": ({1: 6, 2: 2}, 500_000, 20),
}


def bayesian(ratings: dict[int, int]) -> float:
    """docs/agents.md: (5 * 3.0 + sum of stars) / (5 + n)."""
    n = sum(ratings.values())
    return (5 * 3.0 + sum(s * c for s, c in ratings.items())) / (5 + n)


async def seed(db: Database) -> dict[str, uuid.UUID]:
    ids = {}
    now = utcnow()
    for name, (ratings, price, age) in FIXED.items():
        ids[name] = await make_agent(
            db,
            name,
            price=price,
            fee=0,
            created_at=now - timedelta(days=age),
            rating_count=sum(ratings.values()),
            rating_sum=sum(s * c for s, c in ratings.items()),
            **{f"rating_{s}": c for s, c in ratings.items()},
        )
    return ids


async def names(
    client: httpx2.AsyncClient, query: str, headers: dict[str, str] | None = None
) -> list[str]:
    response = await client.get(f"/v1/agents?{query}", headers=headers or {})
    assert response.status_code == 200, response.text
    return [a["name"] for a in response.json()["data"]]


async def test_sorting_by_rating_uses_the_bayesian_average(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    await seed(db)
    expected = sorted(FIXED, key=lambda n: -bayesian(FIXED[n][0]))
    assert expected == ["Fifty 4.8s", "Middling", "One five", "Unrated", "Poor"]
    assert await names(client, "sort=rating") == expected
    user = await make_user()
    assert await names(client, "sort=rating", user.bearer_headers) == expected
    listed = (await client.get("/v1/agents?sort=rating")).json()["data"]
    for agent in listed:
        assert agent["rating"]["score"] == pytest.approx(
            bayesian(FIXED[agent["name"]][0]), abs=1e-4
        )
    assert await names(client, "sort=price") == [
        "Unrated",
        "Poor",
        "Fifty 4.8s",
        "Middling",
        "One five",
    ]
    assert await names(client, "sort=newest") == [
        "One five",
        "Unrated",
        "Middling",
        "Poor",
        "Fifty 4.8s",
    ]
    # The Bearer shape pages a sorted listing by position.
    first = await client.get("/v1/agents?sort=rating&limit=2", headers=user.bearer_headers)
    cursor = first.json()["meta"]["pagination"]["nextCursor"]
    assert cursor == "2"
    rest = await names(client, f"sort=rating&limit=3&cursor={cursor}", user.bearer_headers)
    assert rest == expected[2:]
    for bad in ("sort=stars", "sort=relevance"):
        response = await client.get(f"/v1/agents?{bad}")
        assert response.status_code == 400 and "sort" in response.text, response.text


async def test_relevance_popularity_and_featured(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser, admin: TestUser
) -> None:
    ids = await seed(db)
    user = await make_user()
    # Relevance: the name equal to q, then names containing it, then other matches.
    summariser = await make_agent(db, "Summariser", description="summaries")
    await make_agent(db, "Text tool", description="a summariser of text")
    await make_agent(db, "Best summariser")
    assert await names(client, "q=summariser&sort=relevance") == [
        "Summariser",
        "Best summariser",
        "Text tool",
    ]
    # Popularity: completed jobs of the last 30 days.
    await make_jobs(db, user, ids["Poor"], n=3)
    await make_jobs(db, user, ids["Middling"], n=2)
    await make_jobs(db, user, ids["Unrated"], n=5, status="FAILED")
    assert (await names(client, "sort=popularity"))[:2] == ["Poor", "Middling"]
    bearer = await names(client, "sort=popularity", user.bearer_headers)  # the cursor listing
    assert bearer[:2] == ["Poor", "Middling"]
    # Featured: the operator's choice, through the admin API.
    refused = await client.post(
        f"/v1/admin/agents/{summariser}/feature", headers=user.bearer_headers
    )
    assert refused.status_code == 404
    chosen = await client.post(
        f"/v1/admin/agents/{summariser}/feature", headers=admin.bearer_headers
    )
    assert chosen.status_code == 200 and chosen.json()["data"]["featured"] is True
    assert await names(client, "featured=true") == ["Summariser"]
    assert (await names(client, "sort=featured"))[0] == "Summariser"
    await client.post(f"/v1/admin/agents/{summariser}/unfeature", headers=admin.bearer_headers)
    assert await names(client, "featured=true") == []


async def test_compare_shows_agents_side_by_side(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    user = await make_user()
    schema = {"input_data": [{"id": "text", "type": "string", "name": "Text"}]}
    a = await make_agent(db, "Alpha", price=1_000_000, fee=50_000, input_schema=schema)
    b = await make_agent(db, "Beta")
    await make_jobs(db, user, a, n=3)
    await make_jobs(db, user, a, n=1, status="FAILED")
    (rated,) = await make_jobs(db, user, b)
    await rate(client, user, rated, 5)
    async with db.transaction() as session:
        session.add(AgentCheck(agent_id=a, kind="periodic", available=True, message=None))
    response = await client.get(f"/v1/agents/compare?ids={a},{b}")
    assert response.status_code == 200, response.text
    alpha, beta = response.json()["data"]
    assert alpha["name"] == "Alpha" and alpha["price"]["credits"] == 1.05
    assert alpha["failureRate"] == 0.25 and alpha["completedJobs30d"] == 3
    assert alpha["p50DurationSeconds"] == pytest.approx(11.0, abs=0.5)
    assert alpha["availability"]["available"] is True
    assert alpha["inputFields"] == [{"id": "text", "type": "string", "name": "Text"}]
    assert beta["rating"]["average"] == 5.0 and beta["availability"]["available"] is None
    assert beta["failureRate"] == 0.0 and beta["inputFields"] == []
    for bad in ("", f"?ids={a},{b},{a}x,{uuid.uuid4()}"):
        refused = await client.get(f"/v1/agents/compare{bad}")
        assert refused.status_code == 400 and "ids" in refused.text, refused.text
    missing = await client.get(f"/v1/agents/compare?ids={a},{uuid.uuid4()}")
    assert missing.status_code == 404


async def test_concurrent_completions_count_exactly_and_only_recent_days(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    """Popularity counts completions per agent and UTC day (agent_daily_completions, kept by the
    jobs' lifecycle): 40 completions racing in their own transactions (and a second writer racing
    on five of those jobs, which loses) count 40; days before the 30-day window do not count."""
    user = await make_user()
    busy, quiet = await make_agent(db, "Busy"), await make_agent(db, "Quiet")
    running = await make_jobs(db, user, busy, n=40, status="RUNNING")
    await make_jobs(db, user, quiet, n=3)

    async def complete(job_id: str) -> bool:
        async with db.transaction() as session:
            job = await session.get(Job, uuid.UUID(job_id))
            assert job is not None
            if job.status == "COMPLETED":  # the other writer committed before this one read
                return False
            return await lifecycle.transition(session, job, "COMPLETED")

    won = await asyncio.gather(*(complete(j) for j in [*running, *running[:5]]))
    assert won.count(True) == 40
    compared = await client.get(f"/v1/agents/compare?ids={busy},{quiet}")
    assert [a["completedJobs30d"] for a in compared.json()["data"]] == [40, 3]
    assert (await names(client, "sort=popularity"))[:2] == ["Busy", "Quiet"]
    # A month later (the window is the last 30 UTC days, today's included) Busy's 40 are out.
    async with db.transaction() as session:
        old = utcnow() - timedelta(days=30)
        await session.execute(
            update(AgentDailyCompletions)
            .where(AgentDailyCompletions.agent_id == busy)
            .values(day=old.date())
        )
    compared = await client.get(f"/v1/agents/compare?ids={busy},{quiet}")
    assert [a["completedJobs30d"] for a in compared.json()["data"]] == [0, 3]
    assert (await names(client, "sort=popularity"))[0] == "Quiet"
    assert (await names(client, "sort=popularity", user.bearer_headers))[0] == "Quiet"


async def test_the_migration_counts_the_jobs_already_completed(
    db: Database, tmp_path: Path
) -> None:
    """0018_popularity fills agent_daily_completions from the COMPLETED jobs, per UTC day."""
    async with _fresh_database(db, tmp_path) as fresh:
        await upgrade(fresh.engine, "0017_audit_suspensions")
        now = utcnow()
        async with fresh.transaction() as session:
            # The tables as of 0017 (tests/support/legacy.py): the models have grown since.
            user = await insert_old(session, User, email="m@example.com", name="M")
            workspace = await insert_old(
                session, Workspace, name="M", kind="personal", owner_user_id=user["id"]
            )
            agent = await insert_old(
                session, Agent, name="Old", base_url="http://127.0.0.1:9", status="VERIFIED"
            )
            ended = [now, now, now - timedelta(days=35), now - timedelta(days=35), None]
            for i, when in enumerate(ended):
                await insert_old(
                    session,
                    Job,
                    workspace_id=workspace["id"],
                    user_id=user["id"],
                    agent_id=agent["id"],
                    name=f"Job {i}",
                    status="COMPLETED" if when else "FAILED",
                    identifier_from_purchaser=f"job{i}",
                    price=0,
                    refund=0,
                    completed_at=when,
                )
        await upgrade(fresh.engine)
        async with fresh.transaction() as session:
            rows = await session.execute(
                select(AgentDailyCompletions.day, AgentDailyCompletions.count).order_by(
                    AgentDailyCompletions.day
                )
            )
            assert rows.all() == [((now - timedelta(days=35)).date(), 2), (now.date(), 2)]


@pytest.mark.parametrize(
    "query",
    ["sort=rating", "sort=popularity", "sort=featured&category=", "favourites=true&sort=price"],
)
async def test_a_sorted_page_costs_the_same_statements_whatever_its_size(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser, query: str
) -> None:
    user = await make_user()
    query = query.replace("&category=", "")
    async with db.transaction() as session:
        agents = [
            Agent(
                name=f"Agent {i}",
                base_url="http://127.0.0.1:9",
                status="VERIFIED",
                rating_count=i,
                rating_sum=4 * i,
            )
            for i in range(60)
        ]
        session.add_all(agents)
        await session.flush()
        ids = [a.id for a in agents]
    for agent_id in ids:
        await client.put(f"/v1/agents/{agent_id}/favourite", headers=user.bearer_headers)
    await make_jobs(db, user, ids[3], n=2)
    counts: dict[str, Any] = {}
    for shape, headers in (("public", {}), ("bearer", user.bearer_headers)):
        if shape == "public" and "favourites" in query:
            continue
        for size in (5, 50):
            path = f"/v1/agents?{query}&limit={size}"
            assert (await client.get(path, headers=headers)).status_code == 200  # warm
            with counted(db) as statements:
                response = await client.get(path, headers=headers)
            assert response.status_code == 200, response.text
            assert len(response.json()["data"]) == size
            counts[f"{shape} {size}"] = [s for s in statements if "FROM api_keys" not in s]
        small, large = counts[f"{shape} 5"], counts[f"{shape} 50"]
        assert len(small) == len(large) <= 3, "\n".join([*small, "--", *large])
