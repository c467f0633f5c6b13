"""Catalogue rules: listings, one agent, categories, registration, the verification lifecycle.

Verification: PENDING → VERIFIED → REVOKED | EXPIRED. A verification lasts
``verification_lifetime_days``; ``availability_failures_to_expire`` consecutive failed checks
expire it early (agents/availability.py, the checker's rounds). Revoked is an operator's decision
and is never undone by a check; verifying again (``probe_and_verify``) is how an expired or
revoked agent comes back.

Actions that check an agent live take the request's ``Unit`` and run their phases themselves:
the reads, the MIP-003 check with nothing held (``unit.call_out``), then the write
(``probe_and_register``, ``probe_and_verify``; developer/service.py has the developer's).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NotRequired, TypedDict

from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession
from typing_extensions import Unpack

from agora.agents import badge_repository, filters, versions
from agora.agents import repository as repo
from agora.agents.filters import PersonFilters
from agora.agents.schemas import AGENT_STATUSES, InputSchemaOut
from agora.auth.principal import Principal
from agora.kit.errors import BadRequest, Conflict, NotFound
from agora.kit.ids import fetch_by_id, parse_uuid
from agora.kit.money import fee_for, to_base
from agora.kit.schemas import RowView
from agora.kit.timeutil import utcnow
from agora.kit.units import Unit
from agora.mip003.client import Mip003Client, validate_base_url
from agora.mip003.errors import AgentError
from agora.models import Agent, AgentVersion, Category
from agora.models.rows import AgentForJob, CategoryColumns, ListedAgentColumns
from agora.models.statuses import AgentStatus, PricingType
from agora.settings import Settings

MAX_KEY_LISTING = 500
MAX_OFFSET = 100_000
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


# ---- listings ---------------------------------------------------------------------------------


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
    conformant: bool = False,
) -> AgentPage:
    """The listing without credentials (and the gallery): pages of shown agents in a status."""
    if status not in AGENT_STATUSES:
        raise BadRequest.field("status", f"must be one of {', '.join(AGENT_STATUSES)}")
    sort = filters.check_sort(sort, q)
    conditions = [
        *repo.shown_with_status(status),
        *await filters.conditions(
            session, categories, q, featured=featured, person=person, conformant=conformant
        ),
    ]
    offset = (page - 1) * limit
    if sort is None and not featured and person is None:
        total = await repo.count(session, *conditions)
        agents = await repo.page(session, conditions, offset=offset, limit=limit)
    else:  # the page and its total in one statement
        order = repo.ordering(sort, q, utcnow())
        agents, total = await repo.sorted_page(
            session, conditions, order, offset=offset, limit=limit
        )
    return AgentPage(await with_categories(session, agents), total, has_more=page * limit < total)


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
    conformant: bool = False,
) -> AgentPage:
    """The Bearer listing (and the MCP tools'): available agents, paged by the last agent's id,
    or by position when sorted (``_sorted_page``)."""
    sort = filters.check_sort(sort, q)
    if sort is not None:
        offset = _offset(cursor)
        found = await filters.conditions(
            session, categories, q, featured=featured, person=person, conformant=conformant
        )
        return await _sorted_page(session, found, sort, q, offset=offset, limit=limit)
    after_id: uuid.UUID | None = None
    if cursor:
        after_id = parse_uuid(cursor)
        if after_id is None:
            raise BadRequest.field(
                "cursor", "must be the id of the last agent of the previous page"
            )
    found = await filters.conditions(
        session, categories, q, featured=featured, person=person, conformant=conformant
    )
    conditions: list[ColumnElement[bool]] = [repo.AVAILABLE, *found]
    agents: Sequence[Agent] | Sequence[ListedAgentColumns]
    if not found:  # the prepared statements (read lean)
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


def _offset(cursor: str | None) -> int:
    """A sorted listing pages by position: its cursor is the previous page's ``nextCursor``
    (how many agents came before), since a sort key is no stable place to resume from."""
    if not cursor:
        return 0
    if not cursor.isdigit() or int(cursor) > MAX_OFFSET:
        raise BadRequest.field("cursor", "with sort, must be the nextCursor of the last page")
    return int(cursor)


async def _sorted_page(
    session: AsyncSession,
    found: list[ColumnElement[bool]],
    sort: str,
    q: str | None,
    *,
    offset: int,
    limit: int,
) -> AgentPage:
    """A sorted page of the available agents meeting ``found``, from position ``offset``."""
    agents: Sequence[Agent] | Sequence[ListedAgentColumns]
    if not found and sort != "relevance":  # no filter: prepared, read lean
        agents, total = await repo.available_sorted(
            session, sort, now=utcnow(), offset=offset, limit=limit + 1
        )
    else:
        order = repo.ordering(sort, q, utcnow())
        agents, total = await repo.sorted_page(
            session, [repo.AVAILABLE, *found], order, offset=offset, limit=limit + 1
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


# ---- one agent, agents by condition (developer listings, the review queue) --------------------


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


@dataclass(frozen=True)
class Conformance:
    """The Conformant badge a listing holds: its latest passing run's time, the suite's version."""

    passed_at: datetime
    suite_version: str


@dataclass(frozen=True)
class DetailedAgent(RowView):
    """One shown agent with its categories and its badge: what ``AgentDetailOut`` reads."""

    row: Agent
    categories: Sequence[CategoryColumns]
    conformance: Conformance | None


async def get_detail(session: AsyncSession, agent_id: str) -> DetailedAgent:
    """A shown agent for ``GET /v1/agents/{id}`` and MCP's ``get_agent``: with its badge."""
    shown = await get_listed(session, agent_id)
    badge = (await badge_repository.badges(session, [shown.row.id])).get(shown.row.id)
    return DetailedAgent(
        shown.row, shown.categories, None if badge is None else Conformance(*badge)
    )


async def list_versions(
    session: AsyncSession, agent_id: str, *, limit: int, offset: int
) -> list[AgentVersion]:
    """A shown agent's versions, newest first (its changelog)."""
    agent = await get_shown(session, agent_id)
    return await versions.listed(session, agent.id, limit=limit, offset=offset)


async def get_any(session: AsyncSession, agent_id: str, *, for_update: bool = False) -> Agent:
    """Any agent, whatever its status or visibility (operators, its developer's checks)."""
    fetch = repo.get_for_update if for_update else repo.get
    return await fetch_by_id(agent_id, "Agent", lambda parsed: fetch(session, parsed))


async def get_input_schema(session: AsyncSession, agent_id: str) -> InputSchemaOut:
    """A shown agent's MIP-003 input schema, as last fetched (404 when it has none)."""
    agent = await get_shown(session, agent_id)
    if agent.input_schema is None:
        raise NotFound(f"Agent {agent_id} has no input schema")
    return InputSchemaOut(agentId=str(agent.id), **agent.input_schema)


async def count(session: AsyncSession, *conditions: ColumnElement[bool]) -> int:
    """How many agents meet ``conditions`` (``owned_by`` …), whatever their status."""
    return await repo.count(session, *conditions)


async def matching(
    session: AsyncSession, conditions: list[ColumnElement[bool]], *, offset: int, limit: int
) -> tuple[list[Agent], int]:
    """A page of the agents meeting ``conditions``, by id, and how many in all."""
    total = await repo.count(session, *conditions)
    return await repo.page(session, conditions, offset=offset, limit=limit), total


async def add(session: AsyncSession, agent: Agent, category_ids: Sequence[uuid.UUID]) -> Agent:
    """List a new agent (``register_agent``; a developer's submission) in its categories."""
    return await repo.add(session, agent, category_ids)


async def category_slugs(
    session: AsyncSession, agents: Sequence[Agent]
) -> dict[uuid.UUID, list[str]]:
    """Each agent's category slugs."""
    found = await repo.categories_of(session, [a.id for a in agents])
    return {a.id: [c.slug for c in found.get(a.id, [])] for a in agents}


# ---- categories -------------------------------------------------------------------------------


async def list_categories(session: AsyncSession) -> list[Category]:
    return await repo.all_categories(session)


@dataclass(frozen=True)
class CountedCategory(RowView):
    """A category row with its number of available agents: what ``CategoryOut`` reads."""

    row: Category
    agent_count: int


async def counted_categories(session: AsyncSession) -> list[CountedCategory]:
    """Every category with its number of available agents."""
    return await _counted(session, await list_categories(session))


async def _counted(session: AsyncSession, categories: list[Category]) -> list[CountedCategory]:
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
    return (await _counted(session, [found]))[0]


async def create_category(
    session: AsyncSession, *, slug: str, name: str, description: str = ""
) -> Category:
    slug = slug.strip().lower()
    if not _SLUG.match(slug) or slug == filters.UNCATEGORIZED:
        raise BadRequest.field("slug", "lowercase letters, digits and hyphens; not 'uncategorized'")
    if await repo.categories_by_slug(session, [slug]):
        raise Conflict(f"Category {slug} already exists")
    return await repo.add_category(
        session, Category(slug=slug, name=name.strip() or slug, description=description)
    )


def assignable(slugs: list[str]) -> list[str]:
    """Category slugs an agent can be given: 'uncategorized' is no category (400)."""
    if filters.UNCATEGORIZED in slugs:
        raise BadRequest.field("categories", "'uncategorized' is not a category; omit categories")
    return slugs


async def category_ids(session: AsyncSession, slugs: list[str], *, hint: str) -> list[uuid.UUID]:
    """The ids of the curated categories ``slugs`` names, for an agent (400 naming
    ``categories`` for an unknown one, with ``hint`` saying where they are)."""
    found = await repo.categories_by_slug(session, assignable(slugs))
    missing = [s for s in slugs if s not in found]
    if missing:
        raise BadRequest.field("categories", f"unknown category: {', '.join(missing)} ({hint})")
    return [found[s].id for s in slugs]


# ---- registration and verification ----------------------------------------------------------


def _verification_window(settings: Settings) -> timedelta:
    return timedelta(days=settings.catalogue.verification_lifetime_days)


@dataclass(frozen=True)
class Probe:
    """What a live MIP-003 check found at ``base_url`` (taken with no transaction open):
    ``error`` says why the check failed (unreachable, a bad answer)."""

    base_url: str
    available: bool = False
    message: str | None = None
    input_schema: dict[str, Any] | None = None
    error: str | None = None


def check_base_url(base_url: str) -> str:
    """http(s) only (``file:``, ``ftp:``, … are a 400 naming baseUrl); the address policy is the
    outbound guard's, under the MIP-003 client."""
    try:
        return validate_base_url(base_url)
    except ValueError as exc:
        raise BadRequest.field("baseUrl", str(exc)) from exc


async def probe(client: Mip003Client, base_url: str) -> Probe:
    """Ask the agent for /availability and /input_schema: the one live MIP-003 check. Call it with
    NO transaction open (a slow agent must not hold a database lock): ``unit.call_out``."""
    url = check_base_url(base_url)
    try:
        availability = await client.availability(url)
        schema = await client.input_schema(url)
    except AgentError as exc:
        return Probe(url, error=exc.message)
    return Probe(url, availability.available, availability.message, schema.as_dict())


def parse_price(value: float | int | str, *, at_most: int | None = None) -> int:
    """A price in credits (fee excluded) as base units; 400 naming ``price`` if it is not a
    number, negative, or above ``at_most`` credits."""
    try:
        price = to_base(value)
    except ValueError as exc:
        raise BadRequest.field("price", str(exc)) from exc
    if price < 0:
        raise BadRequest.field("price", "must not be negative")
    if at_most is not None and price > to_base(at_most):
        raise BadRequest.field("price", f"at most {at_most} credits")
    return price


class Registration(TypedDict):
    """What an operator registers an agent with, beside its base URL."""

    name: str
    description: NotRequired[str]
    price: NotRequired[float | int | str]
    categories: NotRequired[list[str] | None]
    tags: NotRequired[list[str] | None]
    verify: NotRequired[bool]
    is_shown: NotRequired[bool]
    agent_identifier: NotRequired[str | None]


async def probe_and_register(
    unit: Unit,
    settings: Settings,
    client: Mip003Client,
    base_url: str,
    **registration: Unpack[Registration],
) -> Agent:
    """Register an agent (the admin API, ``agora agents register``): the live check with nothing
    held, then the write (``register_agent``)."""
    found = await unit.call_out(probe(client, base_url))
    return await register_agent(await unit.write(), settings, found, **registration)


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
    base_price = parse_price(price)
    name = name.strip()
    if not 1 <= len(name) <= 200:
        raise BadRequest.field("name", "must be 1 to 200 characters")
    slugs = assignable(filters.parse_category_values(categories))
    clean_tags = sorted({t.strip() for t in tags or [] if t.strip()})
    if any(len(t) > 50 for t in clean_tags):
        raise BadRequest.field("tags", "a tag is at most 50 characters")
    if probe.error is not None or probe.input_schema is None:
        raise BadRequest.field("baseUrl", f"{url} does not speak MIP-003: {probe.error}")
    if verify and not probe.available:
        raise BadRequest.field("baseUrl", f"{url} reports itself unavailable; cannot verify")
    ids = await category_ids(session, slugs, hint="create it first")
    now = utcnow()
    agent = Agent(
        name=name,
        description=description.strip(),
        base_url=url,
        status=AgentStatus.VERIFIED if verify else AgentStatus.PENDING,
        is_shown=is_shown,
        pricing_type=PricingType.FIXED if base_price else PricingType.FREE,
        price=base_price,
        fee=fee_for(base_price, settings.catalogue.marketplace_fee_bps),
        tags=[{"name": t} for t in clean_tags],
        input_schema=probe.input_schema,
        agent_identifier=agent_identifier,
        verified_at=now if verify else None,
        verification_expires_at=now + _verification_window(settings) if verify else None,
        last_checked_at=now,
    )
    await add(session, agent, ids)
    await versions.record(session, agent, now=now)  # an operator's registration: version 1
    return agent


async def probe_and_verify(
    unit: Unit, settings: Settings, client: Mip003Client, agent_id: str
) -> Agent:
    """Verify (or re-verify) an agent (the admin API, ``agora agents verify``): read its base
    URL, check it live with nothing held, then write (``verify_agent``)."""
    base_url = (await get_any(await unit.session(), agent_id)).base_url
    found = await unit.call_out(probe(client, base_url))
    return await verify_agent(await unit.write(), settings, agent_id, found)


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
    if probe.input_schema != agent.input_schema:  # a new schema behind the same URL
        await versions.warn_breaking(session, agent, probe.input_schema)
    mark_verified(agent, settings, probe)
    await session.flush()
    await versions.record(session, agent)  # an operator's verify approves what it found
    return agent


def mark_verified(agent: Agent, settings: Settings, found: Probe) -> None:
    """VERIFIED from now for the verification lifetime, with the input schema the live check
    found (an operator's verify, a review's approval)."""
    now = utcnow()
    agent.status = AgentStatus.VERIFIED
    agent.input_schema = found.input_schema
    agent.verified_at = now
    agent.verification_expires_at = now + _verification_window(settings)
    agent.revoked_at = None
    agent.consecutive_failures = 0
    agent.last_checked_at = now


async def revoke_agent(session: AsyncSession, agent_id: str) -> Agent:
    agent = await get_any(session, agent_id)
    if agent.status != AgentStatus.REVOKED:
        agent.status = AgentStatus.REVOKED
        agent.revoked_at = utcnow()
        await session.flush()
    return agent


async def record_check(
    session: AsyncSession, agent_id: uuid.UUID, kind: str, found: Probe | None
) -> None:
    """One row of the agent's availability history (``kind``: periodic, submit, review)."""
    if found is not None:
        await repo.record_check(session, agent_id, kind, found.available, found.message)


# ---- ownership, featured agents, the compared ids ---------------------------------------------


def owned_by(principal: Principal) -> ColumnElement[bool]:
    """The caller's agents: the ones they submitted, and their organization's when acting in
    its workspace (developer listings, replies to ratings)."""
    return repo.owned_by(principal.user_id, principal.organization_id)


async def is_owned_by(session: AsyncSession, agent_id: uuid.UUID, principal: Principal) -> bool:
    """Whether the agent is the caller's (its submitter, or their organization's)."""
    return await repo.is_owned(session, agent_id, owned_by(principal))


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


def parse_compared(values: list[str] | None) -> list[str]:
    """The ids of a comparison (agents/comparison.py), repeated or comma-separated: 1 to
    ``MAX_COMPARED`` of them."""
    ids: list[str] = []
    for raw in values or []:
        for part in raw.split(","):
            if part.strip() and part.strip() not in ids:
                ids.append(part.strip())
    if not 1 <= len(ids) <= MAX_COMPARED:
        raise BadRequest.field("ids", f"compare 1 to {MAX_COMPARED} agents")
    return ids


# ---- asked by other domains as they are (the SQL stays in agents.repository) -----------------
increment_job_count = repo.increment_job_count  # job admission: one more job for the agent
popular_since = repo.popular_since  # housekeeping: the popularity window's first day
by_identifier = repo.by_identifier  # the demo: its agents by their stable identifier
set_base_url = repo.set_base_url  # the demo: its agents follow the server's address


async def hireable(session: AsyncSession, agent_ids: Sequence[uuid.UUID]) -> list[Agent]:
    """The agents among ``agent_ids`` that are shown and take jobs (VERIFIED)."""
    return await repo.shown_verified(session, agent_ids)
