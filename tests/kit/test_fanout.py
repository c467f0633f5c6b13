"""Fan-out through Redis (kit/fanout.py) in one process standing for two: a committed signal
wakes this process at once and reaches the other process's one subscription; a rolled-back one
reaches nobody; a process ignores its own messages. On SQLite and PostgreSQL (the signal is
sent by a unit of work of either)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable

import pytest
from redis.asyncio import Redis

from agora.kit import background
from agora.kit.db import Database
from agora.kit.fanout import Fanout, RedisReceiver
from tests.support.server import free_port

pytestmark = pytest.mark.redis
TOPIC = "agora_fanout_test"


async def _until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.02)


async def _signal_then_fail(db: Database, key: str) -> None:
    async with db.transaction() as session:
        await background.signal(session, TOPIC, key=key, listened=True)
        raise RuntimeError("roll back")


async def test_a_committed_signal_reaches_the_other_process_once(
    db: Database, redis_url: str
) -> None:
    channel = f"agora-fanout-test-{uuid.uuid4().hex[:10]}"
    here = Fanout((TOPIC,), listen_url=db.url, redis_url=redis_url, redis_channel=channel)
    there = Fanout((TOPIC,), listen_url=db.url, redis_url=redis_url, redis_channel=channel)
    key = uuid.uuid4().hex
    woken: list[str] = []
    unsubscribe: Callable[[], None] = lambda: None  # noqa: E731
    redis = Redis.from_url(redis_url)
    previous, db.fanout = db.fanout, here
    try:
        assert here.readiness() == (True, "idle (redis): starts with the first subscriber")
        await here.ensure_started()
        await there.ensure_started()
        await _until(lambda: here.listening and there.listening)
        assert here.readiness() == (True, "ok (redis)")
        # Subscribed once both listen (each (re)connect wakes every subscriber once).
        unsubscribe = background.subscribe(TOPIC, lambda: woken.append(key), key=key)
        assert dict(await redis.pubsub_numsub(channel)) == {channel.encode(): 2}
        receiver = there.receiver
        assert isinstance(receiver, RedisReceiver) and isinstance(here.receiver, RedisReceiver)

        with pytest.raises(RuntimeError):  # rolled back: nothing is published
            await _signal_then_fail(db, key)
        async with db.transaction() as session:
            await background.signal(session, TOPIC, key=key, listened=True)
        assert woken == [key]  # this process, at once (after the commit)
        await _until(lambda: receiver.delivered == 1)  # the other process, through Redis
        await _until(lambda: len(woken) == 2)
        await asyncio.sleep(0.2)
        assert here.receiver.delivered == 0  # its own message is not delivered again
        assert len(woken) == 2
    finally:
        db.fanout = previous
        unsubscribe()
        await here.stop()
        await there.stop()
        await redis.aclose()


async def test_a_receiver_that_cannot_connect_is_reported_degraded(db: Database) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    fanout = Fanout((TOPIC,), listen_url=db.url, redis_url=dead)
    receiver = fanout.receiver
    assert isinstance(receiver, RedisReceiver)
    try:
        await fanout.ensure_started()
        await _until(lambda: receiver.failures >= 1)
        assert fanout.readiness() == (
            False, "degraded (redis): reconnecting; subscribers poll meanwhile"
        )  # fmt: skip
    finally:
        await fanout.stop()
