"""What every request of the client goes through, sync and async: the credentials (an API key,
or OAuth tokens refreshed on a 401), an ``Idempotency-Key`` on every create, and ``Retry-After``
honoured on 429 and 503 (a bounded number of times, each wait bounded)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Generator
from dataclasses import dataclass

import httpx

from agora_client.errors import retry_after_seconds

RETRIED = frozenset({429, 503})
_CREATE_PATHS = ("/v1/", "/api/v1/")


@dataclass(frozen=True)
class RetryPolicy:
    """``max_retries`` more attempts after a 429/503; each wait is the answer's ``Retry-After``
    (else ``backoff`` * 2 ** n), and a wait longer than ``max_wait`` is not waited: the error is
    raised with its ``retry_after`` instead."""

    max_retries: int = 3
    max_wait: float = 30.0
    backoff: float = 0.5

    def wait(self, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before the next attempt, or None to stop and answer as is."""
        if response.status_code not in RETRIED or attempt >= self.max_retries:
            return None
        wait = retry_after_seconds(response.headers.get("retry-after"))
        if wait is None:
            wait = self.backoff * (2**attempt)
        return wait if wait <= self.max_wait else None


def with_idempotency_key(request: httpx.Request) -> None:
    """A create (a POST to the API) gets a fresh ``Idempotency-Key`` unless it has one: every
    retry of this request then carries the same key, so the server charges it once."""
    if request.method == "POST" and request.url.path.startswith(_CREATE_PATHS):
        request.headers.setdefault("Idempotency-Key", str(uuid.uuid4()))


class RetryingTransport(httpx.BaseTransport):
    def __init__(self, inner: httpx.BaseTransport, policy: RetryPolicy) -> None:
        self.inner = inner
        self.policy = policy

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        with_idempotency_key(request)
        attempt = 0
        while True:
            response = self.inner.handle_request(request)
            wait = self.policy.wait(response, attempt)
            if wait is None:
                return response
            response.close()
            time.sleep(wait)
            attempt += 1

    def close(self) -> None:
        self.inner.close()


class AsyncRetryingTransport(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport, policy: RetryPolicy) -> None:
        self.inner = inner
        self.policy = policy

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        with_idempotency_key(request)
        attempt = 0
        while True:
            response = await self.inner.handle_async_request(request)
            wait = self.policy.wait(response, attempt)
            if wait is None:
                return response
            await response.aclose()
            await asyncio.sleep(wait)
            attempt += 1

    async def aclose(self) -> None:
        await self.inner.aclose()


@dataclass
class Tokens:
    """OAuth tokens from the device sign-in (or given by the caller)."""

    access_token: str
    refresh_token: str | None = None
    client_id: str | None = None
    token_url: str | None = None


class Credentials(httpx.Auth):
    """``Authorization: Bearer <api key | access token>``; with a refresh token, a 401 refreshes
    the access token once (``POST /oauth/token``, ``grant_type=refresh_token``) and resends."""

    def __init__(self, api_key: str | None = None, tokens: Tokens | None = None) -> None:
        self.api_key = api_key
        self.tokens = tokens

    def _bearer(self) -> str | None:
        return self.api_key or (self.tokens.access_token if self.tokens else None)

    def _can_refresh(self) -> bool:
        t = self.tokens
        return bool(t and t.refresh_token and t.client_id and t.token_url)

    def _refresh_request(self) -> httpx.Request:
        t = self.tokens
        assert t is not None and t.token_url is not None
        form = {
            "grant_type": "refresh_token",
            "refresh_token": t.refresh_token or "",
            "client_id": t.client_id or "",
        }
        return httpx.Request("POST", t.token_url, data=form)

    def _take(self, response: httpx.Response) -> bool:
        if response.status_code != 200 or self.tokens is None:
            return False
        body = response.json()
        self.tokens.access_token = body["access_token"]
        self.tokens.refresh_token = body.get("refresh_token", self.tokens.refresh_token)
        return True

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        bearer = self._bearer()
        if bearer:
            request.headers["Authorization"] = f"Bearer {bearer}"
        else:  # no credentials: a public call, not an empty "Bearer "
            request.headers.pop("Authorization", None)
        response = yield request
        if response.status_code == 401 and self._can_refresh():
            refreshed = yield self._refresh_request()
            if self._take(refreshed):
                request.headers["Authorization"] = f"Bearer {self._bearer()}"
                yield request

    requires_response_body = True  # a refresh reads the token answer

    def for_stream(self) -> httpx.Auth:
        """The same credentials for a long stream, whose body must not be read up front."""
        return _Bearer(self._bearer())


class _Bearer(httpx.Auth):
    def __init__(self, bearer: str | None) -> None:
        self.bearer = bearer

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        if self.bearer:
            request.headers["Authorization"] = f"Bearer {self.bearer}"
        yield request
