"""The notification outbox, written in the transaction of the event it tells about (so a change
and its notifications commit or roll back together) and sent after commit by
``worker.NotificationSender``.

``notify(session, user_id=…, kind=…, subject_ref=…, data=…)`` is what other domains call: an
inbox row and a mail delivery, each as the person's preferences for that kind say. Job status
changes are fed here by ``jobs/lifecycle.py`` (``job_status_changed``), which also queues the
account-wide webhook (``job.status_changed``) and the job's own webhook.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit import background
from agora.kit.ids import uuid7
from agora.kit.timeutil import isoformat, utcnow
from agora.models import Job, Notification, NotificationDelivery
from agora.models.statuses import DeliveryState, JobStatus
from agora.notifications import kinds as registry
from agora.notifications import repository as repo
from agora.notifications.channels import CHANNELS, JOB_WEBHOOK

EVENT = "job.status_changed"
TOPIC = "agora_notifications"  # wakes the sender (kit.background)
INBOX_TOPIC = "agora_inbox"  # keyed by user id: wakes that person's open bells (bell.py)

# The kind a job status change is, for people (other statuses tell nobody).
STATUS_KINDS: dict[str, str] = {
    JobStatus.INPUT_REQUIRED: registry.JOB_INPUT_REQUIRED.name,
    JobStatus.COMPLETED: registry.JOB_COMPLETED.name,
    JobStatus.FAILED: registry.JOB_FAILED.name,
}
# Per-job webhook event names (webhookEventsFilter): the status in lower case.
JOB_EVENTS = tuple(s.lower() for s in JobStatus)


def job_ref(job_id: uuid.UUID | str) -> str:
    return f"job:{job_id}"


async def enabled_channels(
    session: AsyncSession, user_id: uuid.UUID, kind: registry.Kind
) -> set[str]:
    chosen = set(kind.defaults)
    for pref in await repo.preferences(session, user_id, kind.name):
        if pref.enabled:
            chosen.add(pref.channel)
        else:
            chosen.discard(pref.channel)
    return chosen


async def notify(
    session: AsyncSession,
    *,
    user_id: uuid.UUID,
    kind: str,
    subject_ref: str | None = None,
    data: Mapping[str, Any] | None = None,
    job_id: uuid.UUID | None = None,
) -> Notification | None:
    """Tell ``user_id`` about an event of ``kind``, in the caller's transaction: an inbox row
    (returned) and a queued mail, each if the person's preferences for the kind allow it.
    ``subject_ref`` ("job:<id>", "organization:<id>" …) lets read-by-reference mark it read;
    ``data`` (JSON) fills the title, the mail and the link. Nothing is sent before commit."""
    spec = registry.get(kind)
    facts = dict(data or {})
    channels = await enabled_channels(session, user_id, spec)
    title = spec.title(facts)[:300]
    row = None
    if registry.INBOX in channels:
        row = Notification(
            id=uuid7(), user_id=user_id, kind=kind, subject_ref=subject_ref, title=title, data=facts
        )
        repo.add_notification(session, row)
        await background.signal(session, INBOX_TOPIC, key=str(user_id), across_processes=True)
    if registry.MAIL in channels:
        user = await repo.user(session, user_id)
        if user is not None and user.email:
            repo.add(
                session,
                NotificationDelivery(
                    user_id=user_id,
                    job_id=job_id,
                    channel=registry.MAIL,
                    event=kind,
                    target=user.email,
                    payload={
                        "kind": kind,
                        "title": title,
                        "subjectRef": subject_ref,
                        "notificationId": str(row.id) if row is not None else None,
                        "data": facts,
                        "createdAt": isoformat(utcnow()),
                    },
                    state=DeliveryState.PENDING,
                    attempts=0,
                    next_attempt_at=next_digest(utcnow()) if spec.digest else utcnow(),
                ),
            )
            await background.signal(session, TOPIC)
    return row


def next_digest(now: datetime) -> datetime:
    """When a digest kind's mail is due: the next full hour (UTC), when the sender mails each
    person one digest of everything held for them (worker.py)."""
    return now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)


async def signal_inbox(session: AsyncSession, user_id: uuid.UUID) -> None:
    """After commit: the person's open bells read their unread count again."""
    await background.signal(session, INBOX_TOPIC, key=str(user_id), across_processes=True)


async def signal_sender(session: AsyncSession) -> None:
    await background.signal(session, TOPIC)


async def mark_read_by_reference(
    session: AsyncSession, user_id: uuid.UUID, subject_ref: str, kinds: list[str] | None = None
) -> int:
    """The person's unread notifications about ``subject_ref`` (of ``kinds``) are read now."""
    changed = await repo.mark(session, user_id, utcnow(), subject_ref=subject_ref, kinds=kinds)
    if changed:
        await background.signal(session, INBOX_TOPIC, key=str(user_id), across_processes=True)
    return changed


def payload(job: Job, from_status: str | None, to_status: str) -> dict[str, object]:
    """A webhook's body. ``type`` and ``timestamp`` are the Standard Webhooks names (spec 1.0.0,
    "Payload structure"); ``event`` and ``createdAt`` say the same and stay for one release."""
    created = isoformat(utcnow())
    return {
        "type": EVENT,
        "timestamp": created,
        "event": EVENT,
        "createdAt": created,
        "data": {
            "jobId": str(job.id),
            "name": job.name,
            "agentId": str(job.agent_id),
            "workspaceId": str(job.workspace_id),
            "fromStatus": from_status,
            "status": to_status,
            "agentJobStatus": job.agent_job_status,
            "jobStatusSettled": job.settled,
            "updatedAt": isoformat(job.updated_at),
        },
    }


def _job_facts(job: Job, to_status: str) -> dict[str, Any]:
    facts: dict[str, Any] = {
        "jobId": str(job.id),
        "name": job.name,
        "agentId": str(job.agent_id),
        "status": to_status,
    }
    request = job.input_request if isinstance(job.input_request, dict) else None
    if to_status == JobStatus.INPUT_REQUIRED and request:
        message = request.get("message")
        if isinstance(message, str):
            facts["message"] = message[:2000]
    return facts


async def job_status_changed(
    session: AsyncSession, job: Job, from_status: str | None, to_status: str
) -> None:
    """A job's status changed: the owner's notification (by kind), the account-wide webhook
    (opt-in, every change) and the job's own webhook (its filter)."""
    ref = job_ref(job.id)
    if from_status == JobStatus.INPUT_REQUIRED:  # answered (or ended): the question is settled
        await mark_read_by_reference(
            session, job.user_id, ref, kinds=[registry.JOB_INPUT_REQUIRED.name]
        )
    kind = STATUS_KINDS.get(to_status)
    if kind is not None:
        await notify(
            session,
            user_id=job.user_id,
            kind=kind,
            subject_ref=ref,
            data=_job_facts(job, to_status),
            job_id=job.id,
        )
    body = payload(job, from_status, to_status)
    queued = await _job_webhook(session, job, to_status, body)
    user = await repo.user(session, job.user_id)
    if user is not None and user.job_status_notifications_opt_in:
        webhook = CHANNELS["webhook"]
        target = webhook.target(user)
        if target:
            repo.add(session, _delivery(user.id, job.id, webhook.name, EVENT, target, body))
            queued = True
    if queued:
        await background.signal(session, TOPIC)


async def job_refunded(session: AsyncSession, job: Job) -> None:
    """A paid job's payment was settled by a refund (payments: dispute or failure)."""
    await notify(
        session,
        user_id=job.user_id,
        kind=registry.JOB_REFUNDED.name,
        subject_ref=job_ref(job.id),
        data=_job_facts(job, job.status),
        job_id=job.id,
    )


async def _job_webhook(
    session: AsyncSession, job: Job, to_status: str, body: dict[str, Any]
) -> bool:
    hook = await repo.job_webhook(session, job.id)
    if hook is None:
        return False
    event = to_status.lower()
    if hook.events is not None and event not in hook.events:
        return False
    job_body = {**body, "type": f"job.{event}", "event": f"job.{event}"}
    repo.add(
        session, _delivery(job.user_id, job.id, JOB_WEBHOOK, f"job.{event}", hook.url, job_body)
    )
    return True


def _delivery(
    user_id: uuid.UUID,
    job_id: uuid.UUID,
    channel: str,
    event: str,
    target: str,
    body: dict[str, Any],
) -> NotificationDelivery:
    return NotificationDelivery(
        user_id=user_id,
        job_id=job_id,
        channel=channel,
        event=event,
        target=target,
        payload=body,
        state=DeliveryState.PENDING,
        attempts=0,
        next_attempt_at=utcnow(),
    )
