"""Developer listings: submit, edit, withdraw, review, override, stats.

Lifecycle of a submitted agent (``review_state`` beside the catalogue ``status``):

    submit ──► PENDING / pending (hidden) ──approve──► VERIFIED / approved (listed)
                     │                                   │ new baseUrl or price
                     └──reject──► REVOKED / rejected      └──► PENDING / pending (hidden)
    any edit of a rejected agent resubmits it (PENDING / pending); withdraw → REVOKED / withdrawn

Live MIP-003 checks (``probe``) run outside any transaction; the callers write afterwards in a
short one. The published columns (name, description, tags, image, is_shown) are always derived by
``publish`` from the submitted listing and the admin's overrides, so an override survives edits,
re-probes and registry re-imports.
"""

from __future__ import annotations

import statistics
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import repository as agents_repo
from agora.agents.service import UNCATEGORIZED, parse_category_values
from agora.audit import service as audit
from agora.auth.principal import Principal
from agora.developer import repository as repo
from agora.developer.schemas import (
    AvailabilityOut,
    CheckOut,
    DeveloperStatsOut,
    ErrorSeenOut,
    JobCountsOut,
    PriceOut,
    PublishedOut,
    ReviewOut,
)
from agora.kit.errors import BadRequest, Conflict, Forbidden
from agora.kit.fields import trimmed
from agora.kit.ids import fetch_by_id
from agora.kit.money import fee_for, to_base
from agora.kit.pagination import PageParams
from agora.kit.schemas import RowView
from agora.kit.timeutil import utcnow
from agora.mip003.client import Mip003Client, validate_base_url
from agora.mip003.errors import AgentError
from agora.models import Agent
from agora.models.statuses import AgentSource, AgentStatus, JobStatus, PricingType, ReviewState
from agora.notifications import notify
from agora.settings import Settings

PENDING, APPROVED, REJECTED, WITHDRAWN = (
    ReviewState.PENDING,
    ReviewState.APPROVED,
    ReviewState.REJECTED,
    ReviewState.WITHDRAWN,
)
OVERRIDABLE = ("name", "description", "tags", "image", "hidden")
MAX_CHECKS_SHOWN = 50
MAX_ERRORS_SHOWN = 10
AGENT_STATUSES = tuple(AgentStatus)
# Each submission makes Agora call a URL the submitter chose; a cap keeps that bounded.
MAX_AGENTS_PER_OWNER = 100


# ---- validation -----------------------------------------------------------------------------


def clean_base_url(value: str) -> str:
    """http(s) only (``file:``, ``ftp:``, … are refused here); the address policy is the
    outbound guard's, under the MIP-003 client."""
    try:
        return validate_base_url(value)
    except ValueError as exc:
        raise BadRequest.field("baseUrl", str(exc)) from exc


def link(field: str, value: str | None) -> str | None:
    """An optional absolute http(s) link (shown to users, never fetched by Agora)."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BadRequest.field(field, "must be an absolute http(s) URL")
    return value


def clean_tags(field: str, tags: list[str]) -> list[str]:
    out: list[str] = []
    for tag in tags:
        tag = tag.strip()
        if tag and tag not in out:
            out.append(tag)
    if any(len(t) > 50 for t in out):
        raise BadRequest.field(field, "a tag is at most 50 characters")
    return out


def clean_price(value: float | int | str) -> int:
    try:
        price = to_base(value)
    except ValueError as exc:
        raise BadRequest.field("price", str(exc)) from exc
    if price < 0:
        raise BadRequest.field("price", "must not be negative")
    if price > to_base(1_000_000):
        raise BadRequest.field("price", "at most 1000000 credits")
    return price


async def category_ids(session: AsyncSession, values: list[str]) -> list[uuid.UUID]:
    """Curated categories only (``GET /v1/categories``)."""
    try:
        slugs = parse_category_values(values)
    except BadRequest as exc:
        raise BadRequest.field("categories", "empty category value") from exc
    if UNCATEGORIZED in slugs:
        raise BadRequest.field("categories", "'uncategorized' is not a category; omit categories")
    found = await agents_repo.categories_by_slug(session, slugs)
    missing = [s for s in slugs if s not in found]
    if missing:
        raise BadRequest.field(
            "categories", f"unknown category: {', '.join(missing)} (see GET /v1/categories)"
        )
    return [found[s].id for s in slugs]


def listing_text(given: dict[str, Any]) -> dict[str, Any]:
    """The submitted listing fields of a (validated) body, cleaned, as stored in ``listing``."""
    out: dict[str, Any] = {}
    if "name" in given:
        out["name"] = trimmed("name", given["name"], 200)
    if "description" in given:
        out["description"] = given["description"].strip()
    if "tags" in given:
        out["tags"] = clean_tags("tags", given["tags"])
    if "image" in given:
        out["image"] = link("image", given["image"])
    if "exampleOutputs" in given:
        outputs = []
        for i, item in enumerate(given["exampleOutputs"]):
            url = link(f"exampleOutputs.{i}.url", item["url"])
            outputs.append({"name": item["name"].strip(), "mimeType": item["mimeType"], "url": url})
        out["exampleOutputs"] = outputs
    if "author" in given:
        author = given["author"]
        if author is not None:
            author = {k: v for k, v in author.items() if v is not None}
            if "website" in author:
                author["website"] = link("author.website", author["website"])
        out["author"] = author
    if "legal" in given:
        legal = given["legal"]
        if legal is not None:
            legal = {k: link(f"legal.{k}", v) for k, v in legal.items() if v is not None}
        out["legal"] = legal
    return out


# ---- live checks (no transaction open) -----------------------------------------------------


@dataclass(frozen=True)
class Probe:
    url: str
    available: bool
    message: str | None
    input_schema: dict[str, Any]


async def probe(client: Mip003Client, base_url: str) -> Probe:
    """/availability and /input_schema of ``base_url``; a failure is a 400 naming baseUrl.
    Call it with no transaction open (a slow agent must not hold a database lock)."""
    url = clean_base_url(base_url)
    try:
        availability = await client.availability(url)
        schema = await client.input_schema(url)
    except AgentError as exc:
        raise BadRequest.field("baseUrl", f"{url} failed the MIP-003 check: {exc.message}") from exc
    return Probe(url, availability.available, availability.message, schema.as_dict())


async def ensure_room(session: AsyncSession, principal: Principal) -> None:
    """Refuse a submission beyond ``MAX_AGENTS_PER_OWNER`` live (not withdrawn) agents, before
    anything is probed (in the route's read phase)."""
    require_developer(principal)
    live = await agents_repo.count(session, _owner(principal), repo.not_withdrawn())
    if live >= MAX_AGENTS_PER_OWNER:
        raise Conflict(
            f"You already list {live} agents (at most {MAX_AGENTS_PER_OWNER}); withdraw one first"
        )


async def changed_base_url(
    session: AsyncSession, principal: Principal, agent_id: str, base_url: str
) -> str | None:
    """For a PATCH, in the route's read phase: the new base URL to check live, or None when it
    did not change. Ownership is checked here, so a stranger's PATCH probes nothing."""
    url = clean_base_url(base_url)
    current = (await get_owned(session, principal, agent_id)).base_url
    return None if url == current else url


async def probe_for_review(client: Mip003Client, agent_id: str, base_url: str) -> Probe:
    """For an approval: the live check of the agent's current base URL (no transaction open)."""
    try:
        return await probe(client, base_url)
    except BadRequest as exc:
        raise BadRequest(f"Agent {agent_id} failed its check: {exc.message}") from exc


# ---- publishing -----------------------------------------------------------------------------


def publish(agent: Agent) -> None:
    """Derive the published columns from the listing and the admin's overrides."""
    listing, override = agent.listing or {}, agent.admin_override or {}
    agent.name = override.get("name") or listing.get("name") or agent.name
    agent.description = str(override.get("description", listing.get("description", "")))
    tags = override.get("tags", listing.get("tags", []))
    agent.tags = [{"name": t} for t in tags]
    agent.image = override.get("image", listing.get("image"))
    hidden = bool(override.get("hidden", listing.get("hidden", False)))
    agent.is_shown = agent.review_state in (None, APPROVED) and not hidden


def set_price(agent: Agent, price: int, settings: Settings) -> None:
    agent.price = price
    agent.fee = fee_for(price, settings.marketplace_fee_bps)
    agent.pricing_type = PricingType.FIXED if price else PricingType.FREE


def back_to_review(agent: Agent, why: str) -> None:
    agent.status = AgentStatus.PENDING
    agent.review_state = PENDING
    agent.review_note = why
    agent.verified_at = None
    agent.verification_expires_at = None


# ---- developer ------------------------------------------------------------------------------


def _owner(principal: Principal) -> ColumnElement[bool]:
    return repo.owned_by(principal.user_id, principal.organization_id)


def require_developer(principal: Principal) -> None:
    if principal.key_kind == "coworker":
        raise Forbidden("Coworker keys cannot list agents; use a user key")


async def get_owned(
    session: AsyncSession, principal: Principal, agent_id: str, *, for_update: bool = False
) -> Agent:
    owner = _owner(principal)
    return await fetch_by_id(
        agent_id, "Agent", lambda parsed: repo.owned(session, parsed, owner, for_update=for_update)
    )


async def submit(
    session: AsyncSession,
    principal: Principal,
    settings: Settings,
    body: dict[str, Any],
    checked: Probe,
) -> Agent:
    require_developer(principal)
    price = clean_price(body.get("price", 0))
    listing = listing_text(body)
    ids = await category_ids(session, body.get("categories", []))
    now = utcnow()
    agent = Agent(
        base_url=checked.url,
        status=AgentStatus.PENDING,
        source=AgentSource.DEVELOPER,
        owner_user_id=principal.user_id,
        owner_organization_id=principal.organization_id,
        review_state=PENDING,
        review_note=None,
        listing=listing,
        admin_override={},
        input_schema=checked.input_schema,
        last_checked_at=now,
        name=listing["name"],
    )
    set_price(agent, price, settings)
    publish(agent)
    await agents_repo.add(session, agent, ids)
    await agents_repo.record_check(session, agent.id, "submit", checked.available, checked.message)
    await audit.record(
        session,
        "agent.submitted",
        actor=principal,
        target_kind="agent",
        target_id=agent.id,
        workspace_id=principal.workspace_id,
        details={"name": agent.name, "baseUrl": agent.base_url, "price": price},
    )
    return agent


async def update(
    session: AsyncSession,
    principal: Principal,
    settings: Settings,
    agent_id: str,
    given: dict[str, Any],
    checked: Probe | None,
) -> Agent:
    """Apply a PATCH. ``checked`` is the live check of a new baseUrl (made before, outside)."""
    require_developer(principal)
    agent = await get_owned(session, principal, agent_id, for_update=True)
    if agent.review_state == WITHDRAWN:
        raise Conflict(f"Agent {agent_id} was withdrawn; submit it again instead")
    listing = {**(agent.listing or {}), **listing_text(given)}
    reasons: list[str] = []
    if checked is not None and checked.url != agent.base_url:
        agent.base_url = checked.url
        agent.input_schema = checked.input_schema
        agent.last_checked_at = utcnow()
        await agents_repo.record_check(
            session, agent.id, "submit", checked.available, checked.message
        )
        reasons.append("base URL")
    if "price" in given:
        price = clean_price(given["price"])
        if price != agent.price:
            set_price(agent, price, settings)
            reasons.append("price")
    if "categories" in given:
        await repo.replace_categories(
            session, agent.id, await category_ids(session, given["categories"])
        )
    agent.listing = listing
    if reasons and agent.review_state != PENDING:
        back_to_review(agent, f"Changed {' and '.join(reasons)}: waiting for review again")
    elif agent.review_state == REJECTED:
        back_to_review(agent, "Edited after a rejection: waiting for review again")
    publish(agent)
    agent.updated_at = utcnow()
    await session.flush()
    return agent


async def withdraw(session: AsyncSession, principal: Principal, agent_id: str) -> Agent:
    require_developer(principal)
    agent = await get_owned(session, principal, agent_id, for_update=True)
    if agent.review_state != WITHDRAWN:
        now = utcnow()
        agent.status = AgentStatus.REVOKED
        agent.revoked_at = now
        agent.withdrawn_at = now
        agent.review_state = WITHDRAWN
        agent.review_note = "Withdrawn by its developer"
        publish(agent)
        await session.flush()
    return agent


async def list_owned(
    session: AsyncSession, principal: Principal, params: PageParams
) -> tuple[list[Agent], int]:
    owner = _owner(principal)
    total = await agents_repo.count(session, owner)
    agents = await agents_repo.page(session, [owner], offset=params.offset, limit=params.limit)
    return agents, total


async def stats(session: AsyncSession, principal: Principal, agent_id: str) -> DeveloperStatsOut:
    agent = await get_owned(session, principal, agent_id)
    checks = await repo.recent_checks(session, agent.id, MAX_CHECKS_SHOWN)
    counts = await repo.job_counts(session, agent.id)
    completed, failed = counts.get(JobStatus.COMPLETED, 0), counts.get(JobStatus.FAILED, 0)
    cancelled = counts.get(JobStatus.CANCELLED, 0)
    total = sum(counts.values())
    durations = [
        (done - (started or created)).total_seconds()
        for created, started, done in await repo.completed_times(session, agent.id)
    ]
    errors = await repo.last_errors(session, agent.id, MAX_ERRORS_SHOWN)
    return DeveloperStatsOut(
        agent_id=agent.id,
        status=agent.status,
        review=_review(agent),
        availability=AvailabilityOut(
            checks=[CheckOut.model_validate(c) for c in checks],
            uptime=sum(c.available for c in checks) / len(checks) if checks else None,
        ),
        jobs=JobCountsOut(
            total=total,
            completed=completed,
            failed=failed,
            cancelled=cancelled,
            active=total - completed - failed - cancelled,
        ),
        failure_rate=failed / (completed + failed) if completed + failed else None,
        p50_duration_seconds=max(0.0, statistics.median(durations)) if durations else None,
        credits_earned=await repo.credits_earned(session, agent.id),
        last_errors=[
            ErrorSeenOut(job_id=job_id, at=at, agent_job_status=status, error=error[:2000])
            for job_id, at, status, error in errors
        ],
    )


MAX_DAILY_JOBS = 5000


@dataclass(frozen=True)
class Day:
    """One UTC day of an agent's jobs (by the day each job was created)."""

    day: date
    jobs: int
    completed: int
    failed: int
    failure_rate: float | None  # failed / (completed + failed)
    p50_duration_seconds: float | None  # completed jobs, start (or creation) to completion
    credits_earned: int  # base units, as ``credits_earned``


async def daily(
    session: AsyncSession, principal: Principal, agent_id: str, days: int = 14
) -> list[Day]:
    """The last ``days`` UTC days (today included, oldest first) of jobs, failure rate, p50
    duration and credits earned, from the agent's jobs created in them (at most
    ``MAX_DAILY_JOBS``, the newest)."""
    agent = await get_owned(session, principal, agent_id)
    today = utcnow().date()
    first = today - timedelta(days=days - 1)
    since = datetime.combine(first, time.min, tzinfo=UTC)
    buckets: dict[date, list[Any]] = {first + timedelta(days=i): [] for i in range(days)}
    for row in await repo.jobs_since(session, agent.id, since, MAX_DAILY_JOBS):
        created = row[0] if row[0].tzinfo else row[0].replace(tzinfo=UTC)
        buckets.setdefault(created.astimezone(UTC).date(), []).append(row)
    out = []
    for day in sorted(d for d in buckets if d >= first):
        rows = buckets[day]
        completed = [r for r in rows if r[1] == JobStatus.COMPLETED]
        failed = sum(1 for r in rows if r[1] == JobStatus.FAILED)
        durations = [
            (done - (started or created)).total_seconds()
            for created, _status, started, done, _earned in completed
            if done is not None
        ]
        ended = len(completed) + failed
        out.append(
            Day(
                day=day,
                jobs=len(rows),
                completed=len(completed),
                failed=failed,
                failure_rate=failed / ended if ended else None,
                p50_duration_seconds=max(0.0, statistics.median(durations)) if durations else None,
                credits_earned=sum(int(r[4] or 0) for r in rows),
            )
        )
    return out


def submission_problems(given: dict[str, Any]) -> dict[str, str]:
    """Every problem of a submission's (or edit's) fields at once, by the API's field names
    (``baseUrl``, ``price``, ``author.website`` …): the rules ``submit``/``update`` apply, for a
    form that reports them all together. Categories are checked by ``category_ids``."""
    found: dict[str, str] = {}
    checks: list[tuple[str, Any]] = []
    if "baseUrl" in given:
        checks.append(("baseUrl", lambda: clean_base_url(given["baseUrl"])))
    if "price" in given:
        checks.append(("price", lambda: clean_price(given["price"])))
    for key in ("name", "tags", "image", "author", "legal", "exampleOutputs"):
        if key in given:
            checks.append((key, lambda key=key: listing_text({key: given[key]})))
    for key, check in checks:
        try:
            check()
        except BadRequest as exc:
            for detail in exc.details or ():
                found.setdefault(detail.field, detail.reason)
            if not exc.details:
                found.setdefault(key, exc.message)
    return found


# ---- admin review ---------------------------------------------------------------------------


async def admin_list(
    session: AsyncSession, *, status: str | None, review: str | None, params: PageParams
) -> tuple[list[Agent], int]:
    conditions: list[ColumnElement[bool]] = []
    if status is not None:
        status = status.upper()
        if status not in AGENT_STATUSES:
            raise BadRequest.field("status", f"must be one of {', '.join(AGENT_STATUSES)}")
        conditions.append(repo.status_condition(status))
    if review is not None:
        review = review.lower()
        if review not in (PENDING, APPROVED, REJECTED, WITHDRAWN):
            raise BadRequest.field("review", "must be pending, approved, rejected or withdrawn")
        conditions.append(repo.review_condition(review))
    total = await agents_repo.count(session, *conditions)
    agents = await agents_repo.page(session, conditions, offset=params.offset, limit=params.limit)
    return agents, total


async def get_any(session: AsyncSession, agent_id: str, *, for_update: bool = False) -> Agent:
    fetch = agents_repo.get_for_update if for_update else agents_repo.get
    return await fetch_by_id(agent_id, "Agent", lambda parsed: fetch(session, parsed))


async def approve(
    session: AsyncSession,
    settings: Settings,
    agent_id: str,
    checked: Probe,
    note: str,
    *,
    actor: audit.Actor | None = None,
) -> Agent:
    agent = await get_any(session, agent_id, for_update=True)
    if agent.review_state == WITHDRAWN:
        raise Conflict(f"Agent {agent_id} was withdrawn by its developer")
    if agent.base_url != checked.url:
        raise Conflict(f"Agent {agent_id} changed its base URL during the review; try again")
    await agents_repo.record_check(session, agent.id, "review", checked.available, checked.message)
    if not checked.available:
        raise BadRequest(f"Agent {agent_id} reports itself unavailable; cannot approve it")
    now = utcnow()
    agent.status = AgentStatus.VERIFIED
    agent.review_state = APPROVED
    agent.review_note = note.strip() or None
    agent.reviewed_at = now
    agent.input_schema = checked.input_schema
    agent.verified_at = now
    agent.verification_expires_at = now + timedelta(days=settings.verification_lifetime_days)
    agent.revoked_at = None
    agent.consecutive_failures = 0
    agent.last_checked_at = now
    publish(agent)
    await session.flush()
    await audit.record(
        session,
        "agent.approved",
        actor=actor,
        target_kind="agent",
        target_id=agent.id,
        details={"name": agent.name, "note": agent.review_note},
    )
    await _review_decided(session, agent, "approved")
    return agent


async def reject(
    session: AsyncSession, agent_id: str, reason: str, *, actor: audit.Actor | None = None
) -> Agent:
    agent = await get_any(session, agent_id, for_update=True)
    if agent.review_state == WITHDRAWN:
        raise Conflict(f"Agent {agent_id} was withdrawn by its developer")
    now = utcnow()
    agent.status = AgentStatus.REVOKED
    agent.revoked_at = now
    agent.review_state = REJECTED
    agent.review_note = trimmed("reason", reason, 2000)
    agent.reviewed_at = now
    publish(agent)
    await session.flush()
    await audit.record(
        session,
        "agent.rejected",
        actor=actor,
        target_kind="agent",
        target_id=agent.id,
        details={"name": agent.name, "reason": agent.review_note},
    )
    await _review_decided(session, agent, "rejected")
    return agent


async def _review_decided(session: AsyncSession, agent: Agent, decision: str) -> None:
    """The submitting developer hears the decision (``agent.review_decided``), in the decision's
    transaction."""
    if agent.owner_user_id is None:  # an operator-registered agent: nobody submitted it
        return
    data = {"agentId": str(agent.id), "name": agent.name, "decision": decision}
    if agent.review_note:
        data["message"] = f"Reviewer's note: {agent.review_note}"
    await notify(
        session,
        user_id=agent.owner_user_id,
        kind="agent.review_decided",
        subject_ref=f"agent:{agent.id}",
        data=data,
    )


def _snapshot(agent: Agent) -> dict[str, Any]:
    """An operator-registered agent has no listing yet: its published values become one."""
    return {
        "name": agent.name,
        "description": agent.description,
        "tags": [str(t.get("name", "")) for t in agent.tags if isinstance(t, dict)],
        "image": agent.image,
        "hidden": not agent.is_shown,
    }


async def override(
    session: AsyncSession,
    agent_id: str,
    given: dict[str, Any],
    *,
    actor: audit.Actor | None = None,
    reason: str | None = None,
) -> Agent:
    """Set (a value) or clear (``null``) admin overrides of the published listing (``reason``:
    the console's required why, kept in the audit row)."""
    if not given:
        raise BadRequest(f"Give at least one of {', '.join(OVERRIDABLE)}")
    agent = await get_any(session, agent_id, for_update=True)
    if not agent.listing:
        agent.listing = _snapshot(agent)
    current = dict(agent.admin_override or {})
    for field, value in given.items():
        if value is None:
            current.pop(field, None)
        elif field == "name":
            current[field] = trimmed("name", value, 200)
        elif field == "tags":
            current[field] = clean_tags("tags", value)
        elif field == "image":
            current[field] = link("image", value)
        elif field == "description":
            current[field] = value.strip()
        else:
            current[field] = bool(value)
    agent.admin_override = current
    publish(agent)
    agent.updated_at = utcnow()
    await session.flush()
    await audit.record(
        session,
        "agent.overridden",
        actor=actor,
        target_kind="agent",
        target_id=agent.id,
        details={"fields": sorted(given), **({"reason": reason[:500]} if reason else {})},
    )
    return agent


# ---- responses (rows read through developer/schemas.py) -----------------------------------


def _review(agent: Agent) -> ReviewOut:
    return ReviewOut(
        state=agent.review_state, note=agent.review_note, reviewed_at=agent.reviewed_at
    )


@dataclass(frozen=True)
class ListedAgent(RowView):
    """An agent row as its developer (or an admin) sees it: the submitted listing beside the
    published columns. Read by ``DeveloperAgentOut`` / ``AdminAgentOut``; other attributes come
    from the row."""

    row: Agent
    categories: list[str]

    @property
    def _listing(self) -> dict[str, Any]:
        return self.row.listing or {}

    @property
    def review(self) -> ReviewOut:
        return _review(self.row)

    @property
    def name(self) -> str:
        return str(self._listing.get("name", self.row.name))

    @property
    def description(self) -> str:
        return str(self._listing.get("description", self.row.description))

    @property
    def tags(self) -> list[str]:
        return list(self._listing.get("tags", []))

    @property
    def example_outputs(self) -> list[dict[str, Any]]:
        return list(self._listing.get("exampleOutputs", []))  # camelCase keys: the aliases

    @property
    def author(self) -> dict[str, Any] | None:
        return self._listing.get("author") or None

    @property
    def legal(self) -> dict[str, Any] | None:
        return self._listing.get("legal") or None

    @property
    def image(self) -> str | None:
        return self._listing.get("image")

    @property
    def price(self) -> PriceOut:
        return PriceOut(credits=self.row.price + self.row.fee, included_fee=self.row.fee)

    @property
    def published(self) -> PublishedOut:
        agent = self.row
        return PublishedOut(
            name=agent.name,
            description=agent.description,
            tags=[str(t.get("name", "")) for t in agent.tags if isinstance(t, dict)],
            image=agent.image,
            is_shown=agent.is_shown,
            overridden=sorted(agent.admin_override or {}),
        )

    @property
    def admin_override(self) -> dict[str, Any]:
        return self.row.admin_override or {}


async def listed(session: AsyncSession, agents: list[Agent]) -> list[ListedAgent]:
    found = await agents_repo.categories_of(session, [a.id for a in agents])
    return [ListedAgent(a, [c.slug for c in found.get(a.id, [])]) for a in agents]


async def listed_one(session: AsyncSession, agent: Agent) -> ListedAgent:
    return (await listed(session, [agent]))[0]
