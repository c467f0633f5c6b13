"""The Sokosumi clients' request shapes (reference/clients.md) replayed through HTTP, asserting
the fields they read: hire from a task, follow, answer input by eventId, complete; a coworker
registered, whitelisted, keyed, reading its events, commenting, moving the task, charging usage
once per idempotency key."""

from __future__ import annotations

from typing import Any

import httpx2
from fastapi import FastAPI

from agora.agents import service as agents_service
from agora.kit.db import Database
from agora.kit.money import to_base
from tests.conftest import MakeUser, TestUser
from tests.coworkers.conftest import Team
from tests.jobs.helpers import dispatcher, echo, register, reviewer
from tests.support.agents import LoopbackAgents

JOB_FIELDS = {
    "id", "createdAt", "updatedAt", "name", "status", "jobType", "credits", "agentId", "userId",
    "organizationId", "agentJobId", "agentJobStatus", "onChainStatus", "input", "output",
    "result", "resultHash", "startedAt", "completedAt", "resultSubmittedAt", "isDemo", "price",
    "refund", "jobStatusSettled",
}  # fmt: skip
TASK_FIELDS = {
    "id", "createdAt", "updatedAt", "userId", "organizationId", "name", "description", "status",
    "coworkerId", "coworker", "jobs", "credits", "events", "ownerId", "owner", "user",
    "organization", "projectId", "assigneeId", "assignee", "creator", "metadata", "workspace",
    "links", "files",
}  # fmt: skip
EVENT_FIELDS = {
    "id", "taskId", "createdAt", "updatedAt", "status", "comment", "credits", "authenticationUrl",
    "metadata", "actor", "channel", "origin",
}  # fmt: skip
COWORKER_FIELDS = {
    "id", "createdAt", "updatedAt", "archivedAt", "priority", "slug", "name", "caption",
    "company", "companyLogo", "url", "baseURL", "email", "description", "image", "metadata",
    "status", "isNew", "isShown", "isWhitelisted", "price", "capabilities", "estimatedDuration",
    "vendor",
}  # fmt: skip


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def data(response: httpx2.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()["data"]


async def test_hire_from_a_task_follow_answer_by_event_id_and_complete(
    app: FastAPI, client: httpx2.AsyncClient, team: Team, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, reviewer(), price=2)
    h = team.alice.bearer_headers
    task = await data(
        await client.post(
            "/v1/tasks",
            json={"name": "Review the essay", "description": "before Friday", "status": "READY"},
            headers=h,
        ),
        201,
    )
    assert set(task) >= TASK_FIELDS
    assert task["status"] == "READY"
    assert task["coworker"] is None and task["assignee"] is None and task["jobs"] == []
    assert task["organization"]["slug"] == "acme"
    assert task["owner"] == {"id": str(team.alice.user_id), "name": "Alice"}

    schema = await data(await client.get(f"/v1/agents/{agent_id}/input-schema", headers=h))
    job = await data(
        await client.post(
            f"/v1/tasks/{task['id']}/jobs",
            json={
                "agentId": agent_id,
                "inputSchema": schema,
                "inputData": {"text": "one two three"},
                "maxCredits": 5,
            },
            headers=h,
        ),
        201,
    )
    assert set(job) >= JOB_FIELDS
    assert job["taskId"] == task["id"] and job["status"] == "PENDING"

    await dispatcher(app).run_until_idle(5)
    waiting = await data(await client.get(f"/v1/jobs/{job['id']}", headers=h))
    assert waiting["status"] == "INPUT_REQUIRED"
    listed = await data(await client.get("/v1/jobs?status=input_required", headers=h))
    assert [j["id"] for j in listed] == [job["id"]]
    request = await data(await client.get(f"/v1/jobs/{job['id']}/input-request", headers=h))
    assert request["eventId"]
    events = await data(await client.get(f"/v1/jobs/{job['id']}/events", headers=h))
    for event in events:
        assert {"id", "jobId", "type", "message", "data", "createdAt"} <= set(event)
        assert event["jobId"] == job["id"]
    asking = [e for e in events if e.get("toStatus") == "INPUT_REQUIRED"]
    assert [e["id"] for e in asking] == [request["eventId"]]

    url = f"/v1/jobs/{job['id']}/inputs"
    answer = {"approve": True, "note": "ship it"}
    not_an_ask = await client.post(
        url, json={"eventId": events[0]["id"], "inputData": answer}, headers=h
    )
    assert not_an_ask.status_code == 400, not_an_ask.text
    assert not_an_ask.json()["details"][0]["field"] == "eventId"
    disagreeing = await client.post(
        url,
        json={"eventId": request["eventId"], "statusId": "another", "inputData": answer},
        headers=h,
    )
    assert disagreeing.status_code == 400, disagreeing.text
    answered = await data(
        await client.post(
            url,
            json={
                "eventId": request["eventId"],
                "statusId": request["statusId"],
                "inputData": answer,
            },
            headers=h,
        )
    )
    assert answered["status"] == "RUNNING"
    stale = await client.post(
        url, json={"eventId": request["eventId"], "inputData": answer}, headers=h
    )
    assert stale.status_code == 409, stale.text

    await dispatcher(app).run_until_idle(5)
    done = await data(await client.get(f"/v1/jobs/{job['id']}", headers=h))
    assert done["status"] == "COMPLETED"
    assert done["output"] == done["result"] and done["result"].endswith("Note: ship it")
    assert done["credits"] == 2.1 and done["resultHash"] and done["resultSubmittedAt"]
    assert done["isDemo"] is False
    assert await data(await client.get(f"/v1/jobs/{job['id']}/files", headers=h)) == []
    assert await data(await client.get(f"/v1/jobs/{job['id']}/links", headers=h)) == []

    snapshot = await data(await client.get(f"/v1/tasks/{task['id']}", headers=h))
    assert snapshot["credits"] == 2.1
    assert [j["id"] for j in snapshot["jobs"]] == [job["id"]]
    task_jobs = await data(await client.get(f"/v1/tasks/{task['id']}/jobs", headers=h))
    assert [j["status"] for j in task_jobs] == ["COMPLETED"]


async def test_links_and_files_come_from_the_result_and_input(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    h = user.bearer_headers
    text = (
        'see [the report](https://example.com/files/report.pdf "Q3") and '
        "https://example.com/about for more"
    )
    job = await data(
        await client.post(
            f"/v1/agents/{agent_id}/jobs",
            json={"inputData": {"text": text, "mode": "lower"}, "maxCredits": 0},
            headers=h,
        ),
        201,
    )
    assert await data(await client.get(f"/v1/jobs/{job['id']}/links", headers=h)) == []
    await dispatcher(app).run_until_idle(5)
    links = await data(await client.get(f"/v1/jobs/{job['id']}/links", headers=h))
    assert [(link["url"], link["title"], link["description"]) for link in links] == [
        ("https://example.com/files/report.pdf", "the report", "q3"),
        ("https://example.com/about", None, None),
    ]
    assert all({"id", "title", "url", "description", "createdAt"} <= set(x) for x in links)
    again = await data(await client.get(f"/v1/jobs/{job['id']}/links", headers=h))
    assert [x["id"] for x in again] == [x["id"] for x in links]  # stable ids
    files = await data(await client.get(f"/v1/jobs/{job['id']}/files", headers=h))
    assert [(f["name"], f["mimeType"], f["size"], f["fileUrl"]) for f in files] == [
        ("report.pdf", "application/pdf", None, "https://example.com/files/report.pdf")
    ]
    assert {"id", "name", "fileUrl", "sourceUrl", "size", "mimeType", "status", "createdAt",
            "updatedAt"} <= set(files[0])  # fmt: skip
    other = await make_user()
    hidden = await client.get(f"/v1/jobs/{job['id']}/links", headers=other.bearer_headers)
    assert hidden.status_code == 404


async def _registered_whitelisted_keyed(
    client: httpx2.AsyncClient, owner: TestUser, admin: TestUser, name: str = "Scribe"
) -> tuple[dict[str, Any], str]:
    coworker = await data(
        await client.post(
            "/v1/coworkers",
            json={
                "name": name,
                "caption": "Writes things down",
                "company": "Quill Ltd",
                "baseURL": "https://scribe.example.com",
                "capabilities": ["tasks", "chat"],
                "priority": 3,
                "metadata": {"model": "x"},
            },
            headers=owner.bearer_headers,
        ),
        201,
    )
    assert set(coworker) >= COWORKER_FIELDS
    assert coworker["status"] == "PENDING" and coworker["isWhitelisted"] is False
    assert coworker["baseURL"] == "https://scribe.example.com"
    assert coworker["metadata"] == {"model": "x"}
    early = await client.post(
        f"/v1/coworkers/{coworker['id']}/api-keys", json={"name": "k"}, headers=owner.bearer_headers
    )
    assert early.status_code == 409, early.text  # not whitelisted yet
    refused = await client.post(
        f"/v1/admin/coworkers/{coworker['id']}/whitelist", headers=owner.bearer_headers
    )
    assert refused.status_code == 404  # the admin API: not there for non-admins
    whitelisted = await data(
        await client.post(
            f"/v1/admin/coworkers/{coworker['id']}/whitelist", headers=admin.bearer_headers
        )
    )
    assert whitelisted["isWhitelisted"] is True and whitelisted["status"] == "WHITELISTED"
    key = await data(
        await client.post(
            f"/v1/coworkers/{coworker['id']}/api-keys",
            json={"name": "runtime", "expiresAt": "2099-01-01T00:00:00Z"},
            headers=owner.bearer_headers,
        ),
        201,
    )
    assert {"id", "token", "name", "expiresAt"} <= set(key)
    assert key["expiresAt"].startswith("2099-01-01")
    return whitelisted, key["token"]


async def test_a_coworker_takes_a_task_comments_moves_it_and_charges_usage_once(
    client: httpx2.AsyncClient, team: Team, admin: TestUser
) -> None:
    alice = team.alice
    coworker, token = await _registered_whitelisted_keyed(client, alice, admin)
    cw = bearer(token)
    me = await data(await client.get("/v1/coworkers/me", headers=cw))
    assert me["id"] == coworker["id"]
    assert (await client.get("/v1/coworkers/me", headers=alice.bearer_headers)).status_code == 403

    listed = await data(
        await client.get(
            "/v1/coworkers?scope=whitelisted&capability=tasks", headers=alice.bearer_headers
        )
    )
    assert [c["id"] for c in listed] == [coworker["id"]]
    assert (
        await data(
            await client.get(
                "/v1/coworkers?capability=chat&capability=tasks&q=scri",
                headers=alice.bearer_headers,
            )
        )
        == listed
    )
    by_slug = await data(
        await client.get(f"/v1/coworkers/{coworker['slug']}", headers=alice.bearer_headers)
    )
    assert by_slug["id"] == coworker["id"]

    task = await data(
        await client.post(
            "/v1/tasks",
            json={
                "name": "Minutes",
                "description": "of the Monday call",
                "coworkerId": coworker["id"],
                "status": "READY",
                "origin": "slack",
            },
            headers=alice.bearer_headers,
        ),
        201,
    )
    assert task["coworkerId"] == coworker["id"] and task["origin"] == "SLACK"
    assert task["coworker"] == {"id": coworker["id"], "name": "Scribe", "slug": coworker["slug"]}
    comment = await data(
        await client.post(
            f"/v1/tasks/{task['id']}/events",
            json={"comment": "Please keep it short", "channel": "SLACK"},
            headers=alice.bearer_headers,
        ),
        201,
    )
    assert set(comment) >= EVENT_FIELDS
    assert comment["actor"]["type"] == "user" and comment["actor"]["user"]["name"] == "Alice"

    # The coworker polls its events: the task's creation and Alice's comment.
    page = await client.get("/v1/coworkers/me/events?limit=1", headers=cw)
    first = await data(page)
    assert page.json()["meta"]["pagination"]["hasMore"] is True
    cursor = page.json()["meta"]["pagination"]["nextCursor"]
    second_page = await client.get(f"/v1/coworkers/me/events?limit=1&cursor={cursor}", headers=cw)
    second = await data(second_page)
    assert [e["taskId"] for e in first + second] == [task["id"], task["id"]]
    assert second[0]["comment"] == "Please keep it short"
    assert second_page.json()["meta"]["pagination"]["hasMore"] is False

    # It works: moves the task, comments, asks for authentication.
    running = await data(
        await client.post(
            f"/v1/tasks/{task['id']}/events",
            json={"status": "RUNNING", "comment": "On it"},
            headers=cw,
        ),
        201,
    )
    assert running["actor"]["type"] == "coworker"
    assert running["actor"]["coworker"]["id"] == coworker["id"]
    no_url = await client.post(
        f"/v1/tasks/{task['id']}/events", json={"status": "AUTHENTICATION_REQUIRED"}, headers=cw
    )
    assert no_url.status_code == 400 and "authenticationUrl" in no_url.text
    invalid = await client.post(
        f"/v1/tasks/{task['id']}/events", json={"status": "DRAFT"}, headers=cw
    )
    assert invalid.status_code == 409
    assert "invalid status transition" in invalid.json()["message"]
    empty = await client.post(f"/v1/tasks/{task['id']}/events", json={}, headers=cw)
    assert empty.status_code == 400
    # Its own events are not addressed to it.
    assert (
        await data(await client.get(f"/v1/coworkers/me/events?cursor={cursor}", headers=cw))
        == second
    )
    moved = await data(
        await client.patch(f"/v1/tasks/{task['id']}", json={"status": "COMPLETED"}, headers=cw)
    )
    assert moved["status"] == "COMPLETED"
    timeline = await data(
        await client.get(f"/v1/tasks/{task['id']}/events", headers=alice.bearer_headers)
    )
    assert [(e["status"], e["comment"], e["actor"]["type"]) for e in timeline] == [
        ("READY", None, "user"),
        (None, "Please keep it short", "user"),
        ("RUNNING", "On it", "coworker"),
        ("COMPLETED", None, "coworker"),
    ]

    # The user it works for is readable; Bob (no task for it) is not.
    user = await data(await client.get(f"/v1/users/{alice.user_id}", headers=cw))
    assert user["name"] == "Alice" and user["stripeCustomerId"] is None
    assert (await client.get(f"/v1/users/{team.bob.user_id}", headers=cw)).status_code == 404

    # Usage: charged once per idempotency key, into the task's credits.
    usage = {"userId": str(alice.user_id), "organizationId": team.organization_id,
             "idempotencyKey": "run-1", "credits": 1.5, "referenceId": task["id"]}  # fmt: skip
    before = await data(await client.get("/v1/credits", headers=alice.key_headers))
    charged = await data(await client.post("/v1/coworkers/me/usage", json=usage, headers=cw), 201)
    usage_fields = {"id", "createdAt", "updatedAt", "idempotencyKey", "coworkerId", "userId",
                    "organizationId", "referenceId", "transactionId", "credits"}  # fmt: skip
    assert usage_fields <= set(charged)
    assert charged["credits"] == 1.5 and charged["transactionId"]
    replay = await client.post("/v1/coworkers/me/usage", json=usage, headers=cw)
    assert replay.status_code == 200
    assert replay.json()["data"]["id"] == charged["id"]
    other_body = await client.post(
        "/v1/coworkers/me/usage", json={**usage, "credits": 2}, headers=cw
    )
    assert other_body.status_code == 400
    after = await data(await client.get("/v1/credits", headers=alice.key_headers))
    assert after["balance"] == before["balance"] - 1.5
    too_much = await client.post(
        "/v1/coworkers/me/usage",
        json={**usage, "idempotencyKey": "run-2", "credits": 1000},
        headers=cw,
    )
    assert too_much.status_code == 402
    for_bob = await client.post(
        "/v1/coworkers/me/usage",
        json={**usage, "idempotencyKey": "run-3", "userId": str(team.bob.user_id)},
        headers=cw,
    )
    assert for_bob.status_code == 404
    assert (
        await client.post("/v1/coworkers/me/usage", json=usage, headers=alice.bearer_headers)
    ).status_code == 403
    snapshot = await data(await client.get(f"/v1/tasks/{task['id']}", headers=alice.bearer_headers))
    assert snapshot["credits"] == 1.5

    # The history feed shows the task at the top with its new status and credits.
    feed = (await client.get("/v1/history?types=task", headers=alice.bearer_headers)).json()
    top = feed["items"][0]
    assert (top["id"], top["status"], top["credits"]) == (
        task["id"],
        "COMPLETED",
        1.5,
    )

    # Archived: the key stops acting for it.
    archived = await data(
        await client.post(f"/v1/coworkers/{coworker['id']}/archive", headers=alice.bearer_headers)
    )
    assert archived["archivedAt"] is not None and archived["status"] == "ARCHIVED"
    assert (await client.get("/v1/coworkers/me", headers=cw)).status_code == 403
    assert (await client.get(f"/v1/tasks/{task['id']}", headers=cw)).status_code == 403
    assert (await client.get(f"/v1/users/{alice.user_id}", headers=cw)).status_code == 403
    gone = await data(
        await client.get("/v1/coworkers?scope=archived", headers=alice.bearer_headers)
    )
    assert [c["id"] for c in gone] == [coworker["id"]]


async def test_scopes_owned_and_workspace_for_jobs_and_tasks(
    app: FastAPI, client: httpx2.AsyncClient, team: Team, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())
    alice, bob = team.alice, team.bob
    ids: dict[str, list[str]] = {"alice": [], "bob": []}
    tasks: dict[str, list[str]] = {"alice": [], "bob": []}
    for who, user in (("alice", alice), ("bob", bob)):
        for n in range(2):
            created = await client.post(
                f"/v1/agents/{agent_id}/jobs",
                json={"inputData": {"text": f"{who} {n}"}},
                headers=user.bearer_headers,
            )
            ids[who].append((await data(created, 201))["id"])
            task = await client.post(
                "/v1/tasks", json={"name": f"{who} task {n}"}, headers=user.bearer_headers
            )
            tasks[who].append((await data(task, 201))["id"])

    async def job_ids(user: TestUser, query: str) -> list[str]:
        return [
            j["id"]
            for j in await data(await client.get(f"/v1/jobs{query}", headers=user.bearer_headers))
        ]

    async def task_ids(user: TestUser, query: str) -> list[str]:
        return [
            t["id"]
            for t in await data(await client.get(f"/v1/tasks{query}", headers=user.bearer_headers))
        ]

    assert set(await job_ids(alice, "")) == set(ids["alice"])
    assert set(await job_ids(alice, "?scope=owned")) == set(ids["alice"])
    assert set(await job_ids(bob, "?scope=owned")) == set(ids["bob"])
    assert set(await job_ids(bob, "?scope=workspace")) == set(ids["alice"] + ids["bob"])
    assert set(await task_ids(alice, "")) == set(tasks["alice"])
    assert set(await task_ids(bob, "?scope=owned")) == set(tasks["bob"])
    assert set(await task_ids(alice, "?scope=workspace")) == set(tasks["alice"] + tasks["bob"])
    assert await task_ids(alice, "?scope=workspace&q=BOB%20TASK%201") == [tasks["bob"][1]]
    # Paged with cursors: every row exactly once.
    seen: list[str] = []
    cursor = ""
    for _ in range(5):
        response = await client.get(
            f"/v1/tasks?scope=workspace&limit=3{cursor}", headers=alice.bearer_headers
        )
        seen += [t["id"] for t in await data(response)]
        next_cursor = response.json()["meta"]["pagination"]["nextCursor"]
        if next_cursor is None:
            break
        cursor = f"&cursor={next_cursor}"
    assert sorted(seen) == sorted(tasks["alice"] + tasks["bob"])
    # The other workspace (Bob's personal one) sees none of it.
    for bad in ("scope=everyone", "status=nope", "coworkerId=x", "cursor=forged"):
        assert (
            await client.get(f"/v1/tasks?{bad}", headers=alice.bearer_headers)
        ).status_code == 400, bad
    for bad in ("scope=everyone", "status=nope", "limit=0"):
        assert (
            await client.get(f"/v1/jobs?{bad}", headers=alice.bearer_headers)
        ).status_code == 400, bad


async def test_a_coworker_key_sees_only_its_tasks_and_users(
    client: httpx2.AsyncClient, team: Team, admin: TestUser
) -> None:
    alice, bob = team.alice, team.bob
    coworker, token = await _registered_whitelisted_keyed(client, alice, admin)
    cw = bearer(token)
    mine = await data(
        await client.post(
            "/v1/tasks",
            json={"name": "for it", "coworkerId": coworker["id"]},
            headers=bob.bearer_headers,
        ),
        201,
    )
    other = await data(
        await client.post("/v1/tasks", json={"name": "not for it"}, headers=alice.bearer_headers),
        201,
    )
    listed = await data(await client.get("/v1/tasks?scope=workspace", headers=cw))
    assert [t["id"] for t in listed] == [mine["id"]]
    assert (await client.get(f"/v1/tasks/{other['id']}", headers=cw)).status_code == 404
    assert (await client.get(f"/v1/tasks/{other['id']}/events", headers=cw)).status_code == 404
    assert (
        await client.post(f"/v1/tasks/{other['id']}/events", json={"comment": "hi"}, headers=cw)
    ).status_code == 404
    assert (await client.get(f"/v1/tasks/{mine['id']}", headers=cw)).status_code == 200
    # Bob gave it a task: Bob is readable, Alice (no task for it) is not, nor a stranger.
    assert (await data(await client.get(f"/v1/users/{bob.user_id}", headers=cw)))["name"] == "Bob"
    assert (await client.get(f"/v1/users/{alice.user_id}", headers=cw)).status_code == 404
    assert (await client.get("/v1/users/not-an-id", headers=cw)).status_code == 404
    # A user key reads only itself.
    assert (
        await client.get(f"/v1/users/{bob.user_id}", headers=alice.key_headers)
    ).status_code == 404
    assert (
        await client.get(f"/v1/users/{alice.user_id}", headers=alice.key_headers)
    ).status_code == 200
    # A coworker key cannot hire agents or create tasks.
    assert (await client.post("/v1/tasks", json={"name": "x"}, headers=cw)).status_code == 403


async def test_categories_agents_and_profile_fields(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    db: Database = app.state.db
    async with db.transaction() as session:
        await agents_service.create_category(session, slug="text", name="Text")
        await agents_service.create_category(session, slug="empty", name="Empty")
    for verify in (True, False):  # only the verified one is available
        probe = await agents_service.probe(app.state.agent_client, agents_server.serve(echo()))
        async with db.transaction() as session:
            await agents_service.register_agent(
                session,
                app.state.settings,
                probe,
                name=f"Echo {verify}",
                categories=["text"],
                verify=verify,
            )
    user = await make_user(credits=to_base(1))
    h = user.bearer_headers
    categories = await data(await client.get("/v1/categories", headers=h))
    assert {(c["slug"], c["agentCount"]) for c in categories} == {("text", 1), ("empty", 0)}
    text = next(c for c in categories if c["slug"] == "text")
    assert set(text) >= {"id", "name", "description", "slug", "agentCount"}
    assert await data(await client.get(f"/v1/categories/{text['id']}")) == text
    assert await data(await client.get("/v1/categories/TEXT")) == text
    assert (await client.get("/v1/categories/nope")).status_code == 404
    agents = await data(await client.get("/v1/agents", headers=h))
    assert [a["isNew"] for a in agents] == [True]
    assert set(agents[0]) >= {"id", "createdAt", "updatedAt", "name", "description", "status",
                              "isNew", "isShown", "price", "tags"}  # fmt: skip
    me = await data(await client.get("/v1/users/me", headers=h))
    assert me["stripeCustomerId"] is None


async def test_coworker_get_and_patch(
    client: httpx2.AsyncClient, team: Team, admin: TestUser
) -> None:
    coworker, _ = await _registered_whitelisted_keyed(client, team.alice, admin)
    url = f"/v1/coworkers/{coworker['id']}"
    changed = await data(
        await client.patch(
            url,
            json={
                "caption": "Takes minutes",
                "capabilities": ["tasks"],
                "priority": 7,
                "baseURL": "https://new.example.com",
                "metadata": {"v": 2},
            },
            headers=team.alice.bearer_headers,
        )
    )
    assert (changed["caption"], changed["capabilities"], changed["priority"]) == (
        "Takes minutes",
        ["tasks"],
        7,
    )
    assert changed["baseURL"] == "https://new.example.com" and changed["metadata"] == {"v": 2}
    assert await data(await client.get(url, headers=team.bob.bearer_headers)) == changed
    not_owner = await client.patch(url, json={"caption": "x"}, headers=team.bob.bearer_headers)
    assert not_owner.status_code == 403
    for bad in ({}, {"name": None}, {"capabilities": ["sing"]}, {"priority": "high"}):
        response = await client.patch(url, json=bad, headers=team.alice.bearer_headers)
        assert response.status_code == 400, bad
    for query in ("scope=mine", "capability=sing", "limit=0", "cursor=x"):
        assert (
            await client.get(f"/v1/coworkers?{query}", headers=team.alice.bearer_headers)
        ).status_code == 400, query
    stranger_view = await client.get("/v1/coworkers/nobody", headers=team.alice.bearer_headers)
    assert stranger_view.status_code == 404


async def test_coworker_listing_pages_through_a_capability_filter(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    h = user.bearer_headers
    made = []
    for name, capabilities in (
        ("A", ["tasks"]),
        ("B", ["chat"]),
        ("C", ["chat"]),
        ("D", ["tasks"]),
    ):
        response = await client.post(
            "/v1/coworkers", json={"name": name, "capabilities": capabilities}, headers=h
        )
        made.append((await data(response, 201))["id"])
    seen: list[str] = []
    cursor = ""
    for _ in range(5):
        response = await client.get(
            f"/v1/coworkers?scope=all&capability=tasks&limit=1{cursor}", headers=h
        )
        seen += [c["id"] for c in await data(response)]
        next_cursor = response.json()["meta"]["pagination"]["nextCursor"]
        if next_cursor is None:
            break
        cursor = f"&cursor={next_cursor}"
    assert seen == [made[0], made[3]]
    # Pending coworkers are their owner's: another user's "all" does not list them.
    other = await make_user()
    assert (
        await data(await client.get("/v1/coworkers?scope=all", headers=other.bearer_headers)) == []
    )
