"""Payment endpoints (key family, like the rest of a job's routes). Decisions: docs/payments.md."""

from __future__ import annotations

from agora.auth.dependencies import JobId, JobsWriter, SessionDep, SettingsDep
from agora.jobs.schemas import JobOut
from agora.kit.envelopes import EnvelopeA
from agora.kit.families import key_router
from agora.payments import service

router = key_router(tags=["jobs"])


@router.post(
    "/jobs/{jobId}/refund",
    response_model=EnvelopeA[JobOut],
    operation_id="requestJobRefund",
    openapi_extra={"x-agora-errors": [409]},
)
async def request_refund(
    job_id: JobId, session: SessionDep, principal: JobsWriter, settings: SettingsDep
) -> EnvelopeA[JobOut]:
    """Ask for a refund of a completed or failed job paid through the payment node, within the
    contract's window (before `unlockTime`; a job without a result while its funds are locked).
    The node is asked right after; the job's events then show `refund_pending` or
    `dispute_pending`, and `refund_resolved` / `dispute_resolved` when it settles. 409 says why
    a request is outside the window."""
    return EnvelopeA[JobOut](
        data=await service.request_refund(session, principal, job_id, settings=settings)
    )
