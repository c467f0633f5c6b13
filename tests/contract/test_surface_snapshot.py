"""The public surface, pinned: the OpenAPI document, the web app's routes and the MCP tools are
compared with stored snapshots, so a change of shape inside the code (moving an action into its
domain, splitting a module) cannot change what clients see.

Regenerate (only when a change to the surface is intended):
``AGORA_UPDATE_SNAPSHOT=1 pytest tests/contract/test_surface_snapshot.py --backend=sqlite``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from starlette.routing import Mount

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("AGORA_UPDATE_SNAPSHOT") == "1"


def _compare(name: str, found: Any) -> None:
    path = SNAPSHOTS / name
    text = json.dumps(found, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
        pytest.skip(f"{name} rewritten")
    assert path.exists(), f"no snapshot {name}: run with AGORA_UPDATE_SNAPSHOT=1"
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert found == stored, f"{name} differs from its snapshot"


async def test_openapi_document_is_unchanged(client: httpx2.AsyncClient) -> None:
    response = await client.get("/v1/openapi")
    assert response.status_code == 200
    _compare("openapi.json", response.json())


def _web_routes(app: FastAPI) -> list[str]:
    """Every route outside /v1 and /api/v1 (the pages, OAuth, MCP, mounts), as ``METHOD path``."""
    found: list[str] = []
    for context in iter_route_contexts(app.routes):
        route, path = context.original_route, context.path_format or ""
        if path.startswith(("/v1/", "/api/v1/")):
            continue
        if isinstance(route, Mount):
            found.append(f"MOUNT {path}")
        else:
            found.extend(f"{method} {path}" for method in sorted(context.methods or ()))
    return sorted(found)


def test_web_routes_are_unchanged(app: FastAPI) -> None:
    _compare("web_routes.json", _web_routes(app))


async def test_mcp_tools_are_unchanged(app: FastAPI) -> None:
    app.state.mcp.register_tools()
    tools = await app.state.mcp.server.list_tools()
    found = {
        tool.name: {
            "description": tool.description,
            "inputSchema": tool.input_schema,
            "outputSchema": tool.output_schema,
        }
        for tool in tools
    }
    _compare("mcp_tools.json", found)
