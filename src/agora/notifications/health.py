"""A webhook endpoint's health, written with each attempt's outcome (in the sender's short
transaction after the call): a delivered one clears ``failing_since``; a failed one sets it
(first failure since the last delivered one). The endpoint is disabled by a ``410 Gone`` or when
every delivery has failed for ``disable_after_days``; its owner is told (inbox and mail) then,
and when a delivery fails for good. Deliveries to a disabled endpoint are not attempted
(``failed``, "endpoint disabled") until the owner re-enables it (``service.enable_endpoint``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.outbound import redact_url
from agora.kit.timeutil import as_utc
from agora.models import NotificationDelivery
from agora.models.notification import endpoint_id
from agora.notifications import kinds as registry
from agora.notifications import repository as repo
from agora.notifications.channels import SendResult
from agora.notifications.outbox import notify
from agora.notifications.retries import GONE, disabled_after
from agora.settings import NotificationSettings

DISABLED = "endpoint disabled"


def _facts(delivery: NotificationDelivery, result: SendResult) -> dict[str, object]:
    return {
        "endpointId": str(endpoint_id(delivery.user_id, delivery.target)),
        "endpoint": redact_url(delivery.target),
        "event": delivery.event,
        "deliveryId": str(delivery.id),
        "jobId": str(delivery.job_id) if delivery.job_id else None,
        "error": result.error,
    }


async def after_attempt(
    session: AsyncSession,
    settings: NotificationSettings,
    delivery: NotificationDelivery,
    result: SendResult,
    now: datetime,
    *,
    last: bool,
) -> bool:
    """Record one webhook attempt on its endpoint (``last``: no retry is left for this
    delivery). True when the endpoint is disabled: this delivery is not retried either."""
    endpoint = endpoint_id(delivery.user_id, delivery.target)
    if result.ok:
        await repo.endpoint_delivered(session, endpoint)
        return False
    health = await repo.endpoint_failed(session, endpoint, delivery.user_id, delivery.target, now)
    if health.disabled_at is not None:  # disabled meanwhile (another sender): told already
        return True
    reason = None
    if result.status_code == GONE:
        reason = "it answered 410 Gone"
    elif now - as_utc(health.failing_since) >= disabled_after(settings):
        reason = f"every delivery failed for {settings.disable_after_days:g} days"
    facts = _facts(delivery, result)
    if reason is not None and await repo.set_endpoint_disabled(session, endpoint, now, reason):
        facts["reason"] = reason
        await notify(
            session,
            user_id=delivery.user_id,
            kind=registry.WEBHOOK_DISABLED.name,
            subject_ref=f"webhook:{endpoint}",
            data=facts,
        )
        return True
    if last:
        await notify(
            session,
            user_id=delivery.user_id,
            kind=registry.WEBHOOK_FAILED.name,
            subject_ref=f"webhook:{endpoint}",
            data=facts,
            job_id=delivery.job_id,
        )
    return reason is not None
