"""Payment endpoints (key family, like the rest of a job's routes). Decisions: docs/payments.md."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request

from agora.accounts import service as accounts
from agora.auth.dependencies import Admin, JobsWriter, SessionDep, SettingsDep
from agora.jobs.schemas import JobOut
from agora.kit.envelopes import EnvelopeA, EnvelopeB, meta_b
from agora.kit.families import bearer_router, key_router
from agora.kit.openapi import errors
from agora.payments import service, stuck
from agora.payments.schemas import RetriedPaymentOut, StuckPaymentOut

router = key_router(tags=["jobs"])
admin_router = bearer_router(prefix="/admin/payments", tags=["admin"])
# The job a payment route is about. It stays ``str`` in the path: a malformed id answers the
# same 404 as an unknown one (ids are opaque), which a ``UUID`` path type would turn into a 400.
JobId = Annotated[str, Path(alias="jobId")]


@router.post("/jobs/{jobId}/refund", operation_id="requestJobRefund", openapi_extra=errors(409))
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


@admin_router.get("/stuck", operation_id="adminStuckPayments")
async def list_stuck(
    request: Request,
    session: SessionDep,
    _admin: Admin,
    older_than: Annotated[
        float,
        Query(
            alias="olderThanMinutes",
            ge=1,
            le=43_200,
            description="A payment state unchanged this long counts as stuck (default 60)",
        ),
    ] = stuck.DEFAULT_MINUTES,
) -> EnvelopeB[list[StuckPaymentOut]]:
    """Unsettled node-paid jobs stuck in the Masumi flow (a refund the node refused for good,
    a purchase waiting for the node's operator, or a payment state unchanged too long), oldest
    first, with the state, its age and the last error."""
    rows = await stuck.list_stuck(session, older_than_minutes=older_than)
    return EnvelopeB[list[StuckPaymentOut]](
        data=[StuckPaymentOut.model_validate(row) for row in rows], meta=meta_b(request)
    )


@admin_router.post(
    "/stuck/{jobId}/retry",
    operation_id="adminRetryStuckPayment",
    openapi_extra=errors(404, 409),
)
async def retry_stuck(
    job_id: JobId, request: Request, session: SessionDep, settings: SettingsDep, admin: Admin
) -> EnvelopeB[RetriedPaymentOut]:
    """Ask the node again for a refund it refused (the dispatcher's refund step runs now);
    409 when the job's refund is not stuck. Audited (``payment.retried``)."""
    actor = await accounts.require_operator(session, settings, admin, acting=True)
    done = await stuck.retry_refund(session, actor, job_id)
    return EnvelopeB[RetriedPaymentOut](
        data=RetriedPaymentOut(job_id=done, step="request-refund"), meta=meta_b(request)
    )
