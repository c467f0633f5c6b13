"""A small MIP-003 server: the five endpoints over an in-memory, bounded job store.

An agent is a ``Behaviour``: its input schema and a ``step`` function called on each /status poll
that decides what the job reports next. Faulty behaviours (500s, garbage, hangs, forgetting jobs)
exist for fault tests; they are real HTTP answers, not mocks.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

MAX_JOBS = 10_000
T = TypeVar("T")


@dataclass
class AgentJob:
    id: str
    identifier: str
    input_data: dict[str, Any]
    created: float = field(default_factory=time.time)
    polls: int = 0
    status: str = "running"
    result: str | None = None
    status_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    awaiting_schema: dict[str, Any] | None = None
    message: str | None = None  # the /status ``message`` (MIP-003), e.g. what to approve
    provided: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Step:
    status: str  # running | awaiting_input | completed | failed
    result: str | None = None
    input_schema: dict[str, Any] | None = None
    message: str | None = None  # sent with the status (MIP-003 ``message``)


@dataclass
class Behaviour:
    name: str
    input_schema: dict[str, Any]
    step: Callable[[AgentJob], Step]
    # Fault injection: which endpoint misbehaves and how.
    fault: str | None = (
        None  # "status_500" | "status_garbage" | "status_hang" | "vanish" | "start_500"
    )
    hang_seconds: float = 30.0
    reject_answers: int = 0  # refuse this many /provide_input answers (400) before accepting
    started: list[str] = field(default_factory=list)  # job ids, in /start_job order (tests read it)
    start_times: list[float] = field(default_factory=list)


def advance(behaviour: Behaviour, job: AgentJob) -> None:
    """One poll of a job neither finished nor waiting for input: the next step."""
    job.polls += 1
    step = behaviour.step(job)
    job.status, job.result = step.status, step.result
    job.awaiting_schema = step.input_schema if step.status == "awaiting_input" else None
    job.message = step.message


def status_payload(job: AgentJob, status_id: str) -> dict[str, Any]:
    """The MIP-003 /status answer for a job."""
    payload: dict[str, Any] = {"id": status_id, "status": job.status}
    if job.status == "awaiting_input" and job.awaiting_schema is not None:
        payload["input_schema"] = job.awaiting_schema
    if job.result is not None:
        payload["result"] = job.result
    if job.message is not None:
        payload["message"] = job.message
    return payload


async def read_start(request: Request) -> tuple[str, dict[str, Any]] | Response:
    """A /start_job body: (identifier_from_purchaser, input_data), or the 400 answer."""
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"detail": "body must be JSON"}, status_code=400)
    identifier = body.get("identifier_from_purchaser") if isinstance(body, dict) else None
    data = body.get("input_data") if isinstance(body, dict) else None
    if not isinstance(identifier, str) or not isinstance(data, dict):
        return JSONResponse(
            {"detail": "identifier_from_purchaser and input_data required"}, status_code=400
        )
    return identifier, data


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: RFC 8785 for the values agents exchange here."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def input_hash(identifier: str, input_data: dict[str, Any]) -> str:
    return hashlib.sha256(f"{identifier};{canonical_json(input_data)}".encode()).hexdigest()


class JobStore(Generic[T]):
    """An agent's jobs (or sales) by id, and by ``identifier_from_purchaser`` (a retried start
    finds its job); beyond ``MAX_JOBS`` the oldest are forgotten."""

    def __init__(self, identifier_of: Callable[[T], str]) -> None:
        self.items: OrderedDict[str, T] = OrderedDict()
        self.by_identifier: dict[str, str] = {}
        self._identifier_of = identifier_of

    def get(self, item_id: str) -> T | None:
        return self.items.get(item_id)

    def of_identifier(self, identifier: str) -> T | None:
        found = self.by_identifier.get(identifier)
        return self.items.get(found) if found else None

    def add(self, item_id: str, item: T) -> None:
        self.items[item_id] = item
        self.by_identifier[self._identifier_of(item)] = item_id
        while len(self.items) > MAX_JOBS:
            _, old = self.items.popitem(last=False)
            self.by_identifier.pop(self._identifier_of(old), None)


JOB_NOT_FOUND = {"detail": "job not found"}


async def read_answer(request: Request, store: JobStore[T]) -> tuple[T, Any] | Response:
    """A /provide_input body: the job it answers and its ``input_data``, or the 400 (not JSON)
    or 404 (no such job) answer."""
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"detail": "body must be JSON"}, status_code=400)
    found = store.get(str(body.get("job_id", ""))) if isinstance(body, dict) else None
    if found is None:
        return JSONResponse(JOB_NOT_FOUND, status_code=404)
    return found, body.get("input_data")


class AgentServer:
    """One agent's five MIP-003 endpoints (and ``/demo``) over its job store."""

    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour
        self.jobs: JobStore[AgentJob] = JobStore(lambda job: job.identifier)

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/availability", self.availability),
                Route("/input_schema", self.input_schema),
                Route("/start_job", self.start_job, methods=["POST"]),
                Route("/status", self.status),
                Route("/provide_input", self.provide_input, methods=["POST"]),
                Route("/demo", self.demo),
            ]
        )

    async def availability(self, _request: Request) -> Response:
        message = f"{self.behaviour.name} is up"
        return JSONResponse({"status": "available", "type": "masumi-agent", "message": message})

    async def input_schema(self, _request: Request) -> Response:
        return JSONResponse(self.behaviour.input_schema)

    async def start_job(self, request: Request) -> Response:
        behaviour = self.behaviour
        if behaviour.fault == "start_500":
            return JSONResponse({"detail": "cannot start"}, status_code=500)
        started = await read_start(request)
        if isinstance(started, Response):
            return started
        identifier, data = started
        job = self.jobs.of_identifier(identifier)
        if job is None:  # a retried start with the same identifier returns the same job
            job = AgentJob(id=str(uuid.uuid4()), identifier=identifier, input_data=data)
            self.jobs.add(job.id, job)
            behaviour.started.append(job.id)
            behaviour.start_times.append(time.monotonic())
        now = int(time.time() * 1000)
        return JSONResponse(
            {
                "id": job.id,
                "blockchainIdentifier": f"demo-{job.id}",
                "payByTime": now + 600_000,
                "submitResultTime": now + 3_600_000,
                "unlockTime": now + 7_200_000,
                "externalDisputeUnlockTime": now + 10_800_000,
                "agentIdentifier": f"demo-{behaviour.name}",
                "sellerVKey": "demo",
                "identifierFromPurchaser": identifier,
                "input_hash": input_hash(identifier, data),
            }
        )

    async def status(self, request: Request) -> Response:
        behaviour = self.behaviour
        job = self.jobs.get(request.query_params.get("job_id", ""))
        if job is None or behaviour.fault == "vanish":
            return JSONResponse(JOB_NOT_FOUND, status_code=404)
        if behaviour.fault == "status_500":
            return JSONResponse({"detail": "internal error"}, status_code=500)
        if behaviour.fault == "status_garbage":
            return PlainTextResponse("<html>definitely not json", status_code=200)
        if behaviour.fault == "status_hang":
            await asyncio.sleep(behaviour.hang_seconds)
        if job.status not in ("completed", "failed") and job.awaiting_schema is None:
            advance(behaviour, job)
            job.status_id = uuid.uuid4().hex
        return JSONResponse(status_payload(job, job.status_id))

    async def provide_input(self, request: Request) -> Response:
        answer = await read_answer(request, self.jobs)
        if isinstance(answer, Response):
            return answer
        job, data = answer
        if job.status != "awaiting_input":
            return JSONResponse({"detail": "job is not awaiting input"}, status_code=400)
        if not isinstance(data, dict):
            return JSONResponse({"detail": "input_data must be an object"}, status_code=400)
        if self.behaviour.reject_answers > 0:
            self.behaviour.reject_answers -= 1
            return JSONResponse({"detail": "this answer is not acceptable"}, status_code=400)
        job.provided.append(data)
        job.awaiting_schema = job.message = None
        job.status = "running"
        return JSONResponse({"input_hash": input_hash(job.identifier, data), "signature": "demo"})

    async def demo(self, _request: Request) -> Response:
        return JSONResponse({"input": {}, "output": {"result": f"{self.behaviour.name} demo"}})


def build_agent_app(behaviour: Behaviour) -> Starlette:
    return AgentServer(behaviour).app()
