"""The in-app inbox: job events become notifications in the job's transaction; list, filter,
page, mark read / unread / all, read by reference (answering the question reads it)."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest
from fastapi import FastAPI

from agora.jobs import lifecycle
from agora.kit.db import Database
from agora.kit.ids import parse_uuid
from agora.kit.money import to_base
from agora.models import Job
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, register, reviewer
from tests.support.agents import LoopbackAgents


async def inbox(
    client: httpx2.AsyncClient, headers: dict[str, str], **params: Any
) -> dict[str, Any]:
    answer = await client.get("/v1/notifications", params=params, headers=headers)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()["data"]
    return data


async def waiting_job(
    app: FastAPI, client: httpx2.AsyncClient, agents_server: LoopbackAgents, headers: dict[str, str]
) -> str:
    agent_id = await register(app, agents_server, reviewer())
    created = await create(client, headers, agent_id, {"inputData": {"text": "a b"}})
    assert created.status_code == 201, created.text
    await dispatcher(app).run_until_idle(5)
    job_id: str = created.json()["data"]["id"]
    return job_id


async def test_input_requested_is_an_unread_notification_that_answering_reads(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    user = await make_user(credits=to_base(10))
    other = await make_user()
    job_id = await waiting_job(app, client, agents_server, user.key_headers)

    page = await inbox(client, user.key_headers)
    assert page["unreadCount"] == 1
    [item] = page["items"]
    assert item["kind"] == "job.input_required"
    assert item["subjectRef"] == f"job:{job_id}"
    assert item["link"] == f"/jobs/{job_id}#input-form"
    assert item["read"] is False and item["data"]["jobId"] == job_id
    # A mail is queued in the same transaction (input requested mails by default).
    log = (
        await client.get(
            "/v1/notifications/deliveries", params={"channel": "mail"}, headers=user.key_headers
        )
    ).json()
    assert [(d["channel"], d["event"]) for d in log["data"]] == [("mail", "job.input_required")]
    hooks = await client.get("/v1/notifications/deliveries", headers=user.key_headers)
    assert hooks.json()["data"] == []  # the default log is the webhooks' (none configured)
    # Nobody else sees it.
    assert (await inbox(client, other.key_headers))["items"] == []
    foreign = await client.post(f"/v1/notifications/{item['id']}/read", headers=other.key_headers)
    assert foreign.status_code == 404

    answered = await client.post(
        f"/v1/jobs/{job_id}/inputs",
        json={"inputData": {"approve": True, "note": "ok"}},
        headers=user.key_headers,
    )
    assert answered.status_code == 200, answered.text
    count = await client.get("/v1/notifications/unread-count", headers=user.key_headers)
    assert count.json()["data"] == {"unreadCount": 0}
    [read] = (await inbox(client, user.key_headers))["items"]
    assert read["read"] is True and read["readAt"] is not None

    await dispatcher(app).run_until_idle(5)
    page = await inbox(client, user.key_headers, unread="true")
    assert [i["kind"] for i in page["items"]] == ["job.completed"]


async def test_mark_read_unread_all_and_by_reference_and_paging(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    user = await make_user(credits=to_base(10))
    jobs = [await waiting_job(app, client, agents_server, user.key_headers) for _ in range(3)]
    h = user.key_headers

    first = await inbox(client, h, limit=2)
    assert [i["data"]["jobId"] for i in first["items"]] == [jobs[2], jobs[1]]  # newest first
    assert first["nextCursor"]
    second = await inbox(client, h, limit=2, cursor=first["nextCursor"])
    assert [i["data"]["jobId"] for i in second["items"]] == [jobs[0]]
    assert second["nextCursor"] is None
    # A cursor of another query is refused, naming the field.
    refused = await client.get(
        "/v1/notifications", params={"cursor": first["nextCursor"], "unread": "true"}, headers=h
    )
    assert refused.status_code == 400
    assert refused.json()["details"][0]["field"] == "cursor"
    unknown = await client.get("/v1/notifications", params={"kind": "job.nope"}, headers=h)
    assert unknown.status_code == 400 and unknown.json()["details"][0]["field"] == "kind"
    assert (await inbox(client, h, kind="job.completed"))["items"] == []

    one = first["items"][0]["id"]
    marked = await client.post(f"/v1/notifications/{one}/read", headers=h)
    assert marked.status_code == 200 and marked.json()["data"]["read"] is True
    assert (await inbox(client, h))["unreadCount"] == 2
    again = await client.post(f"/v1/notifications/{one}/unread", headers=h)
    assert again.json()["data"]["read"] is False
    assert (await inbox(client, h))["unreadCount"] == 3

    by_ref = await client.post(
        "/v1/notifications/read-by-reference", json={"subjectRef": f"job:{jobs[0]}"}, headers=h
    )
    assert by_ref.json()["data"] == {"changed": 1, "unreadCount": 2}
    everything = await client.post("/v1/notifications/read-all", headers=h)
    assert everything.json()["data"] == {"changed": 2, "unreadCount": 0}
    assert (await inbox(client, h, unread="true"))["items"] == []
    missing = await client.post("/v1/notifications/not-an-id/read", headers=h)
    assert missing.status_code == 404


async def test_a_rolled_back_status_change_notifies_nobody(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    user = await make_user(credits=to_base(10))
    job_id = await waiting_job(app, client, agents_server, user.key_headers)
    await client.post("/v1/notifications/read-all", headers=user.key_headers)
    mails = {"channel": "mail"}
    before = (
        await client.get("/v1/notifications/deliveries", params=mails, headers=user.key_headers)
    ).json()
    db: Database = app.state.db

    class Abort(Exception):
        pass

    async def fail_then_abort() -> None:
        async with db.transaction() as session:
            job = await session.get(Job, parse_uuid(job_id))
            assert job is not None
            assert await lifecycle.transition(session, job, lifecycle.FAILED)
            raise Abort

    with pytest.raises(Abort):
        await fail_then_abort()
    page = await inbox(client, user.key_headers)
    assert [i["kind"] for i in page["items"]] == ["job.input_required"]
    assert page["unreadCount"] == 0
    after = (
        await client.get("/v1/notifications/deliveries", params=mails, headers=user.key_headers)
    ).json()
    assert after["data"] == before["data"]


async def test_preferences_turn_channels_off_per_kind(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    user = await make_user(credits=to_base(10))
    h = user.key_headers
    prefs = (await client.get("/v1/notifications/preferences", headers=h)).json()["data"]
    by_kind = {p["kind"]: p for p in prefs}
    assert by_kind["job.input_required"]["mail"] is True
    assert by_kind["job.completed"] == {**by_kind["job.completed"], "inbox": True, "mail": False}

    bad = await client.put(
        "/v1/notifications/preferences",
        json={"preferences": [{"kind": "job.nope", "mail": False}]},
        headers=h,
    )
    assert bad.status_code == 400
    assert bad.json()["details"][0]["field"] == "preferences[0].kind"
    changed = await client.put(
        "/v1/notifications/preferences",
        json={"preferences": [{"kind": "job.input_required", "mail": False, "inbox": False}]},
        headers=h,
    )
    assert changed.status_code == 200, changed.text
    await waiting_job(app, client, agents_server, h)
    assert (await inbox(client, h))["items"] == []
    log = await client.get("/v1/notifications/deliveries", params={"channel": "mail"}, headers=h)
    assert log.json()["data"] == []
