"""MCP tool of billing: a link where a person buys credits (docs/billing.md)."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.billing import service
from agora.billing.schemas import PackOut, PurchaseOut
from agora.kit.errors import BadRequest
from agora.kit.ids import parse_uuid
from agora.kit.units import Mode
from agora.mcp.runner import Tool, dump, dump_all, tool_call

JOBS_WRITE = Permission.JOBS_WRITE


async def get_purchase_link(ctx: Context, pack_id: str | None = None) -> dict[str, Any]:
    """A link where a person buys credits for the current workspace (with a card, through
    Stripe). Without pack_id: the "Buy credits" page and the packs on sale. With pack_id:
    a purchase of that pack is started and its own payment page is returned (`payUrl`).
    The credits arrive once Stripe confirms the payment."""
    async with tool_call(ctx, JOBS_WRITE, Mode.CALLS_OUT) as call:
        service.require_buyer(call.principal)
        if pack_id is None:
            packs = [PackOut.model_validate(p) for p in await service.list_packs(call.session)]
            return {"url": service.buy_url(call.settings), "packs": dump_all(packs)}
        parsed = parse_uuid(pack_id)
        if parsed is None:
            raise BadRequest.field("pack_id", "not a credit pack id")
        started = await service.start_purchase(call.unit, call.principal, call.settings, parsed)
        return {
            "url": started.pay_url,
            "purchase": dump(PurchaseOut.model_validate(started.purchase)),
        }


TOOLS: list[Tool] = [get_purchase_link]
