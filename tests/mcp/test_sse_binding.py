"""mcp/auth.py: an SSE session is bound to the key that opened it.

The SDK's SSE client opens ``GET /sse?api_key=…`` and then POSTs every message to the endpoint
the server announced (``…?session_id=…``), usually without repeating the key: the middleware
remembers which key opened which session. A message presenting ANOTHER key is refused (401), as
is a message without a key for a session that is unknown or already closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2

from tests.conftest import MakeUser

PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}


@asynccontextmanager
async def sse_session(base: str, key: str) -> AsyncIterator[str]:
    """Open an SSE stream with ``key`` and keep reading it (as the SDK client does); yields the
    absolute URL that messages are posted to."""
    endpoint: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def read(stream: httpx2.Response) -> None:
        async for line in stream.aiter_lines():
            if line.startswith("data:") and "session_id=" in line and not endpoint.done():
                endpoint.set_result(line.removeprefix("data:").strip())

    async with (
        httpx2.AsyncClient(timeout=30) as http,
        http.stream("GET", f"{base}/sse", params={"api_key": key}) as stream,
    ):
        assert stream.status_code == 200
        reader = asyncio.create_task(read(stream))
        try:
            path = await asyncio.wait_for(endpoint, 10)
            yield path if path.startswith("http") else f"{base}{path}"
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, httpx2.HTTPError):
                await reader


async def test_an_sse_session_is_bound_to_the_key_that_opened_it(
    mcp_base: str, make_user: MakeUser
) -> None:
    owner = await make_user()
    other = await make_user()
    async with httpx2.AsyncClient(timeout=10) as http:
        async with sse_session(mcp_base, owner.api_key) as messages:
            other_key = await http.post(messages, json=PING, headers=other.key_headers)
            assert other_key.status_code == 401, other_key.text
            assert "another key" in other_key.text
            other_query = await http.post(messages + f"&api_key={other.api_key}", json=PING)
            assert other_query.status_code == 401

            same_key = await http.post(messages, json=PING, headers=owner.key_headers)
            assert same_key.status_code == 202, same_key.text
            bound = await http.post(messages, json=PING)  # the binding supplies the key
            assert bound.status_code == 202, bound.text

        # The stream is closed: the binding is gone, so a keyless message is refused.
        deadline = time.monotonic() + 5
        while True:
            after = await http.post(messages, json=PING)
            if after.status_code == 401 or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)
        assert after.status_code == 401, after.text

        unknown = await http.post(
            messages.split("session_id=")[0] + "session_id=" + "0" * 32, json=PING
        )
        assert unknown.status_code == 401
