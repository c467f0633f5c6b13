"""MCP tool of files: upload a file an agent's ``file`` field takes (docs/mcp.md, "Uploads")."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from agora.auth.principal import Permission
from agora.files import service
from agora.files.schemas import FileOut
from agora.kit.units import Mode
from agora.mcp.runner import Tool, dump, tool_call

JOBS_WRITE = Permission.JOBS_WRITE


async def upload_file(
    ctx: Context,
    filename: str,
    content_base64: str | None = None,
    url: str | None = None,
) -> dict[str, Any]:
    """Upload one file and get its id, to pass where an agent's input schema says `file`
    (hire_<agent> tools and create_job): either content_base64 (the bytes, base64; the MCP
    request's size limit bounds it) or url (an http(s) URL Agora fetches through its outbound
    policy, no redirects). The type is sniffed from the content and must be allowed; the
    workspace's storage quota applies."""
    if (content_base64 is None) == (url is None):
        raise ToolError("400 Invalid request parameters: give content_base64 or url (one)")
    data = b""
    if content_base64 is not None:
        try:
            data = base64.b64decode(content_base64, validate=True)
        except (binascii.Error, ValueError):
            raise ToolError(
                "400 Invalid request parameters: content_base64 is not base64"
            ) from None
    async with tool_call(ctx, JOBS_WRITE, Mode.CALLS_OUT) as call:
        settings = call.settings
        storage = service.storage_for(settings)
        allowance = await service.upload_allowance(call.session, call.principal, settings)
        if url is not None:
            data = await call.unit.call_out(
                service.fetch_content(url, allowance=allowance, settings=settings)
            )
        uploaded = await call.unit.call_out(
            service.receive_content(
                storage, data, filename,
                workspace_id=call.principal.workspace_id, allowance=allowance, settings=settings,
            )
        )  # fmt: skip
        session = await call.unit.write()
        row = await service.record_upload(
            session, call.principal, uploaded, settings=settings, storage=storage
        )
        return dump(FileOut.model_validate(row))


TOOLS: list[Tool] = [upload_file]
