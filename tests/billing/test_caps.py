"""Spending caps: an organization's owner caps members and projects per month; a job that would
pass a cap is refused with 402 naming it; under 50 concurrent jobs of two members exactly the
allowed ones are created and the ledger is exact (PostgreSQL)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.credits import ledger
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.models import Job, LedgerEntry, SpendingCap
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import create, echo, register
from tests.support.agents import LoopbackAgents

SLUG = {"X-Organization-Slug": "capped"}


async def organization(
    db: Database, make_user: MakeUser, credits: str
) -> tuple[TestUser, TestUser, TestUser, Any]:
    owner, admin, member = await make_user(), await make_user(), await make_user()
    async with db.transaction() as session:
        users = [await identity_repo.user_by_id(session, u.user_id) for u in (owner, admin, member)]
        org, ws = await identity.create_organization(
            session,
            slug="capped",
            name="Capped",
            owner=users[0],  # type: ignore[arg-type]
        )
        await identity.add_member(session, org=org, user=users[1], role="admin")  # type: ignore[arg-type]
        await identity.add_member(session, org=org, user=users[2], role="member")  # type: ignore[arg-type]
        await ledger.grant(session, workspace_id=ws.id, amount=to_base(credits), memo="test")
    return owner, admin, member, ws


async def workspace_spend(
    db: Database, workspace_id: uuid.UUID
) -> tuple[int, int, dict[uuid.UUID, int]]:
    """A workspace's jobs, its credits on hold and each member's spend against their cap."""
    async with db.transaction(write=False) as session:
        jobs = await session.scalar(
            select(func.count()).select_from(Job).where(Job.workspace_id == workspace_id)
        )
        held = await session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.held_change), 0)).where(
                LedgerEntry.workspace_id == workspace_id, LedgerEntry.kind == "hold"
            )
        )
        caps = await session.scalars(
            select(SpendingCap).where(SpendingCap.workspace_id == workspace_id)
        )
        return jobs or 0, held or 0, {cap.user_id: cap.spent for cap in caps}


async def set_cap(
    client: httpx2.AsyncClient, who: TestUser, body: dict[str, Any]
) -> httpx2.Response:
    return await client.put("/v1/credits/caps", json=body, headers={**who.key_headers, **SLUG})


async def test_member_and_project_caps_refuse_with_402_naming_the_cap(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=2)  # 2.1 with the fee
    owner, admin, member, _ws = await organization(db, make_user, "100")
    refused = await set_cap(client, admin, {"userId": str(member.user_id), "monthlyLimit": 5})
    assert refused.status_code == 403
    both = await set_cap(
        client, owner, {"userId": str(member.user_id), "projectId": str(owner.user_id),
                        "monthlyLimit": 5},
    )  # fmt: skip
    assert both.status_code == 400
    stranger = await make_user()
    outsider = await set_cap(client, owner, {"userId": str(stranger.user_id), "monthlyLimit": 5})
    assert outsider.status_code == 400
    assert outsider.json()["details"][0]["field"] == "userId"
    cap = await set_cap(client, owner, {"userId": str(member.user_id), "monthlyLimit": 5})
    assert cap.status_code == 200, cap.text
    headers = {**member.key_headers, **SLUG}
    assert (await create(client, headers, agent_id)).status_code == 201
    assert (await create(client, headers, agent_id)).status_code == 201
    third = await create(client, headers, agent_id)
    assert third.status_code == 402
    assert "your monthly spending cap of 5 credits has 0.8 left" in third.json()["message"]
    # The admin has no cap; the cap's spending is shown.
    assert (await create(client, {**admin.key_headers, **SLUG}, agent_id)).status_code == 201
    listed = await client.get("/v1/credits/caps", headers={**member.key_headers, **SLUG})
    assert [(c["monthlyLimit"], c["spentThisMonth"]) for c in listed.json()["data"]] == [(5.0, 4.2)]

    # A project cap: jobs created for a task of the project count.
    project = await client.post(
        "/v1/projects", json={"name": "Capped work"}, headers={**owner.bearer_headers, **SLUG}
    )
    assert project.status_code == 201, project.text
    project_id = project.json()["data"]["id"]
    task = await client.post(
        "/v1/tasks", json={"name": "A task"}, headers={**owner.bearer_headers, **SLUG}
    )
    assert task.status_code == 201, task.text
    assigned = await client.post(
        f"/v1/projects/{project_id}/tasks",
        json={"taskId": task.json()["data"]["id"]},
        headers={**owner.bearer_headers, **SLUG},
    )
    assert assigned.status_code == 200, assigned.text
    assert (
        await set_cap(client, owner, {"projectId": project_id, "monthlyLimit": 3})
    ).status_code == 200
    body = {"inputData": {"text": "x"}, "taskId": task.json()["data"]["id"]}
    owner_headers = {**owner.key_headers, **SLUG}
    assert (await create(client, owner_headers, agent_id, body)).status_code == 201
    over = await create(client, owner_headers, agent_id, body)
    assert over.status_code == 402
    assert "the project's monthly spending cap of 3 credits" in over.json()["message"]
    # Without the task the owner is not capped.
    assert (await create(client, owner_headers, agent_id)).status_code == 201
    removed = await client.delete(
        f"/v1/credits/caps/{cap.json()['data']['id']}", headers={**owner.key_headers, **SLUG}
    )
    assert removed.status_code == 204
    assert (await create(client, headers, agent_id)).status_code == 201


@pytest.mark.postgres_only
async def test_fifty_concurrent_jobs_of_two_members_against_caps_and_balance(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=2)  # 2.1 a job
    owner, admin, member, ws = await organization(db, make_user, "39.9")  # 19 jobs' worth
    # The member may run 10 jobs (21 credits), the admin 12 (25.2): 22 > 19, so the balance
    # stops the total at 19 and neither member passes their cap.
    assert (
        await set_cap(client, owner, {"userId": str(member.user_id), "monthlyLimit": 21})
    ).status_code == 200
    assert (
        await set_cap(client, owner, {"userId": str(admin.user_id), "monthlyLimit": 25.2})
    ).status_code == 200
    calls = [
        create(client, {**who.key_headers, **SLUG}, agent_id)
        for _ in range(25)
        for who in (member, admin)
    ]
    answers = await asyncio.wait_for(asyncio.gather(*calls), timeout=120)
    codes = [a.status_code for a in answers]
    assert set(codes) <= {201, 402}, codes
    by_member = sum(1 for i, a in enumerate(answers) if a.status_code == 201 and i % 2 == 0)
    by_admin = sum(1 for i, a in enumerate(answers) if a.status_code == 201 and i % 2 == 1)
    assert by_member + by_admin == 19
    assert by_member <= 10 and by_admin <= 12
    jobs, held, spent = await workspace_spend(db, ws.id)
    assert jobs == 19
    assert held == to_base("39.9")
    assert spent == {
        member.user_id: by_member * to_base("2.1"),
        admin.user_id: by_admin * to_base("2.1"),
    }
    account = (await client.get("/v1/credits", headers={**owner.key_headers, **SLUG})).json()
    assert (account["data"]["balance"], account["data"]["held"]) == (0, 39.9)
