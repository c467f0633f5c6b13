"""Stuck payment states of the Masumi flow, for operators (the admin API and /admin/payments).

A job bought on a payment node is *stuck* while its credits are unsettled and one of:

- ``refundStuck``: the node refused a refund request for good (backend.py ``_refund_refused``);
  the operator may ask again (``retry_refund``: the dispatcher asks the node on its next round);
- ``manualAction``: the node stopped on the purchase and waits for its operator (recovered on
  the node, error-state-recovery; Agora keeps following — nothing to retry here);
- its payment state has not changed for longer than the threshold (the last ``payment_state``
  event, else the job's start): shown with a link to the job, nothing to retry.

The age is the time in the current state. No node is called here: a retry only queues the
dispatcher's own refund step, which calls the node outside any transaction.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.jobs import signals
from agora.kit.errors import Conflict, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.timeutil import as_utc, utcnow
from agora.payments import repository as repo
from agora.payments.states import REFUND_ASKED

SCAN_LIMIT = 1000  # unsettled node-paid jobs looked at per listing (oldest first)
DEFAULT_MINUTES = 60


@dataclass(frozen=True)
class StuckPayment:
    job_id: uuid.UUID
    job_status: str
    payment_state: str | None  # the node's on-chain state (None: funds not locked yet)
    why: str  # refund_stuck | manual_action | no_progress
    since: datetime
    age_seconds: float
    last_error: str | None
    can_retry: bool


def _error(job: Any, payment: dict[str, Any]) -> str | None:
    stuck = payment.get("refundStuck") or {}
    manual = payment.get("manualAction") or {}
    text = stuck.get("error") or manual.get("note") or job.error
    return str(text)[:500] if text else None


async def list_stuck(
    session: AsyncSession, *, older_than_minutes: float = DEFAULT_MINUTES
) -> list[StuckPayment]:
    now = utcnow()
    threshold = timedelta(minutes=older_than_minutes)
    out: list[StuckPayment] = []
    for job, changed_at in await repo.unsettled_masumi_jobs(session, limit=SCAN_LIMIT):
        payment = dict(job.payment or {})
        since = as_utc(changed_at or job.started_at or job.created_at)
        if payment.get("refundStuck"):
            why = "refund_stuck"
        elif payment.get("manualAction"):
            why = "manual_action"
        elif now - since > threshold:
            why = "no_progress"
        else:
            continue
        out.append(
            StuckPayment(
                job_id=job.id,
                job_status=job.status,
                payment_state=job.on_chain_status,
                why=why,
                since=since,
                age_seconds=round(max(0.0, (now - since).total_seconds()), 1),
                last_error=_error(job, payment),
                can_retry=why == "refund_stuck",
            )
        )
    out.sort(key=lambda s: s.since)
    return out


async def retry_refund(session: AsyncSession, actor: audit.Actor, raw_job_id: str) -> uuid.UUID:
    """Ask the node again for a refund it refused for good: the dispatcher's refund step runs on
    its next round (now). 404 for a job that is not an unsettled node-paid job; 409 when its
    refund is not stuck."""
    job_id = parse_uuid(raw_job_id)
    job = await repo.masumi_job_for_update(session, job_id) if job_id else None
    if job is None:
        raise NotFound(f"Job {raw_job_id} not found among unsettled node-paid jobs")
    payment = dict(job.payment or {})
    stuck = payment.pop("refundStuck", None)
    payment.pop(REFUND_ASKED, None)  # the dispatcher asks the node again
    if not stuck:
        raise Conflict(f"Job {job.id}: its refund is not stuck; there is nothing to retry")
    if not await repo.ask_refund_again(session, job.id, payment, utcnow()):
        raise Conflict(f"Job {job.id} was settled meanwhile")
    await signals.job_ready(session)
    await audit.record(
        session,
        "payment.retried",
        actor=actor,
        target_kind="job",
        target_id=job.id,
        workspace_id=job.workspace_id,
        details={
            "step": "request-refund",
            "onChainStatus": job.on_chain_status,
            "previousError": str(stuck.get("error") or "")[:500],
        },
    )
    return job.id
