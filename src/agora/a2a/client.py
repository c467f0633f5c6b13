"""The A2A client Agora hires agents with (docs/a2a.md): reads an Agent Card, sends a job's
message, follows the task (streaming when the card says so, else ``tasks/get``), sends the
person's answer as the next message of the same task, cancels. Every call goes through the
``a2a-sdk`` client over the outbound guard (``a2a.transport``); every exchange is bounded in
time (``timeout``) and bytes. One per process (it shares the guarded connection pool)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
from a2a.client import ClientConfig, ClientFactory
from a2a.client.card_resolver import parse_agent_card
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
from a2a.utils.errors import A2AError
from google.protobuf.json_format import MessageToDict, ParseDict, ParseError
from starlette.requests import Request

from agora.a2a.transport import bridged_client
from agora.kit.outbound import (
    OutboundError,
    OutboundPolicy,
    OutboundRefused,
    OutboundTimeout,
    OutboundTooLarge,
    guarded_client,
    send_limited,
)

USER_AGENT = "agora-marketplace/1 (A2A client)"
MAX_CARD_BYTES = 256 * 1024
MAX_TEXT_CHARS = 200_000  # of a result gathered from an agent's artifacts
MAX_FILES = 20

# A2A task states by their protocol names (docs/a2a.md, "States").
STATE_NAMES = {
    TaskState.TASK_STATE_SUBMITTED: "submitted",
    TaskState.TASK_STATE_WORKING: "working",
    TaskState.TASK_STATE_INPUT_REQUIRED: "input-required",
    TaskState.TASK_STATE_AUTH_REQUIRED: "auth-required",
    TaskState.TASK_STATE_COMPLETED: "completed",
    TaskState.TASK_STATE_FAILED: "failed",
    TaskState.TASK_STATE_CANCELED: "canceled",
    TaskState.TASK_STATE_REJECTED: "rejected",
}
# A stream is followed until one of these: the job changes state in Agora.
STOPS = frozenset(
    {"input-required", "auth-required", "completed", "failed", "canceled", "rejected"}
)


class A2aError(Exception):
    """A failed call to an A2A agent; ``message`` is safe to show (no address, no step)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Card:
    """An Agent Card as Agora keeps it: the card (A2A 1.0 JSON, ``as_json``) and its parse."""

    url: str
    card: AgentCard

    @property
    def as_json(self) -> dict[str, Any]:
        stored: dict[str, Any] = MessageToDict(self.card)
        return stored

    @property
    def streaming(self) -> bool:
        return bool(self.card.capabilities.streaming)

    @property
    def security_schemes(self) -> list[str]:
        return sorted(self.card.security_schemes.keys())

    def credential_headers(self, credential: str | None) -> dict[str, str]:
        """The header a stored credential travels in: an API-key scheme's header when the card
        declares one in a header, else ``Authorization: Bearer``."""
        if not credential:
            return {}
        for scheme in self.card.security_schemes.values():
            if scheme.HasField("api_key_security_scheme"):
                api_key = scheme.api_key_security_scheme
                if api_key.location.lower() == "header" and api_key.name:
                    return {api_key.name: credential}
        return {"Authorization": f"Bearer {credential}"}


def card_from_json(url: str, stored: Mapping[str, Any]) -> Card:
    """A card kept by ``Card.as_json`` read back."""
    return Card(url, ParseDict(dict(stored), AgentCard(), ignore_unknown_fields=True))


@dataclass
class Outcome:
    """Where a task stands after one exchange with the agent."""

    task_id: str | None = None
    context_id: str | None = None
    state: str = "submitted"
    message: str | None = None  # the agent's status message (its question, its reason)
    texts: list[str] = field(default_factory=list)  # text parts of the artifacts
    files: list[tuple[str, str]] = field(default_factory=list)  # (url, name) of file parts
    reply: str | None = None  # a direct Message answer (no task)

    @property
    def result(self) -> str:
        """The job's result: the artifacts' text, then a Markdown link per file part (the
        output collector of ``files`` fetches them)."""
        parts = list(self.texts)
        if self.reply:
            parts.append(self.reply)
        parts += [f"[{name}]({url})" for url, name in self.files]
        return "\n\n".join(parts)[:MAX_TEXT_CHARS]


def _text_of(message: Message) -> str | None:
    texts = [p.text for p in message.parts if p.HasField("text")]
    return "\n".join(texts)[:MAX_TEXT_CHARS] if texts else None


def _take_parts(outcome: Outcome, parts: Any) -> None:
    for part in parts:
        if part.HasField("text"):
            outcome.texts.append(part.text)
        elif part.HasField("url") and len(outcome.files) < MAX_FILES:
            url = part.url
            if url.startswith(("http://", "https://")):
                outcome.files.append((url, part.filename or url.rsplit("/", 1)[-1] or "file"))
        # raw (inline bytes) and data parts: not kept (docs/a2a.md, "Not supported yet").


def _take_task(outcome: Outcome, task: Task) -> None:
    outcome.task_id, outcome.context_id = task.id or outcome.task_id, task.context_id or None
    outcome.state = STATE_NAMES.get(task.status.state, "unknown")
    if task.status.HasField("message"):
        outcome.message = _text_of(task.status.message)
    outcome.texts, outcome.files = [], []
    for artifact in task.artifacts:
        _take_parts(outcome, artifact.parts)


def take_event(outcome: Outcome, event: StreamResponse) -> None:
    """Fold one event of a stream (or a whole answer) into ``outcome``."""
    if event.HasField("task"):
        _take_task(outcome, event.task)
    elif event.HasField("status_update"):
        update = event.status_update
        outcome.task_id = update.task_id or outcome.task_id
        outcome.context_id = update.context_id or outcome.context_id
        outcome.state = STATE_NAMES.get(update.status.state, "unknown")
        if update.status.HasField("message"):
            outcome.message = _text_of(update.status.message)
    elif event.HasField("artifact_update"):
        update = event.artifact_update
        outcome.task_id = update.task_id or outcome.task_id
        _take_parts(outcome, update.artifact.parts)
    elif event.HasField("message"):
        outcome.reply = _text_of(event.message)
        outcome.context_id = event.message.context_id or outcome.context_id
        outcome.state = "completed"  # a Message answer ends the exchange (A2A §"Message")


class A2aClient:
    """Agora's A2A client; ``policy`` is the outbound guard's, ``timeout`` bounds each call and
    each followed stream."""

    def __init__(
        self,
        *,
        timeout: float = 10.0,
        policy: OutboundPolicy | None = None,
        local: Mapping[str, Any] | None = None,
    ) -> None:
        self.timeout = timeout
        self._guarded = guarded_client(
            policy or OutboundPolicy(),
            timeout=timeout,
            connect_timeout=5.0,
            headers={"user-agent": USER_AGENT},
            local=local,
        )

    async def aclose(self) -> None:
        await self._guarded.aclose()

    async def read_card(self, url: str) -> Card:
        """GET the Agent Card at ``url`` (bounded) and parse it with the SDK's parser."""
        try:
            answer = await send_limited(
                self._guarded,
                "GET",
                url,
                max_bytes=MAX_CARD_BYTES,
                total_seconds=self.timeout,
                headers={"accept": "application/json"},
            )
        except OutboundRefused as exc:
            raise A2aError("the Agent Card URL is refused by policy") from exc
        except OutboundTimeout as exc:
            raise A2aError("the Agent Card did not come in time") from exc
        except OutboundTooLarge as exc:
            raise A2aError(f"the Agent Card is larger than {MAX_CARD_BYTES} bytes") from exc
        except OutboundError as exc:
            raise A2aError("the Agent Card URL is unreachable") from exc
        if answer.status_code != 200:
            raise A2aError(f"the Agent Card URL answered HTTP {answer.status_code}")
        try:
            data = json.loads(answer.body)
            card = parse_agent_card(data)
        except (ValueError, ParseError, TypeError) as exc:
            raise A2aError(f"the Agent Card is not a valid card: {str(exc)[:200]}") from exc
        if not card.name:
            raise A2aError("the Agent Card has no name")
        if not any(
            i.protocol_binding.upper() == "JSONRPC" and i.url for i in card.supported_interfaces
        ):
            raise A2aError("the Agent Card names no JSON-RPC interface (the one Agora speaks)")
        return Card(url, card)

    async def _stream(
        self,
        card: Card,
        credential: str | None,
        calls: Any,
        *,
        outcome: Outcome | None = None,
        wait: bool = False,
    ) -> Outcome:
        """Run ``calls(sdk_client)`` (an async iterator of events) and fold its events until a
        state that changes the job, or until ``timeout`` (then the task is still running).
        ``wait``: a card that does not stream gets a blocking ``message/send`` (the answer to an
        input request: the task's state when it arrives would be stale), else one that returns
        at once (then ``tasks/get``)."""
        outcome = outcome or Outcome()
        known = outcome.task_id is not None
        async with bridged_client(
            self._guarded, headers=card.credential_headers(credential), timeout=self.timeout
        ) as http:
            config = ClientConfig(
                streaming=card.streaming,
                polling=not card.streaming and not wait,
                httpx_client=http,
            )
            try:
                sdk = ClientFactory(config).create(card.card)
            except ValueError as exc:
                raise A2aError(f"no usable interface in the Agent Card: {exc}") from exc
            events: AsyncIterator[StreamResponse] = calls(sdk)
            try:
                async with asyncio.timeout(self.timeout):
                    async for event in events:
                        take_event(outcome, event)
                        # An answer's stream opens with the task as it was (still asking).
                        stale = known and event.HasField("task") and card.streaming
                        if outcome.state in STOPS and not stale:
                            break
            except TimeoutError:
                if outcome.task_id is None:
                    raise A2aError("the agent did not answer in time") from None
                if outcome.state in STOPS:
                    outcome.state = "working"
            except (A2AError, httpx.HTTPError, ValueError, ParseError) as exc:
                raise A2aError(_safe(exc)) from exc
            finally:
                await _close(events)
        return outcome

    async def send(
        self,
        card: Card,
        credential: str | None,
        *,
        text: str,
        skill: str | None = None,
        message_id: str | None = None,
        task_id: str | None = None,
        context_id: str | None = None,
    ) -> Outcome:
        """``message/send`` (or ``message/stream``): a user message with one text part; the
        chosen skill in the message's metadata (``skill``); ``task_id``/``context_id`` continue
        a task (the answer to ``input-required``)."""
        message = Message(
            message_id=message_id or uuid.uuid4().hex,
            role=Role.ROLE_USER,
            parts=[Part(text=text)],
            task_id=task_id or "",
            context_id=context_id or "",
        )
        if skill:
            message.metadata.update({"skill": skill})
        request = SendMessageRequest(message=message)
        known = (
            Outcome(task_id=task_id, context_id=context_id, state="working") if task_id else None
        )
        return await self._stream(
            card,
            credential,
            lambda sdk: sdk.send_message(request),
            outcome=known,
            wait=task_id is not None,
        )

    async def follow(self, card: Card, credential: str | None, task_id: str) -> Outcome:
        """Where the task stands: followed by ``tasks/resubscribe`` when the card streams (until
        a state that changes the job, or the timeout), else one ``tasks/get``."""
        if card.streaming:
            try:
                return await self._stream(
                    card,
                    credential,
                    lambda sdk: sdk.subscribe(SubscribeToTaskRequest(id=task_id)),
                )
            except A2aError:
                pass  # a task already final cannot be subscribed to: ask for it
        return await self._stream(card, credential, lambda sdk: _one(sdk, task_id))

    async def cancel(self, card: Card, credential: str | None, task_id: str) -> Outcome:
        """``tasks/cancel``."""
        return await self._stream(card, credential, lambda sdk: _cancelled(sdk, task_id))


async def _one(sdk: Any, task_id: str) -> AsyncIterator[StreamResponse]:
    task = await sdk.get_task(GetTaskRequest(id=task_id))
    yield StreamResponse(task=task)


async def _cancelled(sdk: Any, task_id: str) -> AsyncIterator[StreamResponse]:
    task = await sdk.cancel_task(CancelTaskRequest(id=task_id))
    yield StreamResponse(task=task)


async def _close(events: Any) -> None:
    close = getattr(events, "aclose", None)
    if close is not None:
        with contextlib.suppress(Exception):  # a broken stream has nothing left to close
            await close()


def _safe(exc: Exception) -> str:
    """An error's text without addresses: the SDK's own message for its errors (JSON-RPC
    error text from the agent), else "unreachable"."""
    if isinstance(exc, httpx.TimeoutException):
        return "no answer in time"
    if isinstance(exc, httpx.HTTPError):
        return "unreachable"
    return str(exc)[:300] or type(exc).__name__


def client_for(
    timeout: float, outbound_allow: str, *, local: Mapping[str, Any] | None = None
) -> A2aClient:
    """The process's A2A client: the dispatch timeout and the ``AGORA_OUTBOUND_ALLOW`` policy."""
    return A2aClient(
        timeout=timeout, policy=OutboundPolicy.from_setting(outbound_allow), local=local
    )


def input_schema(card: Card) -> dict[str, Any]:
    """The hire form of an A2A listing (MIP-003's input-schema shape, so the web form, the API's
    validation and MCP need nothing new): the message ``text``, and the card's skills as an
    optional ``skill`` choice (one listing per card; docs/a2a.md, "Listing")."""
    fields: list[dict[str, Any]] = [
        {
            "id": "text",
            "type": "textarea",
            "name": "Message",
            "data": {"description": f"What you ask {card.card.name[:100]}"},
            "validations": [
                {"validation": "min", "value": "1"},
                {"validation": "max", "value": "20000"},
            ],
        }
    ]
    skills = [s for s in card.card.skills if s.id][:50]
    if skills:
        fields.append(
            {
                "id": "skill",
                "type": "option",
                "name": "Skill",
                "data": {
                    "values": [s.id for s in skills],
                    "description": "; ".join(
                        f"{s.id}: {s.name or s.description}"[:200] for s in skills
                    ),
                },
                "validations": [{"validation": "optional", "value": "true"}],
            }
        )
    return {"input_data": fields}


def app_client(request: Request) -> A2aClient:
    """The app's one A2A client (``app.state.a2a_client``, built in ``create_app``)."""
    client: A2aClient = request.app.state.a2a_client
    return client
