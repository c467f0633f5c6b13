"""Caps cover every spend (issue 43.2): a coworker's usage charge counts against the cap of the
member it charges, and the project's cap of the task it is for; at the cap's edge, parallel
charges take exactly the allowed amount (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import uuid

import httpx2
from sqlalchemy import func, select

from agora.kit.db import Database
from agora.models import LedgerEntry, SpendingCap
from tests.conftest import TestUser
from tests.coworkers.conftest import Team
from tests.coworkers.test_clients_contract import _registered_whitelisted_keyed, bearer, data


async def _usage_spent(db: Database, workspace_id: uuid.UUID) -> tuple[int, int]:
    """(usage entries, credits they took) of a workspace."""
    async with db.transaction(write=False) as session:
        count, total = (
            await session.execute(
                select(func.count(), func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                    LedgerEntry.workspace_id == workspace_id, LedgerEntry.kind == "usage"
                )
            )
        ).one()
        return int(count), -int(total)


async def _cap_spent(db: Database, workspace_id: uuid.UUID) -> list[int]:
    async with db.transaction(write=False) as session:
        caps = await session.scalars(
            select(SpendingCap.spent).where(SpendingCap.workspace_id == workspace_id)
        )
        return sorted(caps)


async def _coworker_on_a_task(
    client: httpx2.AsyncClient, member: TestUser, admin: TestUser
) -> tuple[dict[str, str], str]:
    """The member's coworker, keyed, working on a task of the member: (its headers, the task)."""
    coworker, token = await _registered_whitelisted_keyed(client, member, admin)
    task = await data(
        await client.post(
            "/v1/tasks",
            json={"name": "Minutes", "coworkerId": coworker["id"], "status": "READY"},
            headers=member.bearer_headers,
        ),
        201,
    )
    return bearer(token), task["id"]


async def test_parallel_usage_at_a_members_cap_takes_exactly_the_cap(
    client: httpx2.AsyncClient, team: Team, admin: TestUser, db: Database
) -> None:
    bob = team.bob
    cw, task_id = await _coworker_on_a_task(client, bob, admin)
    capped = await client.put(
        "/v1/credits/caps",
        json={"userId": str(bob.user_id), "monthlyLimit": 3},
        headers=team.alice.key_headers,
    )
    assert capped.status_code == 200, capped.text

    def usage(n: int) -> dict[str, object]:
        return {"userId": str(bob.user_id), "organizationId": team.organization_id,
                "idempotencyKey": f"run-{n}", "credits": 1, "referenceId": task_id}  # fmt: skip

    answers = await asyncio.gather(
        *(client.post("/v1/coworkers/me/usage", json=usage(n), headers=cw) for n in range(8))
    )
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] * 3 + [402] * 5, [a.text for a in answers]
    refused = next(a for a in answers if a.status_code == 402).json()
    assert refused["message"] == (
        "Spending cap reached: the usage costs 1 credits and your monthly spending cap of 3 "
        "credits has 0 left this month"
    )
    assert await _usage_spent(db, bob.workspace_id) == (3, 3 * 10**6)
    assert await _cap_spent(db, bob.workspace_id) == [3 * 10**6]
    # The cap is the member's, whatever spends it: a paid job now is refused too, and a replay
    # of an accepted charge is still the same charge.
    accepted = next(n for n, a in enumerate(answers) if a.status_code == 201)
    replay = await client.post("/v1/coworkers/me/usage", json=usage(accepted), headers=cw)
    assert replay.status_code == 200
    listed = await data(await client.get("/v1/credits/caps", headers=team.alice.key_headers))
    assert [(c["monthlyLimit"], c["spentThisMonth"]) for c in listed] == [(3.0, 3.0)]


async def test_usage_for_a_task_of_a_project_counts_against_the_projects_cap(
    client: httpx2.AsyncClient, team: Team, admin: TestUser, db: Database
) -> None:
    alice = team.alice
    cw, task_id = await _coworker_on_a_task(client, alice, admin)
    project = await data(
        await client.post("/v1/projects", json={"name": "Capped"}, headers=alice.bearer_headers),
        201,
    )
    assigned = await client.post(
        f"/v1/projects/{project['id']}/tasks", json={"taskId": task_id},
        headers=alice.bearer_headers,
    )  # fmt: skip
    assert assigned.status_code == 200, assigned.text
    capped = await client.put(
        "/v1/credits/caps",
        json={"projectId": project["id"], "monthlyLimit": 2},
        headers=alice.key_headers,
    )
    assert capped.status_code == 200, capped.text
    body = {"userId": str(alice.user_id), "idempotencyKey": "a", "credits": 1.5,
            "referenceId": task_id}  # fmt: skip
    first = await client.post("/v1/coworkers/me/usage", json=body, headers=cw)
    assert first.status_code == 201, first.text
    second = await client.post(
        "/v1/coworkers/me/usage", json={**body, "idempotencyKey": "b"}, headers=cw
    )
    assert second.status_code == 402, second.text
    assert "the project's monthly spending cap of 2 credits has 0.5 left" in second.text
    assert await _usage_spent(db, alice.workspace_id) == (1, 1_500_000)
