"""The web page of payments: the job page's refund button (docs/payments.md, "Refunds")."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from agora.auth.dependencies import SessionDep, SettingsDep
from agora.jobs.rendering import job_page
from agora.kit.errors import Conflict
from agora.kit.units import UnitOfWorkRoute
from agora.payments import service as payments
from agora.web.shell import SignedInDep, posted

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


@router.post("/jobs/{job_id}/refund")
async def job_refund(
    request: Request,
    job_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    """The refund button of a job bought on a payment node (``POST /v1/jobs/{id}/refund``'s
    service); a refusal (409: outside the window, pending, settled) is shown in the job page's
    refund card."""
    await posted(request)
    try:
        await payments.request_refund(session, principal, job_id, settings=settings)
    except Conflict as exc:
        return await job_page(
            request, session, principal, job_id, settings,
            errors={"refund": exc.message}, status_code=exc.status_code,
        )  # fmt: skip
    return RedirectResponse(f"/jobs/{job_id}?refund=asked", status_code=303)
