"""Wake-ups across processes: ONE receiver per process, on PostgreSQL LISTEN or on Redis pub/sub.

A process's wake-ups (``kit.background`` topics: new jobs for the dispatcher, a job's events for
its live streams, a person's bell) reach the other processes through this process's ``Fanout``,
made once by the composition root (``agora serve``, ``agora worker``) and shared by everything the
process runs: its dispatcher, its job streams and bells, however many streams are open.

- Without Redis (PostgreSQL): writers ``NOTIFY`` in their transaction (delivered only if it
  commits); the receiver is a ``kit.listen.Listener``, one LISTEN connection on
  ``AGORA_DATABASE_LISTEN_URL`` (default ``AGORA_DATABASE_URL``) for every channel. Behind
  PgBouncer in transaction mode LISTEN needs that direct URL: a pooled server connection
  listens for nobody once the transaction is over.
- With Redis (``AGORA_REDIS_URL``): writers wake their own process at once and, after the commit,
  PUBLISH ``<process> <topic> <key>`` on one channel (``AGORA_REDIS_FANOUT_CHANNEL``); the
  receiver is ONE subscription to that channel per process (``RedisReceiver``), which wakes
  ``topic``/``key`` here for every message another process sent. No database connection
  listens.
- SQLite (one process): no receiver; wake-ups are in-process.

While the receiver is down (Redis or PostgreSQL restarting) ``listening`` is false: streams poll
every ``AGORA_JOB_STREAM_FALLBACK_SECONDS`` and the dispatcher every 2 s, and every subscriber is
woken once the receiver is back (what was published meanwhile is lost). A failed PUBLISH is
logged and dropped (the same polls cover it). The receiver starts with the first subscriber
that needs it (``ensure_started``), so a process that never needs one opens no connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from typing import Any

import structlog

from agora.kit import background
from agora.kit.listen import Listener, Receiver

log = structlog.get_logger(__name__)

CLIENT_NAME = "agora-fanout"  # how the subscription shows in Redis's CLIENT LIST
PUBLISH_TIMEOUT_SECONDS = 2.0


class RedisReceiver(Receiver):
    """One Redis connection SUBSCRIBEd to one channel; each message of another process becomes
    ``background.wake(topic, key)``. Kept up like ``kit.listen.Listener`` (``Receiver``); a lost
    connection ends its reader, which wakes the loop to reconnect."""

    event = "fanout"

    def __init__(
        self,
        url: str,
        channel: str,
        channels: tuple[str, ...],
        origin: str,
        *,
        check_seconds: float = 30.0,
        min_backoff: float = 0.5,
        max_backoff: float = 30.0,
        connect_timeout: float = 5.0,
    ) -> None:
        super().__init__(
            "fanout-redis",
            channels,
            check_seconds=check_seconds,
            min_backoff=min_backoff,
            max_backoff=max_backoff,
            connect_timeout=connect_timeout,
        )
        self.url, self.channel, self.origin = url, channel, origin
        self.delivered = 0  # messages of other processes turned into wake-ups
        self._client: Any = None  # redis.asyncio.Redis
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None

    @property
    def listening(self) -> bool:
        return self._reader is not None and not self._reader.done()

    async def _connect(self) -> None:
        from redis.asyncio import Redis

        self._client = Redis.from_url(
            self.url, socket_connect_timeout=self.connect_timeout, client_name=CLIENT_NAME
        )
        self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        await asyncio.wait_for(self._pubsub.subscribe(self.channel), self.connect_timeout)
        self._reader = asyncio.create_task(self._read(self._pubsub), name="fanout-redis-read")

    async def _read(self, pubsub: Any) -> None:
        try:
            while True:
                message = await pubsub.get_message(timeout=self.check_seconds)
                if message is not None and message.get("type") == "message":
                    self._deliver(message["data"])
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the connection is gone: the loop reconnects
            log.warning("fanout_connection_lost", error=str(exc))
        finally:
            self.loop.wake()

    def _deliver(self, data: bytes | str) -> None:
        text = data.decode() if isinstance(data, bytes) else data
        origin, _, rest = text.partition(" ")
        topic, _, key = rest.partition(" ")
        if origin != self.origin and topic in self.channels:  # our own woke us already
            self.delivered += 1
            background.wake(topic, key or None)

    async def _close(self) -> None:
        reader, self._reader = self._reader, None
        if reader is not None and not reader.done():
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader
        pubsub, self._pubsub = self._pubsub, None
        client, self._client = self._client, None
        with contextlib.suppress(Exception):
            if pubsub is not None:
                await pubsub.aclose()
        with contextlib.suppress(Exception):
            if client is not None:
                await client.aclose()


class Fanout:
    """This process's cross-process wake-ups on ``channels`` (see the module docstring)."""

    def __init__(
        self,
        channels: tuple[str, ...],
        *,
        listen_url: str,
        redis_url: str | None = None,
        redis_channel: str = "agora-fanout",
    ) -> None:
        self.channels = channels
        self.origin = uuid.uuid4().hex[:16]  # this process, in what it publishes
        self.redis_url, self.redis_channel = redis_url, redis_channel
        self._publisher: Any = None  # redis.asyncio.Redis, made on first publish
        self.receiver: Listener | RedisReceiver | None = None
        if redis_url:
            self.receiver = RedisReceiver(redis_url, redis_channel, channels, self.origin)
        elif not listen_url.startswith("sqlite"):
            self.receiver = Listener(listen_url, channels)

    @property
    def publishes(self) -> bool:
        """Whether writers publish to Redis (else they NOTIFY, on PostgreSQL)."""
        return self.redis_url is not None

    @property
    def listening(self) -> bool:
        return self.receiver is not None and self.receiver.listening

    async def ensure_started(self) -> None:
        if self.receiver is not None:
            await self.receiver.ensure_started()

    def readiness(self) -> tuple[bool, str] | None:
        """What ``/readyz`` says of the receiver: healthy or degraded, and the words (None: no
        receiver, SQLite in one process). Never a reason to refuse traffic: without it,
        subscribers wake on their own polling."""
        if self.receiver is None:
            return None
        kind = "redis" if self.redis_url else "postgres"
        if not self.receiver.loop.running:
            return True, f"idle ({kind}): starts with the first subscriber"
        if self.receiver.listening:
            return True, f"ok ({kind})"
        return False, f"degraded ({kind}): reconnecting; subscribers poll meanwhile"

    async def stop(self) -> None:
        if self.receiver is not None:
            await self.receiver.stop()
        publisher, self._publisher = self._publisher, None
        if publisher is not None:
            with contextlib.suppress(Exception):
                await publisher.aclose()

    async def publish(self, topic: str, key: str | None) -> None:
        """Tell the other processes (Redis): ``topic``/``key`` changed. Never raises."""
        if self.redis_url is None:
            return
        try:
            if self._publisher is None:
                from redis.asyncio import Redis

                self._publisher = Redis.from_url(
                    self.redis_url,
                    socket_timeout=PUBLISH_TIMEOUT_SECONDS,
                    socket_connect_timeout=PUBLISH_TIMEOUT_SECONDS,
                )
            message = f"{self.origin} {topic} {key or ''}"
            await self._publisher.publish(self.redis_channel, message)
        except Exception as exc:  # the receivers' polls cover a lost wake-up
            log.warning("fanout_publish_failed", topic=topic, error=str(exc))
