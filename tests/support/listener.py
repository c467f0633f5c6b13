"""A real HTTP listener on a loopback address that counts every request reaching it (tests of
the outbound policy assert zero for refused targets). Optionally answers with a redirect."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from agora.sandbox.host import free_port, serve_in_thread


@dataclass
class Listener:
    host: str
    port: int
    redirect_to: str | None = None
    mode: str = "json"  # json | drip (a byte every 0.2 s for 20 s) | big (20 MiB)
    paths: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.paths)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        request = Request(scope, receive)
        self.paths.append(request.url.path)
        response: Response
        if self.mode == "drip":
            response = StreamingResponse(_drip(), media_type="application/json")
        elif self.mode == "big":
            response = StreamingResponse(_big(), media_type="application/json")
        elif self.redirect_to is not None:
            response = RedirectResponse(self.redirect_to + request.url.path, status_code=307)
        else:
            response = JSONResponse({"status": "available", "input_data": []})
        await response(scope, receive, send)


async def _drip() -> AsyncIterator[bytes]:
    for _ in range(100):
        yield b" "
        await asyncio.sleep(0.2)


async def _big() -> AsyncIterator[bytes]:
    chunk = b" " * 65536
    for _ in range(320):
        yield chunk


@contextmanager
def counting_listener(
    host: str = "127.0.0.1", redirect_to: str | None = None, mode: str = "json"
) -> Iterator[Listener]:
    """Serve on ``host`` (a loopback address) in a background thread; stop it afterwards."""
    listener = Listener(host, free_port(host), redirect_to, mode)
    with serve_in_thread(listener, f"listener-{host}", host=host, port=listener.port):
        yield listener
