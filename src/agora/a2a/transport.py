"""The ``a2a-sdk`` client speaks ``httpx``; Agora's outbound guard is an ``httpx2`` client
(``kit.outbound``). ``GuardedBridge`` is an ``httpx`` transport that sends every request through
the guarded client, so the SDK's calls get the same address policy, no redirects and the same
timeouts — and a byte limit on every answer, streams included."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import httpx2

from agora.kit.outbound import OutboundError, OutboundRefused, OutboundTimeout

MAX_ANSWER_BYTES = 4 * 1024 * 1024  # one answer or one whole event stream


class _Stream(httpx.AsyncByteStream):
    def __init__(self, answer: httpx2.Response, request: httpx.Request) -> None:
        self._answer, self._request = answer, request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        try:
            async for chunk in self._answer.aiter_raw():
                seen += len(chunk)
                if seen > MAX_ANSWER_BYTES:
                    raise httpx.ReadError("answer too large", request=self._request)
                yield chunk
        except httpx2.TimeoutException as exc:
            raise httpx.ReadTimeout("no answer in time", request=self._request) from exc
        except (httpx2.HTTPError, OutboundError) as exc:
            raise httpx.ReadError("unreachable", request=self._request) from exc

    async def aclose(self) -> None:
        await self._answer.aclose()


class GuardedBridge(httpx.AsyncBaseTransport):
    """An ``httpx`` transport over a guarded ``httpx2`` client (not closed with it: the
    process's client outlives each agent call)."""

    def __init__(self, guarded: httpx2.AsyncClient) -> None:
        self._guarded = guarded

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        outgoing = self._guarded.build_request(
            request.method,
            str(request.url),
            headers=list(request.headers.multi_items()),
            content=body,
        )
        try:
            answer = await self._guarded.send(outgoing, stream=True)
        except (OutboundTimeout, httpx2.TimeoutException) as exc:
            raise httpx.ConnectTimeout("no answer in time", request=request) from exc
        except (OutboundError, httpx2.HTTPError) as exc:
            # "refused by policy" / "unreachable" only: never which step failed.
            why = "refused by policy" if isinstance(exc, OutboundRefused) else "unreachable"
            raise httpx.ConnectError(why, request=request) from exc
        return httpx.Response(
            answer.status_code,
            headers=list(answer.headers.multi_items()),
            stream=_Stream(answer, request),
            request=request,
        )


def bridged_client(
    guarded: httpx2.AsyncClient, *, headers: dict[str, str] | None = None, timeout: float
) -> httpx.AsyncClient:
    """An ``httpx`` client for the SDK whose requests go through ``guarded``."""
    return httpx.AsyncClient(
        transport=GuardedBridge(guarded),
        headers=headers or {},
        timeout=httpx.Timeout(timeout),
        follow_redirects=False,
    )
