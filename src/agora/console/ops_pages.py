"""More of the operator's console (/admin/...): the registry quarantine (inspect, retry,
dismiss) and stuck payment states. For an operator's session only (anyone else: the 404 page);
every action needs a recent password or magic-link proof, as in web/console.py. The pages call
the same services as the admin API (registry/, payments/)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from agora.accounts import service as accounts
from agora.accounts.dependencies import OperatorDep
from agora.auth.dependencies import SessionDep, SettingsDep
from agora.auth.principal import Principal
from agora.kit.errors import AgoraError
from agora.kit.pagination import PageParams
from agora.kit.units import UnitOfWorkRoute
from agora.payments import stuck
from agora.registry import service as registry
from agora.web.shell import posted as _form
from agora.web.shell import render as _render
from agora.web.shell import text as _text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)

Done = Annotated[str | None, Query(max_length=40)]

NOTICES = {
    "imported": "The entry passes the current rules: imported as a pending agent.",
    "still": "The entry still does not pass; its reason is updated.",
    "dismissed": "The entry is dismissed; the next sync leaves it alone while it is unchanged.",
    "retried": "The payment step is queued again; the dispatcher retries it now.",
}


async def _page(
    request: Request, session: Any, principal: Principal, name: str, status: int = 200, **ctx: Any
) -> HTMLResponse:
    return await _render(request, session, principal, name, status, operator=True, **ctx)


# ---- the registry quarantine --------------------------------------------------------------


async def _registry_page(
    request: Request,
    session: Any,
    principal: Principal,
    *,
    error: str = "",
    notice: str = "",
    status: int = 200,
) -> HTMLResponse:
    rows, total = await registry.quarantine_page(session, PageParams(1, 100))
    return await _page(
        request, session, principal, "admin_registry.html", status, entries=rows, total=total,
        error=error, notice=notice,
    )  # fmt: skip


@router.get("/admin/registry")
async def registry_page(
    request: Request, session: SessionDep, principal: OperatorDep, done: Done = None
) -> Response:
    return await _registry_page(request, session, principal, notice=NOTICES.get(done or "", ""))


@router.get("/admin/registry/{entry_id}")
async def registry_entry_page(
    request: Request, entry_id: str, session: SessionDep, principal: OperatorDep
) -> Response:
    row = await registry.get_quarantined(session, entry_id[:100])
    return await _page(request, session, principal, "admin_registry_entry.html", entry=row)


@router.post("/admin/registry/{entry_id}/retry")
async def registry_retry(
    request: Request,
    entry_id: str,
    session: SessionDep,
    settings: SettingsDep,
    principal: OperatorDep,
) -> Response:
    await _form(request)
    try:
        actor = await accounts.require_operator(session, settings, principal, acting=True)
        done = await registry.retry_quarantined(session, settings, actor, entry_id[:100])
    except AgoraError as exc:
        return await _registry_page(
            request, session, principal, error=exc.message, status=exc.status_code
        )
    outcome = "imported" if done.imported else "still"
    return RedirectResponse(f"/admin/registry?done={outcome}", status_code=303)


@router.post("/admin/registry/{entry_id}/dismiss")
async def registry_dismiss(
    request: Request,
    entry_id: str,
    session: SessionDep,
    settings: SettingsDep,
    principal: OperatorDep,
) -> Response:
    form = await _form(request)
    try:
        actor = await accounts.require_operator(session, settings, principal, acting=True)
        await registry.dismiss_quarantined(
            session, actor, entry_id[:100], _text(form, "reason", 2000)
        )
    except AgoraError as exc:
        return await _registry_page(
            request, session, principal, error=exc.message, status=exc.status_code
        )
    return RedirectResponse("/admin/registry?done=dismissed", status_code=303)


# ---- stuck payment states -----------------------------------------------------------------

Minutes = Annotated[float, Query(ge=1, le=43_200)]


async def _payments_page(
    request: Request,
    session: Any,
    principal: Principal,
    *,
    minutes: float = stuck.DEFAULT_MINUTES,
    error: str = "",
    notice: str = "",
    status: int = 200,
) -> HTMLResponse:
    rows = await stuck.list_stuck(session, older_than_minutes=minutes)
    return await _page(
        request, session, principal, "admin_payments.html", status, rows=rows, minutes=minutes,
        error=error, notice=notice,
    )  # fmt: skip


@router.get("/admin/payments")
async def payments_page(
    request: Request,
    session: SessionDep,
    principal: OperatorDep,
    minutes: Minutes = stuck.DEFAULT_MINUTES,
    done: Done = None,
) -> Response:
    return await _payments_page(
        request, session, principal, minutes=minutes, notice=NOTICES.get(done or "", "")
    )


@router.post("/admin/payments/{job_id}/retry")
async def payment_retry(
    request: Request,
    job_id: str,
    session: SessionDep,
    settings: SettingsDep,
    principal: OperatorDep,
) -> Response:
    await _form(request)
    try:
        actor = await accounts.require_operator(session, settings, principal, acting=True)
        await stuck.retry_refund(session, actor, job_id[:100])
    except AgoraError as exc:
        return await _payments_page(
            request, session, principal, error=exc.message, status=exc.status_code
        )
    return RedirectResponse("/admin/payments?done=retried", status_code=303)
