"""Paying sellers through Stripe Connect (docs/billing.md, "Paying sellers"): a developer's
connected Express account (onboarding through an account link; its state from
``account.updated``), and the payouts of their payable earnings, one Transfer per account,
period (``YYYY-MM``) and currency.

A payout run (``billing/worker.py``: ``agora payouts run`` and the monthly loop) keeps the house
rule of no transaction across a call to Stripe: it **claims** a payout in a short transaction
(a ``pending`` row: the unique (account, period, currency, attempt) lets one of two concurrent
runs claim it), **calls** Stripe with the idempotency key of that attempt, then **writes** the
answer. A payout left pending (a crash, Stripe unreachable) is retried with the same key: Stripe
answers with the transfer it made, never a second one. A refused transfer, a
``transfer.reversed`` or an account Stripe restricted gives the amount back (a failed or
reversed payout no longer counts against the balance) and tells the developer and operators.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

import stripe
import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import service as accounts
from agora.audit import service as audit
from agora.auth.principal import Permission, Principal
from agora.auth.roles import OrgAction, role_allows
from agora.billing import payouts_repository as repo
from agora.billing import repository as billing_repo
from agora.billing import stripe_api
from agora.billing.stripe_api import ConnectState, TransferResult
from agora.developer.earnings import describe_reason
from agora.kit.errors import BadRequest, Conflict, Forbidden
from agora.kit.timeutil import utcnow
from agora.kit.units import Unit
from agora.models import ConnectedAccount, Payout
from agora.models.payout import account_key
from agora.notifications import kinds, notify
from agora.settings import Settings

log = structlog.get_logger(__name__)
PENDING, PAID, FAILED, REVERSED = "pending", "paid", "failed", "reversed"
RETRY_LIMIT = 500  # pending payouts retried in one run


def key_of(principal: Principal) -> str:
    """The caller's earnings account (their organization's in its workspace)."""
    principal.require(Permission.READ)
    if principal.key_kind == "coworker":
        raise BadRequest.field("key", "Coworker keys have no earnings account")
    return account_key(principal.user_id, principal.organization_id)


def _urls(settings: Settings) -> tuple[str, str]:
    base = settings.public_url.rstrip("/")
    return f"{base}/developer/payouts/refresh", f"{base}/developer/payouts/return"


async def start_onboarding(unit: Unit, principal: Principal, settings: Settings) -> str:
    """The URL of Stripe's onboarding for the caller's account: their Express account is made
    the first time (one per earnings account), then a single-use account link to it whose return
    URL re-reads the account and whose refresh URL asks for a new link."""
    key = key_of(principal)
    principal.require(Permission.PROFILE_WRITE)
    if not settings.stripe.enabled:  # the server's setup, not a fault of the moment (409)
        raise Conflict(
            "Payouts are not set up on this server (the operator has not configured Stripe); "
            "your earnings wait in your balance"
        )
    if principal.organization_id is not None and not role_allows(
        principal.org_role, OrgAction.BUY_CREDITS
    ):  # where the organization's money goes: its owners' and admins' (auth/roles.py)
        raise Forbidden("Only the organization's owners and admins connect its Stripe account")
    session = await unit.session()
    found = await repo.connected_account(session, key)
    email = await billing_repo.user_email(session, principal.user_id) if found is None else None
    refresh_url, return_url = _urls(settings)

    async def call() -> tuple[ConnectState | None, str]:
        state = None
        account_id = found.stripe_account_id if found is not None else None
        if account_id is None:
            state = await stripe_api.create_express_account(settings, account_key=key, email=email)
            account_id = state.id
        url = await stripe_api.onboarding_link(
            settings, account_id=account_id, refresh_url=refresh_url, return_url=return_url
        )
        return state, url

    state, url = await unit.call_out(call())
    if state is not None:
        await record_connected(await unit.write(), principal, state)
    return url


async def record_connected(
    session: AsyncSession, principal: Principal, state: ConnectState
) -> ConnectedAccount | None:
    """Keep the caller's new Stripe account (None: a concurrent connect kept it first)."""
    row = ConnectedAccount(
        account_key=key_of(principal),
        owner_user_id=principal.user_id,
        owner_organization_id=principal.organization_id,
        stripe_account_id=state.id,
    )
    _apply(row, state)
    if not await repo.add_connected_account(session, row):
        return None
    await audit.record(
        session, "payouts.account_connected", actor=principal, target_kind="account",
        target_id=row.id, workspace_id=principal.workspace_id,
        details={"stripeAccount": state.id},
    )  # fmt: skip
    return row


async def refresh_account(unit: Unit, principal: Principal, settings: Settings) -> None:
    """Back from Stripe's onboarding: read the account from Stripe (the webhook may come later)
    and keep its state."""
    found = await repo.connected_account(await unit.session(), key_of(principal))
    if found is None:
        return
    state = await unit.call_out(stripe_api.retrieve_account(settings, found.stripe_account_id))
    await apply_account(await unit.write(), state)


def _apply(row: ConnectedAccount, state: ConnectState) -> None:
    row.details_submitted = state.details_submitted
    row.payouts_enabled = state.payouts_enabled
    row.requirements_due = ",".join(state.requirements_due)[:4000]
    row.disabled_reason = state.disabled_reason


async def apply_account(session: AsyncSession, state: ConnectState) -> str:
    """Keep an account's state; an account that could be paid and no longer can (Stripe
    restricted it) is told to its developer and the operators."""
    row = await repo.connected_by_stripe_id(session, state.id)
    if row is None:
        return "unknown"
    was_enabled = row.payouts_enabled
    _apply(row, state)
    await session.flush()
    if was_enabled and not state.payouts_enabled:
        data: dict[str, object] = {
            "reason": describe_reason(state.disabled_reason, state.requirements_due)
        }
        await _tell(session, row.owner_user_id, kinds.PAYOUTS_ACCOUNT_RESTRICTED.name, row.id, data)
        return "restricted"
    return "updated"


async def _tell(
    session: AsyncSession, developer: uuid.UUID | None, kind: str, payout: uuid.UUID,
    data: dict[str, object],
) -> None:  # fmt: skip
    """The developer and the operators (each once)."""
    people = [developer, *await accounts.operators(session)]
    for person in dict.fromkeys(p for p in people if p is not None):
        await notify(session, user_id=person, kind=kind, subject_ref=f"payout:{payout}",
                         data=data)  # fmt: skip


# ---- payout runs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Due:
    key: str
    currency: str
    amount: int
    stripe_account_id: str | None
    blocked: str | None  # why it cannot be paid (no account, payouts not enabled)


def period_of(now: datetime) -> str:
    return f"{now.year:04d}-{now.month:02d}"


async def due(session: AsyncSession, settings: Settings, now: datetime, period: str) -> list[Due]:
    """The accounts to pay this period: a payable balance of at least the minimum and no
    payout of the period pending or paid; those that cannot be paid say why."""
    balances = await repo.payable_balances(session, now)
    wanted = {key: amount for key, amount in balances.items() if amount >= settings.payouts.minimum}
    connected = await repo.connected_accounts(session, sorted({k for k, _c in wanted}))
    out: list[Due] = []
    for (key, currency), amount in sorted(wanted.items()):
        tries = await repo.period_payouts(session, key, period, currency)
        if any(p.status in (PENDING, PAID) for p in tries):
            continue
        row = connected.get(key)
        blocked = None
        if row is None:
            blocked = "no Stripe account connected"
        elif not row.payouts_enabled:
            due_items = [i for i in row.requirements_due.split(",") if i]
            blocked = describe_reason(row.disabled_reason, due_items)
        out.append(Due(key, currency, amount, row.stripe_account_id if row else None, blocked))
    return out


async def claim(
    session: AsyncSession, settings: Settings, item: Due, now: datetime, period: str
) -> Payout | None:
    """Claim the period's payout of one account: a pending row with the balance now payable,
    or None (a concurrent run claimed it, or nothing is due any more)."""
    if item.stripe_account_id is None or item.blocked is not None:
        return None
    tries = await repo.period_payouts(session, item.key, period, item.currency)
    if any(p.status in (PENDING, PAID) for p in tries):
        return None
    amount = await repo.payable_of(session, item.key, item.currency, now)
    if amount < settings.payouts.minimum:
        return None
    user_id, organization_id = repo.owner_of(item.key)
    row = Payout(
        account_key=item.key,
        owner_user_id=user_id,
        owner_organization_id=organization_id,
        period=period,
        currency=item.currency,
        attempt=max((p.attempt for p in tries), default=0) + 1,
        amount=amount,
        amount_reversed=0,
        status=PENDING,
        stripe_account_id=item.stripe_account_id,
    )
    return row if await repo.add_payout(session, row) else None


def idempotency_key(payout: Payout) -> str:
    """Stripe's key for one attempt of one (account, period, currency)."""
    return f"agora-payout-{payout.account_key}-{payout.period}-{payout.currency}-{payout.attempt}"


async def send(settings: Settings, payout: Payout) -> TransferResult:
    """The call to Stripe (no transaction open)."""
    return await stripe_api.transfer(
        settings,
        amount=payout.amount,
        currency=payout.currency,
        destination=payout.stripe_account_id,
        idempotency_key=idempotency_key(payout),
        metadata={"agora_payout": str(payout.id), "agora_account": payout.account_key},
        group=f"agora-payouts-{payout.period}",
    )


async def record(session: AsyncSession, payout_id: uuid.UUID, result: TransferResult) -> str:
    """Stripe's answer to a claimed payout: paid with its transfer, or failed (the amount is
    back in the balance; the developer and the operators are told why)."""
    row = await repo.payout_for_update(session, payout_id)
    if row is None or row.status != PENDING:
        return "already"
    if result.transfer_id is not None:
        row.status, row.stripe_transfer_id, row.updated_at = PAID, result.transfer_id, utcnow()
        await session.flush()
        await _audit(session, "payouts.paid", row)
        return PAID
    row.status, row.failure, row.updated_at = FAILED, result.refusal, utcnow()
    await session.flush()
    await _audit(session, "payouts.failed", row)
    connected = await repo.connected_account(session, row.account_key)
    data = {"amount": row.amount, "currency": row.currency, "reason": result.refusal or ""}
    await _tell(session, connected.owner_user_id if connected else None,
                kinds.PAYOUTS_FAILED.name, row.id, data)  # fmt: skip
    return FAILED


async def unsent(session: AsyncSession) -> list[Payout]:
    return await repo.unsent_payouts(session, RETRY_LIMIT)


async def _audit(session: AsyncSession, action: str, row: Payout) -> None:
    await audit.record(
        session, action, actor=None, target_kind="payout", target_id=row.id, workspace_id=None,
        details={"account": row.account_key, "period": row.period, "amount": row.amount,
                 "currency": row.currency, "transfer": row.stripe_transfer_id,
                 "failure": row.failure},
    )  # fmt: skip


# ---- Stripe's events (billing/webhook.py HANDLERS) -------------------------------------------


async def on_account_updated(session: AsyncSession, obj: stripe.StripeObject) -> str:
    return await apply_account(session, stripe_api.connect_state(obj))


async def on_transfer_created(session: AsyncSession, obj: stripe.StripeObject) -> str:
    """A transfer Stripe made for a payout whose run stopped before writing it down."""
    data = obj.to_dict()
    payout_id = (data.get("metadata") or {}).get("agora_payout")
    try:
        row = await repo.payout_for_update(session, uuid.UUID(str(payout_id)))
    except ValueError:
        return "ignored"
    if row is None or row.status != PENDING:
        return "already"
    row.status, row.stripe_transfer_id, row.updated_at = PAID, str(data["id"]), utcnow()
    await session.flush()
    return PAID


async def on_transfer_reversed(session: AsyncSession, obj: stripe.StripeObject) -> str:
    """Money of a payout came back from the seller's account: that much counts again in their
    earnings balance (all of it: the payout is ``reversed``); they and the operators are told."""
    data = obj.to_dict()
    row = await repo.payout_by_transfer(session, str(data["id"]))
    if row is None:
        log.warning("stripe_transfer_unknown", event="transfer.reversed", transfer=data["id"])
        return "unknown"
    reversed_amount = min(int(data.get("amount_reversed") or 0), row.amount)
    if reversed_amount <= row.amount_reversed:
        return "already"
    back = reversed_amount - row.amount_reversed
    row.amount_reversed = reversed_amount
    if reversed_amount >= row.amount:
        row.status = REVERSED
    row.updated_at = utcnow()
    await session.flush()
    await _audit(session, "payouts.reversed", row)
    connected = await repo.connected_account(session, row.account_key)
    facts = {"amount": back, "currency": row.currency, "reason": "the transfer was reversed"}
    await _tell(session, connected.owner_user_id if connected else None,
                kinds.PAYOUTS_FAILED.name, row.id, facts)  # fmt: skip
    return REVERSED


async def list_payouts(session: AsyncSession, status: str | None, limit: int) -> list[Payout]:
    """Every payout, newest first (the operator's console)."""
    return await repo.list_payouts(session, status, limit)


async def connected(session: AsyncSession, principal: Principal) -> ConnectedAccount | None:
    return await repo.connected_account(session, key_of(principal))
