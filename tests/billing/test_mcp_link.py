"""The MCP tool that gives a person a link to buy credits (the same services as the API)."""

from __future__ import annotations

import httpx2

from tests.billing.conftest import Stripe, make_pack
from tests.conftest import MakeUser, TestUser
from tests.mcp.conftest import mcp_base
from tests.mcp.test_mcp import call, call_error, connect

__all__ = ["mcp_base"]


async def test_get_purchase_link(
    mcp_base: str,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    admin: TestUser,
    stripe_server: Stripe,
) -> None:
    pack = await make_pack(client, admin, credits=20, price=200, currency="jpy")
    user = await make_user()
    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        page = await call(session, "get_purchase_link")
        assert page["url"] == f"{mcp_base}/credits/buy"
        assert [p["id"] for p in page["packs"]] == [pack["id"]]
        assert page["packs"][0]["displayPrice"] == "200 JPY"  # ¥200, not "2.00 JPY"
        started = await call(session, "get_purchase_link", pack_id=pack["id"])
        purchase = started["purchase"]
        assert started["url"] == f"{mcp_base}/credits/buy/{purchase['id']}"
        assert (purchase["status"], purchase["displayPrice"]) == ("pending", "200 JPY")
        intent = stripe_server.server.get(
            f"/v1/payment_intents/{purchase['stripePaymentIntentId']}"
        )
        assert intent["amount"] == 200
        assert "pack_id" in await call_error(session, "get_purchase_link", pack_id="nope")
    listed = await client.get("/v1/credits/purchases", headers=user.key_headers)
    assert [p["id"] for p in listed.json()["data"]] == [purchase["id"]]
