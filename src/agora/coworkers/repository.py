"""All SQL of coworkers: the catalogue, workspace access, events addressed to them, usage."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import bindparam, exists, func, inspect, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.reads import Prepared, read_one
from agora.models import Coworker, CoworkerUsage, CoworkerWorkspace, Task, User

CHUNK = 200
MAX_CHUNKS = 50  # at most 10 000 coworkers read for one filtered page


async def add(session: AsyncSession, row: Any) -> Any:
    session.add(row)
    await session.flush()
    return row


class ActingCoworker(Protocol):
    """The coworker a coworker key acts as: every column (``CoworkerOut`` reads them), under
    the attributes' names; the code reads these."""

    @property
    def id(self) -> uuid.UUID: ...
    @property
    def slug(self) -> str: ...
    @property
    def archived_at(self) -> datetime | None: ...


_ACTING: Prepared[ActingCoworker] = Prepared(
    select(*(attr.columns[0].label(attr.key) for attr in inspect(Coworker).column_attrs)).where(
        Coworker.id == bindparam("coworker_id")
    ),
    shape=ActingCoworker,
)


async def acting(session: AsyncSession, coworker_id: uuid.UUID) -> ActingCoworker | None:
    """A coworker key's coworker, read lean in a read unit (kit/reads.py)."""
    return await read_one(session, _ACTING, coworker_id=coworker_id)


async def by_id(session: AsyncSession, coworker_id: uuid.UUID) -> Coworker | None:
    return await session.get(Coworker, coworker_id)


async def by_slug_or_name(session: AsyncSession, value: str) -> Coworker | None:
    """By slug, else the oldest coworker with exactly this name (case-insensitive)."""
    found = await session.scalar(select(Coworker).where(Coworker.slug == value.lower()))
    if found is not None:
        return found
    return await session.scalar(
        select(Coworker)
        .where(func.lower(Coworker.name) == value.lower())
        .order_by(Coworker.archived_at.is_not(None), Coworker.id)
        .limit(1)
    )


async def slug_taken(session: AsyncSession, slug: str) -> bool:
    return (await session.scalar(select(Coworker.id).where(Coworker.slug == slug))) is not None


async def listing(
    session: AsyncSession,
    *,
    scope: str,
    viewer_id: uuid.UUID,
    admin: bool,
    capabilities: Sequence[str],
    search: str | None,
    after_id: uuid.UUID | None,
    limit: int,
) -> list[Coworker]:
    """whitelisted: shown to everyone; all: whitelisted or the viewer's own (admins: every one),
    not archived; archived: the viewer's own archived ones (admins: every one). Ordered by id."""
    query = select(Coworker)
    mine = Coworker.owner_user_id == viewer_id
    if scope == "archived":
        query = query.where(Coworker.archived_at.is_not(None))
        if not admin:
            query = query.where(mine)
    else:
        query = query.where(Coworker.archived_at.is_(None))
        if scope == "whitelisted":
            query = query.where(Coworker.whitelisted_at.is_not(None))
        elif not admin:
            query = query.where(or_(Coworker.whitelisted_at.is_not(None), mine))
    if search:
        pattern = f"%{search.lower()}%"
        query = query.where(
            or_(
                func.lower(Coworker.name).like(pattern),
                func.lower(func.coalesce(Coworker.caption, "")).like(pattern),
                func.lower(Coworker.slug).like(pattern),
            )
        )
    # Capabilities are a short JSON list: filtered after the read, chunk by chunk (bounded),
    # until the page is full or the rows run out.
    out: list[Coworker] = []
    position = after_id
    for _ in range(MAX_CHUNKS):
        chunk_query = query if position is None else query.where(Coworker.id > position)
        chunk = list(await session.scalars(chunk_query.order_by(Coworker.id).limit(CHUNK)))
        out += [
            r
            for r in chunk
            if not capabilities or any(c in (r.capabilities or []) for c in capabilities)
        ]
        if len(out) >= limit or len(chunk) < CHUNK:
            break
        position = chunk[-1].id
    return out[:limit]


async def has_workspace(
    session: AsyncSession, coworker_id: uuid.UUID, workspace_id: uuid.UUID
) -> bool:
    row = await session.get(CoworkerWorkspace, (coworker_id, workspace_id))
    return row is not None


async def grant_workspace(
    session: AsyncSession, coworker_id: uuid.UUID, workspace_id: uuid.UUID
) -> None:
    if not await has_workspace(session, coworker_id, workspace_id):
        session.add(CoworkerWorkspace(coworker_id=coworker_id, workspace_id=workspace_id))
        await session.flush()


async def works_for(
    session: AsyncSession,
    coworker_id: uuid.UUID,
    user_id: uuid.UUID,
    workspace_id: uuid.UUID | None = None,
) -> bool:
    """Whether the coworker is assigned a task created by the user (in the workspace)."""
    condition = [Task.coworker_id == coworker_id, Task.creator_id == user_id]
    if workspace_id is not None:
        condition.append(Task.workspace_id == workspace_id)
    return bool(await session.scalar(select(exists().where(*condition))))


async def user(session: AsyncSession, user_id: uuid.UUID) -> User | None:
    return await session.get(User, user_id)


async def usage_by_key(
    session: AsyncSession, coworker_id: uuid.UUID, key: str
) -> CoworkerUsage | None:
    return await session.scalar(
        select(CoworkerUsage).where(
            CoworkerUsage.coworker_id == coworker_id, CoworkerUsage.idempotency_key == key
        )
    )


async def task_of(
    session: AsyncSession, task_id: uuid.UUID, coworker_id: uuid.UUID, workspace_id: uuid.UUID
) -> Task | None:
    return await session.scalar(
        select(Task).where(
            Task.id == task_id, Task.coworker_id == coworker_id, Task.workspace_id == workspace_id
        )
    )
