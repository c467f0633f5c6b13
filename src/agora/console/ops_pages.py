"""More of the operator's console (/admin/...): the registry quarantine (inspect, retry,
dismiss) and stuck payment states. For an operator's session only (anyone else: the 404 page);
every action needs a recent password or magic-link proof, as in console/pages.py. The pages call
the same use cases as the admin API (registry/, payments/)."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.console.operators import OperatorPage, OperatorPageDep
from agora.kit.errors import AgoraError
from agora.kit.pagination import PageParams
from agora.kit.units import UnitOfWorkRoute
from agora.payments import stuck
from agora.registry import service as registry
from agora.registry.service import Retried
from agora.web.shell import text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)

Done = Annotated[str | None, Query(max_length=40)]

NOTICES = {
    "imported": "The entry passes the current rules: imported as a pending agent.",
    "still": "The entry still does not pass; its reason is updated.",
    "dismissed": "The entry is dismissed; the next sync leaves it alone while it is unchanged.",
    "retried": "The payment step is queued again; the dispatcher retries it now.",
}


def _shown(refused: AgoraError | None, done: str | None) -> dict[str, Any]:
    """A list page's banner: a refused action's reason (and its status), or what was done."""
    return {
        "status": refused.status_code if refused else 200,
        "error": refused.message if refused else "",
        "notice": NOTICES.get(done or "", ""),
    }


# ---- the registry quarantine --------------------------------------------------------------


async def _registry_page(
    page: OperatorPage, refused: AgoraError | None = None, done: str | None = None
) -> HTMLResponse:
    rows, total = await registry.quarantine_page(page.session, PageParams(1, 100))
    return await page.show(
        "admin_registry.html", entries=rows, total=total, **_shown(refused, done)
    )


@router.get("/admin/registry")
async def registry_page(page: OperatorPageDep, done: Done = None) -> Response:
    return await _registry_page(page, done=done)


@router.get("/admin/registry/{entry_id}")
async def registry_entry_page(entry_id: str, page: OperatorPageDep) -> Response:
    row = await registry.get_quarantined(page.session, entry_id[:100])
    return await page.show("admin_registry_entry.html", entry=row)


def _retried(done: Retried) -> str:
    return f"/admin/registry?done={'imported' if done.imported else 'still'}"


@router.post("/admin/registry/{entry_id}/retry")
async def registry_retry(entry_id: str, page: OperatorPageDep) -> Response:
    await page.form()
    settings, raw_id = page.settings, entry_id[:100]

    async def work(session: AsyncSession, actor: audit.Actor) -> Retried:
        return await registry.retry_quarantined(session, settings, actor, raw_id)

    return await page.act(work, _retried, partial(_registry_page, page))


@router.post("/admin/registry/{entry_id}/dismiss")
async def registry_dismiss(entry_id: str, page: OperatorPageDep) -> Response:
    reason = text(await page.form(), "reason", 2000)
    work = partial(registry.dismiss_quarantined, raw_id=entry_id[:100], reason=reason)
    done = "/admin/registry?done=dismissed"
    return await page.act(work, done, partial(_registry_page, page))


# ---- stuck payment states -----------------------------------------------------------------

Minutes = Annotated[float, Query(ge=1, le=43_200)]


async def _payments_page(
    page: OperatorPage,
    refused: AgoraError | None = None,
    *,
    minutes: float = stuck.DEFAULT_MINUTES,
    done: str | None = None,
) -> HTMLResponse:
    rows = await stuck.list_stuck(page.session, older_than_minutes=minutes)
    return await page.show(
        "admin_payments.html", rows=rows, minutes=minutes, **_shown(refused, done)
    )


@router.get("/admin/payments")
async def payments_page(
    page: OperatorPageDep, minutes: Minutes = stuck.DEFAULT_MINUTES, done: Done = None
) -> Response:
    return await _payments_page(page, minutes=minutes, done=done)


@router.post("/admin/payments/{job_id}/retry")
async def payment_retry(job_id: str, page: OperatorPageDep) -> Response:
    await page.form()
    work = partial(stuck.retry_refund, raw_job_id=job_id[:100])
    return await page.act(work, "/admin/payments?done=retried", partial(_payments_page, page))
