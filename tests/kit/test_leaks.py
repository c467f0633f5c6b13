"""Leaks closed: webhook URLs and SSE session ids stay out of logs; deleting a webhook cancels its
pending deliveries (the receiver hears nothing more); key scopes are validated (admin is never a
scope) in the service and the CLI; hidden agents are 404 on every agent route."""

from __future__ import annotations

import uuid
from pathlib import Path

import httpx2
import pytest
from fastapi import FastAPI

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from agora.kit.errors import BadRequest
from agora.kit.logging import configure_logging
from agora.notifications.worker import NotificationSender
from tests.conftest import MakeUser
from tests.jobs.helpers import create, echo, register
from tests.support.agents import LoopbackAgents
from tests.support.listener import counting_listener
from tests.support.server import agora_env, create_user, run_cli


async def send_at_debug(app: FastAPI, capsys: pytest.CaptureFixture[str], rounds: int) -> None:
    """Run the notification sender ``rounds`` times with DEBUG logging (back to WARNING after)."""
    configure_logging("DEBUG")
    try:
        sender = NotificationSender(app.state.db, app.state.settings)
        try:
            for _ in range(rounds):
                await sender.run_once()
        finally:
            await sender.stop()
    finally:
        with capsys.disabled():
            configure_logging("WARNING")


async def test_deleting_a_webhook_cancels_its_pending_deliveries_and_logs_no_url(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    capsys: pytest.CaptureFixture[str],
) -> None:
    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    secret_path = f"/hooks/{uuid.uuid4().hex}"
    with counting_listener("127.0.0.1") as receiver:
        url = f"{receiver.url}{secret_path}"
        saved = await client.put(
            "/v1/notifications/webhook", json={"url": url}, headers=user.key_headers
        )
        assert saved.status_code == 200
        await client.patch(
            "/v1/users/me", json={"jobStatusNotificationsOptIn": True}, headers=user.key_headers
        )
        job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
        await client.post(f"/v1/jobs/{job_id}/cancel", headers=user.key_headers)
        log = (await client.get("/v1/notifications/deliveries", headers=user.key_headers)).json()
        assert log["data"] and all(d["state"] == "pending" for d in log["data"])
        gone = await client.delete("/v1/notifications/webhook", headers=user.key_headers)
        assert gone.status_code == 200
        await send_at_debug(app, capsys, rounds=5)
        assert receiver.count == 0  # nothing is sent after the webhook is deleted
    log = (await client.get("/v1/notifications/deliveries", headers=user.key_headers)).json()
    assert all(d["state"] == "failed" for d in log["data"]), log
    assert all("webhook deleted" in (d["lastError"] or "") for d in log["data"]), log
    captured = capsys.readouterr()
    assert secret_path not in captured.err + captured.out


def test_session_ids_and_query_secrets_are_redacted() -> None:
    from agora.kit.logging import redact_text

    session = uuid.uuid4().hex
    for line in (
        f"POST /messages/?session_id={session}",
        f"Created new transport with session ID: {session}",
        f'{{"session_id": "{session}"}}',
    ):
        assert session not in redact_text(line), line


async def test_scopes_are_validated_and_admin_is_never_a_scope(
    db: Database, make_user: MakeUser, client: httpx2.AsyncClient
) -> None:
    user = await make_user()
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, user.user_id)
        assert owner is not None
        for kind, scopes in (("coworker", ["admin"]), ("user", ["admin"]), ("coworker", ["x"])):
            with pytest.raises(BadRequest) as refused:
                await identity.create_key(session, user=owner, kind=kind, scopes=scopes)
            assert refused.value.details[0].field == "scopes"
        bot = await identity.create_key(session, user=owner, kind="coworker", scopes=["jobs:write"])
    assert bot.key.scopes == ["jobs:write"]
    headers = {"authorization": f"Bearer {bot.plaintext}"}
    admin_route = await client.get(f"/v1/admin/agents/{uuid.uuid4()}", headers=headers)
    assert admin_route.status_code == 404  # the admin API is not there for non-admins


def test_cli_refuses_admin_and_unknown_scopes(tmp_path: Path) -> None:
    env = agora_env(tmp_path, AGORA_DEMO="false")
    create_user(env, "ops@example.com")
    for scope in ("admin", "everything"):
        with pytest.raises(AssertionError, match="scope"):
            run_cli(
                env, "keys", "create", "--user", "ops@example.com", "--kind", "coworker",
                "--scope", scope,
            )  # fmt: skip


async def test_hidden_agents_are_404_on_every_route(
    app: FastAPI,
    client: httpx2.AsyncClient,
    db: Database,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    from agora.agents import service as agents

    user = await make_user()
    probe = await agents.probe(app.state.agent_client, agents_server.serve(echo()))
    async with db.transaction() as session:
        hidden = await agents.register_agent(
            session,
            app.state.settings,
            probe,
            name="Hidden",
            verify=True,
            is_shown=False,
        )
    unknown = str(uuid.uuid4())
    for agent_id in (str(hidden.id), unknown):
        for method, path in (
            ("GET", f"/v1/agents/{agent_id}"),
            ("GET", f"/v1/agents/{agent_id}/input-schema"),
            ("GET", f"/v1/agents/{agent_id}/jobs"),
            ("POST", f"/v1/agents/{agent_id}/jobs"),
        ):
            answer = await client.request(
                method,
                path,
                headers=user.key_headers,
                json={"inputData": {"text": "x"}} if method == "POST" else None,
            )
            assert answer.status_code == 404, (agent_id == unknown, path, answer.text)


async def test_a_delivered_webhook_leaves_no_url_in_the_logs(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    capsys: pytest.CaptureFixture[str],
) -> None:
    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    secret_path = f"/hooks/{uuid.uuid4().hex}"
    with counting_listener("127.0.0.1") as receiver:
        await client.put(
            "/v1/notifications/webhook",
            json={"url": f"{receiver.url}{secret_path}"},
            headers=user.key_headers,
        )
        await client.patch(
            "/v1/users/me", json={"jobStatusNotificationsOptIn": True}, headers=user.key_headers
        )
        job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
        await client.post(f"/v1/jobs/{job_id}/cancel", headers=user.key_headers)
        await send_at_debug(app, capsys, rounds=3)
        assert receiver.count >= 1
        assert all(p == secret_path for p in receiver.paths)
    captured = capsys.readouterr()
    assert secret_path not in captured.err + captured.out
