"""All SQL for ratings, their reports, favourites and the agents added to a person's assistant."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Agent, AssistantAgent, Favourite, Job, Rating, RatingReport, User


async def own_job_for_update(
    session: AsyncSession, job_id: uuid.UUID, user_id: uuid.UUID, workspace_id: uuid.UUID
) -> Job | None:
    """The caller's own job in the workspace, locked: two ratings of one job serialise here."""
    return await session.scalar(
        select(Job)
        .where(Job.id == job_id, Job.user_id == user_id, Job.workspace_id == workspace_id)
        .with_for_update()
    )


async def of_person_for_update(
    session: AsyncSession, user_id: uuid.UUID, agent_id: uuid.UUID
) -> Rating | None:
    """The person's one rating of the agent, locked: a second rating of theirs waits here."""
    return await session.scalar(
        select(Rating)
        .where(Rating.user_id == user_id, Rating.agent_id == agent_id)
        .with_for_update()
    )


async def hire_order(session: AsyncSession, job_id: uuid.UUID) -> tuple[datetime, uuid.UUID] | None:
    """When the job was hired and its id: what orders a person's hires of one agent."""
    row = (await session.execute(select(Job.created_at, Job.id).where(Job.id == job_id))).first()
    return (row[0], row[1]) if row is not None else None


async def get(
    session: AsyncSession, rating_id: uuid.UUID, *, for_update: bool = False
) -> Rating | None:
    query = select(Rating).where(Rating.id == rating_id)
    if for_update:
        query = query.with_for_update()
    return await session.scalar(query)


async def add(session: AsyncSession, rating: Rating) -> Rating:
    session.add(rating)
    await session.flush()
    return rating


async def change_aggregate(
    session: AsyncSession, agent_id: uuid.UUID, *, add: int | None, remove: int | None
) -> None:
    """One UPDATE of the agent's aggregate: ``add`` a rating of that many stars and/or
    ``remove`` one. Relative (``x = x + 1``), so concurrent ratings never lose a count: the row
    lock orders them on PostgreSQL, the single writer on SQLite."""
    agents = Agent.metadata.tables[Agent.__tablename__]  # typed as a Table, unlike __table__
    table = agents.c
    values: dict[str, Any] = {}
    count, total = 0, 0
    if add is not None:
        values[f"rating_{add}"] = table[f"rating_{add}"] + 1
        count, total = count + 1, total + add
    if remove is not None:
        column = table[f"rating_{remove}"]
        values[f"rating_{remove}"] = (values.get(f"rating_{remove}", column)) - 1
        count, total = count - 1, total - remove
    if count:
        values["rating_count"] = table.rating_count + count
    if total:
        values["rating_sum"] = table.rating_sum + total
    if values:
        await session.execute(update(agents).where(table.id == agent_id).values(**values))


async def of_agent(
    session: AsyncSession, agent_id: uuid.UUID, *, offset: int, limit: int
) -> tuple[list[Rating], int]:
    """The agent's ratings, newest first, and how many it has (one statement)."""
    rows = (
        await session.execute(
            select(Rating, func.count().over())
            .where(Rating.agent_id == agent_id)
            .order_by(Rating.created_at.desc(), Rating.id.desc())
            .offset(offset)
            .limit(limit)
        )
    ).all()
    return [row[0] for row in rows], int(rows[0][1]) if rows else 0


async def add_report(session: AsyncSession, report: RatingReport) -> RatingReport:
    session.add(report)
    await session.flush()
    return report


async def report_by(
    session: AsyncSession, rating_id: uuid.UUID, user_id: uuid.UUID
) -> RatingReport | None:
    return await session.scalar(
        select(RatingReport).where(
            RatingReport.rating_id == rating_id, RatingReport.user_id == user_id
        )
    )


async def reports(
    session: AsyncSession, *, open_only: bool, offset: int, limit: int
) -> tuple[list[tuple[RatingReport, Rating, str]], int]:
    """Reports with their rating and the reporter's email, oldest first (one statement)."""
    query = (
        select(RatingReport, Rating, User.email, func.count().over())
        .join(Rating, Rating.id == RatingReport.rating_id)
        .join(User, User.id == RatingReport.user_id)
    )
    if open_only:
        query = query.where(RatingReport.resolved_at.is_(None))
    rows = (
        await session.execute(
            query.order_by(RatingReport.created_at, RatingReport.id).offset(offset).limit(limit)
        )
    ).all()
    return [(r[0], r[1], r[2]) for r in rows], int(rows[0][3]) if rows else 0


async def get_report(session: AsyncSession, report_id: uuid.UUID) -> RatingReport | None:
    return await session.get(RatingReport, report_id)


async def favourite(session: AsyncSession, user_id: uuid.UUID, agent_id: uuid.UUID) -> None:
    exists = await session.get(Favourite, (user_id, agent_id))
    if exists is None:
        session.add(Favourite(user_id=user_id, agent_id=agent_id))
        await session.flush()


async def unfavourite(session: AsyncSession, user_id: uuid.UUID, agent_id: uuid.UUID) -> None:
    await session.execute(
        delete(Favourite).where(Favourite.user_id == user_id, Favourite.agent_id == agent_id)
    )


async def rated_jobs(session: AsyncSession, job_ids: list[uuid.UUID]) -> dict[uuid.UUID, Rating]:
    if not job_ids:
        return {}
    """Each job's hirer's rating of the job's agent (one per person per agent, whichever of
    their jobs it rates)."""
    rows = await session.execute(
        select(Job.id, Rating)
        .join(Rating, (Rating.agent_id == Job.agent_id) & (Rating.user_id == Job.user_id))
        .where(Job.id.in_(job_ids))
    )
    return {job_id: rating for job_id, rating in rows.all()}


async def add_to_assistant(session: AsyncSession, user_id: uuid.UUID, agent_id: uuid.UUID) -> bool:
    """Add the agent to the person's assistant; False when it already was."""
    if await session.get(AssistantAgent, (user_id, agent_id)) is not None:
        return False
    session.add(AssistantAgent(user_id=user_id, agent_id=agent_id))
    await session.flush()
    return True


async def remove_from_assistant(
    session: AsyncSession, user_id: uuid.UUID, agent_id: uuid.UUID
) -> bool:
    """Remove it; False when it was not there."""
    result = await session.execute(
        delete(AssistantAgent).where(
            AssistantAgent.user_id == user_id, AssistantAgent.agent_id == agent_id
        )
    )
    return bool(getattr(result, "rowcount", 0))


async def in_assistant(session: AsyncSession, user_id: uuid.UUID, agent_id: uuid.UUID) -> bool:
    return await session.get(AssistantAgent, (user_id, agent_id)) is not None


async def toolbox(session: AsyncSession, user_id: uuid.UUID, limit: int) -> list[uuid.UUID]:
    """The agents of a person's toolbox (favourites and assistant picks), the oldest choice
    first (so the names given to colliding slugs stay put), at most ``limit``."""
    favourites = select(Favourite.agent_id, Favourite.created_at).where(
        Favourite.user_id == user_id
    )
    chosen = select(AssistantAgent.agent_id, AssistantAgent.created_at).where(
        AssistantAgent.user_id == user_id
    )
    fav = {a: t for a, t in (await session.execute(favourites)).all()}
    picked = {a: t for a, t in (await session.execute(chosen)).all()}
    first = {
        a: min(t for t in (fav.get(a), picked.get(a)) if t is not None) for a in {*fav, *picked}
    }
    return sorted(first, key=lambda a: (first[a], str(a)))[:limit]
