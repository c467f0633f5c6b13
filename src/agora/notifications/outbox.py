"""The notification outbox: one delivery row per channel, written in the job's transaction (so a
status change and its notification commit or roll back together), sent after commit by
``sender.NotificationSender``."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit import background
from agora.kit.timeutil import isoformat, utcnow
from agora.models import Job, NotificationDelivery
from agora.notifications import repository as repo
from agora.notifications.channels import CHANNELS

EVENT = "job.status_changed"
TOPIC = "agora_notifications"  # wakes the sender (kit.background)


def payload(job: Job, from_status: str | None, to_status: str) -> dict[str, object]:
    return {
        "event": EVENT,
        "createdAt": isoformat(utcnow()),
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


async def job_status_changed(
    session: AsyncSession, job: Job, from_status: str | None, to_status: str
) -> None:
    """Queue a notification on each of the owner's channels, if they opted in."""
    user = await repo.user(session, job.user_id)
    if user is None or not user.job_status_notifications_opt_in:
        return
    body = payload(job, from_status, to_status)
    queued = False
    for channel in CHANNELS.values():
        target = channel.target(user)
        if target:
            repo.add(
                session,
                NotificationDelivery(
                    user_id=user.id,
                    job_id=job.id,
                    channel=channel.name,
                    event=EVENT,
                    target=target,
                    payload=body,
                    state="pending",
                    next_attempt_at=utcnow(),
                ),
            )
            queued = True
    if queued:
        await background.signal(session, TOPIC)
