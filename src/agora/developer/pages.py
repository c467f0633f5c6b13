"""The developer's pages: your agents, submit one, edit it, withdraw it, its review notes and its
statistics (small SVG charts, web/charts.py). The same use cases as the developer API
(developer/service.py: ``probe_and_submit``, ``probe_and_update`` — the live MIP-003 check made
with no transaction open —, ``withdraw``; developer/stats.py), and the same rules; the form
reports every field's problem at once (``submission_problems``, ``category_ids``) before anything
is probed. Decisions: docs/web.md, "Developer pages"."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from agora.a2a.client import app_client as a2a_client
from agora.agents import service as agents
from agora.auth.dependencies import SessionDep, SettingsDep, UnitDep
from agora.auth.principal import Principal
from agora.developer import certification, earnings
from agora.developer import service as developer
from agora.developer import stats as figures
from agora.developer.exports import statement_csv
from agora.developer.listings import (
    ListedAgent,
    category_ids,
    listed,
    listed_one,
    submission_problems,
)
from agora.developer.schemas import A2aAgentSubmission, AgentSubmission, AgentUpdate
from agora.kit.errors import AgoraError
from agora.kit.money import shown_price, to_display
from agora.kit.pagination import PageParams
from agora.kit.timeutil import utcnow
from agora.kit.units import Mode, UnitOfWorkRoute, mode
from agora.mip003.client import app_client
from agora.web import charts
from agora.web.render import connect_csp, local_text, reader_zone
from agora.web.shell import SignedInDep
from agora.web.shell import field_errors as _field_errors
from agora.web.shell import posted as _form
from agora.web.shell import render as _render
from agora.web.shell import text as _text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)

# The form's fields (their ids and names), their labels, and the API's name for each.
LABELS = {
    "agentCardUrl": "Agent Card URL",
    "credential": "Credential",
    "baseUrl": "Base URL",
    "name": "Name",
    "description": "Description",
    "tags": "Tags",
    "categories": "Categories",
    "price": "Price",
    "authorName": "Author",
    "authorEmail": "Contact address",
    "authorWebsite": "Author's website",
    "changelog": "Changelog",
}
_API_TO_FORM = {
    "author.name": "authorName",
    "author.contactEmail": "authorEmail",
    "author.website": "authorWebsite",
    "author": "authorName",
}
_TEXT = (
    "baseUrl",
    "name",
    "description",
    "tags",
    "price",
    "authorName",
    "authorEmail",
    "changelog",
)


def _form_field(api_field: str) -> str:
    if api_field in _API_TO_FORM:
        return _API_TO_FORM[api_field]
    head = api_field.split(".", 1)[0]
    return head if head in LABELS else "form"


def _sentence(field: str, reason: str) -> str:
    """A field's problem as a full sentence naming the field."""
    reason = reason.strip().rstrip(".")
    label = LABELS.get(field, "The form")
    if reason.startswith(("must", "is ", "a tag", "at most")):
        return f"{label} {reason}."
    return f"{label}: {reason[:1].lower()}{reason[1:]}."


def _pydantic_reason(error: dict[str, Any]) -> str:
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    if kind in ("missing", "string_too_short") and ctx.get("min_length", 1) <= 1:
        return "is required"
    if kind == "string_too_short":
        return f"must be at least {ctx.get('min_length')} characters"
    if kind == "string_too_long":
        return f"is too long (at most {ctx.get('max_length')} characters)"
    if kind == "too_long":
        return f"has too many values (at most {ctx.get('max_length')})"
    return str(error.get("msg", "is not valid"))


def _values(form: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        k: _text(form, k, 10_000 if k == "description" else 2_000) for k in _TEXT
    }
    values["authorWebsite"] = _text(form, "authorWebsite", 2_000)
    values["categories"] = [c for c in form.getlist("categories") if isinstance(c, str)][:20]
    return values


def _body(values: dict[str, Any]) -> dict[str, Any]:
    """The API body of the form (every field: an edit sends them all, as a full PATCH)."""
    author = None
    if (
        values["authorName"].strip()
        or values["authorEmail"].strip()
        or values["authorWebsite"].strip()
    ):
        author = {
            "name": values["authorName"].strip(),
            "contactEmail": values["authorEmail"].strip() or None,
            "website": values["authorWebsite"].strip() or None,
        }
    changelog = {"changelog": values["changelog"]} if values["changelog"].strip() else {}
    return {
        **changelog,  # left out when empty: a pending changelog given earlier stays
        "baseUrl": values["baseUrl"].strip(),
        "name": values["name"],
        "description": values["description"],
        "tags": [t.strip() for t in values["tags"].split(",") if t.strip()],
        "categories": values["categories"],
        "price": values["price"].strip() or "0",
        "author": author,
    }


async def _problems(session: Any, body: dict[str, Any], model: type[Any]) -> dict[str, str]:
    """Every field's problem at once, each as a sentence, keyed by the form's field."""
    found: dict[str, str] = {}
    try:
        model.model_validate(body)
    except ValidationError as exc:
        for error in exc.errors():
            api = ".".join(str(p) for p in error["loc"] if not isinstance(p, int))
            found.setdefault(_form_field(api), _pydantic_reason(dict(error)))
    for api, reason in submission_problems(body).items():
        found.setdefault(_form_field(api), reason)
    if body["categories"]:
        try:
            await category_ids(session, body["categories"])
        except AgoraError as exc:
            for api, reason in _field_errors(exc).items():
                found.setdefault(_form_field(api), reason)
    return {field: _sentence(field, reason) for field, reason in found.items()}


def _refused(exc: AgoraError) -> dict[str, str]:
    """A refusal of the service as the form's problems: each field's as a sentence, or the
    form's."""
    found = ((_form_field(k), v) for k, v in _field_errors(exc).items())
    return {field: _sentence(field, reason) for field, reason in found} or {"form": exc.message}


async def _owned(session: AsyncSession, principal: Principal, agent_id: str) -> ListedAgent:
    """One of the signed-in developer's agents as they see it (404 for anyone else's)."""
    return await listed_one(session, await developer.get_owned(session, principal, agent_id))


def _summary(errors: dict[str, str]) -> list[tuple[str | None, str]]:
    order = [*LABELS, "form"]
    return [
        (None if field == "form" else field, errors[field])
        for field in sorted(errors, key=lambda f: order.index(f) if f in order else len(order))
    ]


async def _form_page(
    request: Request,
    session: Any,
    principal: Principal,
    *,
    values: dict[str, Any],
    errors: dict[str, str],
    agent: Any = None,
    status_code: int = 200,
) -> HTMLResponse:
    categories = await agents.list_categories(session)
    conformance = None if agent is None else await certification.latest_run(session, agent.row.id)
    return await _render(
        request, session, principal, "developer_agent.html", status_code,
        agent=agent, values=values, errors=errors, summary=_summary(errors),
        categories=categories, conformance=conformance,
    )  # fmt: skip


def _listed_values(listed: Any) -> dict[str, Any]:
    author = listed.author or {}
    return {
        "baseUrl": listed.row.base_url,
        "name": listed.name,
        "description": listed.description,
        "tags": ", ".join(listed.tags),
        "categories": list(listed.categories),
        "price": f"{to_display(listed.row.price or 0)}",
        "authorName": author.get("name") or "",
        "authorEmail": author.get("contactEmail") or "",
        "authorWebsite": author.get("website") or "",
        "changelog": listed.row.pending_changelog or "",
    }


_EMPTY = {k: "" for k in (*_TEXT, "authorWebsite")} | {"categories": [], "price": "0"}


# ---- pages ----------------------------------------------------------------------------------


@router.get("/developer")
async def my_agents(request: Request, session: SessionDep, principal: SignedInDep) -> HTMLResponse:
    developer.require_developer(principal)
    rows, total = await developer.list_owned(session, principal, PageParams(page=1, limit=100))
    return await _render(
        request, session, principal, "developer.html",
        agents=await listed(session, rows), total=total,
    )  # fmt: skip


@router.get("/developer/new")
async def new_agent_page(
    request: Request, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    developer.require_developer(principal)
    return await _form_page(request, session, principal, values=dict(_EMPTY), errors={})


@router.post("/developer/new")
@mode(Mode.CALLS_OUT)
async def submit_agent(
    request: Request, unit: UnitDep, principal: SignedInDep, settings: SettingsDep
) -> Response:
    values = _values(await _form(request))
    body = _body(values)
    reading = await unit.session()
    errors = await _problems(reading, body, AgentSubmission)
    if errors:
        return await _form_page(
            request, reading, principal, values=values, errors=errors, status_code=400
        )
    try:
        client = app_client(request)
        agent = await developer.probe_and_submit(unit, principal, settings, body, client)
    except AgoraError as exc:
        return await _form_page(
            request, await unit.write(), principal, values=values, errors=_refused(exc),
            status_code=exc.status_code,
        )  # fmt: skip
    return RedirectResponse(f"/developer/{agent.id}?submitted=1", status_code=303)


def _recent_periods(count: int = 12) -> list[str]:
    """This UTC month and the ones before it, newest first: the statements linked."""
    today = utcnow()
    months = today.year * 12 + today.month - 1
    return [f"{(m // 12):04d}-{(m % 12) + 1:02d}" for m in range(months, months - count, -1)]


# ---- an A2A agent, submitted by its Agent Card (docs/a2a.md) --------------------------------

_A2A_TEXT = ("agentCardUrl", "name", "description", "tags", "price")


def _a2a_values(form: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        k: _text(form, k, 10_000 if k == "description" else 2_000) for k in _A2A_TEXT
    }
    values["categories"] = [c for c in form.getlist("categories") if isinstance(c, str)][:20]
    return values


def _a2a_body(values: dict[str, Any], credential: str) -> dict[str, Any]:
    """The API body of the form (``A2aAgentSubmission``): name and description left out when
    empty (the card's)."""
    body: dict[str, Any] = {
        "agentCardUrl": values["agentCardUrl"].strip(),
        "tags": [t.strip() for t in values["tags"].split(",") if t.strip()],
        "categories": values["categories"],
        "price": values["price"].strip() or "0",
    }
    for key in ("name", "description"):
        if values[key].strip():
            body[key] = values[key]
    if credential.strip():
        body["credential"] = credential.strip()
    return body


async def _a2a_page(
    request: Request,
    session: Any,
    principal: Principal,
    *,
    values: dict[str, Any],
    errors: dict[str, str],
    status_code: int = 200,
) -> HTMLResponse:
    return await _render(
        request, session, principal, "developer_a2a.html", status_code,
        values=values, errors=errors, summary=_summary(errors),
        categories=await agents.list_categories(session),
    )  # fmt: skip


@router.get("/developer/new-a2a")
async def new_a2a_agent_page(
    request: Request, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    developer.require_developer(principal)
    empty = {k: "" for k in _A2A_TEXT} | {"categories": [], "price": "0"}
    return await _a2a_page(request, session, principal, values=empty, errors={})


@router.post("/developer/new-a2a")
@mode(Mode.CALLS_OUT)
async def submit_a2a_agent(
    request: Request, unit: UnitDep, principal: SignedInDep, settings: SettingsDep
) -> Response:
    """The developer API's ``POST /v1/developer/agents/a2a`` as a form: the card read live with
    no transaction open (``read_card_and_submit``). The credential is never shown back."""
    form = await _form(request)
    values = _a2a_values(form)
    body = _a2a_body(values, _text(form, "credential", 4_000))
    reading = await unit.session()
    errors: dict[str, str] = {}
    try:
        A2aAgentSubmission.model_validate(body)
    except ValidationError as exc:
        for error in exc.errors():
            api = ".".join(str(p) for p in error["loc"] if not isinstance(p, int))
            errors.setdefault(_form_field(api), _pydantic_reason(dict(error)))
    errors = {field: _sentence(field, reason) for field, reason in errors.items()}
    if errors:
        return await _a2a_page(
            request, reading, principal, values=values, errors=errors, status_code=400
        )
    try:
        agent = await developer.read_card_and_submit(
            unit, principal, settings, body, a2a_client(request)
        )
    except AgoraError as exc:
        return await _a2a_page(
            request, await unit.write(), principal, values=values, errors=_refused(exc),
            status_code=exc.status_code,
        )  # fmt: skip
    return RedirectResponse(f"/developer/{agent.id}?submitted=1", status_code=303)


@router.get("/developer/earnings")
async def earnings_page(
    request: Request, session: SessionDep, settings: SettingsDep, principal: SignedInDep
) -> HTMLResponse:
    found = await earnings.earnings(session, principal, settings)
    value = shown_price(settings.payouts.credit_value, settings.payouts.currency)
    response = await _render(
        request, session, principal, "developer_earnings.html",
        earnings=found, credit_value=value, periods=_recent_periods(), shown=shown_price,
    )  # fmt: skip
    if settings.stripe.enabled:
        response.headers["Content-Security-Policy"] = connect_csp(settings)
    return response


@router.get("/developer/earnings/{period}.csv")
async def statement_csv_page(period: str, session: SessionDep, principal: SignedInDep) -> Response:
    found = await earnings.statement_rows(session, principal, period[:7])
    return statement_csv(found)


@router.get("/developer/earnings/{period}")
async def statement_page(
    request: Request, period: str, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    found = await earnings.statement(session, principal, period[:7])
    return await _render(
        request, session, principal, "developer_statement.html",
        statement=found, shown=shown_price,
    )  # fmt: skip


@router.get("/developer/{agent_id}")
async def agent_page(
    request: Request, agent_id: str, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    listed = await _owned(session, principal, agent_id)
    return await _form_page(
        request, session, principal, values=_listed_values(listed), errors={}, agent=listed
    )


@router.post("/developer/{agent_id}")
@mode(Mode.CALLS_OUT)
async def edit_agent(
    request: Request, agent_id: str, unit: UnitDep, principal: SignedInDep, settings: SettingsDep
) -> Response:
    values = _values(await _form(request))
    body = _body(values)
    reading = await unit.session()
    listed = await _owned(reading, principal, agent_id)
    errors = await _problems(reading, body, AgentUpdate)
    if errors:
        return await _form_page(
            request, reading, principal, values=values, errors=errors, agent=listed,
            status_code=400,
        )  # fmt: skip
    try:
        client = app_client(request)
        await developer.probe_and_update(unit, principal, settings, agent_id, body, client)
    except AgoraError as exc:
        session = await unit.write()
        return await _form_page(
            request, session, principal, values=values, errors=_refused(exc),
            agent=await _owned(session, principal, agent_id), status_code=exc.status_code,
        )  # fmt: skip
    return RedirectResponse(f"/developer/{agent_id}?saved=1", status_code=303)


@router.post("/developer/{agent_id}/withdraw")
async def withdraw_agent(
    request: Request, agent_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    await _form(request)
    await developer.withdraw(session, principal, agent_id)
    return RedirectResponse(f"/developer/{agent_id}?withdrawn=1", status_code=303)


def _day(value: Any) -> str:
    return f"{value:%b %d}"


def _jobs(n: int) -> str:
    return f"{n} job{'s' if n != 1 else ''}"


def _credits(units: int) -> str:
    return f"{to_display(units)} credits"


@router.get("/developer/{agent_id}/stats")
async def stats_page(
    request: Request, agent_id: str, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    stats = await figures.stats(session, principal, agent_id)
    days = await figures.daily(session, principal, agent_id)
    agent = await developer.get_owned(session, principal, agent_id)
    zone = reader_zone(request)
    checks = [
        (local_text(c.checked_at, zone), bool(c.available))
        for c in reversed(stats.availability.checks)
    ]
    span = f"from {_day(days[0].day)} to {_day(days[-1].day)} (UTC)" if days else ""
    jobs = sum(d.jobs for d in days)
    earned = sum(d.credits_earned for d in days)
    shown = [
        charts.availability("chart-availability", checks),
        charts.bars(
            "chart-jobs", "Jobs per day",
            [(_day(d.day), float(d.jobs), _jobs(d.jobs)) for d in days],
            description=f"{_jobs(jobs)} {span}.",
        ),
        charts.bars(
            "chart-failures", "Failure rate per day",
            [
                (_day(d.day), d.failure_rate,
                 "no ended job" if d.failure_rate is None else f"{d.failure_rate:.0%} failed")
                for d in days
            ],
            description=f"Failed jobs as a share of ended ones, per day, {span}; 100 % at the top.",
            css="chart-down", top=1.0,
        ),
        charts.bars(
            "chart-duration", "Median duration per day",
            [
                (_day(d.day), d.p50_duration_seconds,
                 "no completed job" if d.p50_duration_seconds is None
                 else f"{d.p50_duration_seconds:.1f} s")
                for d in days
            ],
            description=f"The p50 time from start to completion of each day's jobs, {span}.",
        ),
        charts.bars(
            "chart-earned", "Credits earned per day",
            [(_day(d.day), float(d.credits_earned), _credits(d.credits_earned)) for d in days],
            description=f"{to_display(earned)} credits earned {span}, net of the marketplace fee.",
        ),
    ]  # fmt: skip
    return await _render(
        request, session, principal, "developer_stats.html",
        agent=await listed_one(session, agent), stats=stats, charts=shown,
    )  # fmt: skip
