"""Agent versions (issue 47 item 4; docs/developer.md, "Versions"): each approved change of the
base URL, input schema or price is a version; a job records and runs its version; a schedule
pinned to version 1 keeps running version 1; a breaking change warns the owners of schedules
and saved inputs before approval; saved inputs over the API, tenant-isolated."""

from __future__ import annotations

import uuid
from typing import Any

import httpx2
from fastapi import FastAPI
from sqlalchemy import select

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.models import Job, Notification
from agora.settings import Settings
from tests.accounts.helpers import sign_in, sign_up_verified
from tests.conftest import MakeUser, TestUser
from tests.developer.conftest import submission
from tests.jobs.helpers import dispatcher, echo
from tests.schedules.helpers import Clock, at, scheduler, use_clock
from tests.support.agents import LoopbackAgents

# Version 2's schema: "text" becomes a number (retyped), "mode" is gone, "count" is new.
V2_SCHEMA = {
    "input_data": [
        {"id": "text", "type": "number", "name": "Text as a number"},
        {
            "id": "count",
            "type": "number",
            "name": "Count",
            "validations": [{"validation": "optional", "value": "true"}],
        },
    ]
}


async def _approve(client: httpx2.AsyncClient, admin: TestUser, agent_id: str) -> None:
    approved = await client.post(
        f"/v1/admin/agents/{agent_id}/approve", headers=admin.bearer_headers
    )
    assert approved.status_code == 200, approved.text


async def _listed_agent(
    client: httpx2.AsyncClient, url: str, developer: TestUser, admin: TestUser
) -> str:
    created = await client.post(
        "/v1/developer/agents",
        json=submission(url, price=0, changelog="The first cut"),
        headers=developer.bearer_headers,
    )
    assert created.status_code == 201, created.text
    agent_id: str = created.json()["data"]["id"]
    await _approve(client, admin, agent_id)
    return agent_id


async def _new_version(
    client: httpx2.AsyncClient,
    developer: TestUser,
    admin: TestUser | None,
    agent_id: str,
    url: str,
    changelog: str,
) -> None:
    moved = await client.patch(
        f"/v1/developer/agents/{agent_id}",
        json={"baseUrl": url, "changelog": changelog},
        headers=developer.bearer_headers,
    )
    assert moved.status_code == 200, moved.text
    assert moved.json()["data"]["status"] == "PENDING"
    if admin is not None:
        await _approve(client, admin, agent_id)


async def _job(client: httpx2.AsyncClient, user: TestUser, job_id: str) -> dict[str, Any]:
    response = await client.get(f"/v1/jobs/{job_id}", headers=user.key_headers)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def test_a_job_made_before_a_version_change_runs_and_shows_the_old_version(
    app: FastAPI,
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    developer, buyer = await make_user(), await make_user()
    first, second = echo(), echo(input_schema=V2_SCHEMA)
    agent_id = await _listed_agent(client, agents_server.serve(first), developer, admin)
    shown = (await client.get(f"/v1/agents/{agent_id}")).json()["data"]
    assert shown["version"] == 1
    assert "conformance" in shown

    made = await client.post(
        f"/v1/agents/{agent_id}/jobs",
        json={"inputData": {"text": "before"}},
        headers=buyer.key_headers,
    )
    assert made.status_code == 201, made.text
    old_job = made.json()["data"]["id"]
    assert made.json()["data"]["agentVersion"] == 1

    # Version 2 approved while the job still waits in the queue.
    await _new_version(client, developer, admin, agent_id, agents_server.serve(second), "Numbers")
    assert (await client.get(f"/v1/agents/{agent_id}")).json()["data"]["version"] == 2
    # (the conformance suite starts jobs of its own at submission and approval: count after it)
    started_before, second_before = len(first.started), len(second.started)
    await dispatcher(app).run_until_idle()

    job = await _job(client, buyer, old_job)
    assert (job["status"], job["agentVersion"]) == ("COMPLETED", 1)
    assert len(first.started) == started_before + 1  # version 1's base URL ran it
    assert len(second.started) == second_before
    # (the job page's "Agent version" is tests/web/test_browser_versions.py's)

    # A new job runs version 2, validated by version 2's schema.
    refused = await client.post(
        f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "x"}}, headers=buyer.key_headers
    )
    assert refused.status_code == 400
    new = await client.post(
        f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": 7}}, headers=buyer.key_headers
    )
    assert new.status_code == 201, new.text
    assert new.json()["data"]["agentVersion"] == 2

    versions = await client.get(f"/v1/agents/{agent_id}/versions")
    assert versions.status_code == 200, versions.text
    listed = versions.json()["data"]
    assert [(v["number"], v["changelog"]) for v in listed] == [(2, "Numbers"), (1, "The first cut")]
    assert listed[0]["inputSchema"] == V2_SCHEMA
    assert (await client.get(f"/v1/agents/{uuid.uuid4()}/versions")).status_code == 404


async def _schedule(
    client: httpx2.AsyncClient, user: TestUser, start: str, **body: Any
) -> dict[str, Any]:
    response = await client.post(
        "/v1/schedules",
        json={"intervalSeconds": 3600, "startsAt": start, **body},
        headers=user.key_headers,
    )
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def test_a_pinned_schedule_keeps_version_1_and_a_breaking_change_warns_its_owner(
    app: FastAPI,
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
    db: Database,
) -> None:
    start = at("2030-01-01T00:00:00+00:00")
    clock = Clock(start)
    use_clock(app, clock)
    developer, owner = await make_user(), await make_user(credits=to_base(10))
    first, second = echo(), echo(input_schema=V2_SCHEMA)
    agent_id = await _listed_agent(client, agents_server.serve(first), developer, admin)
    text = {"text": "weekly report"}
    pinned = await _schedule(
        client, owner, start.isoformat(), agentId=agent_id, inputData=text, agentVersion=1
    )
    assert pinned["agentVersion"] == 1
    following = await _schedule(client, owner, start.isoformat(), agentId=agent_id, inputData=text)
    assert following["agentVersion"] is None
    missing = await client.post(
        "/v1/schedules",
        json={"intervalSeconds": 3600, "agentId": agent_id, "inputData": text, "agentVersion": 9},
        headers=owner.key_headers,
    )
    assert missing.status_code == 400
    assert "agentVersion" in missing.text

    # The breaking change is submitted: its owner hears before any approval.
    await _new_version(client, developer, None, agent_id, agents_server.serve(second), "Numbers")
    async with db.transaction(write=False) as session:
        warned = (
            await session.scalars(
                select(Notification).where(
                    Notification.user_id == owner.user_id,
                    Notification.kind == "agent.version_breaking",
                )
            )
        ).all()
    assert len(warned) == 1
    items = warned[0].data["items"]
    assert {item["id"] for item in items} == {pinned["id"], following["id"]}
    assert all(item["fields"] == ["text"] for item in items)
    assert any("changed type from textarea to number" in c for c in warned[0].data["changes"])
    await _approve(client, admin, agent_id)
    first_before, second_before = len(first.started), len(second.started)

    # Both schedules run version 1 (pinned; the latest compatible with their input).
    await scheduler(app, clock, "w").run_once()
    await dispatcher(app).run_until_idle()
    async with db.transaction(write=False) as session:
        jobs = (await session.scalars(select(Job).where(Job.agent_id == uuid.UUID(agent_id)))).all()
    ran = [j for j in jobs if j.user_id == owner.user_id]
    assert len(ran) == 2
    assert {(j.agent_version, j.status) for j in ran} == {(1, "COMPLETED")}
    assert (len(first.started), len(second.started)) == (first_before + 2, second_before)

    # Following the latest with a number input: version 2 from now on.
    changed = await client.patch(
        f"/v1/schedules/{following['id']}",
        json={"inputData": {"text": 3}},
        headers=owner.key_headers,
    )
    assert changed.status_code == 200, changed.text
    clock.advance(hours=1)
    await scheduler(app, clock, "w").run_once()
    async with db.transaction(write=False) as session:
        newest = (
            await session.scalars(
                select(Job.agent_version).where(Job.agent_id == uuid.UUID(agent_id))
            )
        ).all()
    assert sorted(v for v in newest if v is not None).count(2) == 1


async def test_saved_inputs_over_the_api_are_the_persons_own(
    app: FastAPI,
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    developer, alice, bob = await make_user(), await make_user(), await make_user()
    agent_id = await _listed_agent(client, agents_server.serve(echo()), developer, admin)
    base = f"/v1/agents/{agent_id}/saved-inputs"
    made = await client.post(
        base,
        json={"name": "Shout", "inputData": {"text": "hi", "mode": "upper"}, "agentVersion": 1},
        headers=alice.key_headers,
    )
    assert made.status_code == 201, made.text
    saved = made.json()["data"]
    assert (saved["name"], saved["agentVersion"]) == ("Shout", 1)
    bad = await client.post(
        base, json={"name": "Bad", "inputData": {"mode": "sideways"}}, headers=alice.key_headers
    )
    assert bad.status_code == 400
    assert "inputData.text" in bad.text
    no_version = await client.post(
        base, json={"name": "V9", "inputData": {"text": "a"}, "agentVersion": 9},
        headers=alice.key_headers,
    )  # fmt: skip
    assert no_version.status_code == 400 and "agentVersion" in no_version.text

    mine = await client.get(base, headers=alice.key_headers)
    assert [s["id"] for s in mine.json()["data"]] == [saved["id"]]
    assert (await client.get(base, headers=bob.key_headers)).json()["data"] == []
    # Bob cannot use, delete or schedule Alice's saved input: 404 each time.
    stolen = await client.delete(f"{base}/{saved['id']}", headers=bob.key_headers)
    assert stolen.status_code == 404
    scheduled = await client.post(
        "/v1/schedules",
        json={"intervalSeconds": 3600, "savedInputId": saved["id"]},
        headers=bob.key_headers,
    )
    assert scheduled.status_code == 404

    # A schedule made from the saved input takes its agent, input and pinned version.
    own = await client.post(
        "/v1/schedules",
        json={"intervalSeconds": 3600, "savedInputId": saved["id"]},
        headers=alice.key_headers,
    )
    assert own.status_code == 201, own.text
    data = own.json()["data"]
    assert (data["agentId"], data["inputData"], data["agentVersion"]) == (
        agent_id,
        {"text": "hi", "mode": "upper"},
        1,
    )
    both = await client.post(
        "/v1/schedules",
        json={"intervalSeconds": 3600, "savedInputId": saved["id"], "inputData": {"text": "x"}},
        headers=alice.key_headers,
    )
    assert both.status_code == 400 and "inputData" in both.text

    deleted = await client.delete(f"{base}/{saved['id']}", headers=alice.key_headers)
    assert deleted.status_code == 200, deleted.text
    assert (await client.get(base, headers=alice.key_headers)).json()["data"] == []


async def test_the_review_page_shows_the_coming_version_and_its_schema_diff(
    app: FastAPI,
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
    settings: Settings,
) -> None:
    developer = await make_user()
    agent_id = await _listed_agent(client, agents_server.serve(echo()), developer, admin)
    second = agents_server.serve(echo(input_schema=V2_SCHEMA))
    await _new_version(client, developer, None, agent_id, second, "Counts, and text as numbers")
    await sign_up_verified(client, settings, "reviewer@example.com", "Rita Reviewer")
    async with app.state.db.transaction() as session:
        operator = await identity_repo.user_by_email(session, "reviewer@example.com")
        assert operator is not None
        await identity.create_key(session, user=operator, kind="admin")
    await sign_in(client, "reviewer@example.com")
    queue = await client.get("/admin/reviews", params={"live": "0"})
    assert queue.status_code == 200, queue.text
    assert "Approving makes version 2 (now version 1); new base URL." in queue.text
    assert "Changelog: Counts, and text as numbers" in queue.text
    diff = queue.text.split(f'id="schema-diff-{agent_id}"', 1)[1].split("</ul>", 1)[0]
    for line in (
        "added field “count” (number)",
        "removed field “mode” (option)",
        "field “text” changed type from textarea to number",
    ):
        assert line in diff
