"""GET /v1/history: every parameter and rule of interface §4.2 on both databases."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from sqlalchemy import insert, update

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.history import service as history
from agora.kit.db import Database
from agora.kit.ids import uuid7
from agora.kit.money import to_base
from agora.kit.timeutil import utcnow
from agora.models import Conversation, Job, Task
from tests.conftest import MakeUser
from tests.conftest import TestUser as Caller
from tests.projects.factories import make_agent, make_job


async def feed(client: httpx2.AsyncClient, user: Caller, **params: Any) -> dict[str, Any]:
    response = await client.get("/v1/history", params=params, headers=user.bearer_headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def kinds_and_titles(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["kind"], i["title"]) for i in body["items"]]


async def post(client: httpx2.AsyncClient, user: Caller, path: str, body: dict[str, Any]) -> str:
    response = await client.post(path, json=body, headers=user.bearer_headers)
    assert response.status_code in (200, 201), response.text
    return str(response.json()["data"]["id"])


async def test_mixed_feed_shapes_order_and_credits(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    agent = await make_agent(db)
    task_id = await post(client, user, "/v1/tasks", {"name": "Write report"})
    await make_job(db, user, agent, task_id=uuid.UUID(task_id), price=to_base(3), refund=to_base(1))
    await make_job(db, user, agent, task_id=uuid.UUID(task_id), price=to_base("0.5"))
    await post(client, user, "/v1/conversations", {"title": "Chat"})

    body = await feed(client, user)
    assert body["pagination"] == {"cursor": None, "hasMore": False, "limit": 20}
    assert kinds_and_titles(body) == [
        ("conversation", "Chat"),
        ("job", "Test job"),
        ("job", "Test job"),
        ("task", "Write report"),
    ]
    conversation, newest_job, oldest_job, task = body["items"]
    assert set(conversation) == {"kind", "id", "title", "createdAt", "updatedAt"}
    assert set(task) == {
        "kind", "id", "title", "status", "credits", "projectId", "createdAt", "updatedAt",
    }  # fmt: skip
    assert (newest_job["credits"], oldest_job["credits"]) == (0.5, 2)
    assert task["credits"] == 2.5  # the sum of its jobs' net spend
    assert task["status"] == "PENDING" and task["projectId"] is None
    stamps = [(i["updatedAt"], i["id"]) for i in body["items"]]
    assert stamps == sorted(stamps, reverse=True)


async def test_every_write_shows_at_once(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    job_id = await make_job(db, user, await make_agent(db))
    project = await post(client, user, "/v1/projects", {"name": "P"})
    conversation = await post(client, user, "/v1/conversations", {"title": "Chat"})
    await post(client, user, "/v1/tasks", {"name": "T"})
    assert (await feed(client, user))["items"][-1]["id"] == str(job_id)

    # An API write (assignment) moves the job to the top with its project.
    await client.post(
        f"/v1/projects/{project}/jobs", json={"jobId": str(job_id)}, headers=user.bearer_headers
    )
    top = (await feed(client, user))["items"][0]
    assert (top["id"], top["projectId"]) == (str(job_id), project)

    # A message moves its conversation up.
    await client.post(
        f"/v1/conversations/{conversation}/messages",
        json={"role": "user", "content": "hi"},
        headers=user.bearer_headers,
    )
    assert (await feed(client, user))["items"][0]["id"] == conversation

    # A bulk statement outside the API (as the dispatcher or an operator would write).
    async with db.transaction() as session:
        await session.execute(
            update(Job).where(Job.id == job_id).values(status="COMPLETED", updated_at=utcnow())
        )
    top = (await feed(client, user))["items"][0]
    assert (top["id"], top["status"]) == (str(job_id), "COMPLETED")


async def test_status_rules_for_conversations(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    running = await post(client, user, "/v1/tasks", {"name": "running", "status": "RUNNING"})
    await post(client, user, "/v1/tasks", {"name": "done", "status": "COMPLETED"})
    archived_task = await post(client, user, "/v1/tasks", {"name": "old", "status": "COMPLETED"})
    await client.post(f"/v1/tasks/{archived_task}/archive", headers=user.bearer_headers)
    await post(client, user, "/v1/conversations", {"title": "open chat"})
    old_chat = await post(client, user, "/v1/conversations", {"title": "old chat"})
    await client.post(f"/v1/conversations/{old_chat}/archive", headers=user.bearer_headers)

    def titles(body: dict[str, Any]) -> set[str]:
        return {i["title"] for i in body["items"]}

    assert titles(await feed(client, user)) == {"running", "done", "open chat"}
    assert titles(await feed(client, user, status="RUNNING")) == {"running"}  # rule 5
    assert titles(await feed(client, user, status="running")) == {"running"}
    assert titles(await feed(client, user, status="active")) == {"open chat"}  # rule 4
    assert titles(await feed(client, user, status="RUNNING,active")) == {"running", "open chat"}
    assert titles(await feed(client, user, status="archived")) == {"old chat"}
    assert titles(await feed(client, user, status="active,archived")) == {"open chat", "old chat"}
    assert titles(await feed(client, user, status="COMPLETED,archived")) == {
        "done", "old", "old chat",
    }  # fmt: skip
    assert running in {i["id"] for i in (await feed(client, user, types="task"))["items"]}
    assert titles(await feed(client, user, types="conversation,job")) == {"open chat"}


async def test_scope_owned_workspace_and_tenancy(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    alice, bob, stranger = await make_user(), await make_user(), await make_user()
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, alice.user_id)
        member = await identity_repo.user_by_id(session, bob.user_id)
        assert owner and member
        org, workspace = await identity.create_organization(
            session, slug=f"org-{uuid.uuid4().hex[:6]}", name="Org", owner=owner
        )
        await identity.add_member(session, org=org, user=member)
    in_org = {"X-Workspace-Id": str(workspace.id)}

    async def create(user: Caller, path: str, body: dict[str, Any]) -> None:
        headers = {**user.bearer_headers, **in_org}
        assert (await client.post(path, json=body, headers=headers)).status_code == 201

    await create(alice, "/v1/tasks", {"name": "alice task"})
    await create(bob, "/v1/tasks", {"name": "bob task"})
    await create(bob, "/v1/conversations", {"title": "bob chat"})
    await post(client, alice, "/v1/tasks", {"name": "alice personal"})

    async def titles(user: Caller, **params: Any) -> set[str]:
        response = await client.get(
            "/v1/history", params=params, headers={**user.bearer_headers, **in_org}
        )
        assert response.status_code == 200, response.text
        return {i["title"] for i in response.json()["items"]}

    assert await titles(alice) == {"alice task"}
    assert await titles(alice, scope="workspace") == {"alice task", "bob task"}  # rule 1
    assert await titles(bob, scope="workspace") == {"alice task", "bob task", "bob chat"}
    assert {i["title"] for i in (await feed(client, alice))["items"]} == {"alice personal"}
    forbidden = await client.get(
        "/v1/history", params={"scope": "workspace"}, headers={**stranger.bearer_headers, **in_org}
    )
    assert forbidden.status_code == 403
    assert (await feed(client, stranger, scope="workspace"))["items"] == []


async def test_project_and_text_filters(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    project = await post(client, user, "/v1/projects", {"name": "P"})
    inside = await post(client, user, "/v1/tasks", {"name": "Inside", "description": "100% done"})
    await post(client, user, "/v1/tasks", {"name": "Outside"})
    await post(client, user, "/v1/conversations", {"title": "inside chat"})
    job_id = await make_job(db, user, await make_agent(db))
    async with db.transaction() as session:
        await session.execute(update(Job).where(Job.id == job_id).values(name="Nightly INSIDE run"))
    await client.post(
        f"/v1/projects/{project}/tasks", json={"taskId": inside}, headers=user.bearer_headers
    )

    def titles(body: dict[str, Any]) -> list[str]:
        return sorted(i["title"] for i in body["items"])

    assert titles(await feed(client, user, projectId=project)) == ["Inside"]
    assert titles(await feed(client, user, projectId="null")) == ["Nightly INSIDE run", "Outside"]
    assert titles(await feed(client, user, q="inside")) == [
        "Inside", "Nightly INSIDE run", "inside chat",
    ]  # fmt: skip
    assert titles(await feed(client, user, q="100%")) == ["Inside"]  # in the description
    assert titles(await feed(client, user, q="%")) == ["Inside"]  # a literal %, not a wildcard
    assert titles(await feed(client, user, q="_")) == []
    other = await feed(client, user, projectId=str(uuid7()))
    assert other["items"] == []


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"limit": 0}, "query.limit"),
        ({"limit": 101}, "query.limit"),
        ({"scope": "everyone"}, "scope"),
        ({"types": "task,email"}, "types"),
        ({"types": ""}, "types"),
        ({"status": ","}, "status"),
        ({"status": "DROP TABLE"}, "status"),
        ({"projectId": "nope"}, "projectId"),
        ({"q": "x" * 201}, "query.q"),
        ({"cursor": "forged"}, "cursor"),
    ],
)
async def test_bad_parameters_are_400_naming_the_field(
    client: httpx2.AsyncClient, make_user: MakeUser, params: dict[str, Any], field: str
) -> None:
    user = await make_user()
    response = await client.get("/v1/history", params=params, headers=user.bearer_headers)
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["details"][0]["field"] == field
    assert set(body["meta"]) == {"timestamp", "requestId", "path", "method"}


async def test_auth_is_required(client: httpx2.AsyncClient) -> None:
    response = await client.get("/v1/history")
    assert response.status_code == 401
    assert response.json()["message"] == "Authentication required"


async def test_cursors_are_bound_signed_and_short_lived(
    client: httpx2.AsyncClient, make_user: MakeUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    user, other = await make_user(), await make_user()
    for i in range(5):
        await post(client, user, "/v1/tasks", {"name": f"t{i}"})
    first = await feed(client, user, limit=2)
    cursor = first["pagination"]["cursor"]
    assert first["pagination"]["hasMore"] is True and cursor
    second = await feed(client, user, limit=2, cursor=cursor)
    assert [i["title"] for i in second["items"]] == ["t2", "t1"]

    async def refused(who: Caller, **params: Any) -> str:
        response = await client.get("/v1/history", params=params, headers=who.bearer_headers)
        assert response.status_code == 400, response.text
        reason: str = response.json()["details"][0]["reason"]
        assert "restart from the first page" in reason
        return reason

    await refused(user, limit=2, cursor=cursor[:-2] + ("AA" if cursor[-2:] != "AA" else "BB"))
    await refused(user, limit=2, cursor=cursor, types="task")  # other filters
    await refused(user, limit=2, cursor=cursor, scope="workspace")
    await refused(other, limit=2, cursor=cursor)  # someone else's
    monkeypatch.setattr(history, "CURSOR_MAX_AGE_SECONDS", -1)
    await refused(user, limit=2, cursor=cursor)  # expired


async def test_walk_10000_mixed_items_visits_each_once_in_order(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    agent = await make_agent(db)
    base = utcnow() - timedelta(days=1)
    rows: dict[str, list[dict[str, Any]]] = {"task": [], "job": [], "conversation": []}
    expected: list[tuple[Any, str]] = []
    for i in range(10_000):
        kind = ("task", "job", "conversation")[i % 3]
        when = base + timedelta(seconds=i // 4)  # four items share each timestamp: ties by id
        item_id = uuid7()
        common = {"id": item_id, "workspace_id": user.workspace_id, "created_at": when,
                  "updated_at": when}  # fmt: skip
        if kind == "task":
            rows[kind].append({**common, "creator_id": user.user_id, "name": f"task {i}",
                               "description": "", "status": "RUNNING"})  # fmt: skip
        elif kind == "job":
            rows[kind].append({**common, "user_id": user.user_id, "agent_id": agent,
                               "name": f"job {i}", "status": "COMPLETED", "job_type": "FREE",
                               "input_data": {}, "identifier_from_purchaser": f"{i:016x}",
                               "price": 0, "fee": 0, "refund": 0, "refund_fee": 0,
                               "settled": True, "share_public": False, "dispatch_state": "done",
                               "attempts": 0})  # fmt: skip
        else:
            rows[kind].append({**common, "user_id": user.user_id, "title": f"chat {i}",
                               "description": ""})  # fmt: skip
        expected.append((when, str(item_id)))
    async with db.transaction() as session:
        for model, key in ((Task, "task"), (Job, "job"), (Conversation, "conversation")):
            for start in range(0, len(rows[key]), 1000):
                await session.execute(insert(model), rows[key][start : start + 1000])
    expected.sort(reverse=True)

    seen: list[str] = []
    cursor = None
    for _ in range(110):  # 100 pages expected; bounded
        params: dict[str, Any] = {"limit": 100}
        if cursor:
            params["cursor"] = cursor
        body = await feed(client, user, **params)
        seen += [i["id"] for i in body["items"]]
        cursor = body["pagination"]["cursor"]
        if not body["pagination"]["hasMore"]:
            break
    assert len(seen) == 10_000
    assert len(set(seen)) == 10_000
    assert seen == [item_id for _, item_id in expected]
