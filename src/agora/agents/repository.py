"""All SQL for the agent catalogue."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import (
    ColumnElement,
    Date,
    Float,
    String,
    and_,
    bindparam,
    case,
    cast,
    exists,
    false,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer

from agora.kit.reads import Prepared, read_all, read_committed, read_one
from agora.kit.timeutil import utcnow
from agora.kit.writes import PreparedWrite, write
from agora.models import (
    Agent,
    AgentCheck,
    AgentDailyCompletions,
    Category,
    Favourite,
    Job,
    agent_categories,
)
from agora.models.agent import RATING_PRIOR_MEAN as PRIOR_MEAN
from agora.models.agent import RATING_PRIOR_WEIGHT as PRIOR_WEIGHT
from agora.models.rows import AgentCategory, AgentForJob, ListedAgentColumns
from agora.models.statuses import AgentStatus

AVAILABLE = and_(Agent.is_shown.is_(True), Agent.status == AgentStatus.VERIFIED)


def category_filter(category_ids: Sequence[uuid.UUID], uncategorized: bool) -> ColumnElement[bool]:
    """Agents in any of the categories (OR), or with no category when ``uncategorized``."""
    clauses: list[ColumnElement[bool]] = []
    if category_ids:
        clauses.append(
            exists().where(
                agent_categories.c.agent_id == Agent.id,
                agent_categories.c.category_id.in_(category_ids),
            )
        )
    if uncategorized:
        clauses.append(~exists().where(agent_categories.c.agent_id == Agent.id))
    return or_(*clauses) if clauses else false()


def text_search(q: str) -> ColumnElement[bool]:
    """Agents whose name, description or tags contain ``q`` (case-insensitive, literal)."""
    needle = q.lower()
    return or_(
        func.lower(Agent.name).contains(needle, autoescape=True),
        func.lower(Agent.description).contains(needle, autoescape=True),
        func.lower(cast(Agent.tags, String)).contains(needle, autoescape=True),
    )


async def count(session: AsyncSession, *conditions: ColumnElement[bool]) -> int:
    return int(
        await session.scalar(select(func.count()).select_from(Agent).where(*conditions)) or 0
    )


async def page(
    session: AsyncSession, conditions: Sequence[ColumnElement[bool]], *, offset: int, limit: int
) -> list[Agent]:
    result = await session.scalars(
        select(Agent)
        .options(defer(Agent.input_schema))
        .where(*conditions)
        .order_by(Agent.id)
        .offset(offset)
        .limit(limit)
    )
    return list(result)


async def after(
    session: AsyncSession,
    conditions: Sequence[ColumnElement[bool]],
    *,
    after_id: uuid.UUID | None,
    limit: int,
) -> list[Agent]:
    # The listing never shows input schemas: not loading (and decoding) them saves most of the
    # page's work when agents publish large ones.
    query = select(Agent).options(defer(Agent.input_schema)).where(*conditions)
    if after_id is not None:
        query = query.where(Agent.id > after_id)
    result = await session.scalars(query.order_by(Agent.id).limit(limit))
    return list(result)


async def first_with_total(
    session: AsyncSession, conditions: Sequence[ColumnElement[bool]], *, limit: int
) -> tuple[list[Agent], int]:
    """The first ``limit`` agents (by id) and how many match in all: one statement, the total
    as ``count(*) OVER ()`` (computed before the LIMIT). An empty page means a total of 0."""
    rows = (
        await session.execute(
            select(Agent, func.count().over())
            .options(defer(Agent.input_schema))
            .where(*conditions)
            .order_by(Agent.id)
            .limit(limit)
        )
    ).all()
    return [row[0] for row in rows], int(rows[0][1]) if rows else 0


# The authenticated listing without filters (the common request), prepared and read lean
# (kit/reads.py): the agents' columns but the input schema, which the listing never shows.
_LISTED_COLUMNS = [c for c in Agent.__table__.columns if c.key != "input_schema"]


class _ListedWithTotal(ListedAgentColumns, Protocol):
    @property
    def total(self) -> int: ...


class _Total(Protocol):
    @property
    def total(self) -> int: ...


_AVAILABLE_FIRST: Prepared[_ListedWithTotal] = Prepared(
    select(*_LISTED_COLUMNS, func.count().over().label("total"))
    .where(AVAILABLE)
    .order_by(Agent.id)
    .limit(bindparam("limit")),
    shape=_ListedWithTotal,
)
_AVAILABLE_AFTER: Prepared[ListedAgentColumns] = Prepared(
    select(*_LISTED_COLUMNS)
    .where(AVAILABLE, Agent.id > bindparam("after_id"))
    .order_by(Agent.id)
    .limit(bindparam("limit")),
    shape=ListedAgentColumns,
)
_AVAILABLE_COUNT: Prepared[_Total] = Prepared(
    select(func.count().label("total")).select_from(Agent).where(AVAILABLE), shape=_Total
)


async def available_first_with_total(
    session: AsyncSession, *, limit: int
) -> tuple[list[ListedAgentColumns], int]:
    """``first_with_total`` of the available agents, unfiltered (rows, not entities)."""
    rows = await read_all(session, _AVAILABLE_FIRST, limit=limit)
    return list(rows), int(rows[0].total) if rows else 0


async def available_after(
    session: AsyncSession, *, after_id: uuid.UUID, limit: int
) -> tuple[list[ListedAgentColumns], int]:
    """The available agents after ``after_id`` (by id) and how many are available in all."""
    total = await read_one(session, _AVAILABLE_COUNT)
    rows = await read_all(session, _AVAILABLE_AFTER, after_id=after_id, limit=limit)
    return rows, int(total.total) if total is not None else 0


_FOR_JOB: Prepared[AgentForJob] = Prepared(
    select(
        Agent.id,
        Agent.name,
        Agent.status,
        Agent.is_shown,
        Agent.price,
        Agent.fee,
        Agent.pricing_type,
        Agent.base_url,
        Agent.input_schema,
        Agent.current_version,
    ).where(Agent.id == bindparam("agent_id")),
    shape=AgentForJob,
)


async def for_job(session: AsyncSession, agent_id: uuid.UUID) -> AgentForJob | None:
    """What creating a job reads of its agent, as committed (``read_committed``: outside the
    creating unit's transaction, which has written nothing yet)."""
    return await read_committed(session, _FOR_JOB, agent_id=agent_id)


async def get(session: AsyncSession, agent_id: uuid.UUID) -> Agent | None:
    return await session.get(Agent, agent_id)


async def names(session: AsyncSession, agent_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, str]:
    """Agent names by id (the web app's history page)."""
    if not agent_ids:
        return {}
    rows = await session.execute(select(Agent.id, Agent.name).where(Agent.id.in_(agent_ids)))
    return {row[0]: row[1] for row in rows}


async def by_identifier(session: AsyncSession, agent_identifier: str) -> Agent | None:
    return await session.scalar(select(Agent).where(Agent.agent_identifier == agent_identifier))


async def get_for_update(session: AsyncSession, agent_id: uuid.UUID) -> Agent | None:
    return await session.scalar(select(Agent).where(Agent.id == agent_id).with_for_update())


_CATEGORIES_OF: Prepared[AgentCategory] = Prepared(
    select(agent_categories.c.agent_id.label("agent_id"), *Category.__table__.columns)
    .join(Category, Category.id == agent_categories.c.category_id)
    .where(agent_categories.c.agent_id.in_(bindparam("agent_ids", expanding=True)))
    .order_by(Category.slug),
    shape=AgentCategory,
)


async def categories_of(
    session: AsyncSession, agent_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, list[AgentCategory]]:
    """Each agent's categories (rows with the category's columns), by slug."""
    out: dict[uuid.UUID, list[AgentCategory]] = defaultdict(list)
    if not agent_ids:
        return out
    for row in await read_all(session, _CATEGORIES_OF, agent_ids=list(agent_ids)):
        out[row.agent_id].append(row)
    return out


async def categories_by_slug(session: AsyncSession, slugs: Sequence[str]) -> dict[str, Category]:
    if not slugs:
        return {}
    result = await session.scalars(select(Category).where(Category.slug.in_(slugs)))
    return {c.slug: c for c in result}


async def all_categories(session: AsyncSession) -> list[Category]:
    return list(await session.scalars(select(Category).order_by(Category.slug)))


async def add(session: AsyncSession, agent: Agent, category_ids: Sequence[uuid.UUID]) -> Agent:
    session.add(agent)
    await session.flush()
    if category_ids:
        await session.execute(
            insert(agent_categories),
            [{"agent_id": agent.id, "category_id": cid} for cid in category_ids],
        )
    return agent


async def add_many(session: AsyncSession, rows: list[dict[str, Any]]) -> None:
    """Bulk insert (seeding, tests, benchmarks)."""
    if rows:
        await session.execute(insert(Agent), rows)


async def add_category(session: AsyncSession, category: Category) -> Category:
    session.add(category)
    await session.flush()
    return category


async def due_for_check(session: AsyncSession, limit: int) -> list[Agent]:
    """Agents whose verification is live (VERIFIED), least recently checked first."""
    result = await session.scalars(
        select(Agent)
        .where(Agent.status == AgentStatus.VERIFIED)
        .order_by(Agent.last_checked_at.asc().nulls_first(), Agent.id)
        .limit(limit)
    )
    return list(result)


async def expire_lapsed(session: AsyncSession, now: datetime) -> int:
    """Expire the verifications past their lifetime; how many."""
    expired = await session.scalars(
        update(Agent)
        .where(Agent.status == AgentStatus.VERIFIED, Agent.verification_expires_at < now)
        .values(status=AgentStatus.EXPIRED, updated_at=now)
        .returning(Agent.id)
    )
    return len(expired.all())


_AGENT_TABLE = Agent.metadata.tables[
    Agent.__tablename__
]  # the Table (``__table__`` is a FromClause)
_AGENTS = _AGENT_TABLE.c
# A job creation's: compiled once, run on the session's connection (kit/writes.py).
_INCREMENT_JOB_COUNT = PreparedWrite(
    update(_AGENT_TABLE)
    .where(_AGENTS.id == bindparam("agent_id"))
    .values(job_count=_AGENTS.job_count + 1, updated_at=bindparam("now"))
)


async def increment_job_count(session: AsyncSession, agent_id: uuid.UUID) -> None:
    await write(session, _INCREMENT_JOB_COUNT, agent_id=agent_id, now=utcnow())


async def record_check(
    session: AsyncSession, agent_id: uuid.UUID, kind: str, available: bool, message: str | None
) -> None:
    """One row of the agent's availability history (developer stats read it)."""
    session.add(
        AgentCheck(
            agent_id=agent_id,
            kind=kind,
            available=available,
            message=message[:1000] if message else None,
        )
    )


async def available_agent_counts(
    session: AsyncSession, category_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, int]:
    """How many available (VERIFIED, shown) agents each category has."""
    if not category_ids:
        return {}
    rows = await session.execute(
        select(agent_categories.c.category_id, func.count())
        .join(Agent, Agent.id == agent_categories.c.agent_id)
        .where(
            agent_categories.c.category_id.in_(set(category_ids)),
            Agent.status == AgentStatus.VERIFIED,
            Agent.is_shown.is_(True),
        )
        .group_by(agent_categories.c.category_id)
    )
    return {category_id: int(count) for category_id, count in rows.all()}


async def category_by_id(session: AsyncSession, category_id: uuid.UUID) -> Category | None:
    return await session.get(Category, category_id)


async def set_base_url(session: AsyncSession, agent_id: uuid.UUID, base_url: str) -> None:
    await session.execute(update(Agent).where(Agent.id == agent_id).values(base_url=base_url))


def shown_with_status(status: str) -> list[ColumnElement[bool]]:
    return [Agent.is_shown.is_(True), Agent.status == status]


async def latest_checks(
    session: AsyncSession, agent_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, tuple[bool, datetime]]:
    """Each agent's latest availability check (any kind): (available, checked at). Agents never
    checked are absent. Two index seeks per agent (``ix_agent_checks_agent``), whatever the
    history's length."""
    if not agent_ids:
        return {}

    def latest(column: Any) -> Any:
        return (
            select(column)
            .where(AgentCheck.agent_id == Agent.id)
            .order_by(AgentCheck.checked_at.desc(), AgentCheck.id.desc())
            .limit(1)
            .correlate(Agent)
            .scalar_subquery()
        )

    rows = await session.execute(
        select(Agent.id, latest(AgentCheck.available), latest(AgentCheck.checked_at)).where(
            Agent.id.in_(set(agent_ids))
        )
    )
    return {
        agent_id: (bool(available), checked_at)
        for agent_id, available, checked_at in rows.all()
        if checked_at is not None
    }


# ---- ranking, filters of a person, featured agents, comparison (docs/agents.md, "Sorting") ----

# The rating sort's Bayesian average: (PRIOR_WEIGHT * PRIOR_MEAN + Σ stars) ÷ (PRIOR_WEIGHT + n).
# Every agent starts as PRIOR_WEIGHT ratings of PRIOR_MEAN (the scale's middle), so one 5-star
# review (3.33) does not beat fifty 4.8s (4.64).
POPULAR_DAYS = 30
SORTS = ("relevance", "rating", "popularity", "newest", "price", "featured")


def bayesian_rating() -> ColumnElement[Any]:
    return (cast(Agent.rating_sum, Float) + PRIOR_WEIGHT * PRIOR_MEAN) / (
        cast(Agent.rating_count, Float) + PRIOR_WEIGHT
    )


def popular_since(now: datetime) -> date:
    """The first UTC day of the popularity window: the last ``POPULAR_DAYS`` days, today's
    included."""
    return now.date() - timedelta(days=POPULAR_DAYS - 1)


def completed_recently(since: date) -> Any:
    """The agent's jobs COMPLETED on a UTC day since ``since``: a correlated sum of at most
    ``POPULAR_DAYS`` rows of ``agent_daily_completions`` (its primary key), which the jobs'
    lifecycle keeps."""
    return (
        select(func.coalesce(func.sum(AgentDailyCompletions.count), 0))
        .where(AgentDailyCompletions.agent_id == Agent.id, AgentDailyCompletions.day >= since)
        .correlate(Agent)
        .scalar_subquery()
    )


def relevance(q: str) -> Any:
    """3 when the name is ``q``, 2 when the name contains it, 1 otherwise (it matched the
    description or the tags: the search filter holds)."""
    needle = q.lower()
    name = func.lower(Agent.name)
    return case((name == needle, 3), (name.contains(needle, autoescape=True), 2), else_=1)


def ordering(sort: str | None, q: str | None, now: datetime, since: Any = None) -> list[Any]:
    """The ORDER BY of a sort (None: by id, the registration order); ties by id. ``since``:
    the popularity window's first day as a parameter (a prepared statement's), else
    ``popular_since(now)``."""
    if sort is None:
        return [Agent.id]
    if sort == "relevance":
        return [relevance(q or "").desc(), bayesian_rating().desc(), Agent.id]
    if sort == "rating":
        return [bayesian_rating().desc(), Agent.rating_count.desc(), Agent.id]
    if sort == "popularity":
        window = since if since is not None else popular_since(now)
        return [completed_recently(window).desc(), Agent.id]
    if sort == "newest":
        return [Agent.created_at.desc(), Agent.id.desc()]
    if sort == "price":
        return [(Agent.price + Agent.fee).asc(), Agent.id]
    # featured: the operator's picks first (the latest chosen first), then by rating
    return [
        Agent.featured_at.is_(None),
        Agent.featured_at.desc(),
        bayesian_rating().desc(),
        Agent.id,
    ]


def favourites_of(user_id: uuid.UUID) -> ColumnElement[bool]:
    return exists().where(Favourite.agent_id == Agent.id, Favourite.user_id == user_id)


def hired_by(user_id: uuid.UUID) -> ColumnElement[bool]:
    return exists().where(Job.agent_id == Agent.id, Job.user_id == user_id)


async def marked(
    session: AsyncSession, agent_ids: Sequence[uuid.UUID], condition: ColumnElement[bool]
) -> set[uuid.UUID]:
    """Which of ``agent_ids`` meet ``condition`` (``favourites_of``, ``hired_by``): one statement
    for a page's marks."""
    if not agent_ids:
        return set()
    rows = await session.scalars(select(Agent.id).where(Agent.id.in_(agent_ids), condition))
    return set(rows)


def featured() -> ColumnElement[bool]:
    return Agent.featured_at.is_not(None)


async def sorted_page(
    session: AsyncSession,
    conditions: Sequence[ColumnElement[bool]],
    order: Sequence[Any],
    *,
    offset: int,
    limit: int,
) -> tuple[list[Agent], int]:
    """A page in ``order`` and how many match in all: one statement (``count(*) OVER ()``).
    A page past the end reads the total alone."""
    rows = (
        await session.execute(
            select(Agent, func.count().over())
            .options(defer(Agent.input_schema))
            .where(*conditions)
            .order_by(*order)
            .offset(offset)
            .limit(limit)
        )
    ).all()
    if rows or offset == 0:
        return [row[0] for row in rows], int(rows[0][1]) if rows else 0
    return [], await count(session, *conditions)


# The sorted listing without filters (the catalogue's sorts), prepared per sort and read lean:
# the page in the sort's order with the total beside each row, as ``_AVAILABLE_FIRST``.
_SORTED: dict[str, Prepared[_ListedWithTotal]] = {}
_SINCE = "since"


def _sorted_statement(sort: str) -> Prepared[_ListedWithTotal]:
    found = _SORTED.get(sort)
    if found is None:
        order = ordering(sort, None, utcnow(), since=bindparam(_SINCE, type_=Date()))
        found = _SORTED[sort] = Prepared(
            select(*_LISTED_COLUMNS, func.count().over().label("total"))
            .where(AVAILABLE)
            .order_by(*order)
            .offset(bindparam("offset"))
            .limit(bindparam("limit")),
            shape=_ListedWithTotal,
        )
    return found


async def available_sorted(
    session: AsyncSession, sort: str, *, now: datetime, offset: int, limit: int
) -> tuple[list[ListedAgentColumns], int]:
    """``sorted_page`` of the available agents, unfiltered, in a sort's order (not relevance,
    which needs a search): rows, not entities."""
    params: dict[str, Any] = {"offset": offset, "limit": limit}
    if sort == "popularity":
        params[_SINCE] = popular_since(now)
    rows = await read_all(session, _sorted_statement(sort), **params)
    if rows or offset == 0:
        return list(rows), int(rows[0].total) if rows else 0
    total = await read_one(session, _AVAILABLE_COUNT)
    return [], int(total.total) if total is not None else 0


def owned_by(user_id: uuid.UUID, organization_id: uuid.UUID | None) -> ColumnElement[bool]:
    """The submitting user's agents, and their organization's when acting in its workspace."""
    mine: ColumnElement[bool] = Agent.owner_user_id == user_id
    if organization_id is None:
        return mine
    return or_(mine, Agent.owner_organization_id == organization_id)


async def is_owned(session: AsyncSession, agent_id: uuid.UUID, owner: ColumnElement[bool]) -> bool:
    return bool(await session.scalar(select(Agent.id).where(Agent.id == agent_id, owner)))


async def set_featured(session: AsyncSession, agent_id: uuid.UUID, when: datetime | None) -> None:
    await session.execute(update(Agent).where(Agent.id == agent_id).values(featured_at=when))


async def shown_verified(session: AsyncSession, agent_ids: Sequence[uuid.UUID]) -> list[Agent]:
    """The shown VERIFIED agents among ``agent_ids`` (a person's MCP toolbox)."""
    if not agent_ids:
        return []
    rows = await session.scalars(
        select(Agent).where(
            Agent.id.in_(set(agent_ids)),
            Agent.is_shown.is_(True),
            Agent.status == AgentStatus.VERIFIED,
        )
    )
    return list(rows)
