"""Stream slots (docs/security.md, "Limits"): one key opens streams up to its cap and the next
gets 429 with Retry-After; the same user's other key is held by the per-user cap; another user
still gets a stream; a closed stream gives its slot back. The process-wide cap stays the last
line (tests/jobs/test_stream.py, 503). Over real HTTP, on SQLite and PostgreSQL."""

from __future__ import annotations

from contextlib import AsyncExitStack

import httpx2
from fastapi import FastAPI

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import echo, register
from tests.jobs.test_stream import _until, served, stream
from tests.support.agents import LoopbackAgents


async def _job(client: httpx2.AsyncClient, user: TestUser, agent_id: str) -> str:
    made = await client.post(
        f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "hi"}}, headers=user.key_headers
    )
    assert made.status_code == 201, made.text
    return str(made.json()["data"]["id"])


async def _second_key(db: Database, user: TestUser) -> TestUser:
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, user.user_id)
        assert owner is not None
        key = await identity.create_key(session, user=owner, kind="user")
    return TestUser(user.user_id, user.workspace_id, user.email, key.plaintext)


async def test_one_key_cannot_take_every_stream(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    db: Database,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(app, agents_server, echo())
    greedy, other = await make_user(), await make_user()
    greedy_job = await _job(client, greedy, agent_id)
    other_job = await _job(client, other, agent_id)
    greedy_again = await _second_key(db, greedy)
    caps = {"job_stream_max_per_key": 2, "job_stream_max_per_user": 3, "job_stream_max": 50}
    with served(settings, **caps) as (base, served_app):
        async with AsyncExitStack() as open_streams, httpx2.AsyncClient(timeout=10) as http:
            kept = []
            for _ in range(2):
                frames = await open_streams.enter_async_context(stream(base, greedy, greedy_job))
                assert (await frames.next())["event"] == "created"
                kept.append(frames)  # a collected reader closes its response
            url = f"{base}/v1/jobs/{greedy_job}/stream"
            over = await http.get(url, headers=greedy.key_headers)
            assert over.status_code == 429, over.text
            assert over.headers["Retry-After"] == "5"
            assert over.json()["error"] == "Too Many Requests"  # the key family's shape
            assert "key" in over.json()["message"]
            # The same user's other key: one more (3 for the user), then the user's cap.
            kept.append(
                await open_streams.enter_async_context(stream(base, greedy_again, greedy_job))
            )
            by_user = await http.get(url, headers=greedy_again.key_headers)
            assert by_user.status_code == 429, by_user.text
            assert "user" in by_user.json()["message"]
            # Everyone else still gets a stream.
            async with stream(base, other, other_job) as frames:
                assert (await frames.next())["event"] == "created"
                assert served_app.state.job_streams.open == 4
        # Closed streams give their slots back: the greedy key streams again.
        await _until(lambda: served_app.state.job_streams.open == 0)
        async with stream(base, greedy, greedy_job) as frames:
            assert (await frames.next())["event"] == "created"
