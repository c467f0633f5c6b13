"""All SQL for the agent catalogue."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, exists, false, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Agent, Category, agent_categories

AVAILABLE = and_(Agent.is_shown.is_(True), Agent.status == "VERIFIED")


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


async def count(session: AsyncSession, *conditions: ColumnElement[bool]) -> int:
    return int(
        await session.scalar(select(func.count()).select_from(Agent).where(*conditions)) or 0
    )


async def page(
    session: AsyncSession, conditions: Sequence[ColumnElement[bool]], *, offset: int, limit: int
) -> list[Agent]:
    result = await session.scalars(
        select(Agent).where(*conditions).order_by(Agent.id).offset(offset).limit(limit)
    )
    return list(result)


async def after(
    session: AsyncSession,
    conditions: Sequence[ColumnElement[bool]],
    *,
    after_id: uuid.UUID | None,
    limit: int,
) -> list[Agent]:
    query = select(Agent).where(*conditions)
    if after_id is not None:
        query = query.where(Agent.id > after_id)
    result = await session.scalars(query.order_by(Agent.id).limit(limit))
    return list(result)


async def get(session: AsyncSession, agent_id: uuid.UUID) -> Agent | None:
    return await session.get(Agent, agent_id)


async def by_identifier(session: AsyncSession, agent_identifier: str) -> Agent | None:
    return await session.scalar(select(Agent).where(Agent.agent_identifier == agent_identifier))


async def get_for_update(session: AsyncSession, agent_id: uuid.UUID) -> Agent | None:
    return await session.scalar(select(Agent).where(Agent.id == agent_id).with_for_update())


async def categories_of(
    session: AsyncSession, agent_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, list[Category]]:
    out: dict[uuid.UUID, list[Category]] = defaultdict(list)
    if not agent_ids:
        return out
    rows = await session.execute(
        select(agent_categories.c.agent_id, Category)
        .join(Category, Category.id == agent_categories.c.category_id)
        .where(agent_categories.c.agent_id.in_(agent_ids))
        .order_by(Category.slug)
    )
    for agent_id, category in rows.all():
        out[agent_id].append(category)
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
        .where(Agent.status == "VERIFIED")
        .order_by(Agent.last_checked_at.asc().nulls_first(), Agent.id)
        .limit(limit)
    )
    return list(result)


async def expire_lapsed(session: AsyncSession, now: datetime) -> int:
    result = await session.execute(
        update(Agent)
        .where(Agent.status == "VERIFIED", Agent.verification_expires_at < now)
        .values(status="EXPIRED", updated_at=now)
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


async def increment_job_count(session: AsyncSession, agent_id: uuid.UUID) -> None:
    await session.execute(
        update(Agent).where(Agent.id == agent_id).values(job_count=Agent.job_count + 1)
    )
