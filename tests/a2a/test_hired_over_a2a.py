"""Being hired over A2A (docs/a2a.md, "Being hired over A2A"): ``a2a-sdk``'s own client, pointed
at an Agora listing's Agent Card, signs in with a token from Agora's OAuth server (the SDK's
``AuthInterceptor`` reads the card's OAuth scheme), hires the MIP-003 agent behind the listing,
answers its input request as the next message of the same task and receives the result; the job
is in the person's history and its credits were charged once (the ledger). Streaming
(``message/stream``) and polling (``message/send`` + ``tasks/get``). Another person's task ids are
not found; no credential is a 401 naming the protected-resource metadata; bodies are bounded."""

from __future__ import annotations

import asyncio
import csv
import io
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import httpx2
import pytest
from a2a.client import ClientConfig, ClientFactory
from a2a.client.auth import AuthInterceptor, InMemoryContextCredentialStore
from a2a.client.card_resolver import A2ACardResolver
from a2a.client.client import Client, ClientCallContext
from a2a.types.a2a_pb2 import (
    AgentCard,
    CancelTaskRequest,
    GetTaskRequest,
    Message,
    Part,
    Role,
    SendMessageRequest,
    StreamResponse,
    SubscribeToTaskRequest,
    Task,
    TaskState,
)
from a2a.utils.errors import (
    A2AError,
    InvalidParamsError,
    TaskNotCancelableError,
    TaskNotFoundError,
)
from fastapi import FastAPI
from google.protobuf.json_format import MessageToDict, ParseDict
from google.protobuf.struct_pb2 import Value
from starlette.types import Message as AsgiMessage

from agora.app import create_app
from agora.files.worker import OutputCollector
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.settings import Settings
from tests.a2a.test_hire_a2a import _submit_and_approve
from tests.accounts.helpers import sign_up_verified
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import dispatcher, echo, register, reviewer
from tests.oauth.helpers import register as register_client
from tests.oauth.helpers import tokens_for
from tests.support.a2a_agent import REPORT, painter_agent
from tests.support.agents import loopback_agents

SESSION = ClientCallContext(state={"sessionId": "person"})


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.with_changes(welcome_credits=to_base(50))


@asynccontextmanager
async def sdk_client(
    app: FastAPI, agent_id: str, token: str, *, streaming: bool
) -> AsyncIterator[tuple[Client, AgentCard]]:
    """The SDK's client for the listing's card, its token in the SDK's credential store."""
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver", timeout=30
    ) as http:
        card = await A2ACardResolver(
            http, f"http://testserver/a2a/agents/{agent_id}"
        ).get_agent_card()
        store = InMemoryContextCredentialStore()
        [scheme] = card.security_schemes
        await store.set_credentials("person", scheme, token)
        config = ClientConfig(streaming=streaming, polling=not streaming, httpx_client=http)
        yield ClientFactory(config).create(card, interceptors=[AuthInterceptor(store)]), card


def _message(*parts: Part, task_id: str = "") -> SendMessageRequest:
    return SendMessageRequest(
        message=Message(
            message_id=uuid.uuid4().hex,
            role=Role.ROLE_USER,
            parts=list(parts),
            task_id=task_id,
            context_id=task_id,
        )
    )


def _data(value: dict[str, Any]) -> Part:
    return Part(data=ParseDict(value, Value()))


async def _send(app: FastAPI, sdk: Client, request: SendMessageRequest) -> list[StreamResponse]:
    """Send (the stream read in a task) while the dispatcher moves the job, bounded."""
    events: list[StreamResponse] = []

    async def read() -> None:
        async for event in sdk.send_message(request, context=SESSION):
            events.append(event)

    reading = asyncio.create_task(read())
    try:
        for _ in range(200):  # at most ~20 s
            if reading.done():
                break
            await dispatcher(app).run_until_idle(10)
            await asyncio.sleep(0.1)
        await asyncio.wait_for(reading, 10)
    finally:
        reading.cancel()
    return events


async def _drain(stream: AsyncIterator[StreamResponse]) -> list[StreamResponse]:
    return [event async for event in stream]


def _state(events: list[StreamResponse]) -> tuple[str, int]:
    """The task id and its last state in ``events``."""
    task_id, state = "", TaskState.TASK_STATE_UNSPECIFIED
    for event in events:
        if event.HasField("task"):
            task_id, state = event.task.id, event.task.status.state
        elif event.HasField("status_update"):
            state = event.status_update.status.state
    return task_id, state


async def _ledger(client: httpx2.AsyncClient, headers: dict[str, str]) -> list[dict[str, str]]:
    answer = await client.get("/v1/credits/ledger/export", headers=headers)
    assert answer.status_code == 200, answer.text
    return list(csv.DictReader(io.StringIO(answer.text.lstrip("\ufeff"))))


async def _balance(client: httpx2.AsyncClient, headers: dict[str, str]) -> float:
    answer = await client.get("/v1/credits", headers=headers)
    assert answer.status_code == 200, answer.text
    return float(answer.json()["data"]["balance"])


@pytest.mark.parametrize("streaming", [True, False], ids=["stream", "poll"])
async def test_an_a2a_client_hires_an_agora_agent_with_oauth(
    client: httpx2.AsyncClient, app: FastAPI, settings: Settings, streaming: bool
) -> None:
    with loopback_agents() as agents:
        agent_id = await register(app, agents, reviewer(), price=2)

        card_answer = await client.get(f"/a2a/agents/{agent_id}/.well-known/agent-card.json")
        assert card_answer.status_code == 200, card_answer.text
        card_json = card_answer.json()
        assert (
            card_json["supportedInterfaces"][0]["url"] == f"http://testserver/a2a/agents/{agent_id}"
        )
        flow = card_json["securitySchemes"]["agora-oauth"]["oauth2SecurityScheme"]["flows"]
        assert flow["authorizationCode"]["tokenUrl"] == "http://testserver/oauth/token"
        assert "`text` (textarea, required)" in card_json["skills"][0]["description"]
        page = await client.get(f"/agents/{agent_id}")
        card_link = f'href="/a2a/agents/{agent_id}/.well-known/agent-card.json"'
        assert page.status_code == 200 and card_link in page.text

        await sign_up_verified(client, settings, "ada@example.com")
        registered = await register_client(client)
        tokens = await tokens_for(client, registered["client_id"], scope="read jobs:write")
        bearer = {"Authorization": f"Bearer {tokens['access_token']}"}
        before = await _balance(client, bearer)

        async with sdk_client(app, agent_id, tokens["access_token"], streaming=streaming) as (
            sdk,
            _card,
        ):
            asked = await _send(app, sdk, _message(Part(text="A fine essay on lanterns")))
            task_id, state = _state(asked)
            if not streaming:  # returned at once: ask where it stands once the agent asked
                assert state == TaskState.TASK_STATE_SUBMITTED
                await dispatcher(app).run_until_idle(10)
                state = (
                    await sdk.get_task(GetTaskRequest(id=task_id), context=SESSION)
                ).status.state
            assert state == TaskState.TASK_STATE_INPUT_REQUIRED
            task: Task = await sdk.get_task(GetTaskRequest(id=task_id), context=SESSION)
            question = task.status.message
            assert "Draft review" in question.parts[0].text
            schema = MessageToDict(question.parts[1].data)["inputSchema"]
            assert [f["id"] for f in schema["input_data"]] == ["approve", "note"]

            # text alone fills the answer's one text field (note); approve is missing: refused
            text_only = _message(Part(text="looks fine"), task_id=task_id)
            with pytest.raises(InvalidParamsError, match="approve"):
                await _drain(sdk.send_message(text_only, context=SESSION))

            answered = await _send(
                app, sdk, _message(_data({"approve": True, "note": "ship it"}), task_id=task_id)
            )
            _, state = _state(answered)
            if not streaming:
                await dispatcher(app).run_until_idle(10)
            done = await sdk.get_task(GetTaskRequest(id=task_id), context=SESSION)
            assert done.status.state == TaskState.TASK_STATE_COMPLETED
            result = done.artifacts[0].parts[0].text
            assert result.startswith("Review: 5 words") and result.endswith("Note: ship it")
            if streaming:  # the stream carried the artifact, then completed
                assert state == TaskState.TASK_STATE_COMPLETED
                assert any(e.HasField("artifact_update") for e in answered)

        # a token without jobs:write reads, and hires nothing
        reader = await tokens_for(client, registered["client_id"], scope="read")
        async with sdk_client(app, agent_id, reader["access_token"], streaming=False) as (
            sdk,
            _card,
        ):
            assert (await sdk.get_task(GetTaskRequest(id=task_id), context=SESSION)).id == task_id
            with pytest.raises(A2AError, match="403"):
                await _drain(sdk.send_message(_message(Part(text="more")), context=SESSION))

    # the same job as from every door: in the person's history, charged once
    job = await client.get(f"/v1/jobs/{task_id}", headers=bearer)
    assert job.status_code == 200 and job.json()["data"]["status"] == "COMPLETED"
    history = await client.get("/v1/history", headers=bearer)
    assert history.status_code == 200, history.text
    [item] = [i for i in history.json()["items"] if i["id"] == task_id]
    assert item["kind"] == "job" and item["status"] == "COMPLETED" and item["credits"] == 2.1
    assert await _balance(client, bearer) == pytest.approx(before - 2.1)
    entries = [e for e in await _ledger(client, bearer) if e["job_id"] == task_id]
    assert sorted(e["kind"] for e in entries) == ["capture", "hold"], entries  # once
    assert sum(float(e["credits"]) for e in entries) == pytest.approx(-2.1)


async def test_tenancy_refusals_and_bounds(
    client: httpx2.AsyncClient, app: FastAPI, settings: Settings, make_user: MakeUser
) -> None:
    with loopback_agents() as agents:
        agent_id = await register(app, agents, reviewer(), price=1)
        other_agent = await register(app, agents, reviewer(), price=1)
    owner = await make_user(name="Owner", credits=to_base(20))
    stranger = await make_user(name="Stranger", credits=to_base(20))

    async with sdk_client(app, agent_id, owner.api_key, streaming=False) as (sdk, _card):
        [event] = [e async for e in sdk.send_message(_message(Part(text="hello")), context=SESSION)]
        task_id = event.task.id
    async with sdk_client(app, agent_id, stranger.api_key, streaming=False) as (sdk, _card):
        with pytest.raises(TaskNotFoundError):
            await sdk.get_task(GetTaskRequest(id=task_id), context=SESSION)
        with pytest.raises(TaskNotFoundError):
            await sdk.cancel_task(CancelTaskRequest(id=task_id), context=SESSION)
        answer = _message(Part(text="x"), task_id=task_id)
        with pytest.raises(TaskNotFoundError):
            await _drain(sdk.send_message(answer, context=SESSION))
    async with sdk_client(app, other_agent, owner.api_key, streaming=False) as (sdk, _card):
        with pytest.raises(TaskNotFoundError):  # the task is not this agent's
            await sdk.get_task(GetTaskRequest(id=task_id), context=SESSION)
    async with sdk_client(app, agent_id, owner.api_key, streaming=False) as (sdk, _card):
        cancelled = await sdk.cancel_task(CancelTaskRequest(id=task_id), context=SESSION)
        assert cancelled.status.state == TaskState.TASK_STATE_CANCELED
        with pytest.raises(TaskNotCancelableError, match="409"):
            await sdk.cancel_task(CancelTaskRequest(id=task_id), context=SESSION)

    # the admission's refusals, as from every door: no credits, no job
    poor = await make_user(name="Poor", credits=0)
    async with sdk_client(app, agent_id, poor.api_key, streaming=False) as (sdk, _card):
        with pytest.raises(A2AError, match="402 Payment Required"):
            await _drain(sdk.send_message(_message(Part(text="hello")), context=SESSION))
    listed = await client.get("/v1/jobs", headers=poor.key_headers)
    assert listed.status_code == 200 and listed.json()["data"] == []

    rpc = f"/a2a/agents/{agent_id}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": task_id}}
    refused = await client.post(rpc, json=body, headers={"A2A-Version": "1.0"})
    assert refused.status_code == 401
    assert "/.well-known/oauth-protected-resource/a2a" in refused.headers["www-authenticate"]
    huge = {**body, "params": {"id": task_id, "pad": "x" * (settings.http.max_body_bytes + 1)}}
    too_big = await client.post(rpc, json=huge, headers={"A2A-Version": "1.0", **owner.key_headers})
    assert too_big.status_code == 413, too_big.text
    assert too_big.json()["error"]["code"] == -32600

    # an A2A 0.3 client (no A2A-Version header, 0.3 method names) through the SDK's adapter
    old = await client.post(
        rpc,
        json={
            "jsonrpc": "2.0",
            "id": 2,
            "method": "message/send",
            "params": {
                "message": {
                    "kind": "message",
                    "messageId": "old-1",
                    "role": "user",
                    "parts": [{"kind": "text", "text": "from an old client"}],
                },
                "configuration": {"blocking": False},
            },
        },
        headers=owner.key_headers,
    )
    assert old.status_code == 200, old.text
    assert old.json()["result"]["status"]["state"] == "submitted", old.text
    missing = await client.get(f"/a2a/agents/{uuid.uuid4()}/.well-known/agent-card.json")
    assert missing.status_code == 404


async def test_data_parts_are_the_input_and_stored_files_are_file_parts(
    client: httpx2.AsyncClient, app: FastAPI, make_user: MakeUser
) -> None:
    """A data part is the input's fields (the text part goes to ``text``); a completed task's
    artifact has the result's text and a URL part for each file Agora stored from it."""
    person = await make_user(name="Reader", credits=to_base(20))
    with loopback_agents() as agents, painter_agent() as files:
        agent_id = await register(app, agents, echo(), price=1)
        # the result's link (lowered by the agent) is not the input's
        link = f"see [report.txt]({files.base_url}/files/report.txt)"
        async with sdk_client(app, agent_id, person.api_key, streaming=False) as (sdk, _card):
            request = _message(Part(text=link.upper()), _data({"mode": "lower"}))
            [sent] = await _drain(sdk.send_message(request, context=SESSION))
            task_id = sent.task.id
            await dispatcher(app).run_until_idle(10)
            assert await OutputCollector(app.state.db, app.state.settings).run_once() == 1
            done = await sdk.get_task(GetTaskRequest(id=task_id), context=SESSION)
            late = _message(Part(text="more"), task_id=task_id)
            with pytest.raises(A2AError, match="is completed and takes no message"):
                await _drain(sdk.send_message(late, context=SESSION))
        # tasks/resubscribe to a finished task: the task as it stands, and the end
        async with sdk_client(app, agent_id, person.api_key, streaming=True) as (sdk, _card):
            again = await _drain(sdk.subscribe(SubscribeToTaskRequest(id=task_id), context=SESSION))
    assert [e.task.status.state for e in again] == [TaskState.TASK_STATE_COMPLETED]
    assert done.status.state == TaskState.TASK_STATE_COMPLETED
    text, stored = done.artifacts[0].parts
    assert text.text == link
    assert stored.filename == "report.txt" and stored.media_type.startswith("text/plain")
    assert stored.url.startswith("http://testserver/v1/files/")
    content = await client.get(stored.url, headers=person.key_headers)
    assert content.status_code == 200 and content.text == REPORT


async def test_a_failed_job_is_a_failed_task_with_its_reason_and_refunded(
    client: httpx2.AsyncClient, app: FastAPI, make_user: MakeUser
) -> None:
    person = await make_user(name="Decliner", credits=to_base(20))
    with loopback_agents() as agents:
        agent_id = await register(app, agents, reviewer(), price=1)
        before = await _balance(client, person.key_headers)
        async with sdk_client(app, agent_id, person.api_key, streaming=False) as (sdk, _card):
            [sent] = await _drain(sdk.send_message(_message(Part(text="draft")), context=SESSION))
            task_id = sent.task.id
            await dispatcher(app).run_until_idle(10)
            answer = _message(_data({"approve": False}), task_id=task_id)
            [answered] = await _drain(sdk.send_message(answer, context=SESSION))
            assert answered.task.status.state == TaskState.TASK_STATE_WORKING
            await dispatcher(app).run_until_idle(10)
            failed = await sdk.get_task(GetTaskRequest(id=task_id), context=SESSION)
    assert failed.status.state == TaskState.TASK_STATE_FAILED
    assert "rejected by the requester" in failed.status.message.parts[0].text
    assert not failed.artifacts
    assert await _balance(client, person.key_headers) == pytest.approx(before)


async def test_both_directions_an_a2a_client_hires_an_a2a_agent_through_agora(
    client: httpx2.AsyncClient, app: FastAPI, make_user: MakeUser, admin: TestUser
) -> None:
    """A2A in, A2A out: the SDK client hires, through Agora's card, the SDK painter listed on
    Agora by its own card; the painter's question comes back as the task's, the answer goes
    to the painter in the same task, and its artifact is the result."""
    developer = await make_user(name="Dev")
    person = await make_user(name="Client", credits=to_base(20))
    with painter_agent() as painter:
        agent = await _submit_and_approve(
            client, developer, admin, f"{painter.base_url}/.well-known/agent-card.json",
            painter.token,
        )  # fmt: skip
        async with sdk_client(app, agent["id"], person.api_key, streaming=True) as (sdk, card):
            assert "`skill` (option, optional; one of paint, sketch)" in card.skills[0].description
            hire = _message(Part(text="a boat"), _data({"skill": "sketch"}))
            task_id, state = _state(await _send(app, sdk, hire))
            assert state == TaskState.TASK_STATE_INPUT_REQUIRED
            asked = await sdk.get_task(GetTaskRequest(id=task_id), context=SESSION)
            assert asked.status.message.parts[0].text == "Which colour?"
            _, state = _state(await _send(app, sdk, _message(Part(text="green"), task_id=task_id)))
            assert state == TaskState.TASK_STATE_COMPLETED
            done = await sdk.get_task(GetTaskRequest(id=task_id), context=SESSION)
    assert "Painted in green" in done.artifacts[0].parts[0].text
    assert painter.messages == [("a boat", "sketch"), ("green", None)]


async def test_a_dripped_body_is_cut_off_with_408_before_the_key_is_checked(
    settings: Settings, db: Database, make_user: MakeUser
) -> None:
    """The body is read within AGORA_BODY_TIMEOUT_SECONDS before any database work."""
    owner = await make_user(name="Dripper")
    slow = create_app(
        settings.with_changes(body_timeout_seconds=0.3), db=db, migrate=False, background=False
    )
    sent: list[AsgiMessage] = []
    chunks = [b'{"jsonrpc": "2.0", ', b'"id": 1}']

    async def receive() -> AsgiMessage:
        if chunks:
            body = chunks.pop(0)
            if not chunks:
                await asyncio.sleep(5)  # the rest never comes in time
            return {"type": "http.request", "body": body, "more_body": bool(chunks)}
        await asyncio.sleep(5)
        return {"type": "http.disconnect"}

    async def send(message: AsgiMessage) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": f"/a2a/agents/{uuid.uuid4()}", "raw_path": b"",
        "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1), "server": ("t", 80),
        "headers": [(b"host", b"t"), (b"content-type", b"application/json"),
                    (b"authorization", f"Bearer {owner.api_key}".encode())],
    }  # fmt: skip
    async with slow.router.lifespan_context(slow):
        started = time.monotonic()
        await asyncio.wait_for(slow(scope, receive, send), 5)
    assert time.monotonic() - started < 2
    assert sent[0]["status"] == 408, sent
