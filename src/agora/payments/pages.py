"""The web page of payments: the job page's refund button (docs/payments.md, "Refunds")."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from agora.jobs.rendering import JobPostDep
from agora.kit.errors import Conflict
from agora.kit.units import UnitOfWorkRoute
from agora.payments import service as payments

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


@router.post("/jobs/{job_id}/refund")
async def job_refund(post: JobPostDep) -> Response:
    """The refund button of a job bought on a payment node (``POST /v1/jobs/{id}/refund``'s
    service); a refusal (409: outside the window, pending, settled) is shown in the job page's
    refund card."""
    try:
        await payments.request_refund(
            post.session, post.principal, post.job_id, settings=post.settings
        )
    except Conflict as exc:
        return await post.again(exc.status_code, {"refund": exc.message})
    return post.back("?refund=asked")
