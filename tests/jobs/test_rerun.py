"""Run again (``POST /v1/jobs/{id}/rerun``, the agent page's ``?from_job=``): a new job of the same
agent with the same input, the caller's own job only, admitted like any other (credits, the
Idempotency-Key)."""

from __future__ import annotations

import json

import httpx2
from fastapi import FastAPI
from sqlalchemy import func, select

from agora.kit.db import Database
from agora.kit.money import to_base
from agora.models import Job, LedgerEntry
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.jobs.helpers import create, echo, register
from tests.support.agents import LoopbackAgents
from tests.web.test_pages import _sign_up_in


async def _counts(db: Database) -> tuple[int, int]:
    async with db.transaction(write=False) as session:
        jobs = await session.scalar(select(func.count()).select_from(Job))
        holds = await session.scalar(
            select(func.count()).select_from(LedgerEntry).where(LedgerEntry.kind == "hold")
        )
    return int(jobs or 0), int(holds or 0)


async def test_rerun_creates_a_new_job_with_the_same_agent_and_input(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=1)
    user = await make_user(credits=to_base("2.2"))  # two jobs at 1.1, not three
    first = await create(
        client,
        user.key_headers,
        agent_id,
        {"inputData": {"text": "again", "mode": "upper"}, "maxAcceptedCredits": 5},
    )
    assert first.status_code == 201, first.text
    original = first.json()["data"]

    again = await client.post(f"/v1/jobs/{original['id']}/rerun", headers=user.key_headers)
    assert again.status_code == 201, again.text
    data = again.json()["data"]
    assert data["id"] != original["id"]
    assert data["agentId"] == agent_id
    assert json.loads(data["input"]) == {"text": "again", "mode": "upper"}
    assert data["status"] == "PENDING"
    assert await _counts(db) == (2, 2)

    # Same admission rules: the third run finds the credits short.
    short = await client.post(f"/v1/jobs/{original['id']}/rerun", headers=user.key_headers)
    assert short.status_code == 402, short.text
    assert await _counts(db) == (2, 2)


async def test_rerun_honours_the_idempotency_key_and_hides_other_peoples_jobs(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=1)
    owner = await make_user(credits=to_base(10))
    stranger = await make_user(credits=to_base(10))
    created = await create(client, owner.key_headers, agent_id)
    job_id = created.json()["data"]["id"]

    headers = {**owner.key_headers, "Idempotency-Key": "rerun-1"}
    one = await client.post(f"/v1/jobs/{job_id}/rerun", headers=headers)
    two = await client.post(f"/v1/jobs/{job_id}/rerun", headers=headers)
    assert one.status_code == two.status_code == 201, (one.text, two.text)
    assert one.json()["data"]["id"] == two.json()["data"]["id"]
    assert two.headers["Idempotent-Replayed"] == "true"
    assert await _counts(db) == (2, 2)

    for bad in (job_id, "not-an-id", "0190a5c4-0000-7000-8000-000000000000"):
        refused = await client.post(f"/v1/jobs/{bad}/rerun", headers=stranger.key_headers)
        assert refused.status_code == 404, refused.text
    assert await _counts(db) == (2, 2)


async def test_from_job_fills_the_hire_form_with_your_own_job_only(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(app, agents_server, echo())
    other_agent = await register(app, agents_server, echo(name="second"))
    csrf = await _sign_up_in(client, settings, "rerun@example.com")
    hired = await client.post(
        f"/agents/{agent_id}/hire",
        data={"csrf": csrf, "in.text": "Fill me in again", "maxCredits": "4"},
    )
    assert hired.status_code == 303, hired.text
    job_id = hired.headers["location"].rsplit("/", 1)[1]
    page = await client.get(f"/jobs/{job_id}")
    assert f'href="/agents/{agent_id}?from_job={job_id}#hire-form"' in page.text
    filled = await client.get(f"/agents/{agent_id}?from_job={job_id}")
    assert filled.status_code == 200
    assert "Fill me in again" in filled.text
    assert "Fill me in again" not in (await client.get(f"/agents/{agent_id}")).text
    # Another agent's page with this job, someone else's job, a malformed id: 404.
    assert (await client.get(f"/agents/{other_agent}?from_job={job_id}")).status_code == 404
    stranger = await make_user(credits=to_base(10))
    theirs = (await create(client, stranger.key_headers, agent_id)).json()["data"]["id"]
    assert (await client.get(f"/agents/{agent_id}?from_job={theirs}")).status_code == 404
    assert (await client.get(f"/agents/{agent_id}?from_job=nope")).status_code == 404
