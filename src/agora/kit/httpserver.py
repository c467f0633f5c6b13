"""What the HTTP server itself must do against stuck connections and forged addresses
(docs/production.md, "Deployment"; docs/security.md).

- **Header read timeout.** uvicorn arms no timer while a request's headers are being read: a
  connection that opens and sends nothing, or drips a header a minute, is kept for ever
  (slowloris). ``HeaderTimeoutProtocol`` (uvicorn's httptools protocol plus one timer) closes
  a connection whose request headers are not complete ``header_timeout`` seconds after it
  opened, or after the first byte of a later request on it; it answers ``408`` first when no
  response is under way. The deadline is not reset by more bytes, so dripping does not extend
  it. Idle keep-alive connections are closed by uvicorn's own ``timeout_keep_alive``.
- **Trusted proxies.** ``trust_proxies`` wraps the app in uvicorn's ``ProxyHeadersMiddleware`` with
  the operator's ``AGORA_TRUSTED_PROXIES`` (CIDRs; default loopback only): ``X-Forwarded-For``
  and ``X-Forwarded-Proto`` are believed only from those peers, and the client address every
  per-address limit uses (``request.client``) is the first untrusted address from the right.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.applications import Starlette
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

DEFAULT_HEADER_TIMEOUT_SECONDS = 10.0
_TIMEOUT_BODY = b"Request headers not received in time"
_TIMEOUT_ANSWER = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_TIMEOUT_BODY), _TIMEOUT_BODY)
)


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a header read deadline (``--http`` takes this class:
    ``--http agora.kit.httpserver:HeaderTimeoutProtocol``)."""

    header_timeout: float = DEFAULT_HEADER_TIMEOUT_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        if self._header_deadline is None:
            self._header_deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()  # a later request on a kept-alive connection: its own deadline

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._header_deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:
            self.transport.write(_TIMEOUT_ANSWER)
        self.transport.close()


def header_timeout_protocol(seconds: float) -> type[HeaderTimeoutProtocol]:
    """``HeaderTimeoutProtocol`` with another deadline (``AGORA_HEADER_TIMEOUT_SECONDS``)."""
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": seconds})


def trusted_proxy_list(setting: str) -> list[str]:
    """``AGORA_TRUSTED_PROXIES`` (comma-separated CIDRs or addresses; empty: none)."""
    return [part.strip() for part in setting.split(",") if part.strip()]


def trust_proxies(app: Starlette, trusted_proxies: str) -> None:
    """Make ``app`` believe ``X-Forwarded-For``/``-Proto`` from ``trusted_proxies`` only (its
    outermost layer: every other layer and every limit sees the resolved client)."""
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=trusted_proxy_list(trusted_proxies))
