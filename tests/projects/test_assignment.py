"""Assigning jobs and tasks to projects: interface §4.1 rules 1 to 6, under concurrency on both
databases (rule 2: exactly one of 100 racing assignments wins, the rest get the Conflict body)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx2
import pytest
from sqlalchemy import insert

from agora.kit.db import Database
from agora.models import Project
from tests.conftest import MakeUser
from tests.conftest import TestUser as Caller
from tests.projects.factories import job_row, make_agent, make_job, project_row, task_row

Kind = str  # "jobs" | "tasks"


async def new_project(client: httpx2.AsyncClient, user: Caller, name: str) -> dict[str, Any]:
    response = await client.post("/v1/projects", json={"name": name}, headers=user.bearer_headers)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def new_task(client: httpx2.AsyncClient, user: Caller, name: str = "T") -> str:
    response = await client.post("/v1/tasks", json={"name": name}, headers=user.bearer_headers)
    assert response.status_code == 201, response.text
    return str(response.json()["data"]["id"])


async def new_resource(kind: Kind, client: httpx2.AsyncClient, db: Database, user: Caller) -> str:
    if kind == "jobs":
        return str(await make_job(db, user, await make_agent(db)))
    return await new_task(client, user)


async def placed_in(kind: Kind, db: Database, resource_id: str) -> uuid.UUID | None:
    row = await (job_row if kind == "jobs" else task_row)(db, resource_id)
    return row.project_id


def body_for(kind: Kind, resource_id: str) -> dict[str, str]:
    return {"jobId": resource_id} if kind == "jobs" else {"taskId": resource_id}


def field(kind: Kind) -> str:
    return "jobId" if kind == "jobs" else "taskId"


@pytest.fixture(params=["jobs", "tasks"])
def kind(request: pytest.FixtureRequest) -> Kind:
    return str(request.param)


async def test_assign_unassign_and_response_bodies(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database, kind: Kind
) -> None:
    user = await make_user()
    project = await new_project(client, user, "Q3 launch")
    resource = await new_resource(kind, client, db, user)
    before = await (job_row if kind == "jobs" else task_row)(db, resource)
    url = f"/v1/projects/{project['id']}/{kind}"

    assigned = await client.post(url, json=body_for(kind, resource), headers=user.key_headers)
    assert assigned.status_code == 200, assigned.text
    assert assigned.json()["data"] == {field(kind): resource, "projectId": project["id"]}
    assert await placed_in(kind, db, resource) == uuid.UUID(project["id"])
    after = await (job_row if kind == "jobs" else task_row)(db, resource)
    assert after.updated_at > before.updated_at  # the history feed sees the change
    touched = await project_row(db, project["id"])
    assert touched is not None
    assert touched.updated_at == after.updated_at  # assign touches the project too

    # Idempotent: assigning again to the same project succeeds and changes nothing.
    again = await client.post(url, json=body_for(kind, resource), headers=user.bearer_headers)
    assert again.status_code == 200
    assert again.json()["data"] == assigned.json()["data"]
    unchanged = await (job_row if kind == "jobs" else task_row)(db, resource)
    assert unchanged.updated_at == after.updated_at

    removed = await client.delete(f"{url}/{resource}", headers=user.bearer_headers)
    assert removed.status_code == 200, removed.text
    assert removed.json()["data"] == {field(kind): resource, "projectId": None}
    assert await placed_in(kind, db, resource) is None
    cleared = await (job_row if kind == "jobs" else task_row)(db, resource)
    assert cleared.updated_at > after.updated_at

    # Unassigning something that is not in that project → 404.
    missing = await client.delete(f"{url}/{resource}", headers=user.bearer_headers)
    assert missing.status_code == 404
    assert missing.json()["error"] == "Not Found"


async def test_rules_1_3_4_conflict_then_move(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database, kind: Kind
) -> None:
    user = await make_user()
    first = await new_project(client, user, "Q3 launch")
    second = await new_project(client, user, "Q4 plan")
    resource = await new_resource(kind, client, db, user)
    body = body_for(kind, resource)
    h = user.bearer_headers
    assert (
        await client.post(f"/v1/projects/{first['id']}/{kind}", json=body, headers=h)
    ).status_code == 200

    conflict = await client.post(f"/v1/projects/{second['id']}/{kind}", json=body, headers=h)
    assert conflict.status_code == 409
    payload = conflict.json()
    assert set(payload) == {"error", "message"}  # the Conflict shape, nothing else
    assert payload["error"] == "Conflict"
    label = "Job" if kind == "jobs" else "Task"
    assert payload["message"].startswith(f"{label} {resource} is already assigned to project")
    assert first["id"] in payload["message"] and "(Q3 launch)" in payload["message"]
    assert await placed_in(kind, db, resource) == uuid.UUID(first["id"])  # not overwritten

    # Unassigning from the wrong project is a 404 and changes nothing.
    wrong = await client.delete(f"/v1/projects/{second['id']}/{kind}/{resource}", headers=h)
    assert wrong.status_code == 404
    assert await placed_in(kind, db, resource) == uuid.UUID(first["id"])

    # Rule 4: moving = unassign, then assign.
    out = await client.delete(f"/v1/projects/{first['id']}/{kind}/{resource}", headers=h)
    assert out.status_code == 200
    moved = await client.post(f"/v1/projects/{second['id']}/{kind}", json=body, headers=h)
    assert moved.status_code == 200
    assert await placed_in(kind, db, resource) == uuid.UUID(second["id"])


async def test_rule5_archived_task_cannot_be_added(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    project = await new_project(client, user, "P")
    task = await new_task(client, user)
    h = user.bearer_headers
    assert (await client.post(f"/v1/tasks/{task}/archive", headers=h)).status_code == 200
    refused = await client.post(
        f"/v1/projects/{project['id']}/tasks", json={"taskId": task}, headers=h
    )
    assert refused.status_code == 400
    error = refused.json()
    assert error["details"] == [
        {
            "field": "taskId",
            "reason": "the task is archived; an archived task cannot be added to a project",
        }
    ]
    assert (await task_row(db, task)).project_id is None
    # Unarchived, it can be added.
    assert (await client.post(f"/v1/tasks/{task}/unarchive", headers=h)).status_code == 200
    accepted = await client.post(
        f"/v1/projects/{project['id']}/tasks", json={"taskId": task}, headers=h
    )
    assert accepted.status_code == 200
    # Archiving a task keeps its project; re-adding it while archived is still a 400.
    assert (await client.post(f"/v1/tasks/{task}/archive", headers=h)).status_code == 200
    assert (await task_row(db, task)).project_id == uuid.UUID(project["id"])
    again = await client.post(
        f"/v1/projects/{project['id']}/tasks", json={"taskId": task}, headers=h
    )
    assert again.status_code == 400


async def test_rule6_delete_keeps_jobs_and_tasks_and_clears_project_id(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    doomed = await new_project(client, user, "Doomed")
    kept = await new_project(client, user, "Kept")
    agent = await make_agent(db)
    jobs = [str(await make_job(db, user, agent)) for _ in range(2)]
    tasks = [await new_task(client, user) for _ in range(2)]
    other_job = str(await make_job(db, user, agent))
    h = user.bearer_headers
    for job in jobs:
        await client.post(f"/v1/projects/{doomed['id']}/jobs", json={"jobId": job}, headers=h)
    for task in tasks:
        await client.post(f"/v1/projects/{doomed['id']}/tasks", json={"taskId": task}, headers=h)
    await client.post(f"/v1/projects/{kept['id']}/jobs", json={"jobId": other_job}, headers=h)
    before = {j: (await job_row(db, j)).updated_at for j in jobs}

    deleted = await client.delete(f"/v1/projects/{doomed['id']}", headers=h)
    assert deleted.status_code == 200
    assert await project_row(db, doomed["id"]) is None
    for job in jobs:
        row = await job_row(db, job)  # the job still exists
        assert row.project_id is None
        assert row.updated_at > before[job]
    for task in tasks:
        assert (await task_row(db, task)).project_id is None
        listed = await client.get(f"/v1/tasks/{task}", headers=h)
        assert listed.json()["data"]["projectId"] is None
    assert (await job_row(db, other_job)).project_id == uuid.UUID(kept["id"])
    # Assigning to the deleted project is a 404.
    late = await client.post(
        f"/v1/projects/{doomed['id']}/jobs", json={"jobId": jobs[0]}, headers=h
    )
    assert late.status_code == 404


async def test_workspace_scoping_of_jobs_and_tasks(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database, kind: Kind
) -> None:
    me, other = await make_user(), await make_user()
    mine = await new_project(client, me, "Mine")
    theirs = await new_resource(kind, client, db, other)
    response = await client.post(
        f"/v1/projects/{mine['id']}/{kind}", json=body_for(kind, theirs), headers=me.bearer_headers
    )
    assert response.status_code == 404
    assert await placed_in(kind, db, theirs) is None
    garbage = await client.post(
        f"/v1/projects/{mine['id']}/{kind}",
        json=body_for(kind, "not-an-id"),
        headers=me.bearer_headers,
    )
    assert garbage.status_code == 404
    missing_field = await client.post(
        f"/v1/projects/{mine['id']}/{kind}", json={}, headers=me.bearer_headers
    )
    assert missing_field.status_code == 400
    assert missing_field.json()["details"][0] == {"field": field(kind), "reason": "is required"}


async def test_rule2_one_hundred_concurrent_assignments_one_winner(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database, kind: Kind
) -> None:
    user = await make_user()
    resource = await new_resource(kind, client, db, user)
    project_ids = [uuid.uuid4() for _ in range(100)]
    async with db.transaction() as session:
        await session.execute(
            insert(Project),
            [
                {"id": pid, "workspace_id": user.workspace_id, "name": f"P{i}", "description": ""}
                for i, pid in enumerate(project_ids)
            ],
        )
    body = body_for(kind, resource)

    async def attempt(project_id: uuid.UUID) -> httpx2.Response:
        return await client.post(
            f"/v1/projects/{project_id}/{kind}", json=body, headers=user.bearer_headers
        )

    responses = await asyncio.wait_for(
        asyncio.gather(*(attempt(pid) for pid in project_ids)), timeout=120
    )
    statuses = [r.status_code for r in responses]
    winners = [pid for pid, r in zip(project_ids, responses, strict=True) if r.is_success]
    assert len(winners) == 1, sorted(set(statuses))
    assert statuses.count(409) == 99, sorted(set(statuses))
    for response in responses:
        if response.status_code == 409:
            payload = response.json()
            assert set(payload) == {"error", "message"}
            assert payload["error"] == "Conflict"
            assert str(winners[0]) in payload["message"]
    assert await placed_in(kind, db, resource) == winners[0]
    # Moving still works after the race: unassign, then assign elsewhere.
    h = user.bearer_headers
    out = await client.delete(f"/v1/projects/{winners[0]}/{kind}/{resource}", headers=h)
    assert out.status_code == 200
    loser = next(pid for pid in project_ids if pid != winners[0])
    moved = await client.post(f"/v1/projects/{loser}/{kind}", json=body, headers=h)
    assert moved.status_code == 200
    assert await placed_in(kind, db, resource) == loser
