"""Counting failed or costly attempts (sign-in, password reset, magic links) per key, with the
``limits`` library: memory storage by default, Redis when ``AGORA_REDIS_URL`` is set so every
process shares the counts.

``check`` refuses (429 with ``Retry-After``) once a key has used its budget; ``record`` counts
one attempt and refuses when that used the last of it; ``spend`` counts one and refuses only
past the budget (a quota: OAuth client registrations per address); ``clear`` forgets a key (a
successful sign-in clears its account's failures).

Redis unreachable → the counts are kept in process (the same budgets, per process), logged and
counted in ``agora_redis_fallback_total{use="attempts"}`` (``kit.redisfallback``): an account
route never answers 500 because of Redis.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import FixedWindowRateLimiter

from agora.kit.errors import RateLimited
from agora.kit.redisfallback import RedisFallback, redis_storage

T = TypeVar("T")


class AttemptLimiter:
    def __init__(self, redis_url: str | None, prefix: str = "agora-attempts") -> None:
        self.redis: RedisFallback | None = None
        self.fallback = FixedWindowRateLimiter(MemoryStorage())
        if redis_url:
            storage = redis_storage(redis_url, prefix)
            self.limiter = FixedWindowRateLimiter(storage)
            self.redis = RedisFallback("attempts", storage)
        else:
            self.limiter = self.fallback

    async def _run(self, work: Callable[[FixedWindowRateLimiter], Awaitable[T]]) -> T:
        if self.redis is None:
            return await work(self.limiter)
        return await self.redis.run(lambda: work(self.limiter), lambda: work(self.fallback))

    async def redis_ok(self) -> bool | None:
        """None without Redis; else whether it answers PING within the timeout."""
        return None if self.redis is None else await self.redis.ok()

    @staticmethod
    def _key(kind: str, value: str) -> str:
        # Hashed, so emails and addresses are not stored in Redis in the clear.
        return kind + ":" + hashlib.sha256(value.encode()).hexdigest()[:32]

    @staticmethod
    async def _refusal(
        limiter: FixedWindowRateLimiter, item: RateLimitItem, key: str
    ) -> float | None:
        """The window's reset time when ``key`` has used its budget, else None."""
        if await limiter.test(item, key):
            return None
        return (await limiter.get_window_stats(item, key)).reset_time

    @staticmethod
    def _refuse(reset_time: float, message: str) -> RateLimited:
        retry_after = max(1, math.ceil(reset_time - time.time()))
        return RateLimited(message, headers={"Retry-After": str(retry_after)})

    async def check(self, limit: str, kind: str, value: str, message: str) -> None:
        item, key = parse(limit), self._key(kind, value)
        reset = await self._run(lambda limiter: self._refusal(limiter, item, key))
        if reset is not None:
            raise self._refuse(reset, message)

    async def record(self, limit: str, kind: str, value: str, message: str) -> None:
        item, key = parse(limit), self._key(kind, value)

        async def hit(limiter: FixedWindowRateLimiter) -> float | None:
            if not await limiter.hit(item, key):
                return (await limiter.get_window_stats(item, key)).reset_time
            return await self._refusal(limiter, item, key)

        reset = await self._run(hit)
        if reset is not None:
            raise self._refuse(reset, message)

    async def spend(self, limit: str, kind: str, value: str, message: str) -> None:
        """Count one attempt, refused only when the budget was used up before it (``record``
        also refuses the attempt that uses the last of it: right for failures, not for a quota
        of things made)."""
        item, key = parse(limit), self._key(kind, value)

        async def hit(limiter: FixedWindowRateLimiter) -> float | None:
            if await limiter.hit(item, key):
                return None
            return (await limiter.get_window_stats(item, key)).reset_time

        reset = await self._run(hit)
        if reset is not None:
            raise self._refuse(reset, message)

    async def clear(self, limit: str, kind: str, value: str) -> None:
        item, key = parse(limit), self._key(kind, value)

        async def forget(limiter: FixedWindowRateLimiter) -> None:
            await limiter.clear(item, key)

        await self._run(forget)
