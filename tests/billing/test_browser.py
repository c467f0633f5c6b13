"""Buying credits in a real headless Chromium, offline: ``agora serve`` (embedded SQLite, demo
agents) with localstripe on loopback as Stripe (its Stripe.js stand-in in the page, its webhooks
sent to the server). A new person tries the paid demo agent, is refused (402) and sent to "Buy
credits", is declined with a declined test card (nothing granted), pays with the good test card,
sees the credits arrive from the webhook, and the hire succeeds; then buys again with a card
that asks for 3-D Secure (Stripe.js ``createPaymentMethod``, the PaymentIntent confirmed on the
server), passes the bank's check on Stripe's test page and is back on the receipt when the
webhook's credits arrive. Marked ``process``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import agora_env, free_port, run_cli, running_agora_serve
from tests.support.stripe import (
    PUBLISHABLE_KEY,
    SECRET_KEY,
    WEBHOOK_SECRET,
    LocalStripe,
    running_localstripe,
)
from tests.web.test_browser import TIMEOUT_MS, _shot, _sign_up_and_in

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, LocalStripe]]:
    data = tmp_path_factory.mktemp("shop")
    port = free_port()  # the public URL is Stripe's return_url after 3-D Secure
    with running_localstripe() as stripe:
        env = agora_env(
            data,
            AGORA_PUBLIC_URL=f"http://127.0.0.1:{port}",
            AGORA_DEMO="true",
            AGORA_STRIPE_SECRET_KEY=SECRET_KEY,
            AGORA_STRIPE_PUBLISHABLE_KEY=PUBLISHABLE_KEY,
            AGORA_STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
            AGORA_STRIPE_API_BASE=stripe.url,
        )
        # A first start migrates a new database and seeds the demo: slow on a loaded machine.
        with running_agora_serve(env, data / "banner.txt", startup_seconds=90, port=port) as base:
            run_cli(
                env, "credits", "packs", "add", "--name", "Starter", "--credits", "50",
                "--price", "500", "--currency", "eur",
            )  # fmt: skip
            stripe.register_webhook(f"{base}/v1/billing/stripe/webhook")
            yield base, data, stripe


def _card(page: object, number: str) -> None:
    """localstripe's card Element: plain inputs named by their placeholders."""
    for field, value in (
        ("number", number), ("exp_month", "12"), ("exp_year", "30"), ("cvc", "123"),
        ("postal_code", "75001"),
    ):  # fmt: skip
        page.fill(f"#card-element input[placeholder={field}]", value)  # type: ignore[attr-defined]


def test_buy_credits_then_hire(shop: tuple[str, Path, LocalStripe], browser: object) -> None:
    base, data, _stripe = shop
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        _sign_up_and_in(page, base, data, "Grace")
        assert page.locator("#header-balance").inner_text() == "0 credits"
        page.fill("#q", "review")
        page.click("form[role=search] button")
        page.click("text=Reviewer")
        page.fill("#f-text", "An essay about lighthouses.")
        page.click("#hire-form button[type=submit]")
        page.wait_for_selector("#err-form")
        assert "Not enough credits" in page.locator("#err-form").inner_text()
        # The refusal wrote nothing: no job, so nothing for the dispatcher to send the agent.
        listed = page.request.get(f"{base}/v1/jobs")
        assert listed.ok and listed.json()["data"] == [], listed.text()
        agent_path = re.sub(r"^https?://[^/]+", "", page.url).split("/hire")[0]
        page.click("#buy-prompt a")
        page.wait_for_selector("#card-element input[placeholder=number]")
        assert page.locator("input[name=pack]:checked").count() == 1

        # A declined card: a clear error, nothing granted.
        _card(page, "4000000000000002")
        page.click("#pay")
        page.wait_for_selector("#buy-error:has-text('Your card was declined.')")
        _shot(page, "buy-declined")
        page.reload()
        assert page.locator("#header-balance").inner_text() == "0 credits"

        # The good test card: the credits arrive from the webhook.
        page.wait_for_selector("#card-element input[placeholder=number]")
        _card(page, "4242424242424242")
        page.click("#pay")
        page.wait_for_selector("#buy-status:has-text('50 credits added.')", timeout=30_000)
        _shot(page, "buy-paid")
        page.click("#continue")
        page.wait_for_url(re.compile(".*" + re.escape(agent_path) + "$"))
        assert page.locator("#header-balance").inner_text() == "50 credits"
        page.fill("#f-text", "An essay about lighthouses.")
        page.click("#hire-form button[type=submit]")
        page.wait_for_url(re.compile(r".*/jobs/[0-9a-f-]+$"))
        page.goto(f"{base}/credits")
        rows = page.locator("#purchases tbody tr")
        assert rows.count() == 2
        assert "Paid" in rows.nth(0).inner_text()
        assert "Payment failed" in rows.nth(1).inner_text()
        assert page.locator("#ledger tbody tr", has_text="purchase").count() == 1

        # 3-D Secure: the page sends the buyer to the bank's check (Stripe's test page), which
        # returns them to the receipt; the credits come with the webhook.
        before = float(page.locator("#header-balance").inner_text().split()[0])
        page.goto(f"{base}/credits/buy")
        page.wait_for_selector("#card-element input[placeholder=number]")
        _card(page, "4000002500003155")
        page.click("#pay")
        page.wait_for_selector("#complete")
        _shot(page, "buy-3ds")
        page.click("#complete")
        page.wait_for_url(re.compile(r".*/credits/purchases/[0-9a-f-]+\?payment_intent=.*"))
        for _ in range(60):  # bounded: 30 s for the webhook
            if page.locator("#purchase-status").get_attribute("data-status") == "paid":
                break
            page.wait_for_timeout(500)
            page.reload()
        assert page.locator("#purchase-status").inner_text() == "Paid"
        after = float(page.locator("#header-balance").inner_text().split()[0])
        assert after == before + 50
        # No CSP violation, nothing else failing in the pages.
        assert not [e for e in errors if "Content Security Policy" in e], errors
    finally:
        _shot(page, "buy-journey")
        context.close()
