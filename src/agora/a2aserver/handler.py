"""The A2A request handler: ``a2a-sdk``'s ``RequestHandler`` over Agora's job use cases.

The SDK's JSON-RPC dispatcher parses and answers; each method here opens the request lifecycle's
``Unit`` (a write unit to hire, answer or cancel; a read unit to look), authenticates the key the
route's check let through (an OAuth access token, or an API key), and calls the same use case as
REST, the web and MCP (``jobs.service.create_job`` = ``jobs.admission.create_job``,
``provide_inputs``, ``cancel_job``, ``get_job``). Agents are never called here: the dispatcher
does that, as for every job. A task of another person, or of another agent, is not found."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from a2a.server.context import ServerCallContext
from a2a.server.events.event_queue import Event
from a2a.server.request_handlers.request_handler import RequestHandler
from a2a.types.a2a_pb2 import (
    AgentCard,
    CancelTaskRequest,
    DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest,
    GetTaskRequest,
    ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse,
    ListTasksRequest,
    ListTasksResponse,
    Message,
    SendMessageRequest,
    SubscribeToTaskRequest,
    Task,
    TaskPushNotificationConfig,
)
from a2a.utils.errors import (
    A2AError,
    ExtendedAgentCardNotConfiguredError,
    InternalError,
    InvalidParamsError,
    InvalidRequestError,
    PushNotificationNotSupportedError,
    TaskNotCancelableError,
    TaskNotFoundError,
    UnsupportedOperationError,
)
from sqlalchemy.ext.asyncio import AsyncSession

from agora.a2aserver import tasks
from agora.agents import service as agents_service
from agora.auth import service as auth
from agora.auth.principal import Permission, Principal
from agora.jobs import service as jobs
from agora.jobs.schemas import JobCreate, JobInputs
from agora.jobs.signals import JOB_EVENTS
from agora.kit import background
from agora.kit.db import Database
from agora.kit.errors import AgoraError, BadRequest, Conflict, NotFound
from agora.kit.replica import route_reads
from agora.kit.unavailable import database_unavailable
from agora.kit.units import Mode, Unit
from agora.models.statuses import JobStatus
from agora.settings import Settings

# A stream (message/stream, tasks/resubscribe) or a blocking message/send follows the job this
# long at most: it reads the job when the job's events topic wakes it (any process's writes, as
# the job streams of the web app: jobs.signals.JOB_EVENTS) and at the latest every POLL_MAX
# seconds; then it ends with the task as it stands (the client resubscribes or polls).
FOLLOW_SECONDS = 300.0
POLL_FIRST, POLL_MAX = 0.1, 2.0
# Streams held open at once, per key and per process.
MAX_STREAMS_PER_KEY = 4
MAX_STREAMS = 64
_STREAMS: dict[str, int] = {}
READ, JOBS_WRITE = Permission.READ, Permission.JOBS_WRITE


@dataclass(frozen=True)
class Caller:
    """What the route's check and the URL give a call (ServerCallContext.state)."""

    key: str
    agent_id: str
    workspace: str | None
    organization: str | None

    @classmethod
    def of(cls, context: ServerCallContext) -> Caller:
        state = context.state
        return cls(
            key=str(state.get("agora_key") or ""),
            agent_id=str(state.get("agora_agent_id") or ""),
            workspace=state.get("agora_workspace"),
            organization=state.get("agora_organization"),
        )


def refusal(exc: AgoraError) -> A2AError:
    """An Agora refusal as the A2A error a client understands; the status and words kept."""
    details = "; ".join(f"{d.field}: {d.reason}" for d in exc.details)
    text = f"{exc.status_code} {exc.error_text}: {exc.message}"
    if details and details not in exc.message:
        text = f"{text} ({details})"
    data: dict[str, Any] = {"status": str(exc.status_code)}
    if isinstance(exc, NotFound):
        return TaskNotFoundError(message=text, data=data)
    if isinstance(exc, BadRequest):
        # the SDK's convention: a google.rpc.BadRequest detail with a violation per field
        data["errors"] = [{"field": d.field, "message": d.reason} for d in exc.details]
        return InvalidParamsError(message=text, data=data)
    return InvalidRequestError(message=text, data=data)


def _idempotency_key(message: Message) -> str:
    """A retried message (the same ``messageId``) replays its job instead of hiring twice."""
    return "a2a:" + hashlib.sha256(message.message_id.encode()).hexdigest()[:40]


class AgoraRequestHandler(RequestHandler):
    """``listen`` starts the process's listener of other processes' wake-ups (the app's job
    streams' ``start``), once, before the first followed task."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        listen: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.db, self.settings, self.listen = db, settings, listen

    @asynccontextmanager
    async def _call(
        self, caller: Caller, permission: Permission, declared: Mode
    ) -> AsyncIterator[tuple[AsyncSession, Principal]]:
        """One call's unit in its mode (committed only when the block ends normally) and the
        authenticated caller holding ``permission``; after-commit hooks run before the answer."""
        unit = Unit(self.db, declared)
        try:
            session = await unit.session()
            principal = await auth.authenticate(
                session,
                caller.key or None,
                workspace_header=caller.workspace,
                organization_slug=caller.organization,
            )
            principal.require(permission)
            if declared is Mode.READ:
                await route_reads(session, principal.user_id)
            yield session, principal
            await unit.finish(None)
        except BaseException as exc:
            await unit.finish(exc)
            if isinstance(exc, AgoraError):
                raise refusal(exc) from exc
            if isinstance(exc, Exception) and database_unavailable(exc):
                raise InternalError(message="503 the service is unavailable; retry") from exc
            raise
        for hook, committed in unit.after:
            await hook(committed)

    async def _job(
        self, session: AsyncSession, principal: Principal, caller: Caller, task_id: str
    ) -> jobs.ShownJob:
        """The caller's job behind ``task_id`` for this agent (another's, or another agent's:
        not found)."""
        job = await jobs.get_job(session, principal, task_id, settings=self.settings)
        if str(job.agent_id) != caller.agent_id:
            raise NotFound(f"Task {task_id} not found")
        return job

    async def _task(self, caller: Caller, task_id: str) -> tuple[str, Task]:
        """The task as it stands (a completed one with the files Agora stored of its result)."""
        async with self._call(caller, READ, Mode.READ) as (session, principal):
            job = await self._job(session, principal, caller, task_id)
            files = []
            if job.status == JobStatus.COMPLETED:
                files = await jobs.job_files(session, principal, task_id, settings=self.settings)
            return str(job.status), tasks.task_of(job, files)

    async def _send(self, params: SendMessageRequest, caller: Caller) -> tuple[str, Task]:
        """Hire (a message without ``taskId``), or answer the task's input request (the next
        message of an INPUT_REQUIRED task)."""
        message = params.message
        if not message.message_id:
            raise InvalidParamsError(message="message.messageId is required")
        if message.task_id:
            return await self._answer(message, caller)
        async with self._call(caller, JOBS_WRITE, Mode.WRITE) as (session, principal):
            try:
                agent = await agents_service.get_for_job(session, caller.agent_id)
            except NotFound as exc:
                raise InvalidParamsError(message=f"404 Not Found: {exc.message}") from exc
            data = tasks.input_of(message, agent.input_schema)
            created = await jobs.create_job(
                session,
                principal,
                caller.agent_id,
                JobCreate(inputData=data),
                settings=self.settings,
                idempotency_key=_idempotency_key(message),
            )
            return str(created.job.status), tasks.task_of(created.job)

    async def _answer(self, message: Message, caller: Caller) -> tuple[str, Task]:
        async with self._call(caller, JOBS_WRITE, Mode.WRITE) as (session, principal):
            job = await self._job(session, principal, caller, message.task_id)
            if job.status != JobStatus.INPUT_REQUIRED:
                raise InvalidRequestError(
                    message=f"task {job.id} is {tasks.state_name(job.status)} and takes "
                    "no message (only an input-required task does; send a message without "
                    "taskId to start a new task)"
                )
            request = job.input_request or {}
            data = tasks.input_of(message, request.get("inputSchema"))
            try:
                answered = await jobs.provide_inputs(
                    session,
                    principal,
                    str(job.id),
                    JobInputs(inputData=data, statusId=request.get("statusId")),
                    settings=self.settings,
                )
            except Conflict as exc:
                raise InvalidRequestError(message=f"409 Conflict: {exc.message}") from exc
            return str(answered.status), tasks.task_of(answered)

    async def _changes(
        self, caller: Caller, task_id: str, status: str, seconds: float
    ) -> AsyncIterator[tuple[str, Task]]:
        """The task each time its job's status changes, until a settled status or ``seconds``:
        read when the job's events wake it, else with back-off up to ``POLL_MAX``; no
        transaction is held between reads."""
        if status in tasks.SETTLED:
            return
        if self.listen is not None:
            await self.listen()
        woken = asyncio.Event()
        unsubscribe = background.subscribe(JOB_EVENTS, woken.set, key=task_id)
        deadline = time.monotonic() + seconds
        poll = POLL_FIRST
        try:
            while time.monotonic() < deadline:
                with contextlib.suppress(TimeoutError):
                    left = max(0.0, deadline - time.monotonic())
                    await asyncio.wait_for(woken.wait(), timeout=min(poll, left))
                woken.clear()
                poll = min(poll * 1.5, POLL_MAX)
                now, task = await self._task(caller, task_id)
                if now != status:
                    status = now
                    yield now, task
                    if now in tasks.SETTLED:
                        return
        finally:
            unsubscribe()

    @asynccontextmanager
    async def _stream_slot(self, caller: Caller) -> AsyncIterator[None]:
        holder = hashlib.sha256(caller.key.encode()).hexdigest()
        if _STREAMS.get(holder, 0) >= MAX_STREAMS_PER_KEY or sum(_STREAMS.values()) >= MAX_STREAMS:
            raise InvalidRequestError(
                message=f"429 Too Many Requests: at most {MAX_STREAMS_PER_KEY} open streams "
                "per key; poll with tasks/get or retry later"
            )
        _STREAMS[holder] = _STREAMS.get(holder, 0) + 1
        try:
            yield
        finally:
            _STREAMS[holder] -= 1
            if _STREAMS[holder] <= 0:
                del _STREAMS[holder]

    async def _follow(self, caller: Caller, status: str, task: Task) -> AsyncGenerator[Event, None]:
        """A stream's events after its first: a status update per change, the result's
        artifact before ``completed``."""
        async with self._stream_slot(caller):
            async for _now, later in self._changes(caller, task.id, status, FOLLOW_SECONDS):
                if later.artifacts:
                    yield tasks.artifact_event(later)
                yield tasks.status_event(later)

    # ---- the A2A methods -----------------------------------------------------------------

    async def on_message_send(
        self, params: SendMessageRequest, context: ServerCallContext
    ) -> Task | Message:
        """``message/send``: the task at once with ``returnImmediately``, else once the job
        needs the person or has ended (at most ``FOLLOW_SECONDS``)."""
        caller = Caller.of(context)
        status, task = await self._send(params, caller)
        if params.configuration.return_immediately:
            return task
        last = task
        async with self._stream_slot(caller):
            async for _now, later in self._changes(caller, task.id, status, FOLLOW_SECONDS):
                last = later
        return last

    async def on_message_send_stream(
        self, params: SendMessageRequest, context: ServerCallContext
    ) -> AsyncGenerator[Event, None]:
        """``message/stream``: the task, then its changes until the person's turn or the end."""
        caller = Caller.of(context)
        status, task = await self._send(params, caller)
        yield task
        async for event in self._follow(caller, status, task):
            yield event

    async def on_subscribe_to_task(
        self, params: SubscribeToTaskRequest, context: ServerCallContext
    ) -> AsyncGenerator[Event, None]:
        """``tasks/resubscribe``: the task as it stands, then its changes."""
        caller = Caller.of(context)
        status, task = await self._task(caller, params.id)
        yield task
        async for event in self._follow(caller, status, task):
            yield event

    async def on_get_task(self, params: GetTaskRequest, context: ServerCallContext) -> Task | None:
        return (await self._task(Caller.of(context), params.id))[1]

    async def on_cancel_task(
        self, params: CancelTaskRequest, context: ServerCallContext
    ) -> Task | None:
        """``tasks/cancel``: the job is cancelled (its held credits refunded) as by the person
        from any door; an A2A agent behind it hears ``tasks/cancel`` from the dispatcher."""
        caller = Caller.of(context)
        async with self._call(caller, JOBS_WRITE, Mode.WRITE) as (session, principal):
            job = await self._job(session, principal, caller, params.id)
            try:
                cancelled = await jobs.cancel_job(
                    session, principal, str(job.id), settings=self.settings
                )
            except Conflict as exc:
                raise TaskNotCancelableError(message=f"409 Conflict: {exc.message}") from exc
            return tasks.task_of(cancelled)

    async def on_list_tasks(
        self, params: ListTasksRequest, context: ServerCallContext
    ) -> ListTasksResponse:
        raise UnsupportedOperationError(message="tasks/list is not supported yet (docs/a2a.md)")

    async def on_create_task_push_notification_config(
        self, params: TaskPushNotificationConfig, context: ServerCallContext
    ) -> TaskPushNotificationConfig:
        raise PushNotificationNotSupportedError

    async def on_get_task_push_notification_config(
        self, params: GetTaskPushNotificationConfigRequest, context: ServerCallContext
    ) -> TaskPushNotificationConfig:
        raise PushNotificationNotSupportedError

    async def on_list_task_push_notification_configs(
        self, params: ListTaskPushNotificationConfigsRequest, context: ServerCallContext
    ) -> ListTaskPushNotificationConfigsResponse:
        raise PushNotificationNotSupportedError

    async def on_delete_task_push_notification_config(
        self, params: DeleteTaskPushNotificationConfigRequest, context: ServerCallContext
    ) -> None:
        raise PushNotificationNotSupportedError

    async def on_get_extended_agent_card(
        self, params: GetExtendedAgentCardRequest, context: ServerCallContext
    ) -> AgentCard:
        raise ExtendedAgentCardNotConfiguredError


SECRET_HEADERS = frozenset({"authorization", "x-api-key", "cookie"})


def context_state(request: Any, key: str | None) -> dict[str, Any]:
    """What a call needs of its HTTP request: the key (apart), the agent of the URL, the
    workspace headers, and the other headers for the SDK (``A2A-Version``)."""
    return {
        "headers": {k: v for k, v in request.headers.items() if k.lower() not in SECRET_HEADERS},
        "agora_key": key,
        "agora_agent_id": str(request.path_params.get("agent_id", ""))[:100],
        "agora_workspace": request.headers.get("x-workspace-id"),
        "agora_organization": request.headers.get("x-organization-slug"),
    }
