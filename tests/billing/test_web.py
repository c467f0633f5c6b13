"""The web app's billing pages in-process: the Buy credits page (its CSP names exactly the
configured Stripe origin), reachable from the header balance, the credits page and a 402 refusal;
the purchase API with the browser's cookie and CSRF token; the receipt."""

from __future__ import annotations

import re

import httpx2
from fastapi import FastAPI

from agora.settings import Settings
from agora.web.render import CSP
from tests.accounts.helpers import sign_up_verified
from tests.billing.conftest import Stripe, make_pack, payment_method
from tests.billing.test_purchases import deliver
from tests.conftest import TestUser
from tests.jobs.helpers import echo, register
from tests.support.agents import LoopbackAgents


async def test_buy_page_csp_links_and_receipt(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    admin: TestUser,
    stripe_server: Stripe,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=5)
    pack = await make_pack(client, admin, credits=10, price=500)
    csrf = await sign_up_verified(client, settings, "buyer@example.com")
    origin = stripe_server.server.url

    page = await client.get("/credits/buy?next=/agents/x")
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    assert csp == (
        CSP.replace("script-src 'self'", f"script-src 'self' {origin}").replace(
            "connect-src 'self'", f"connect-src 'self' {origin}"
        )
        + f"; frame-src {origin}"
    )
    assert f'<script src="{origin}/js.stripe.com/v3/"></script>' in page.text
    assert f'value="{pack["id"]}" checked' in page.text
    assert 'data-next="/agents/x"' in page.text
    # Other pages keep the app's CSP, without Stripe; the header balance links to the page.
    credits_page = await client.get("/credits")
    assert credits_page.headers["content-security-policy"] == CSP
    assert re.search(
        r'<a href="/credits/buy" id="header-balance"[^>]*>0 credits</a>', credits_page.text
    )
    assert 'id="buy-credits" href="/credits/buy"' in credits_page.text

    # A paid agent without credits: 402, and the way to buy.
    agent_page = await client.get(f"/agents/{agent_id}")
    token = re.search(r'name="csrf" value="([^"]*)"', agent_page.text)
    assert token
    refused = await client.post(
        f"/agents/{agent_id}/hire",
        data={"csrf": token.group(1), "in.text": "hi", "maxCredits": "10"},
    )
    assert refused.status_code == 402, re.findall(r"class=\"error\"[^<]*", refused.text)
    assert f'href="/credits/buy?next=/agents/{agent_id}"' in refused.text

    # The page's calls: the purchase API with the session cookie needs the CSRF header.
    assert (
        await client.post("/v1/credits/purchases", json={"packId": pack["id"]})
    ).status_code == 403
    made = await client.post("/v1/credits/purchases", json={"packId": pack["id"]}, headers=csrf)
    assert made.status_code == 201, made.text
    purchase = made.json()["data"]
    pay_page = await client.get(f"/credits/buy/{purchase['id']}")
    assert f'data-purchase="{purchase["id"]}"' in pay_page.text
    paid = await client.post(
        f"/v1/credits/purchases/{purchase['id']}/pay",
        json={"paymentMethod": payment_method(stripe_server.server)},
        headers=csrf,
    )
    assert paid.status_code == 200, paid.text
    delivery = stripe_server.inbox.wait_for(
        "payment_intent.succeeded", purchase["stripePaymentIntentId"]
    )
    assert (await deliver(client, delivery)).json()["outcome"] == "granted"
    receipt = await client.get(f"/credits/purchases/{purchase['id']}")
    assert receipt.status_code == 200
    assert 'id="purchase-status" data-status="paid">Paid</span>' in receipt.text
    assert "5.00 EUR" in receipt.text
    history = await client.get("/credits")
    assert f'href="/credits/purchases/{purchase["id"]}"' in history.text
    assert re.search(r'id="header-balance"[^>]*>10 credits</a>', history.text)
    # A paid purchase has nothing left to pay.
    assert (await client.get(f"/credits/buy/{purchase['id']}")).status_code == 404
