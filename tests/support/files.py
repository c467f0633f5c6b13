"""Loopback pieces for the files tests (issue 33):

- ``file_agent``: a real MIP-003 agent whose schema has a ``file`` field; on its first /status
  poll it GETs the URL it was given for that field (Agora's signed URL), keeps what it got, and
  completes with a result naming an image URL and a CSV URL it serves itself.
- ``LoopBridge``: an ASGI app served on a loopback port (in its own thread) that hands each
  request to an app served in the test's event loop (``httpx2.ASGITransport``), so an agent in
  another thread can reach the in-process Agora by URL, as a real agent reaches a real server.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from agora.sandbox.protocol import AgentJob, Behaviour, Step
from tests.support.agents import LoopbackAgents

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f"
    b"\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d"
    b"\x00\x00\x00\x00IEND\xaeB`\x82"
)
PDF = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"
CSV = b"page,words\n1,120\n2,98\n"
FILE_SCHEMA = {
    "input_data": [
        {"id": "document", "type": "file", "name": "Document to read"},
    ]
}


@dataclass
class FileAgent:
    assets_url: str  # where its output files are
    received: list[tuple[str, int, bytes]] = field(default_factory=list)  # (url, status, body)
    behaviour: Behaviour | None = None


def _assets_app(extra: dict[str, tuple[bytes, str]]) -> Starlette:
    files = {"chart.png": (PNG, "image/png"), "data.csv": (CSV, "text/csv"), **extra}

    async def serve(request: Request) -> Response:
        found = files.get(request.path_params["name"])
        if found is None:
            return Response(status_code=404)
        return Response(found[0], media_type=found[1])

    return Starlette(routes=[Route("/{name}", serve)])


def file_agent(
    agents: LoopbackAgents,
    *,
    extra_outputs: dict[str, tuple[bytes, str]] | None = None,
    result_extra: str = "",
) -> FileAgent:
    """A file-reading agent (its output files served on the loopback agents' server; register
    ``behaviour`` to serve the agent itself)."""
    assets = agents.host.mount(f"assets-{uuid.uuid4().hex[:8]}", _assets_app(extra_outputs or {}))
    made = FileAgent(assets_url=f"{agents.base_url}{assets}")

    def step(job: AgentJob) -> Step:
        url = str(job.input_data.get("document", ""))
        answer = httpx2.get(url, timeout=5.0)
        made.received.append((url, answer.status_code, answer.content))
        if answer.status_code != 200:
            return Step("failed", result=f"could not read the document: {answer.status_code}")
        return Step(
            "completed",
            result=(
                f"Read {len(answer.content)} bytes.\n\n![chart]({made.assets_url}/chart.png)\n\n"
                f"[the data]({made.assets_url}/data.csv)"
                + result_extra.replace("ASSETS", made.assets_url)
            ),
        )

    made.behaviour = Behaviour(name="reader", input_schema=FILE_SCHEMA, step=step)
    return made


class LoopBridge:
    """Forward HTTP requests received in a server thread to ``target`` in ``loop``."""

    def __init__(self) -> None:
        self.target: httpx2.AsyncClient | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or self.target is None or self.loop is None:
            return
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        path = scope["path"] + (
            f"?{scope['query_string'].decode()}" if scope["query_string"] else ""
        )
        headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"host"]
        future = asyncio.run_coroutine_threadsafe(
            self.target.request(scope["method"], path, headers=headers, content=body), self.loop
        )
        answer = await asyncio.wrap_future(future)
        await send(
            {
                "type": "http.response.start",
                "status": answer.status_code,
                "headers": [
                    (k.encode(), v.encode())
                    for k, v in answer.headers.items()
                    if k.lower() not in ("content-length", "transfer-encoding")
                ],
            }
        )
        await send({"type": "http.response.body", "body": answer.content})
