"""A real HTTP listener on a loopback address that counts every request reaching it (tests of
the outbound policy assert zero for refused targets). Optionally answers with a redirect."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import uvicorn
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send


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


def _free_port(host: str) -> int:
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


@contextmanager
def counting_listener(
    host: str = "127.0.0.1", redirect_to: str | None = None, mode: str = "json"
) -> Iterator[Listener]:
    """Serve on ``host`` (a loopback address) in a background thread; stop it afterwards."""
    listener = Listener(host, _free_port(host), redirect_to, mode)
    config = uvicorn.Config(
        listener,
        host=host,
        port=listener.port,
        log_level="warning",
        access_log=False,
        lifespan="off",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"listener-{host}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the listener on {host} did not start within 10 s")
        time.sleep(0.02)
    try:
        yield listener
    finally:
        server.should_exit = True
        thread.join(timeout=10)
