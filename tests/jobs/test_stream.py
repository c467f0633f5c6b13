"""GET /v1/jobs/{id}/stream over real HTTP (a uvicorn server in its own thread and event loop,
with its own engine: another app instance than the ``app``/``client`` fixtures).

The served app's poll fallback is 30 s, so an event that arrives within a few seconds came by
the wake-up path: on PostgreSQL the NOTIFY of the transaction that wrote it (written by the other
app instance, which never wakes this one in-process), on SQLite the in-process wake-up. Also:
``Last-Event-ID`` on a live stream, the listener reconnecting after ``pg_terminate_backend``,
and the per-process limit on open streams (503)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from agora.app import create_app
from agora.jobs import signals
from agora.kit import background
from agora.kit.db import Database
from agora.kit.listen import Listener
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import echo, register
from tests.support.agents import LoopbackAgents
from tests.support.server import free_port, serve_in_thread
from tests.support.sse import ARRIVAL_SECONDS, FALLBACK_SECONDS, Frames


@contextmanager
def served(settings: Settings, **changes: object) -> Iterator[tuple[str, FastAPI]]:
    """Another app instance (its own engine and job streams) on a loopback port, in its own
    thread and event loop; lifespan on, so its listener is closed at the end."""
    app = create_app(
        settings.with_changes(**{"job_stream_fallback_seconds": FALLBACK_SECONDS, **changes}),
        migrate=False,
    )
    with serve_in_thread(app, "stream-server", lifespan="on") as base:
        yield base, app


@asynccontextmanager
async def stream(
    base: str, user: TestUser, job_id: str, last_event_id: str | None = None
) -> AsyncIterator[Frames]:
    headers = dict(user.key_headers)
    if last_event_id:
        headers["Last-Event-ID"] = last_event_id
    async with (
        httpx2.AsyncClient(timeout=FALLBACK_SECONDS * 2) as http,
        http.stream("GET", f"{base}/v1/jobs/{job_id}/stream", headers=headers) as response,
    ):
        assert response.status_code == 200, await response.aread()
        yield Frames(response)


@dataclass(frozen=True)
class Job:
    user: TestUser
    id: str


@pytest.fixture
async def job(
    app: FastAPI, client: httpx2.AsyncClient, agents_server: LoopbackAgents, make_user: MakeUser
) -> Job:
    """A PENDING job of an echo agent (nothing dispatches it), created through the API."""
    user = await make_user()
    agent_id = await register(app, agents_server, echo())
    made = await client.post(
        f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "hi"}}, headers=user.key_headers
    )
    assert made.status_code == 201, made.text
    return Job(user, str(made.json()["data"]["id"]))


async def _until(check: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not reached in time"
        await asyncio.sleep(0.02)


async def _timed_cancel(
    frames: Frames, cancel: httpx2.AsyncClient | str, job_id: str, user: TestUser
) -> tuple[dict[str, str], float]:
    """Cancel the job through ``cancel`` (a client, or a base URL); the stream's next frame and
    the seconds from the committed cancellation to that frame."""
    pending = asyncio.ensure_future(frames.next(FALLBACK_SECONDS * 2))
    await asyncio.sleep(0.05)  # the stream is waiting
    if isinstance(cancel, str):
        async with httpx2.AsyncClient(timeout=10) as http:
            done = await http.post(f"{cancel}/v1/jobs/{job_id}/cancel", headers=user.key_headers)
    else:
        done = await cancel.post(f"/v1/jobs/{job_id}/cancel", headers=user.key_headers)
    assert done.status_code == 200, done.text
    committed = time.monotonic()
    frame = await pending
    return frame, time.monotonic() - committed


@pytest.mark.postgres_only
async def test_an_event_written_by_another_app_instance_arrives_by_notify(
    client: httpx2.AsyncClient,
    settings: Settings,
    job: Job,
) -> None:
    user, job_id = job.user, job.id
    with served(settings) as (base, other):
        async with stream(base, user, job_id) as frames:
            created = await frames.next()
            assert created["event"] == "created"
            listener = other.state.fanout.receiver
            await _until(lambda: listener.listening)  # one listener, started by the first stream
            # Written by the fixture's app (another engine): only the NOTIFY can wake the stream.
            frame, delay = await _timed_cancel(frames, client, job_id, user)
            assert frame["event"] == "result" and "CANCELLED" in frame["data"]
            assert delay < ARRIVAL_SECONDS, f"{delay:.2f} s: not notified (poll is 30 s)"
        # Last-Event-ID on the finished job: only what came after it.
        async with stream(base, user, job_id, last_event_id=created["id"]) as frames:
            assert (await frames.next())["id"] == frame["id"]


@pytest.mark.sqlite_only
async def test_on_sqlite_the_in_process_wake_up_feeds_the_stream(
    client: httpx2.AsyncClient,
    settings: Settings,
    job: Job,
) -> None:
    user, job_id = job.user, job.id
    with served(settings) as (base, other):
        assert other.state.fanout.receiver is None  # SQLite: no LISTEN
        async with stream(base, user, job_id) as frames:
            created = await frames.next()
            frame, delay = await _timed_cancel(frames, base, job_id, user)  # the same process
            assert frame["event"] == "result" and "CANCELLED" in frame["data"]
            assert delay < ARRIVAL_SECONDS, f"{delay:.2f} s: not woken (poll is 30 s)"
        async with stream(base, user, job_id, last_event_id=created["id"]) as frames:
            assert (await frames.next())["id"] == frame["id"]


async def test_last_event_id_resumes_a_live_stream(
    client: httpx2.AsyncClient,
    settings: Settings,
    job: Job,
) -> None:
    """Resumed after the creation event: nothing is replayed; the next event comes live."""
    user, job_id = job.user, job.id
    events = (await client.get(f"/v1/jobs/{job_id}/events", headers=user.key_headers)).json()
    first = events["data"][0]["id"]
    with served(settings) as (base, other):
        async with stream(base, user, job_id, last_event_id=first) as frames:
            if other.state.fanout.receiver is not None:
                listener = other.state.fanout.receiver
                await _until(lambda: listener.listening)
            frame, delay = await _timed_cancel(frames, base, job_id, user)
            assert frame["id"] != first and "CANCELLED" in frame["data"]
            assert delay < ARRIVAL_SECONDS


@pytest.mark.postgres_only
async def test_the_listener_reconnects_after_its_connection_is_killed(
    client: httpx2.AsyncClient,
    db: Database,
    settings: Settings,
    job: Job,
) -> None:
    user, job_id = job.user, job.id
    with served(settings) as (base, other):
        listener = other.state.fanout.receiver
        async with stream(base, user, job_id) as frames:
            await frames.next()  # the creation event
            await _until(lambda: listener.listening)
            assert listener.connects == 1
            async with db.engine.connect() as conn:
                killed = (
                    await conn.execute(
                        text(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE datname = current_database() AND application_name = "
                            "'agora-listen'"
                        )
                    )
                ).all()
                await conn.commit()
            assert [tuple(row) for row in killed] == [(True,)]  # exactly one listener
            await _until(lambda: listener.connects == 2)  # reconnected (no backoff needed)
            assert listener.listening
            frame, delay = await _timed_cancel(frames, client, job_id, user)
            assert "CANCELLED" in frame["data"]
            assert delay < ARRIVAL_SECONDS, f"{delay:.2f} s after reconnecting (poll is 30 s)"


@pytest.mark.postgres_only
async def test_streams_poll_while_the_listener_cannot_connect(
    client: httpx2.AsyncClient, settings: Settings, job: Job
) -> None:
    """PostgreSQL unreachable for LISTEN (a loopback port nothing listens on): the stream still
    delivers, by its fallback poll, and the listener keeps retrying with backoff."""
    user, job_id = job.user, job.id
    with served(settings, job_stream_fallback_seconds=0.3) as (base, other):
        dead = f"postgresql+asyncpg://agora@127.0.0.1:{free_port()}/agora"
        listener = Listener(dead, (signals.JOB_EVENTS,), min_backoff=0.2, connect_timeout=1)
        other.state.fanout.receiver = listener  # before any stream starts it
        async with stream(base, user, job_id) as frames:
            await frames.next()
            await _until(lambda: listener.failures >= 1)
            frame, delay = await _timed_cancel(frames, client, job_id, user)
            assert "CANCELLED" in frame["data"]
            assert delay < 3.0, f"{delay:.2f} s: the 0.3 s fallback poll did not deliver"
        assert not listener.listening and listener.connects == 0
        assert 1 <= listener.failures <= 8  # 0.2, 0.4, 0.8 … s apart, not a busy loop


async def test_open_streams_per_process_are_limited(
    client: httpx2.AsyncClient,
    settings: Settings,
    job: Job,
) -> None:
    user, job_id = job.user, job.id
    with served(settings, job_stream_max=1) as (base, other):
        async with stream(base, user, job_id) as frames:
            await frames.next()
            async with httpx2.AsyncClient(timeout=10) as http:
                refused = await http.get(
                    f"{base}/v1/jobs/{job_id}/stream", headers=user.key_headers
                )
            assert refused.status_code == 503
            assert refused.headers["Retry-After"] == "2"
            assert refused.json()["error"] == "Service Unavailable"  # the key family's shape
            assert other.state.job_streams.open == 1
        await _until(lambda: other.state.job_streams.open == 0)  # the slot is given back
        await _until(lambda: (signals.JOB_EVENTS, job_id) not in background._subscribers)
        async with stream(base, user, job_id) as frames:
            assert (await frames.next())["event"] == "created"
