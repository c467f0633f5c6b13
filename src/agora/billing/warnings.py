"""Low-balance warnings (docs/billing.md): the web app's banner while the balance is below the
workspace's threshold, and one mail to the payer each time the balance falls below it (the
flag is set by the hold that crosses it and cleared when credits come in again)."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts.mailer import build_sender
from agora.auth.principal import Principal
from agora.billing import repository as repo
from agora.billing import service as billing
from agora.credits import repository as credits_repo
from agora.kit.db import on_commit
from agora.kit.errors import BadRequest, NotFound
from agora.kit.mail import Mail, MailSender
from agora.kit.money import to_base, to_display
from agora.settings import Settings


@dataclass(frozen=True)
class LowBalance:
    balance: int
    shortfall: int
    threshold: int


async def header(
    session: AsyncSession, principal: Principal
) -> tuple[int | None, LowBalance | None]:
    """The web app's header: the balance, and the banner's facts when the balance is low (or
    something is owed)."""
    found = await credits_repo.warning_state(session, principal.workspace_id)
    if found is None:
        return None, None
    balance, shortfall, threshold = found
    if threshold is None:
        threshold = await credits_repo.last_hold(session, principal.workspace_id) or 0
    if shortfall or balance < threshold:
        return balance, LowBalance(balance, shortfall, threshold)
    return balance, None


async def crossed(
    session: AsyncSession, settings: Settings, workspace_id: uuid.UUID, balance: int
) -> None:
    """The hold that took the balance below the threshold: mail the payer after commit."""
    payers = await repo.payer_emails(session, workspace_id)
    sender = build_sender(settings)
    base = settings.public_url.rstrip("/")
    for email in payers:
        mail = Mail(
            email,
            "Your Agora credits are running low",
            f"The workspace has {to_display(balance)} credits left.\n\n"
            f"Buy credits: {base}/credits/buy\n\n"
            "You get this mail once each time the balance falls below the threshold.\n",
        )
        on_commit(session, _sending(sender, mail))


def _sending(sender: MailSender, mail: Mail) -> Callable[[], Awaitable[None]]:
    async def send() -> None:
        await sender.send(mail)

    return send


async def set_threshold(
    session: AsyncSession, principal: Principal, threshold: object | None
) -> int | None:
    """Set (credits, display units) or clear (None: the price of the last job) the threshold;
    for those who buy the workspace's credits."""
    billing.require_buyer(principal)
    value = None
    if threshold is not None:
        try:
            value = to_base(str(threshold))
        except ValueError as exc:
            raise BadRequest.field("threshold", str(exc)) from exc
        if value < 0:
            raise BadRequest.field("threshold", "must not be negative")
    if await credits_repo.balances(session, principal.workspace_id) is None:
        raise NotFound("Workspace not found")
    await credits_repo.set_low_balance_threshold(session, principal.workspace_id, value)
    return value
