"""The Stripe Connect emulation (tests/support/stripe_connect.py) answers as Stripe does on the
paths Agora uses, read through the official ``stripe`` SDK 16.1.0 the way Agora reads Stripe:
an Express account created with its requirements due and payouts off, account links that are
single-use, transfers refused to an account without the ``transfers`` capability and above the
platform's balance, idempotent transfers (a replay is the same transfer; other parameters are
``idempotency_error``), reversals bounded by what is left, Stripe's error object on every
refusal (400/401/404), and the events signed like localstripe's own."""

from __future__ import annotations

import uuid

import httpx2
import pytest
import stripe

from tests.billing.conftest import Stripe
from tests.support.stripe import SECRET_KEY, WEBHOOK_SECRET


def _sdk(stripe_server: Stripe) -> stripe.StripeClient:
    # localstripe keeps its webhooks in process-wide state: ours again, in case another test's
    # server took the name (tests/billing/conftest.py does the same for every test).
    stripe_server.server.register_webhook(stripe_server.webhook_url)
    return stripe.StripeClient(SECRET_KEY, base_addresses={"api": stripe_server.server.url})


def _link(api: object, account: str) -> str:
    link = api.account_links.create(  # type: ignore[attr-defined]
        params={"account": account, "type": "account_onboarding",
                "refresh_url": "http://127.0.0.1:9/refresh", "return_url": "http://127.0.0.1:9/back"}
    )  # fmt: skip
    assert link.object == "account_link" and link.expires_at > link.created
    url: str = link.url
    return url


def test_accounts_links_and_onboarding(stripe_server: Stripe) -> None:
    api = _sdk(stripe_server).v1
    account = api.accounts.create(params={"type": "express", "email": "s@example.com"})
    assert isinstance(account, stripe.Account) and account.type == "express"
    assert (account.details_submitted, account.charges_enabled, account.payouts_enabled) == (
        False,
        False,
        False,
    )
    assert account.requirements is not None
    assert "external_account" in (account.requirements.currently_due or [])
    assert account.requirements.disabled_reason == "requirements.past_due"

    url = _link(api, account.id)
    left = httpx2.post(url, data={"result": "leave"}, timeout=10)
    assert left.status_code == 302 and left.headers["location"].endswith("/back")
    assert api.accounts.retrieve(account.id).details_submitted is False
    used = httpx2.get(url, timeout=10)  # single-use: to the refresh URL
    assert used.status_code == 302 and used.headers["location"].endswith("/refresh")
    done = httpx2.post(_link(api, account.id), data={"result": "complete"}, timeout=10)
    assert done.status_code == 302
    ready = api.accounts.retrieve(account.id)
    assert (ready.details_submitted, ready.payouts_enabled) == (True, True)
    assert ready.requirements is not None and ready.requirements.currently_due == []
    delivery = stripe_server.inbox.wait_for("account.updated", account.id)
    event = stripe.Webhook.construct_event(delivery.body, delivery.signature, WEBHOOK_SECRET)
    assert event.type == "account.updated" and event.account == account.id
    assert event.data.object.payouts_enabled is True

    with pytest.raises(stripe.InvalidRequestError) as missing:
        api.accounts.retrieve("acct_nope")
    assert missing.value.http_status == 404
    assert (missing.value.code, missing.value.param) == ("resource_missing", "account")
    with pytest.raises(stripe.InvalidRequestError) as kind:
        api.accounts.create(params={"type": "premium"})  # type: ignore[typeddict-item]
    assert kind.value.http_status == 400 and kind.value.param == "type"
    with pytest.raises(stripe.InvalidRequestError) as no_url:
        api.account_links.create(
            params={"account": account.id, "type": "account_onboarding",
                    "refresh_url": "http://127.0.0.1:9/r"}  # type: ignore[typeddict-item]
        )  # fmt: skip
    assert no_url.value.param == "return_url" and no_url.value.code == "parameter_missing"
    unauthenticated = httpx2.post(f"{stripe_server.server.url}/v1/accounts", timeout=10)
    assert unauthenticated.status_code == 401


def test_transfers_reversals_idempotency_and_balance(stripe_server: Stripe) -> None:
    api = _sdk(stripe_server).v1
    account = api.accounts.create(params={"type": "express"})
    params = {"amount": 700, "currency": "eur", "destination": account.id}
    with pytest.raises(stripe.InvalidRequestError) as inactive:
        api.transfers.create(params=params)  # type: ignore[arg-type]
    assert inactive.value.code == "insufficient_capabilities_for_transfer"
    assert inactive.value.http_status == 400 and inactive.value.param == "destination"
    httpx2.post(_link(api, account.id), data={"result": "complete"}, timeout=10)

    funded = httpx2.post(
        f"{stripe_server.server.url}/_config/connect/balance",
        data={"amount": "1000", "currency": "eur"},
        timeout=10,
    )
    assert funded.status_code == 200
    key = f"payout-{uuid.uuid4()}"
    first = api.transfers.create(params=params, options={"idempotency_key": key})  # type: ignore[arg-type]
    replay = api.transfers.create(params=params, options={"idempotency_key": key})  # type: ignore[arg-type]
    assert isinstance(first, stripe.Transfer) and replay.id == first.id
    assert (first.amount, first.amount_reversed, first.reversed) == (700, 0, False)
    assert first.destination == account.id
    with pytest.raises(stripe.IdempotencyError):
        api.transfers.create(
            params={**params, "amount": 800},  # type: ignore[arg-type]
            options={"idempotency_key": key},
        )
    [eur] = [b for b in api.balance.retrieve().available if b.currency == "eur"]
    assert eur.amount == 300  # one transfer, replayed: taken once
    with pytest.raises(stripe.InvalidRequestError) as short:
        api.transfers.create(params={**params, "amount": 301})  # type: ignore[arg-type]
    assert short.value.code == "balance_insufficient" and short.value.http_status == 400

    with pytest.raises(stripe.InvalidRequestError) as too_much:
        api.transfers.reversals.create(first.id, params={"amount": 701})
    assert too_much.value.param == "amount"
    part = api.transfers.reversals.create(first.id, params={"amount": 200})
    assert isinstance(part, stripe.TransferReversal) and part.transfer == first.id
    after = api.transfers.retrieve(first.id)
    assert (after.amount_reversed, after.reversed) == (200, False)
    api.transfers.reversals.create(first.id)  # the rest
    assert api.transfers.retrieve(first.id).reversed is True
    delivery = stripe_server.inbox.wait_for("transfer.reversed", first.id)
    assert delivery.event["data"]["object"]["amount_reversed"] in (200, 700)
    listed = api.transfers.list(params={"limit": 100})
    assert first.id in [t.id for t in listed.data]
    with pytest.raises(stripe.InvalidRequestError) as unknown:
        api.transfers.retrieve("tr_nope")
    assert unknown.value.http_status == 404 and unknown.value.code == "resource_missing"
