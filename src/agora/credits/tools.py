"""MCP tool of the workspace's credits."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.credits import service
from agora.credits.schemas import CreditsOut
from agora.kit import csvexport
from agora.mcp.runner import Tool, ToolCall, dump, tool_call

READ = Permission.READ


async def get_credits(ctx: Context) -> dict[str, Any]:
    """The workspace's credit balance, held credits and recent ledger entries."""
    async with tool_call(ctx, READ) as call:
        return dump(CreditsOut.model_validate(await service.account(call.session, call.principal)))


# An export answered in a tool result is cut at this many rows (docs/mcp.md, "Exports").
EXPORT_ROWS = 1000


async def _answer(
    call: ToolCall, export: csvexport.Export[Any, Any], path: str, since: str | None,
    until: str | None,
) -> dict[str, Any]:  # fmt: skip
    text, rows, more = await csvexport.first_rows(call.session, export, EXPORT_ROWS)
    query = urlencode({k: v for k, v in (("from", since), ("to", until)) if v})
    link = f"{call.settings.public_url}{path}" + (f"?{query}" if query else "")
    return {"csv": text, "rows": rows, "truncated": more, "download": link}


async def export_ledger(
    ctx: Context, start: str | None = None, end: str | None = None
) -> dict[str, Any]:
    """The workspace's credit ledger as CSV, oldest first (start/end: a period, dates or ISO
    times, end excluded): up to 1000 rows in `csv`; `truncated` says more were left out, and
    `download` is the REST export of them all (GET, with the same key). Cells a spreadsheet
    would run as a formula start with '."""
    async with tool_call(ctx, READ) as call:
        export = service.ledger_export(call.principal, since=start, until=end)
        return await _answer(call, export, "/v1/credits/ledger/export", start, end)


async def export_spend(
    ctx: Context, start: str | None = None, end: str | None = None
) -> dict[str, Any]:
    """A period's spend as CSV (start/end: dates or ISO times, end excluded; this calendar month
    when neither is given): every credit captured for a job and every usage charge, up to 1000
    rows in `csv`, `truncated` and `download` as export_ledger."""
    async with tool_call(ctx, READ) as call:
        export = service.spend_export(call.principal, since=start, until=end)
        return await _answer(call, export, "/v1/credits/spend/export", start, end)


TOOLS: list[Tool] = [get_credits, export_ledger, export_spend]
