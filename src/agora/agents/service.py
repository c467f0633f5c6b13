"""Catalogue rules: listings, registration, verification lifecycle, availability checks.

Verification: PENDING → VERIFIED → REVOKED | EXPIRED. A verification lasts
``verification_lifetime_days``; ``availability_failures_to_expire`` consecutive failed checks
expire it early. Revoked is an operator's decision and is never undone by a check; verifying
again (``verify``) is how an expired or revoked agent comes back.
"""

from __future__ import annotations

import re
import statistics
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import structlog
from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import repository as repo
from agora.agents.schemas import AGENT_STATUSES
from agora.auth.principal import Principal
from agora.developer import repository as developer_repo
from agora.kit.db import Database
from agora.kit.errors import BadRequest, Conflict, NotFound
from agora.kit.ids import fetch_by_id, parse_uuid
from agora.kit.money import fee_for, to_base
from agora.kit.schemas import RowView
from agora.kit.timeutil import utcnow
from agora.mip003.client import Mip003Client, validate_base_url
from agora.mip003.errors import AgentError
from agora.models import Agent, Category
from agora.models.rows import AgentForJob, CategoryColumns, ListedAgentColumns
from agora.models.statuses import AgentStatus, PricingType
from agora.settings import Settings

log = structlog.get_logger(__name__)

UNCATEGORIZED = "uncategorized"
MAX_KEY_LISTING = 500
_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$")


@dataclass(frozen=True)
class ListedAgent(RowView):
    """An agent in a listing with its categories: what ``AgentOut`` reads. The row is an
    ``Agent``, or the lean listing's row (kit/reads.py): only its columns are read."""

    row: Agent | ListedAgentColumns
    categories: Sequence[CategoryColumns]


@dataclass(frozen=True)
class ShownAgent(RowView):
    """One agent (an entity) with its categories: what ``AgentOut`` and the agent page read."""

    row: Agent
    categories: Sequence[CategoryColumns]


@dataclass(frozen=True)
class AgentPage:
    agents: list[ListedAgent]
    total: int
    next_cursor: str | None = None
    has_more: bool = False


async def with_categories(
    session: AsyncSession, agents: Sequence[Agent] | Sequence[ListedAgentColumns]
) -> list[ListedAgent]:
    """The agents (entities or rows) with their categories."""
    categories = await repo.categories_of(session, [a.id for a in agents])
    return [ListedAgent(a, categories.get(a.id, [])) for a in agents]


async def with_categories_one(session: AsyncSession, agent: Agent) -> ShownAgent:
    categories = await repo.categories_of(session, [agent.id])
    return ShownAgent(agent, categories.get(agent.id, []))


def parse_category_values(values: list[str] | None) -> list[str]:
    """Repeated and comma-separated values, trimmed; an empty value is a 400."""
    slugs: list[str] = []
    for raw in values or []:
        for part in raw.split(","):
            slug = part.strip().lower()
            if not slug:
                raise BadRequest.field("category", "empty category value")
            if slug not in slugs:
                slugs.append(slug)
    return slugs


async def category_condition(session: AsyncSession, slugs: list[str]) -> ColumnElement[bool] | None:
    if not slugs:
        return None
    wanted = [s for s in slugs if s != UNCATEGORIZED]
    found = await repo.categories_by_slug(session, wanted)
    unknown = [s for s in wanted if s not in found]
    if unknown:
        raise BadRequest.field("category", f"unknown category: {', '.join(unknown)}")
    return repo.category_filter([c.id for c in found.values()], UNCATEGORIZED in slugs)


def _search(q: str | None) -> ColumnElement[bool] | None:
    text = (q or "").strip()
    return repo.text_search(text) if text else None


SORT_LABELS = {
    "": "Registration",
    "featured": "Featured first",
    "rating": "Best rated",
    "popularity": "Most hired (30 days)",
    "newest": "Newest",
    "price": "Lowest price",
    "relevance": "Relevance (with a search)",
}


def check_sort(sort: str | None, q: str | None) -> str | None:
    """A ``sort`` value (None: the registration order); 400 naming ``sort`` otherwise."""
    if sort is None:
        return None
    value = sort.strip().lower()
    if value not in repo.SORTS:
        raise BadRequest.field("sort", f"must be one of {', '.join(repo.SORTS)}")
    if value == "relevance" and not (q or "").strip():
        raise BadRequest.field("sort", "relevance needs a search text (q)")
    return value


@dataclass(frozen=True)
class PersonFilters:
    """Filters of the person asking (the Bearer listing, the gallery when signed in)."""

    user_id: uuid.UUID
    favourites: bool = False
    hired_before: bool = False

    def conditions(self) -> list[ColumnElement[bool]]:
        found: list[ColumnElement[bool]] = []
        if self.favourites:
            found.append(repo.favourites_of(self.user_id))
        if self.hired_before:
            found.append(repo.hired_by(self.user_id))
        return found


async def public_listing(
    session: AsyncSession,
    *,
    status: str,
    page: int,
    limit: int,
    categories: list[str],
    q: str | None = None,
    sort: str | None = None,
    featured: bool = False,
    person: PersonFilters | None = None,
) -> AgentPage:
    if status not in AGENT_STATUSES:
        raise BadRequest.field("status", f"must be one of {', '.join(AGENT_STATUSES)}")
    sort = check_sort(sort, q)
    conditions = repo.shown_with_status(status)
    for condition in (await category_condition(session, categories), _search(q)):
        if condition is not None:
            conditions.append(condition)
    if featured:
        conditions.append(repo.featured())
    if person is not None:
        conditions.extend(person.conditions())
    if sort is None and not featured and person is None:
        total = await repo.count(session, *conditions)
        agents = await repo.page(session, conditions, offset=(page - 1) * limit, limit=limit)
    else:  # the page and its total in one statement
        agents, total = await repo.sorted_page(
            session,
            conditions,
            repo.ordering(sort, q, utcnow()),
            offset=(page - 1) * limit,
            limit=limit,
        )
    return AgentPage(await with_categories(session, agents), total, has_more=page * limit < total)


MAX_OFFSET = 100_000


async def cursor_listing(
    session: AsyncSession,
    *,
    cursor: str | None,
    limit: int,
    categories: list[str],
    q: str | None = None,
    sort: str | None = None,
    featured: bool = False,
    person: PersonFilters | None = None,
) -> AgentPage:
    sort = check_sort(sort, q)
    if sort is not None:
        return await _sorted_cursor_listing(
            session,
            cursor=cursor,
            limit=limit,
            categories=categories,
            q=q,
            sort=sort,
            featured=featured,
            person=person,
        )
    after_id: uuid.UUID | None = None
    if cursor:
        after_id = parse_uuid(cursor)
        if after_id is None:
            raise BadRequest.field(
                "cursor", "must be the id of the last agent of the previous page"
            )
    filters = [
        condition
        for condition in (await category_condition(session, categories), _search(q))
        if condition is not None
    ]
    if featured:
        filters.append(repo.featured())
    if person is not None:
        filters.extend(person.conditions())
    conditions: list[ColumnElement[bool]] = [repo.AVAILABLE, *filters]
    agents: Sequence[Agent] | Sequence[ListedAgentColumns]
    if not filters:  # the prepared statements (read lean)
        if after_id is None:
            agents, total = await repo.available_first_with_total(session, limit=limit + 1)
        else:
            agents, total = await repo.available_after(session, after_id=after_id, limit=limit + 1)
    elif after_id is None:  # the first page: its rows and the total in one statement
        agents, total = await repo.first_with_total(session, conditions, limit=limit + 1)
    else:
        total = await repo.count(session, *conditions)
        agents = await repo.after(session, conditions, after_id=after_id, limit=limit + 1)
    more = len(agents) > limit
    agents = agents[:limit]
    next_cursor = str(agents[-1].id) if more and agents else None
    return AgentPage(
        await with_categories(session, agents), total, next_cursor=next_cursor, has_more=more
    )


async def _sorted_cursor_listing(
    session: AsyncSession,
    *,
    cursor: str | None,
    limit: int,
    categories: list[str],
    q: str | None,
    sort: str,
    featured: bool,
    person: PersonFilters | None,
) -> AgentPage:
    """A sorted listing pages by position: its cursor is the previous page's ``nextCursor``
    (how many agents came before), since a sort key is no stable place to resume from."""
    offset = 0
    if cursor:
        if not cursor.isdigit() or int(cursor) > MAX_OFFSET:
            raise BadRequest.field("cursor", "with sort, must be the nextCursor of the last page")
        offset = int(cursor)
    conditions: list[ColumnElement[bool]] = [repo.AVAILABLE]
    for condition in (await category_condition(session, categories), _search(q)):
        if condition is not None:
            conditions.append(condition)
    if featured:
        conditions.append(repo.featured())
    if person is not None:
        conditions.extend(person.conditions())
    agents: Sequence[Agent] | Sequence[ListedAgentColumns]
    if len(conditions) == 1 and sort != "relevance":  # no filter: prepared, read lean
        agents, total = await repo.available_sorted(
            session, sort, now=utcnow(), offset=offset, limit=limit + 1
        )
    else:
        agents, total = await repo.sorted_page(
            session, conditions, repo.ordering(sort, q, utcnow()), offset=offset, limit=limit + 1
        )
    more = len(agents) > limit
    agents = agents[:limit]
    next_cursor = str(offset + limit) if more else None
    return AgentPage(
        await with_categories(session, agents), total, next_cursor=next_cursor, has_more=more
    )


async def available_agents(session: AsyncSession) -> list[ListedAgent]:
    """The key-authenticated listing: every available agent (capped, ordered by id)."""
    agents = await repo.page(session, [repo.AVAILABLE], offset=0, limit=MAX_KEY_LISTING)
    return await with_categories(session, agents)


async def _shown_by_id(agent_id: str, fetch: Callable[[uuid.UUID], Awaitable[Any]]) -> Any:
    """What ``fetch`` finds for ``agent_id`` when the agent is shown (else the same 404)."""

    async def shown(parsed: uuid.UUID) -> Any | None:
        agent = await fetch(parsed)
        return agent if agent is not None and agent.is_shown else None

    return await fetch_by_id(agent_id, "Agent", shown)


async def get_shown(session: AsyncSession, agent_id: str) -> Agent:
    agent: Agent = await _shown_by_id(agent_id, lambda parsed: repo.get(session, parsed))
    return agent


async def get_for_job(session: AsyncSession, agent_id: str) -> AgentForJob:
    """``get_shown`` for creating a job: the columns it needs, as a row (``repo.for_job``)."""
    agent: AgentForJob = await _shown_by_id(agent_id, lambda parsed: repo.for_job(session, parsed))
    return agent


async def get_listed(session: AsyncSession, agent_id: str) -> ShownAgent:
    return await with_categories_one(session, await get_shown(session, agent_id))


async def get_any(session: AsyncSession, agent_id: str) -> Agent:
    return await fetch_by_id(agent_id, "Agent", lambda parsed: repo.get(session, parsed))


async def list_categories(session: AsyncSession) -> list[Category]:
    return await repo.all_categories(session)


@dataclass(frozen=True)
class CountedCategory(RowView):
    """A category row with its number of available agents: what ``CategoryOut`` reads."""

    row: Category
    agent_count: int


async def counted_categories(
    session: AsyncSession, categories: list[Category]
) -> list[CountedCategory]:
    counts = await repo.available_agent_counts(session, [c.id for c in categories])
    return [CountedCategory(c, counts.get(c.id, 0)) for c in categories]


async def get_category(session: AsyncSession, id_or_slug: str) -> CountedCategory:
    """A category by id or slug (404 otherwise)."""
    parsed = parse_uuid(id_or_slug)
    found = await repo.category_by_id(session, parsed) if parsed else None
    if found is None and len(id_or_slug) <= 100:
        found = (await repo.categories_by_slug(session, [id_or_slug.lower()])).get(
            id_or_slug.lower()
        )
    if found is None:
        raise NotFound(f"Category {id_or_slug} not found")
    return (await counted_categories(session, [found]))[0]


async def create_category(
    session: AsyncSession, *, slug: str, name: str, description: str = ""
) -> Category:
    slug = slug.strip().lower()
    if not _SLUG.match(slug) or slug == UNCATEGORIZED:
        raise BadRequest.field("slug", "lowercase letters, digits and hyphens; not 'uncategorized'")
    if await repo.categories_by_slug(session, [slug]):
        raise Conflict(f"Category {slug} already exists")
    return await repo.add_category(
        session, Category(slug=slug, name=name.strip() or slug, description=description)
    )


def _verification_window(settings: Settings) -> timedelta:
    return timedelta(days=settings.verification_lifetime_days)


@dataclass(frozen=True)
class Probe:
    """What a live MIP-003 check found at ``base_url`` (taken with no transaction open)."""

    base_url: str
    available: bool = False
    input_schema: dict[str, Any] | None = None
    error: str | None = None


def check_base_url(base_url: str) -> str:
    try:
        return validate_base_url(base_url)
    except ValueError as exc:
        raise BadRequest.field("baseUrl", str(exc)) from exc


async def probe(client: Mip003Client, base_url: str) -> Probe:
    """Ask the agent for /availability and /input_schema. Call it with NO transaction open
    (a slow agent must not hold a database lock); then write in a short transaction."""
    url = check_base_url(base_url)
    try:
        availability = await client.availability(url)
        schema = await client.input_schema(url)
    except AgentError as exc:
        return Probe(url, error=exc.message)
    return Probe(url, availability.available, schema.as_dict())


async def register_agent(
    session: AsyncSession,
    settings: Settings,
    probe: Probe,
    *,
    name: str,
    description: str = "",
    price: float | int | str = 0,
    categories: list[str] | None = None,
    tags: list[str] | None = None,
    verify: bool = False,
    is_shown: bool = True,
    agent_identifier: str | None = None,
) -> Agent:
    """List the agent that ``probe`` found speaking MIP-003 (/availability, /input_schema)."""
    url = probe.base_url
    try:
        base_price = to_base(price)
    except ValueError as exc:
        raise BadRequest.field("price", str(exc)) from exc
    if base_price < 0:
        raise BadRequest.field("price", "must not be negative")
    name = name.strip()
    if not 1 <= len(name) <= 200:
        raise BadRequest.field("name", "must be 1 to 200 characters")
    slugs = parse_category_values(categories)
    if UNCATEGORIZED in slugs:
        raise BadRequest.field("categories", "'uncategorized' is not a category; omit categories")
    clean_tags = sorted({t.strip() for t in tags or [] if t.strip()})
    if any(len(t) > 50 for t in clean_tags):
        raise BadRequest.field("tags", "a tag is at most 50 characters")
    if probe.error is not None or probe.input_schema is None:
        raise BadRequest.field("baseUrl", f"{url} does not speak MIP-003: {probe.error}")
    if verify and not probe.available:
        raise BadRequest.field("baseUrl", f"{url} reports itself unavailable; cannot verify")
    found = await repo.categories_by_slug(session, slugs)
    missing = [s for s in slugs if s not in found]
    if missing:
        raise BadRequest.field(
            "categories", f"unknown category: {', '.join(missing)} (create it first)"
        )

    now = utcnow()
    agent = Agent(
        name=name,
        description=description.strip(),
        base_url=url,
        status=AgentStatus.VERIFIED if verify else AgentStatus.PENDING,
        is_shown=is_shown,
        pricing_type=PricingType.FIXED if base_price else PricingType.FREE,
        price=base_price,
        fee=fee_for(base_price, settings.marketplace_fee_bps),
        tags=[{"name": t} for t in clean_tags],
        input_schema=probe.input_schema,
        agent_identifier=agent_identifier,
        verified_at=now if verify else None,
        verification_expires_at=now + _verification_window(settings) if verify else None,
        last_checked_at=now,
    )
    return await repo.add(session, agent, [found[s].id for s in slugs])


async def verify_agent(
    session: AsyncSession, settings: Settings, agent_id: str, probe: Probe
) -> Agent:
    """Verify (or re-verify) an agent after a live check (``probe`` of its base URL, taken
    before this transaction began; read the URL with ``get_any`` in an earlier one)."""
    agent = await get_any(session, agent_id)
    if agent.base_url != probe.base_url:
        raise BadRequest(f"Agent {agent_id} changed its base URL during the check; try again")
    if probe.error is not None or probe.input_schema is None:
        raise BadRequest(f"Agent {agent_id} failed its check: {probe.error}")
    if not probe.available:
        raise BadRequest(f"Agent {agent_id} reports itself unavailable")
    now = utcnow()
    agent.status = AgentStatus.VERIFIED
    agent.input_schema = probe.input_schema
    agent.verified_at = now
    agent.verification_expires_at = now + _verification_window(settings)
    agent.revoked_at = None
    agent.consecutive_failures = 0
    agent.last_checked_at = now
    await session.flush()
    return agent


async def revoke_agent(session: AsyncSession, agent_id: str) -> Agent:
    agent = await get_any(session, agent_id)
    if agent.status != AgentStatus.REVOKED:
        agent.status = AgentStatus.REVOKED
        agent.revoked_at = utcnow()
        await session.flush()
    return agent


async def check_availability(
    db: Database, client: Mip003Client, settings: Settings, *, batch: int = 100
) -> dict[str, int]:
    """One round: expire lapsed verifications, then probe verified agents.

    Agents are probed outside any transaction (a slow agent must not hold a database lock);
    each outcome is written in its own short transaction.
    """
    counts = {"checked": 0, "failed": 0, "expired": 0}
    async with db.transaction() as session:
        counts["expired"] += await repo.expire_lapsed(session, utcnow())
        due = [(a.id, a.base_url) for a in await repo.due_for_check(session, batch)]
    for agent_id, base_url in due:
        message: str | None = None
        try:
            answer = await client.availability(base_url)
            available, message = answer.available, answer.message
        except AgentError as exc:
            log.info("agent_check_failed", agent_id=str(agent_id), error=exc.message)
            available, message = False, exc.message
        async with db.transaction() as session:
            agent = await repo.get_for_update(session, agent_id)
            if agent is None or agent.status != AgentStatus.VERIFIED:
                continue
            await repo.record_check(session, agent_id, "periodic", available, message)
            agent.last_checked_at = utcnow()
            counts["checked"] += 1
            if available:
                agent.consecutive_failures = 0
                continue
            counts["failed"] += 1
            agent.consecutive_failures += 1
            if agent.consecutive_failures >= settings.availability_failures_to_expire:
                agent.status = AgentStatus.EXPIRED
                counts["expired"] += 1
    return counts


# ---- ownership, featured agents, comparison ----------------------------------------------------


async def is_owned_by(session: AsyncSession, agent_id: uuid.UUID, principal: Principal) -> bool:
    """Whether the agent is the caller's (its submitter, or their organization's)."""
    return await repo.is_owned(
        session, agent_id, developer_repo.owned_by(principal.user_id, principal.organization_id)
    )


async def set_featured(session: AsyncSession, agent_id: str, featured: bool) -> Agent:
    """The operator features an agent (or stops): ``featured=true`` and ``sort=featured``."""
    agent = await get_any(session, agent_id)
    await repo.set_featured(session, agent.id, utcnow() if featured else None)
    await session.refresh(agent)
    return agent


MAX_COMPARED = 3


@dataclass(frozen=True)
class ComparedAgent(RowView):
    """An agent with the figures a comparison shows: what ``ComparedAgentOut`` reads."""

    row: Agent
    categories: Sequence[CategoryColumns]
    p50_duration_seconds: float | None
    failure_rate: float | None
    completed_jobs_30d: int
    available: bool | None
    checked_at: datetime | None
    input_fields: list[dict[str, Any]]


def _input_fields(schema: dict[str, Any] | None) -> list[dict[str, Any]]:
    fields: list[dict[str, Any]] = []
    for item in (schema or {}).get("input_data") or []:
        if isinstance(item, dict):
            fields.append(
                {
                    "id": str(item.get("id", "")),
                    "type": str(item.get("type", "")),
                    "name": str(item.get("name") or item.get("id") or ""),
                }
            )
    return fields


def parse_compared(values: list[str] | None) -> list[str]:
    ids: list[str] = []
    for raw in values or []:
        for part in raw.split(","):
            if part.strip() and part.strip() not in ids:
                ids.append(part.strip())
    if not 1 <= len(ids) <= MAX_COMPARED:
        raise BadRequest.field("ids", f"compare 1 to {MAX_COMPARED} agents")
    return ids


async def compare(session: AsyncSession, agent_ids: list[str]) -> list[ComparedAgent]:
    """Shown agents side by side: price, rating, p50 duration, failure rate, completed jobs in
    the last 30 days, latest availability check and input fields. A few statements per agent,
    at most ``MAX_COMPARED`` agents."""
    since = repo.popular_since(utcnow())
    compared = []
    for agent_id in agent_ids:
        agent = await get_shown(session, agent_id)
        completed, failed = await repo.outcome_counts(session, agent.id)
        durations = await repo.completed_durations(session, agent.id)
        checks = await repo.latest_checks(session, [agent.id])
        available, checked_at = checks.get(agent.id, (None, None))
        compared.append(
            ComparedAgent(
                agent,
                (await repo.categories_of(session, [agent.id])).get(agent.id, []),
                p50_duration_seconds=statistics.median(durations) if durations else None,
                failure_rate=failed / (completed + failed) if completed + failed else None,
                completed_jobs_30d=await repo.completed_since(session, agent.id, since),
                available=available,
                checked_at=checked_at,
                input_fields=_input_fields(agent.input_schema),
            )
        )
    return compared
