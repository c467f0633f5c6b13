"""The one degradation for every use of Redis (rate limits, attempt counts): while Redis does not
answer, the work runs on an **in-process fallback** (the same budgets, per process), logged at
most once a minute per use (``redis_unavailable``) and counted in
``agora_redis_fallback_total{use=…}``; Redis is tried again after ``RETRY_SECONDS``. A Redis
failure is never an error answer. ``/readyz`` reports Redis as ``degraded`` (docs/security.md,
"Degradation")."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import structlog
from limits.aio.storage import RedisStorage, Storage
from prometheus_client import Counter

from agora.kit.metrics import REGISTRY

log = structlog.get_logger(__name__)

RETRY_SECONDS = 5.0
TIMEOUT_SECONDS = 0.5  # socket connect and read timeouts; a call waits twice that at most
LOG_EVERY_SECONDS = 60.0

REDIS_FALLBACK = Counter(
    "agora_redis_fallback_total",
    "Decisions taken in process because Redis was unreachable, by use.",
    ["use"],
    registry=REGISTRY,
)

T = TypeVar("T")


def redis_storage(redis_url: str, key_prefix: str) -> RedisStorage:
    """The ``limits`` library's Redis storage for ``redis_url``, with short socket timeouts."""
    uri = redis_url.replace("redis://", "async+redis://", 1).replace(
        "rediss://", "async+rediss://", 1
    )
    return RedisStorage(
        uri,
        implementation="redispy",
        key_prefix=key_prefix,
        socket_connect_timeout=TIMEOUT_SECONDS,
        socket_timeout=TIMEOUT_SECONDS,
    )


class RedisFallback:
    """Runs work on Redis, or on the in-process fallback while Redis is down."""

    def __init__(self, use: str, storage: Storage) -> None:
        self.use = use
        self.storage = storage
        self.counter = REDIS_FALLBACK.labels(use)
        self.down_until = 0.0
        self.last_log = -LOG_EVERY_SECONDS

    async def run(
        self, on_redis: Callable[[], Awaitable[T]], in_process: Callable[[], Awaitable[T]]
    ) -> T:
        if time.monotonic() >= self.down_until:
            try:
                return await asyncio.wait_for(on_redis(), TIMEOUT_SECONDS * 2)
            except Exception as exc:  # any Redis failure: refused, timed out, reset, auth
                now = time.monotonic()
                self.down_until = now + RETRY_SECONDS
                if now - self.last_log >= LOG_EVERY_SECONDS:
                    self.last_log = now
                    log.warning("redis_unavailable", use=self.use, error=type(exc).__name__)
        self.counter.inc()
        return await in_process()

    async def ok(self) -> bool:
        """Whether Redis answers PING within the timeout."""
        try:
            return bool(await asyncio.wait_for(self.storage.check(), TIMEOUT_SECONDS * 2))
        except Exception:
            return False
