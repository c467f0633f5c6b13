"""The one module that talks to Stripe, through the official ``stripe`` SDK (docs/billing.md).

The SDK's client is synchronous (``requests``); each call runs in a worker thread, so the event
loop never waits on Stripe. No call here is ever made while a database transaction is open: the
endpoints authenticate and read in a short transaction first, call, then write.
``AGORA_STRIPE_API_BASE`` points the SDK at another server (localstripe in tests and the demo).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass
from typing import Any

import stripe

from agora.kit.errors import BadRequest, PaymentRequired, ServiceUnavailable
from agora.settings import Settings


@dataclass(frozen=True)
class Intent:
    id: str
    client_secret: str
    status: str


@dataclass(frozen=True)
class Confirmation:
    status: str  # Stripe's PaymentIntent status: succeeded | processing | requires_action | …
    client_secret: str
    error: str | None  # last_payment_error.message, when the charge failed
    next_action: str | None = None  # next_action.type: redirect_to_url | use_stripe_sdk | …
    redirect_url: str | None = None  # next_action.redirect_to_url.url: Stripe's 3-D Secure page


@dataclass(frozen=True)
class BalanceTransaction:
    id: str
    type: str  # charge | refund | adjustment (disputes) | payout | …
    amount: int  # minor units, negative for money out
    currency: str
    charge_id: str | None  # the charge it belongs to (a refund's charge for a refund)
    source_id: str | None


def _require(settings: Settings) -> None:
    if not settings.stripe.enabled:
        raise ServiceUnavailable("Buying credits is not configured on this server")


def client(settings: Settings) -> stripe.StripeClient:
    _require(settings)
    base = settings.stripe.api_base.rstrip("/")
    return stripe.StripeClient(
        settings.stripe.secret_key,
        base_addresses={"api": base} if base else None,
        http_client=stripe.RequestsClient(timeout=settings.stripe.timeout_seconds),
        max_network_retries=2,
    )


def _unavailable(exc: stripe.StripeError) -> ServiceUnavailable:
    return ServiceUnavailable(f"Stripe did not answer as expected ({type(exc).__name__})")


async def _call(function: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return await asyncio.to_thread(function, *args, **kwargs)
    except stripe.CardError as exc:
        raise PaymentRequired(exc.user_message or "The card was declined") from exc
    except stripe.InvalidRequestError as exc:
        raise BadRequest.field(
            exc.param or "card", exc.user_message or "refused by Stripe"
        ) from exc
    except stripe.StripeError as exc:
        raise _unavailable(exc) from exc


def _id(value: Any) -> str | None:
    """An expandable field: the id string, or the object's id (localstripe expands some)."""
    if value is None or isinstance(value, str):
        return value
    found = value.get("id") if isinstance(value, dict) else None
    return str(found) if found else None


async def create_customer(
    settings: Settings, *, workspace_id: uuid.UUID, name: str, email: str | None
) -> str:
    """One Stripe customer per workspace owner (the workspace is a person's or an
    organization's); the idempotency key makes concurrent first purchases share it."""
    params: dict[str, Any] = {"name": name[:200], "metadata": {"workspace_id": str(workspace_id)}}
    if email:
        params["email"] = email
    customer = await _call(
        client(settings).v1.customers.create,
        params=params,
        options={"idempotency_key": f"agora-customer-{workspace_id}"},
    )
    return str(customer.id)


async def create_intent(
    settings: Settings,
    *,
    purchase_id: uuid.UUID,
    workspace_id: uuid.UUID,
    amount: int,
    currency: str,
    customer: str,
) -> Intent:
    intent = await _call(
        client(settings).v1.payment_intents.create,
        params={
            "amount": amount,
            "currency": currency,
            "customer": customer,
            "payment_method_types": ["card"],
            "metadata": {"purchase_id": str(purchase_id), "workspace_id": str(workspace_id)},
        },
        options={"idempotency_key": f"agora-purchase-{purchase_id}"},
    )
    return Intent(str(intent.id), str(intent.client_secret), str(intent.status))


async def confirm_intent(
    settings: Settings, *, intent_id: str, payment_method: str, return_url: str
) -> Confirmation:
    """Confirm the PaymentIntent on the server with a PaymentMethod from Stripe.js
    (``createPaymentMethod``): Stripe's current card path ("Finalize payments on the server",
    https://docs.stripe.com/payments/finalize-payments-on-the-server; ``payment_method`` and
    ``return_url`` of ``params/_payment_intent_confirm_params.py`` in the SDK 16.1.0). A card
    that needs 3-D Secure leaves the intent ``requires_action`` with a ``next_action``
    (``redirect_to_url``: Stripe's page, which sends the buyer back to ``return_url``); the
    credits still come only with the webhook. A decline is Stripe's 402 (the intent goes back to
    ``requires_payment_method``); a declined purchase is final: the buyer starts another."""
    api = client(settings).v1
    try:
        intent = await asyncio.to_thread(
            api.payment_intents.confirm,
            intent_id,
            params={"payment_method": payment_method, "return_url": return_url},
        )
    except stripe.CardError as exc:
        return Confirmation("requires_payment_method", "", exc.user_message or "declined")
    except stripe.InvalidRequestError as exc:
        raise BadRequest.field("paymentMethod", exc.user_message or "refused by Stripe") from exc
    except stripe.StripeError as exc:
        raise _unavailable(exc) from exc
    data = intent.to_dict()
    error = data.get("last_payment_error") or None
    message = str(error.get("message")) if error else None
    action: dict[str, Any] = data.get("next_action") or {}
    redirect: dict[str, Any] = action.get("redirect_to_url") or {}
    return Confirmation(
        str(data["status"]),
        str(data["client_secret"]),
        message,
        str(action["type"]) if action.get("type") else None,
        str(redirect["url"]) if redirect.get("url") else None,
    )


async def balance_transactions(
    settings: Settings, *, limit: int = 10_000
) -> list[BalanceTransaction]:
    """Every balance transaction (newest first), their sources expanded to find the charge."""
    api = client(settings).v1
    out: list[BalanceTransaction] = []
    after: str | None = None
    while len(out) < limit:
        params: dict[str, Any] = {"limit": 100, "expand": ["data.source"]}
        if after:
            params["starting_after"] = after
        page = await _call(api.balance_transactions.list, params=params)
        listed = page.to_dict()
        rows: list[dict[str, Any]] = listed.get("data") or []
        for txn in rows:
            source = txn.get("source")
            source_id = _id(source)
            charge_id = source_id if source_id and source_id.startswith("ch_") else None
            if charge_id is None and isinstance(source, dict):
                charge_id = _id(source.get("charge"))
            out.append(
                BalanceTransaction(
                    str(txn["id"]),
                    str(txn["type"]),
                    int(txn["amount"]),
                    str(txn["currency"]),
                    charge_id,
                    source_id,
                )
            )
        if not listed.get("has_more") or not rows:
            break
        after = str(rows[-1]["id"])
    return out


def _signed_at(signature: str) -> int | None:
    """The ``t=`` of a ``Stripe-Signature`` header (Stripe's scheme: ``t=<unix>,v1=<hmac>,…``)."""
    for item in signature.split(","):
        key, _, value = item.strip().partition("=")
        if key == "t":
            return int(value) if value.isdigit() else None
    return None


def verify(settings: Settings, payload: bytes, signature: str | None) -> stripe.Event:
    """The event, if ``Stripe-Signature`` signs ``payload`` with the webhook secret, or the
    Connect endpoint's when one is set (the SDK's check), at a time within 5 minutes of now,
    **either way**: the SDK refuses only old signatures; a future-dated one is refused here too
    (issue 43.8, docs/security.md). 400 otherwise."""
    if not settings.stripe.webhook_secret:
        raise ServiceUnavailable("The Stripe webhook secret is not configured")
    if not signature:
        raise BadRequest.field("Stripe-Signature", "missing")
    tolerance = stripe.Webhook.DEFAULT_TOLERANCE
    secrets = [settings.stripe.webhook_secret]
    if settings.stripe.connect_webhook_secret:  # the Connect endpoint's (docs/billing.md)
        secrets.append(settings.stripe.connect_webhook_secret)
    event: stripe.Event | None = None
    for secret in secrets:
        try:
            event = stripe.Webhook.construct_event(payload, signature, secret, tolerance=tolerance)
            break
        except stripe.SignatureVerificationError:
            continue
        except ValueError as exc:
            raise BadRequest.field("body", "not a Stripe event") from exc
    if event is None:
        raise BadRequest.field("Stripe-Signature", "does not sign this payload")
    signed_at = _signed_at(signature)
    if signed_at is None or abs(time.time() - signed_at) > tolerance:
        raise BadRequest.field(
            "Stripe-Signature", f"signed more than {tolerance} seconds away from now"
        )
    return event


# ---- Stripe Connect: paying sellers (docs/billing.md, "Paying sellers") ----------------------


@dataclass(frozen=True)
class ConnectState:
    """What Agora keeps of a connected account (``stripe.Account``, SDK 16.1.0 ``_account.py``)."""

    id: str
    details_submitted: bool
    payouts_enabled: bool
    requirements_due: list[str]  # requirements.currently_due, then past_due not among them
    disabled_reason: str | None


def connect_state(account: Any) -> ConnectState:
    """An ``Account`` (the SDK's object or its dict) as Agora keeps it."""
    data: dict[str, Any] = account.to_dict() if hasattr(account, "to_dict") else dict(account)
    requirements: dict[str, Any] = data.get("requirements") or {}
    due = list(requirements.get("currently_due") or [])
    due += [item for item in requirements.get("past_due") or [] if item not in due]
    return ConnectState(
        str(data["id"]),
        bool(data.get("details_submitted")),
        bool(data.get("payouts_enabled")),
        [str(item) for item in due],
        str(requirements["disabled_reason"]) if requirements.get("disabled_reason") else None,
    )


async def create_express_account(
    settings: Settings, *, account_key: str, email: str | None
) -> ConnectState:
    """A Connect Express account for a seller (``params/_account_create_params.py``: ``type``,
    ``email``, ``capabilities[transfers][requested]``, ``metadata``); the idempotency key makes
    a second click (or two tabs) share one account."""
    params: dict[str, Any] = {
        "type": "express",
        "capabilities": {"transfers": {"requested": True}},
        "metadata": {"agora_account": account_key},
    }
    if email:
        params["email"] = email
    account = await _call(
        client(settings).v1.accounts.create,
        params=params,
        options={"idempotency_key": f"agora-connect-{account_key}"},
    )
    return connect_state(account)


async def retrieve_account(settings: Settings, account_id: str) -> ConnectState:
    return connect_state(await _call(client(settings).v1.accounts.retrieve, account_id))


async def onboarding_link(
    settings: Settings, *, account_id: str, refresh_url: str, return_url: str
) -> str:
    """An account link to Stripe's hosted onboarding (``type=account_onboarding``; single-use,
    minutes long: the refresh URL asks for a new one)."""
    link = await _call(
        client(settings).v1.account_links.create,
        params={
            "account": account_id,
            "type": "account_onboarding",
            "refresh_url": refresh_url,
            "return_url": return_url,
        },
    )
    return str(link.url)


@dataclass(frozen=True)
class TransferResult:
    transfer_id: str | None  # None: Stripe refused it (``refusal`` says why)
    refusal: str | None


async def transfer(
    settings: Settings,
    *,
    amount: int,
    currency: str,
    destination: str,
    idempotency_key: str,
    metadata: dict[str, str],
    group: str,
) -> TransferResult:
    """One Transfer to a connected account (``params/_transfer_create_params.py``). A refusal
    (400: the account cannot receive transfers, the platform's balance is short) is final for
    this attempt; anything else (Stripe unreachable, a 409 key in use, a 5xx) raises
    ``ServiceUnavailable``: the payout stays pending and the next run retries it with the same
    idempotency key, so Stripe transfers once."""
    try:
        made = await asyncio.to_thread(
            client(settings).v1.transfers.create,
            params={
                "amount": amount,
                "currency": currency,
                "destination": destination,
                "metadata": metadata,
                "transfer_group": group,
            },
            options={"idempotency_key": idempotency_key},
        )
    except stripe.InvalidRequestError as exc:
        return TransferResult(None, f"{exc.code or 'refused'}: {exc.user_message or exc}"[:500])
    except stripe.StripeError as exc:
        raise _unavailable(exc) from exc
    return TransferResult(str(made.id), None)


@dataclass(frozen=True)
class TransferState:
    id: str
    amount: int
    amount_reversed: int
    currency: str
    destination: str | None
    payout_id: str | None  # metadata.agora_payout: the payout that made it


async def transfers(settings: Settings, *, limit: int = 10_000) -> list[TransferState]:
    """Every transfer of the platform (newest first), with the Agora payout each names
    (``metadata.agora_payout``)."""
    api = client(settings).v1
    out: list[TransferState] = []
    after: str | None = None
    while len(out) < limit:
        params: dict[str, Any] = {"limit": 100}
        if after:
            params["starting_after"] = after
        listed = (await _call(api.transfers.list, params=params)).to_dict()
        rows: list[dict[str, Any]] = listed.get("data") or []
        for found in rows:
            metadata: dict[str, Any] = found.get("metadata") or {}
            out.append(
                TransferState(
                    str(found["id"]),
                    int(found["amount"]),
                    int(found.get("amount_reversed") or 0),
                    str(found["currency"]),
                    _id(found.get("destination")),
                    str(metadata["agora_payout"]) if metadata.get("agora_payout") else None,
                )
            )
        if not listed.get("has_more") or not rows:
            break
        after = str(rows[-1]["id"])
    return out
