"""/v1/tasks: create, list with filters and paging, get, update, archive, credits, scoping."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from agora.kit.db import Database
from agora.kit.money import BASE_UNITS_PER_CREDIT
from tests.conftest import MakeUser
from tests.conftest import TestUser as Caller
from tests.projects.factories import make_agent, make_job, task_row


async def create(client: httpx2.AsyncClient, user: Caller, **body: Any) -> dict[str, Any]:
    response = await client.post("/v1/tasks", json=body, headers=user.bearer_headers)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def test_create_and_get(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    user = await make_user()
    task = await create(client, user, name="  Write the report ", description="by Friday")
    assert set(task) >= {
        "id",
        "name",
        "description",
        "status",
        "projectId",
        "archived",
        "archivedAt",
        "workspaceId",
        "creatorId",
        "credits",
        "createdAt",
        "updatedAt",
    }
    assert task["name"] == "Write the report"
    assert task["status"] == "PENDING"
    assert task["projectId"] is None and task["archivedAt"] is None and task["archived"] is False
    assert task["creatorId"] == str(user.user_id)
    assert task["workspaceId"] == str(user.workspace_id)
    assert task["credits"] == 0
    fetched = await client.get(f"/api/v1/tasks/{task['id']}", headers=user.key_headers)
    assert fetched.status_code == 200
    assert fetched.json()["data"] == task


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": " "},
        {"name": "x" * 501},
        {"name": "t", "status": "not a status"},
        {"name": "t", "projectId": None},
    ],
)
async def test_create_rejects_bad_bodies(
    client: httpx2.AsyncClient, make_user: MakeUser, body: dict[str, Any]
) -> None:
    user = await make_user()
    response = await client.post("/v1/tasks", json=body, headers=user.bearer_headers)
    assert response.status_code == 400, response.text


async def test_update_status_follows_the_table_and_bumps_updated_at(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    task = await create(client, user, name="T")
    url = f"/v1/tasks/{task['id']}"
    response = await client.patch(url, json={"status": "running"}, headers=user.bearer_headers)
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["status"] == "RUNNING"
    assert data["updatedAt"] > task["updatedAt"]
    unknown = await client.patch(url, json={"status": "IN_REVIEW"}, headers=user.bearer_headers)
    assert unknown.status_code == 400
    assert "IN_REVIEW" in unknown.json()["message"]
    backwards = await client.patch(url, json={"status": "DRAFT"}, headers=user.bearer_headers)
    assert backwards.status_code == 409
    assert "invalid status transition" in backwards.json()["message"]
    waiting = await client.patch(
        url, json={"status": "input_required"}, headers=user.bearer_headers
    )
    assert waiting.json()["data"]["status"] == "INPUT_REQUIRED"
    renamed = await client.patch(
        url, json={"name": "New", "description": "d"}, headers=user.bearer_headers
    )
    assert (renamed.json()["data"]["name"], renamed.json()["data"]["description"]) == ("New", "d")
    for body in ({}, {"status": None}, {"status": "bad status"}, {"projectId": "x"}):
        assert (await client.patch(url, json=body, headers=user.bearer_headers)).status_code == 400


async def test_archive_and_unarchive_are_idempotent(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    task = await create(client, user, name="T")
    url = f"/v1/tasks/{task['id']}"
    first = (await client.post(f"{url}/archive", headers=user.bearer_headers)).json()["data"]
    assert first["archived"] is True and first["archivedAt"] is not None
    assert first["updatedAt"] > task["updatedAt"]
    second = (await client.post(f"{url}/archive", headers=user.bearer_headers)).json()["data"]
    assert second == first  # nothing changed
    back = (await client.post(f"{url}/unarchive", headers=user.bearer_headers)).json()["data"]
    assert back["archived"] is False and back["archivedAt"] is None
    again = await client.post(f"{url}/unarchive", headers=user.bearer_headers)
    assert again.json()["data"] == back


async def test_list_filters_and_paging(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    user = await make_user()
    h = user.bearer_headers
    project = (await client.post("/v1/projects", json={"name": "P"}, headers=h)).json()["data"]
    await create(client, user, name="running", status="RUNNING")
    done = await create(client, user, name="done", status="COMPLETED")
    archived = await create(client, user, name="archived")
    await client.post(f"/v1/tasks/{archived['id']}/archive", headers=h)
    await client.post(f"/v1/projects/{project['id']}/tasks", json={"taskId": done["id"]}, headers=h)

    async def names(query: str) -> list[str]:
        response = await client.get(f"/v1/tasks?{query}", headers=h)
        assert response.status_code == 200, response.text
        return [t["name"] for t in response.json()["data"]]

    # Default: unarchived, most recently updated first.
    assert await names("") == ["done", "running"]
    assert await names("status=RUNNING") == ["running"]
    assert await names("status=running,COMPLETED") == ["done", "running"]
    assert await names(f"projectId={project['id']}") == ["done"]
    assert await names("projectId=null") == ["running"]
    assert await names("archived=true") == ["archived"]
    assert await names("archived=all") == ["done", "archived", "running"]
    page = await client.get("/v1/tasks?limit=1&page=2&archived=all", headers=h)
    assert [t["name"] for t in page.json()["data"]] == ["archived"]
    pagination = page.json()["meta"]["pagination"]
    assert {k: pagination[k] for k in ("page", "limit", "total", "hasMore")} == {
        "page": 2,
        "limit": 1,
        "total": 3,
        "hasMore": True,
    }
    for query in ("projectId=nope", "archived=maybe", "limit=101", "status=a%20b"):
        assert (await client.get(f"/v1/tasks?{query}", headers=h)).status_code == 400, query


async def test_credits_are_the_net_spend_of_the_tasks_jobs(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    task = await create(client, user, name="T")
    agent = await make_agent(db)
    task_id = (await task_row(db, task["id"])).id
    await make_job(db, user, agent, task_id=task_id, price=3 * BASE_UNITS_PER_CREDIT)
    await make_job(
        db,
        user,
        agent,
        task_id=task_id,
        price=2 * BASE_UNITS_PER_CREDIT,
        refund=2 * BASE_UNITS_PER_CREDIT,
    )
    await make_job(db, user, agent, price=BASE_UNITS_PER_CREDIT // 2, task_id=task_id)
    await make_job(db, user, agent, price=7 * BASE_UNITS_PER_CREDIT)  # not the task's
    fetched = await client.get(f"/v1/tasks/{task['id']}", headers=user.bearer_headers)
    assert fetched.json()["data"]["credits"] == 3.5
    listed = await client.get("/v1/tasks", headers=user.bearer_headers)
    assert listed.json()["data"][0]["credits"] == 3.5


async def test_other_workspace_task_is_404(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    owner, stranger = await make_user(), await make_user()
    task = await create(client, owner, name="T")
    h = stranger.bearer_headers
    url = f"/v1/tasks/{task['id']}"
    assert (await client.get(url, headers=h)).status_code == 404
    assert (await client.patch(url, json={"name": "x"}, headers=h)).status_code == 404
    assert (await client.post(f"{url}/archive", headers=h)).status_code == 404
    assert (await client.get("/v1/tasks", headers=h)).json()["data"] == []
    assert (await client.get("/v1/tasks/nope", headers=h)).status_code == 404
    assert (await client.get("/v1/tasks")).status_code == 401
