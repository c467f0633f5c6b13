"""Counting failed or costly attempts (sign-in, password reset, magic links) per key, with the
``limits`` library: memory storage by default, Redis when ``AGORA_REDIS_URL`` is set so every
process shares the counts.

``check`` refuses (429 with ``Retry-After``) once a key has used its budget; ``record`` counts
one attempt and refuses when that used the last of it; ``clear`` forgets a key (a successful
sign-in clears its account's failures).
"""

from __future__ import annotations

import hashlib
import math
import time

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter

from agora.kit.errors import RateLimited


def _storage(redis_url: str | None, prefix: str) -> Storage:
    if redis_url:
        uri = redis_url.replace("redis://", "async+redis://", 1).replace(
            "rediss://", "async+rediss://", 1
        )
        return RedisStorage(uri, implementation="redispy", key_prefix=prefix)
    return MemoryStorage()


class AttemptLimiter:
    def __init__(self, redis_url: str | None, prefix: str = "agora-attempts") -> None:
        self.storage = _storage(redis_url, prefix)
        self.limiter = FixedWindowRateLimiter(self.storage)

    @staticmethod
    def _key(kind: str, value: str) -> str:
        # Hashed, so emails and addresses are not stored in Redis in the clear.
        return kind + ":" + hashlib.sha256(value.encode()).hexdigest()[:32]

    async def _refuse(self, item: RateLimitItem, key: str, message: str) -> RateLimited:
        stats = await self.limiter.get_window_stats(item, key)
        retry_after = max(1, math.ceil(stats.reset_time - time.time()))
        return RateLimited(message, headers={"Retry-After": str(retry_after)})

    async def check(self, limit: str, kind: str, value: str, message: str) -> None:
        item, key = parse(limit), self._key(kind, value)
        if not await self.limiter.test(item, key):
            raise await self._refuse(item, key, message)

    async def record(self, limit: str, kind: str, value: str, message: str) -> None:
        item, key = parse(limit), self._key(kind, value)
        if not await self.limiter.hit(item, key) or not await self.limiter.test(item, key):
            raise await self._refuse(item, key, message)

    async def clear(self, limit: str, kind: str, value: str) -> None:
        await self.limiter.clear(parse(limit), self._key(kind, value))
