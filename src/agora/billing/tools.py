"""MCP tool of billing: a link where a person buys credits (docs/billing.md)."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.billing import service, stripe_api
from agora.billing.schemas import PackOut, PurchaseOut
from agora.kit.errors import BadRequest
from agora.kit.ids import parse_uuid
from agora.kit.units import Mode
from agora.mcp.runner import Tool, dump, tool_call, tool_error

JOBS_WRITE = Permission.JOBS_WRITE


async def get_purchase_link(ctx: Context, pack_id: str | None = None) -> dict[str, Any]:
    """A link where a person buys credits for the current workspace (with a card, through
    Stripe). Without pack_id: the "Buy credits" page and the packs on sale. With pack_id:
    a purchase of that pack is started and its own payment page is returned (`payUrl`).
    The credits arrive once Stripe confirms the payment."""
    async with tool_call(ctx, JOBS_WRITE) as call:
        base = call.settings.public_url.rstrip("/")
        service.require_buyer(call.principal)
        packs = [PackOut.model_validate(p) for p in await service.list_packs(call.session)]
        if pack_id is None:
            return {"url": f"{base}/credits/buy", "packs": [dump(p) for p in packs]}
        parsed = parse_uuid(pack_id)
        if parsed is None:
            raise tool_error(BadRequest.field("pack_id", "not a credit pack id"))
        plan = await service.plan_purchase(call.session, call.principal, parsed)
    customer = plan.customer_id or await stripe_api.create_customer(
        call.settings, workspace_id=plan.workspace_id, name=plan.customer_name, email=plan.email
    )  # no transaction open while Stripe is called
    intent = await stripe_api.create_intent(
        call.settings, purchase_id=plan.purchase_id, workspace_id=plan.workspace_id,
        amount=plan.price, currency=plan.currency, customer=customer,
    )  # fmt: skip
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        row = await service.record_purchase(call.session, plan, customer, intent)
        out = dump(PurchaseOut.model_validate(row))
    return {"url": f"{base}/credits/buy/{row.id}", "purchase": out}


TOOLS: list[Tool] = [get_purchase_link]
