"""Rate limits (the ``limits`` library): public requests per client address, authenticated ones
per key. Memory storage by default; Redis when ``AGORA_REDIS_URL`` is set, so every process shares
one budget. Applied to every ``/v1`` and ``/api/v1`` route by one app-wide dependency.

The key's budget is keyed by a hash of the presented credential, so limiting costs no database
read and also throttles guessing with invalid keys.

Headers: ``RateLimit-Policy`` and ``RateLimit`` (IETF draft), ``X-RateLimit-Limit``,
``X-RateLimit-Remaining``, ``X-RateLimit-Reset``; over the limit → 429 with ``Retry-After``.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from fastapi import Request, Response
from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from agora.kit.errors import RateLimited

LIMITED_PREFIXES = ("/v1/", "/api/v1/")


@dataclass
class RateLimiter:
    limiter: SlidingWindowCounterRateLimiter
    storage: Storage
    public: RateLimitItem | None
    authenticated: RateLimitItem | None


def _parse(value: str) -> RateLimitItem | None:
    return None if value.strip().lower() in ("off", "none", "") else parse(value)


def build_rate_limiter(
    public: str, authenticated: str, redis_url: str | None, key_prefix: str = "agora-rl"
) -> RateLimiter | None:
    public_item, auth_item = _parse(public), _parse(authenticated)
    if public_item is None and auth_item is None:
        return None
    storage: Storage
    if redis_url:
        uri = redis_url.replace("redis://", "async+redis://", 1).replace(
            "rediss://", "async+rediss://", 1
        )
        storage = RedisStorage(uri, implementation="redispy", key_prefix=key_prefix)
    else:
        storage = MemoryStorage()
    return RateLimiter(SlidingWindowCounterRateLimiter(storage), storage, public_item, auth_item)


def _identity(request: Request) -> tuple[str, bool]:
    credential = request.headers.get("x-api-key") or request.headers.get("authorization")
    if credential:
        return "key:" + hashlib.sha256(credential.encode()).hexdigest()[:32], True
    host = request.client.host if request.client else "unknown"
    return f"ip:{host}", False


def _headers(item: RateLimitItem, remaining: int, reset_at: float) -> dict[str, str]:
    window = item.get_expiry()
    reset_in = max(0, math.ceil(reset_at - time.time()))
    return {
        "RateLimit-Policy": f"{item.amount};w={window}",
        "RateLimit": f"limit={item.amount}, remaining={remaining}, reset={reset_in}",
        "X-RateLimit-Limit": str(item.amount),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": str(math.ceil(reset_at)),
    }


async def enforce_rate_limit(request: Request, response: Response) -> None:
    """App-wide dependency; a no-op outside /v1 or when limits are off."""
    limiter: RateLimiter | None = getattr(request.app.state, "rate_limiter", None)
    if limiter is None or not request.url.path.startswith(LIMITED_PREFIXES):
        return
    identity, authenticated = _identity(request)
    item = limiter.authenticated if authenticated else limiter.public
    if item is None:
        return
    allowed = await limiter.limiter.hit(item, identity)
    stats = await limiter.limiter.get_window_stats(item, identity)
    headers = _headers(item, max(0, stats.remaining), stats.reset_time)
    if not allowed:
        retry_after = max(1, math.ceil(stats.reset_time - time.time()))
        raise RateLimited(headers={**headers, "Retry-After": str(retry_after)})
    response.headers.update(headers)
