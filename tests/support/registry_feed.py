"""A registry feed on loopback, shaped like the Masumi registry service's registry-entry /
registry-diff (inclusive cursorId). Tests set ``entries`` and read ``requests``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.support.server import serve_in_thread


@dataclass
class RegistryFeedServer:
    base_url: str = ""
    entries: list[Any] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)

    def page(self, body: dict[str, Any]) -> list[Any]:
        limit = max(1, min(int(body.get("limit") or 10), 100))
        start = 0
        cursor = body.get("cursorId")
        if cursor is not None:
            ids = [e.get("id") if isinstance(e, dict) else None for e in self.entries]
            start = ids.index(cursor) if cursor in ids else len(ids)
        return self.entries[start : start + limit]  # inclusive of the cursor, like Masumi's


def entry(n: int, base_url: str, **extra: Any) -> dict[str, Any]:
    """A valid registry entry number ``n``."""
    value: dict[str, Any] = {
        "id": f"entry-{n:05d}",
        "agentIdentifier": f"{n:064x}",
        "name": f"Registry agent {n}",
        "description": "Imported from the registry",
        "status": "Online",
        "apiBaseUrl": f"{base_url}/agent-{n}",
        "Capability": {"name": "text", "version": "1.0.0"},
        "AgentPricing": {
            "pricingType": "Fixed",
            "FixedPricing": {"Amounts": [{"unit": "lovelace", "amount": "3000000"}]},
        },
        "Tags": ["imported", f"t{n % 7}"],
        "ExampleOutputs": [
            {"name": "sample", "mimeType": "text/plain", "url": f"https://example.com/{n}.txt"}
        ],
        "Author": {"name": "Someone", "contactEmail": "someone@example.com"},
        "Legal": {"terms": "https://example.com/terms"},
    }
    value.update(extra)
    return value


@contextmanager
def registry_feed() -> Iterator[RegistryFeedServer]:
    feed = RegistryFeedServer()

    async def handle(request: Request) -> JSONResponse:
        body = await request.json()
        feed.requests.append({"path": request.url.path, **body})
        return JSONResponse({"status": "success", "data": {"entries": feed.page(body)}})

    app = Starlette(
        routes=[
            Route("/api/v1/registry-entry", handle, methods=["POST"]),
            Route("/api/v1/registry-diff", handle, methods=["POST"]),
        ]
    )
    with serve_in_thread(app, "registry-feed") as base_url:
        feed.base_url = base_url
        yield feed
