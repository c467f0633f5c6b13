"""Rate limits (the ``limits`` library), keyed on the *resolved* identity:

- a valid key → ``key:<key id>`` with the authenticated budget: one budget per key whatever its
  spelling (``Bearer``/``bearer``, extra spaces, ``x-api-key``);
- no credential → ``ip:<client address>`` with the public budget;
- an invalid, revoked or malformed credential → ``authfail:<client address>`` with the stricter
  failed-authentication budget (key guessing is throttled; a junk key is no way around the
  public limit). Once that budget is spent, credentials are not even looked up.

The credential → key id resolution is injected (``resolver``: a ``KeyResolver``, whose lookup the
auth package provides with a short-lived cache), so this module stays domain-free. It runs before
any route's unit of work: kit runs the lookup in a read unit of its own, opened only if the lookup
reads (an answer from the cache opens nothing).

Applied to ``/v1`` and ``/api/v1`` by the app-wide dependency (``kit.guards``) and to the MCP
endpoints (``/mcp``, ``/sse``, ``/messages/``) by ``RateLimitMiddleware``.

Storage: memory by default; Redis when ``AGORA_REDIS_URL`` is set (one budget for every process).
Redis unreachable → **fail open to an in-process limiter** (the same budgets, per process): the
one degradation of every Redis use (``kit.redisfallback``), logged at most once a minute and
counted in ``agora_rate_limit_fallback_total`` (and in
``agora_redis_fallback_total{use="rate_limit"}``). /readyz reports Redis separately.

Headers: ``RateLimit-Policy`` and ``RateLimit`` (IETF draft), ``X-RateLimit-Limit``,
``X-RateLimit-Remaining``, ``X-RateLimit-Reset``; over the limit → 429 with ``Retry-After``.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fastapi import Request
from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from prometheus_client import Counter
from starlette.types import ASGIApp, Receive, Scope, Send

from agora.kit.db import Database
from agora.kit.errors import RateLimited
from agora.kit.metrics import REGISTRY
from agora.kit.observe import add_response_headers
from agora.kit.redisfallback import RedisFallback, redis_storage
from agora.kit.unavailable import database_error, database_unavailable
from agora.kit.units import Mode, Unit

LIMITED_PREFIXES = ("/v1/", "/api/v1/")
MCP_PREFIXES = ("/mcp", "/sse", "/messages", "/a2a/")

RATE_LIMIT_FALLBACK = Counter(
    "agora_rate_limit_fallback_total",
    "Rate-limit decisions taken by the in-process limiter because Redis was unreachable.",
    registry=REGISTRY,
)

# (a read unit, the credential) → the key's id, or None when the credential is not a valid key.
# The lookup reads through ``await unit.session()`` only when it must (a cache miss).
KeyLookup = Callable[[Unit, str], Awaitable[str | None]]


@dataclass(frozen=True)
class KeyResolver:
    """The credential → key id lookup and the database it reads. Called before a route's unit
    exists, so kit gives the lookup a read unit of its own (``kit.units.Unit``: opened lazily,
    closed here); the lookup never opens a transaction."""

    database: Database
    lookup: KeyLookup

    async def __call__(self, credential: str) -> str | None:
        unit = Unit(self.database, Mode.READ)
        try:
            found = await self.lookup(unit, credential)
        except BaseException as exc:
            await unit.finish(exc)
            raise
        await unit.finish(None)
        return found


@dataclass(frozen=True)
class Decision:
    allowed: bool
    item: RateLimitItem
    remaining: int
    reset_at: float


@dataclass
class RateLimiter:
    limiter: SlidingWindowCounterRateLimiter
    storage: Storage
    public: RateLimitItem | None
    authenticated: RateLimitItem | None
    failed_auth: RateLimitItem | None = None
    fallback: SlidingWindowCounterRateLimiter | None = None  # in-process, when storage is Redis
    resolver: KeyResolver | None = None
    redis: RedisFallback | None = None  # when storage is Redis

    async def _with_storage(
        self, work: Callable[[SlidingWindowCounterRateLimiter], Awaitable[Decision]]
    ) -> Decision:
        if self.redis is None or self.fallback is None:
            return await work(self.limiter)
        fallback = self.fallback

        async def in_process() -> Decision:
            RATE_LIMIT_FALLBACK.inc()
            return await work(fallback)

        return await self.redis.run(lambda: work(self.limiter), in_process)

    async def hit(self, item: RateLimitItem, identity: str) -> Decision:
        async def work(limiter: SlidingWindowCounterRateLimiter) -> Decision:
            allowed = await limiter.hit(item, identity)
            stats = await limiter.get_window_stats(item, identity)
            return Decision(allowed, item, max(0, stats.remaining), stats.reset_time)

        return await self._with_storage(work)

    async def exhausted(self, item: RateLimitItem, identity: str) -> Decision | None:
        """The budget's state when it is spent (no hit), else None."""

        async def work(limiter: SlidingWindowCounterRateLimiter) -> Decision:
            ok = await limiter.test(item, identity)
            stats = await limiter.get_window_stats(item, identity)
            return Decision(ok, item, max(0, stats.remaining), stats.reset_time)

        decision = await self._with_storage(work)
        return None if decision.allowed else decision

    async def redis_ok(self) -> bool | None:
        """None without Redis; else whether it answers PING within the timeout."""
        return None if self.redis is None else await self.redis.ok()


def _parse(value: str) -> RateLimitItem | None:
    return None if value.strip().lower() in ("off", "none", "") else parse(value)


def build_rate_limiter(
    public: str,
    authenticated: str,
    redis_url: str | None,
    key_prefix: str = "agora-rl",
    failed_auth: str = "off",
) -> RateLimiter | None:
    public_item, auth_item = _parse(public), _parse(authenticated)
    failed_item = _parse(failed_auth)
    if public_item is None and auth_item is None and failed_item is None:
        return None
    storage: Storage
    fallback: SlidingWindowCounterRateLimiter | None = None
    redis: RedisFallback | None = None
    if redis_url:
        storage = redis_storage(redis_url, key_prefix)
        fallback = SlidingWindowCounterRateLimiter(MemoryStorage())
        redis = RedisFallback("rate_limit", storage)
    else:
        storage = MemoryStorage()
    return RateLimiter(
        SlidingWindowCounterRateLimiter(storage),
        storage,
        public_item,
        auth_item,
        failed_item,
        fallback,
        redis=redis,
    )


def presented_credential(request: Request) -> str | None:
    """The credential as the auth package reads it, normalised (``""``: present but malformed).
    MCP endpoints also take ``?api_key=``."""
    api_key = request.headers.get("x-api-key")
    if api_key is not None and api_key.strip():
        return api_key.strip()
    authorization = request.headers.get("authorization")
    if authorization is not None and authorization.strip():
        parts = authorization.split()
        if len(parts) == 2 and parts[0].lower() == "bearer":
            return parts[1]
        return ""
    if request.url.path.startswith(MCP_PREFIXES):
        query_key = request.query_params.get("api_key")
        if query_key is not None and query_key.strip():
            return query_key.strip()
    return None


def _client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _headers(decision: Decision) -> dict[str, str]:
    item = decision.item
    window = item.get_expiry()
    reset_in = max(0, math.ceil(decision.reset_at - time.time()))
    return {
        "RateLimit-Policy": f"{item.amount};w={window}",
        "RateLimit": f"limit={item.amount}, remaining={decision.remaining}, reset={reset_in}",
        "X-RateLimit-Limit": str(item.amount),
        "X-RateLimit-Remaining": str(decision.remaining),
        "X-RateLimit-Reset": str(math.ceil(decision.reset_at)),
    }


def _limited(decision: Decision) -> RateLimited:
    retry_after = max(1, math.ceil(decision.reset_at - time.time()))
    return RateLimited(headers={**_headers(decision), "Retry-After": str(retry_after)})


async def check(limiter: RateLimiter, request: Request) -> dict[str, str]:
    """Charge the request to its identity's budget: the headers to add, or ``RateLimited``."""
    credential = presented_credential(request)
    address = _client_address(request)
    if credential is None:
        session_id = request.query_params.get("session_id")
        if session_id and request.url.path.startswith("/messages"):
            # An SSE session's messages: the session (bound to the key that opened it).
            digest = hashlib.sha256(session_id.encode()).hexdigest()[:32]
            return await _charge(limiter, limiter.authenticated, f"sse:{digest}")
        return await _charge(limiter, limiter.public, f"ip:{address}")
    failed_identity = f"authfail:{address}"
    if limiter.failed_auth is not None:
        spent = await limiter.exhausted(limiter.failed_auth, failed_identity)
        if spent is not None:
            raise _limited(spent)
    key_id = await limiter.resolver(credential) if limiter.resolver and credential else None
    if key_id is None:
        return await _charge(limiter, limiter.failed_auth, failed_identity)
    return await _charge(limiter, limiter.authenticated, f"key:{key_id}")


async def _charge(
    limiter: RateLimiter, item: RateLimitItem | None, identity: str
) -> dict[str, str]:
    if item is None:
        return {}
    decision = await limiter.hit(item, identity)
    if not decision.allowed:
        raise _limited(decision)
    return _headers(decision)


async def enforce_rate_limit(request: Request) -> None:
    """Part of the app-wide ``kit.guards.request_checks``; a no-op outside /v1 or when limits
    are off. The budget's headers go on the response through the request's layer
    (``kit.observe``: ``RESPONSE_HEADERS`` in the request state), errors included."""
    limiter: RateLimiter | None = getattr(request.app.state, "rate_limiter", None)
    if limiter is None or not request.scope["path"].startswith(LIMITED_PREFIXES):
        return
    add_response_headers(request.scope, await check(limiter, request))


class RateLimitMiddleware:
    """The same budgets on the MCP endpoints (mounted outside the routers' dependencies)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(MCP_PREFIXES):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        limiter: RateLimiter | None = getattr(request.app.state, "rate_limiter", None)
        if limiter is None:
            await self.app(scope, receive, send)
            return
        try:
            await check(limiter, request)
        except RateLimited as exc:
            await _json_rpc_error(send, 429, -32029, "Too many requests; retry later", exc.headers)
            return
        except Exception as exc:
            if not database_unavailable(exc):
                raise
            down = database_error()
            await _json_rpc_error(send, 503, -32003, down.message, down.headers)
            return
        await self.app(scope, receive, send)


async def _json_rpc_error(
    send: Send, status: int, code: int, message: str, headers: dict[str, str]
) -> None:
    body = json.dumps(
        {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
    ).encode()
    raw = [(b"content-type", b"application/json")] + [
        (k.lower().encode(), v.encode()) for k, v in headers.items()
    ]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
