"""Notification settings of the current user and their delivery log."""

from __future__ import annotations

import secrets

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.auth.principal import Permission, Principal
from agora.kit.errors import BadRequest, NotFound
from agora.kit.outbound import REFUSED, OutboundPolicy, OutboundRefused
from agora.mip003.client import validate_base_url
from agora.models import NotificationDelivery, User
from agora.notifications import repository as repo
from agora.notifications.schemas import WebhookOut

MAX_DELIVERIES = 100


async def _user(session: AsyncSession, principal: Principal) -> User:
    user = await repo.user(session, principal.user_id)
    if user is None:
        raise NotFound("User not found")
    return user


async def get_webhook(session: AsyncSession, principal: Principal) -> WebhookOut:
    user = await _user(session, principal)
    return WebhookOut(
        url=user.notification_webhook_url,
        secret=None,
        job_status_notifications_opt_in=user.job_status_notifications_opt_in,
    )


async def set_webhook(
    session: AsyncSession, principal: Principal, url: str, policy: OutboundPolicy
) -> WebhookOut:
    """Set the webhook URL and issue a fresh signing secret (returned once, here). Destinations
    the outbound policy refuses on sight (literal private addresses, metadata names, userinfo)
    are refused here; host names are checked again, resolved, on every delivery."""
    principal.require(Permission.PROFILE_WRITE)
    try:
        clean = validate_base_url(url)
    except ValueError as exc:
        raise BadRequest.field("url", str(exc)) from exc
    try:
        policy.check_url(clean)
    except OutboundRefused as exc:
        raise BadRequest.field("url", REFUSED) from exc
    user = await _user(session, principal)
    user.notification_webhook_url = clean
    user.notification_webhook_secret = "whsec_" + secrets.token_urlsafe(32)
    await session.flush()
    await audit.record(
        session,
        "webhook.changed",
        actor=principal,
        target_kind="user",
        target_id=user.id,
        details={"url": clean},
    )
    return WebhookOut(
        url=clean,
        secret=user.notification_webhook_secret,
        job_status_notifications_opt_in=user.job_status_notifications_opt_in,
    )


async def delete_webhook(session: AsyncSession, principal: Principal) -> WebhookOut:
    principal.require(Permission.PROFILE_WRITE)
    user = await _user(session, principal)
    user.notification_webhook_url = None
    user.notification_webhook_secret = None
    await repo.cancel_pending(session, user.id)
    await session.flush()
    await audit.record(
        session,
        "webhook.changed",
        actor=principal,
        target_kind="user",
        target_id=user.id,
        details={"url": None},
    )
    return WebhookOut(
        url=None, secret=None, job_status_notifications_opt_in=user.job_status_notifications_opt_in
    )


async def deliveries(
    session: AsyncSession, principal: Principal, *, limit: int = 20
) -> list[NotificationDelivery]:
    if not 1 <= limit <= MAX_DELIVERIES:
        raise BadRequest.field("limit", f"must be between 1 and {MAX_DELIVERIES}")
    return list(await repo.recent(session, principal.user_id, limit))
