"""More of the operator's console (/admin/...): the registry quarantine (inspect, retry,
dismiss), stuck payment states, payouts to sellers and promotion codes (list, create). For an
operator's session only (anyone else: the 404 page);
every action needs a recent password or magic-link proof, as in console/pages.py. The pages call
the same use cases as the admin API (registry/, payments/, billing/)."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.billing import payouts, promotions
from agora.console.operators import OperatorPage, OperatorPageDep
from agora.kit.errors import AgoraError
from agora.kit.money import shown_price
from agora.kit.pagination import PageParams
from agora.kit.units import UnitOfWorkRoute
from agora.payments import stuck
from agora.registry import service as registry
from agora.registry.service import Retried
from agora.web.shell import field_errors, text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)

Done = Annotated[str | None, Query(max_length=40)]

NOTICES = {
    "imported": "The entry passes the current rules: imported as a pending agent.",
    "still": "The entry still does not pass; its reason is updated.",
    "dismissed": "The entry is dismissed; the next sync leaves it alone while it is unchanged.",
    "retried": "The payment step is queued again; the dispatcher retries it now.",
    "created": "The promotion code is created.",
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


# ---- payouts to sellers -------------------------------------------------------------------

PayoutStatus = Annotated[str | None, Query(pattern="^(pending|paid|failed|reversed)?$")]


@router.get("/admin/payouts")
async def payouts_page(page: OperatorPageDep, status: PayoutStatus = None) -> Response:
    """Payouts to sellers and their states, newest first (at most 200)."""
    rows = await payouts.list_payouts(page.session, status or None, 200)
    return await page.show("admin_payouts.html", rows=rows, state=status or "", shown=shown_price)


# ---- promotion codes ----------------------------------------------------------------------


async def _promotions_page(
    page: OperatorPage,
    refused: AgoraError | None = None,
    *,
    done: str | None = None,
    values: dict[str, str] | None = None,
) -> HTMLResponse:
    codes = await promotions.list_codes(page.session)
    return await page.show(
        "admin_promotions.html", codes=codes, values=values or {},
        errors=field_errors(refused) if refused else {}, **_shown(refused, done),
    )  # fmt: skip


@router.get("/admin/promotions")
async def promotions_page(page: OperatorPageDep, done: Done = None) -> Response:
    return await _promotions_page(page, done=done)


def _number(value: str) -> int | None:
    return int(value) if value.strip().isdigit() else None


@router.post("/admin/promotions")
async def create_promotion(page: OperatorPageDep) -> Response:
    """Create a code: bonus credits or a percentage off, limits in total and per person, an
    expiry (``YYYY-MM-DD``, the end of that UTC day)."""
    form = await page.form()
    names = ("code", "bonusCredits", "percentOff", "maxUses", "perPerson", "expiresOn")
    values = {name: text(form, name, 40).strip() for name in names}
    refused = partial(_promotions_page, page, values=values)
    try:
        expires = promotions.end_of_day(values["expiresOn"]) if values["expiresOn"] else None
    except AgoraError as exc:
        return await refused(exc)

    async def work(session: AsyncSession, actor: audit.Actor) -> object:
        return await promotions.create_code(
            session,
            actor,
            code=values["code"],
            bonus_credits=values["bonusCredits"] or None,
            percent_off=_number(values["percentOff"]),
            max_uses=_number(values["maxUses"]),
            per_person=_number(values["perPerson"]),
            expires_at=expires,
        )

    return await page.act(work, "/admin/promotions?done=created", refused)
