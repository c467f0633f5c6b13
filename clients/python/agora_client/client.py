"""The hand-written layer over the generated client: :class:`Client` and :class:`AsyncClient`.

Every call goes through the generated client's ``httpx`` client (``client.lowlevel``, an
``AuthenticatedClient``: use it for any operation this layer does not wrap), so credentials,
``Idempotency-Key`` on creates and ``Retry-After`` handling apply to both.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

import httpx

from agora_client._http import (
    AsyncRetryingTransport,
    Credentials,
    RetryingTransport,
    RetryPolicy,
    Tokens,
)
from agora_client._pages import SETTLED_STATUSES, EventParser, finishes, page_of
from agora_client.errors import AgoraError, NotFound, WaitTimeout, error_from
from agora_client.generated.api.agents import get_agent
from agora_client.generated.api.jobs import create_job, get_job
from agora_client.generated.client import AuthenticatedClient
from agora_client.generated.models import (
    AgentOut,
    CoworkerOut,
    FileOut,
    JobCreate,
    JobOut,
    NotificationOut,
    ScheduleOut,
    TaskOut,
)
from agora_client.generated.types import Response

__all__ = ["AsyncClient", "Client"]

VERSION = "0.1.0"
DEFAULT_WAIT_SECONDS = 600.0
LOG = logging.getLogger("agora_client")
MAX_PAGES = 100_000  # a guard, not a limit anyone should meet: 10 million items at 100 a page


T = TypeVar("T")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _params(filters: Mapping[str, Any], limit: int) -> dict[str, Any]:
    params = {_camel(k): v for k, v in filters.items() if v is not None}
    params["limit"] = limit
    return params


def _id(thing: Any) -> str:
    """An id from a string, a UUID or a generated model with an ``id``."""
    return str(getattr(thing, "id", thing))


def _job_body(input: Mapping[str, Any], fields: Mapping[str, Any]) -> JobCreate:
    body = {_camel(k): v for k, v in fields.items() if v is not None}
    body["inputData"] = dict(input)
    return JobCreate.from_dict(body)


def _answer(response: Response[Any]) -> Any:
    """The generated call's parsed answer, or the typed error."""
    status = int(response.status_code)
    if status >= 400:
        raise error_from(status, httpx.Headers(dict(response.headers)), response.content)
    return response.parsed


def _json(response: httpx.Response) -> Any:
    """The answer's JSON (its text when it is not JSON: a CSV export), or the typed error."""
    if response.status_code >= 400:
        raise error_from(response.status_code, response.headers, response.content)
    if not response.content:
        return None
    if "json" not in response.headers.get("content-type", "application/json"):
        return response.text
    return response.json()


def _settled(job: JobOut) -> bool:
    return str(job.status).upper() in SETTLED_STATUSES


def _lowlevel(
    base_url: str,
    credentials: Credentials,
    workspace_id: str | None,
    timeout: float,
    transport: httpx.BaseTransport | httpx.AsyncBaseTransport,
) -> AuthenticatedClient:
    headers = {"User-Agent": f"agora-client/{VERSION}"}
    if workspace_id:
        headers["X-Workspace-Id"] = workspace_id
    return AuthenticatedClient(
        base_url=base_url.rstrip("/"),
        token=credentials.api_key
        or (credentials.tokens.access_token if credentials.tokens else ""),
        headers=headers,
        timeout=httpx.Timeout(timeout),
        raise_on_unexpected_status=False,
        httpx_args={"auth": credentials, "transport": transport},
    )


# --- sync ---------------------------------------------------------------------------------------


class Listing(Generic[T]):
    """One cursor-paged list: ``iter(**filters)`` walks every page (filters in snake_case)."""

    def __init__(self, client: Client, path: str, parse: Callable[[dict[str, Any]], T]) -> None:
        self._client = client
        self._path = path
        self._parse = parse

    def iter(self, *, page_size: int = 100, **filters: Any) -> Iterator[T]:
        for item in self._client.iter(self._path, page_size=page_size, **filters):
            yield self._parse(item)


class Jobs(Listing[JobOut]):
    def create(
        self, agent: Any, input: Mapping[str, Any], *, idempotency_key: str | None = None,
        **fields: Any,
    ) -> JobOut:  # fmt: skip
        """Create a job (``POST /v1/agents/{id}/jobs``). ``fields``: ``name``, ``webhook``,
        ``max_credits``… An ``Idempotency-Key`` is sent (a new one unless given): a retried
        create is charged once."""
        answer = _answer(
            create_job.sync_detailed(
                _id(agent),
                client=self._client.lowlevel,
                body=_job_body(input, fields),
                idempotency_key=idempotency_key or str(uuid.uuid4()),
            )
        )
        return answer.data  # type: ignore[no-any-return]

    def get(self, job: Any) -> JobOut:
        answer = _answer(get_job.sync_detailed(_id(job), client=self._client.lowlevel))
        return answer.data  # type: ignore[no-any-return]

    def run(
        self, agent: Any, input: Mapping[str, Any], *, wait: bool = True,
        timeout: float = DEFAULT_WAIT_SECONDS, **fields: Any,
    ) -> JobOut:  # fmt: skip
        """Create a job and (``wait=True``) return it once it is settled: COMPLETED, FAILED,
        CANCELLED, or INPUT_REQUIRED (it needs an answer from you)."""
        job = self.create(agent, input, **fields)
        return self.wait(job, timeout=timeout) if wait else job

    def wait(self, job: Any, *, timeout: float = DEFAULT_WAIT_SECONDS) -> JobOut:
        """Follow the job's live stream until it settles; poll when the stream is refused or
        breaks (429/503, a proxy that cuts it, an older server)."""
        job_id, deadline = _id(job), time.monotonic() + timeout
        streaming, interval = True, 0.5
        while True:
            current = self.get(job_id)
            if _settled(current):
                return current
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WaitTimeout(0, "Timeout", f"job {job_id} is still {current.status}")
            finished = False
            if streaming:
                try:
                    finished = self._follow(job_id, remaining)
                except (httpx.HTTPError, AgoraError) as exc:
                    LOG.info("job %s: the stream failed (%s); polling", job_id, exc)
                    streaming = False  # the polling fallback from here on
            if not finished:
                time.sleep(min(interval, max(0.0, deadline - time.monotonic())))
                interval = min(interval * 1.5, 5.0)

    def _follow(self, job_id: str, remaining: float) -> bool:
        """Read the stream until an event settles the job (True) or the stream ends (False)."""
        http = self._client.lowlevel.get_httpx_client()
        parser = EventParser()
        timeout = httpx.Timeout(30.0, read=min(remaining, 60.0))
        with http.stream(
            "GET", f"/v1/jobs/{job_id}/stream", headers={"Accept": "text/event-stream"},
            auth=self._client.credentials.for_stream(), timeout=timeout,
        ) as response:  # fmt: skip
            if response.status_code != 200:
                response.read()
                raise error_from(response.status_code, response.headers, response.content)
            started = time.monotonic()
            for line in response.iter_lines():
                event = parser.line(line)
                if event is not None and finishes(event):
                    LOG.info("job %s: settled, as its stream said", job_id)
                    return True
                if time.monotonic() - started > remaining:
                    return False
        return False


class Agents(Listing[AgentOut]):
    def get(self, agent: Any) -> AgentOut:
        answer = _answer(get_agent.sync_detailed(_id(agent), client=self._client.lowlevel))
        return answer.data  # type: ignore[no-any-return]

    def find(self, name: str, **filters: Any) -> AgentOut:
        """The agent called ``name`` (case-insensitive) among those this caller may hire."""
        for agent in self.iter(q=name, **filters):
            if agent.name.casefold() == name.casefold():
                return agent
        raise NotFound(404, "Not Found", f"no agent named {name!r}")


class Client:
    """Agora, synchronously. ``Client(base_url, api_key="agora_usr_…")``; or signed in with the
    device flow: ``agora_client.sign_in_with_device(base_url, on_code=print)``."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        tokens: Tokens | None = None,
        workspace_id: str | None = None,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.credentials = Credentials(api_key, tokens)
        inner = transport or httpx.HTTPTransport()
        self.lowlevel = _lowlevel(
            base_url, self.credentials, workspace_id, timeout,
            RetryingTransport(inner, retry or RetryPolicy()),
        )  # fmt: skip
        self.jobs = Jobs(self, "/v1/jobs", JobOut.from_dict)
        self.agents = Agents(self, "/v1/agents", AgentOut.from_dict)
        self.files = Listing(self, "/v1/files", FileOut.from_dict)
        self.schedules = Listing(self, "/v1/schedules", ScheduleOut.from_dict)
        self.tasks = Listing(self, "/v1/tasks", TaskOut.from_dict)
        self.coworkers = Listing(self, "/v1/coworkers", CoworkerOut.from_dict)
        self.notifications = Listing(self, "/v1/notifications", NotificationOut.from_dict)
        self.history = Listing(self, "/v1/history", dict)  # jobs, tasks and conversations

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        """Any route: its JSON answer, or the typed error."""
        return _json(self.lowlevel.get_httpx_client().request(method, path, **kwargs))

    def iter(self, path: str, *, page_size: int = 100, **filters: Any) -> Iterator[dict[str, Any]]:
        """Every item of a cursor-paged list, following the cursors the server signs."""
        params, seen = _params(filters, page_size), set()
        for _ in range(MAX_PAGES):
            items, cursor = page_of(self.request("GET", path, params=params))
            yield from items
            if cursor is None or cursor in seen:
                return
            seen.add(cursor)
            params["cursor"] = cursor

    def close(self) -> None:
        self.lowlevel.get_httpx_client().close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- async --------------------------------------------------------------------------------------


class AsyncListing(Generic[T]):
    def __init__(
        self, client: AsyncClient, path: str, parse: Callable[[dict[str, Any]], T]
    ) -> None:
        self._client = client
        self._path = path
        self._parse = parse

    async def iter(self, *, page_size: int = 100, **filters: Any) -> AsyncIterator[T]:
        async for item in self._client.iter(self._path, page_size=page_size, **filters):
            yield self._parse(item)


class AsyncJobs(AsyncListing[JobOut]):
    async def create(
        self, agent: Any, input: Mapping[str, Any], *, idempotency_key: str | None = None,
        **fields: Any,
    ) -> JobOut:  # fmt: skip
        answer = _answer(
            await create_job.asyncio_detailed(
                _id(agent),
                client=self._client.lowlevel,
                body=_job_body(input, fields),
                idempotency_key=idempotency_key or str(uuid.uuid4()),
            )
        )
        return answer.data  # type: ignore[no-any-return]

    async def get(self, job: Any) -> JobOut:
        answer = _answer(await get_job.asyncio_detailed(_id(job), client=self._client.lowlevel))
        return answer.data  # type: ignore[no-any-return]

    async def run(
        self, agent: Any, input: Mapping[str, Any], *, wait: bool = True,
        timeout: float = DEFAULT_WAIT_SECONDS, **fields: Any,
    ) -> JobOut:  # fmt: skip
        job = await self.create(agent, input, **fields)
        return await self.wait(job, timeout=timeout) if wait else job

    async def wait(self, job: Any, *, timeout: float = DEFAULT_WAIT_SECONDS) -> JobOut:
        job_id, deadline = _id(job), time.monotonic() + timeout
        streaming, interval = True, 0.5
        while True:
            current = await self.get(job_id)
            if _settled(current):
                return current
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WaitTimeout(0, "Timeout", f"job {job_id} is still {current.status}")
            finished = False
            if streaming:
                try:
                    finished = await self._follow(job_id, remaining)
                except (httpx.HTTPError, AgoraError) as exc:
                    LOG.info("job %s: the stream failed (%s); polling", job_id, exc)
                    streaming = False
            if not finished:
                await asyncio.sleep(min(interval, max(0.0, deadline - time.monotonic())))
                interval = min(interval * 1.5, 5.0)

    async def _follow(self, job_id: str, remaining: float) -> bool:
        http = self._client.lowlevel.get_async_httpx_client()
        parser = EventParser()
        timeout = httpx.Timeout(30.0, read=min(remaining, 60.0))
        async with http.stream(
            "GET", f"/v1/jobs/{job_id}/stream", headers={"Accept": "text/event-stream"},
            auth=self._client.credentials.for_stream(), timeout=timeout,
        ) as response:  # fmt: skip
            if response.status_code != 200:
                await response.aread()
                raise error_from(response.status_code, response.headers, response.content)
            started = time.monotonic()
            async for line in response.aiter_lines():
                event = parser.line(line)
                if event is not None and finishes(event):
                    LOG.info("job %s: settled, as its stream said", job_id)
                    return True
                if time.monotonic() - started > remaining:
                    return False
        return False


class AsyncAgents(AsyncListing[AgentOut]):
    async def get(self, agent: Any) -> AgentOut:
        answer = _answer(await get_agent.asyncio_detailed(_id(agent), client=self._client.lowlevel))
        return answer.data  # type: ignore[no-any-return]

    async def find(self, name: str, **filters: Any) -> AgentOut:
        async for agent in self.iter(q=name, **filters):
            if agent.name.casefold() == name.casefold():
                return agent
        raise NotFound(404, "Not Found", f"no agent named {name!r}")


class AsyncClient:
    """Agora, with ``asyncio``: the same as :class:`Client`, every call awaited."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        tokens: Tokens | None = None,
        workspace_id: str | None = None,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.credentials = Credentials(api_key, tokens)
        inner = transport or httpx.AsyncHTTPTransport()
        self.lowlevel = _lowlevel(
            base_url, self.credentials, workspace_id, timeout,
            AsyncRetryingTransport(inner, retry or RetryPolicy()),
        )  # fmt: skip
        self.jobs = AsyncJobs(self, "/v1/jobs", JobOut.from_dict)
        self.agents = AsyncAgents(self, "/v1/agents", AgentOut.from_dict)
        self.files = AsyncListing(self, "/v1/files", FileOut.from_dict)
        self.schedules = AsyncListing(self, "/v1/schedules", ScheduleOut.from_dict)
        self.tasks = AsyncListing(self, "/v1/tasks", TaskOut.from_dict)
        self.coworkers = AsyncListing(self, "/v1/coworkers", CoworkerOut.from_dict)
        self.notifications = AsyncListing(self, "/v1/notifications", NotificationOut.from_dict)
        self.history = AsyncListing(self, "/v1/history", dict)

    async def request(self, method: str, path: str, **kwargs: Any) -> Any:
        http = self.lowlevel.get_async_httpx_client()
        return _json(await http.request(method, path, **kwargs))

    async def iter(
        self, path: str, *, page_size: int = 100, **filters: Any
    ) -> AsyncIterator[dict[str, Any]]:
        params, seen = _params(filters, page_size), set()
        for _ in range(MAX_PAGES):
            items, cursor = page_of(await self.request("GET", path, params=params))
            for item in items:
                yield item
            if cursor is None or cursor in seen:
                return
            seen.add(cursor)
            params["cursor"] = cursor

    async def aclose(self) -> None:
        await self.lowlevel.get_async_httpx_client().aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
