"""All SQL for registry imports: agents by agentIdentifier, the quarantine, the diff checkpoint."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Agent, RegistryCheckpoint, RegistryQuarantine


async def agents_by_identifier(
    session: AsyncSession, identifiers: Sequence[str]
) -> dict[str, Agent]:
    if not identifiers:
        return {}
    result = await session.scalars(
        select(Agent).where(Agent.agent_identifier.in_(identifiers)).with_for_update()
    )
    return {a.agent_identifier: a for a in result if a.agent_identifier is not None}


async def quarantined(
    session: AsyncSession, source: str, keys: Sequence[str]
) -> dict[str, RegistryQuarantine]:
    if not keys:
        return {}
    result = await session.scalars(
        select(RegistryQuarantine).where(
            RegistryQuarantine.source == source, RegistryQuarantine.entry_key.in_(keys)
        )
    )
    return {q.entry_key: q for q in result}


def add_agent(session: AsyncSession, agent: Agent) -> None:
    session.add(agent)


def add_quarantine(session: AsyncSession, row: RegistryQuarantine) -> None:
    session.add(row)


async def release(session: AsyncSession, source: str, keys: Sequence[str]) -> None:
    """Forget quarantined entries that now import cleanly."""
    if not keys:
        return
    await session.execute(
        delete(RegistryQuarantine).where(
            RegistryQuarantine.source == source, RegistryQuarantine.entry_key.in_(keys)
        )
    )


async def quarantine_page(
    session: AsyncSession, *, offset: int, limit: int
) -> tuple[list[RegistryQuarantine], int]:
    """The entries still in quarantine (dismissed ones are remembered, not listed)."""
    live = RegistryQuarantine.dismissed_at.is_(None)
    total = await session.scalar(select(func.count()).select_from(RegistryQuarantine).where(live))
    result = await session.scalars(
        select(RegistryQuarantine)
        .where(live)
        .order_by(RegistryQuarantine.updated_at.desc(), RegistryQuarantine.id)
        .offset(offset)
        .limit(limit)
    )
    return list(result), int(total or 0)


async def quarantined_by_id(
    session: AsyncSession, row_id: uuid.UUID, *, for_update: bool = False
) -> RegistryQuarantine | None:
    """A quarantined entry not dismissed, by id."""
    query = select(RegistryQuarantine).where(
        RegistryQuarantine.id == row_id, RegistryQuarantine.dismissed_at.is_(None)
    )
    if for_update:
        query = query.with_for_update()
    return (await session.scalars(query)).first()


async def forget_quarantined(session: AsyncSession, row_id: uuid.UUID) -> None:
    """Drop one quarantined entry (it imported on a retry)."""
    await session.execute(delete(RegistryQuarantine).where(RegistryQuarantine.id == row_id))


def entry_json(entry: Any) -> dict[str, Any]:
    return entry if isinstance(entry, dict) else {"value": entry}


async def checkpoint(session: AsyncSession, source: str, network: str) -> RegistryCheckpoint | None:
    result = await session.scalars(
        select(RegistryCheckpoint).where(
            RegistryCheckpoint.source == source, RegistryCheckpoint.network == network
        )
    )
    return result.first()


async def advance_checkpoint(
    session: AsyncSession,
    source: str,
    network: str,
    source_url: str,
    status_updated_after: str,
    cursor_id: str | None,
    full_pass_at: datetime | None = None,
) -> None:
    """Move the feed's checkpoint forward (never back: two syncs may race; the registry's ISO
    times compare as text); ``full_pass_at`` records a completed registry-entry pass."""
    row = await session.scalar(
        select(RegistryCheckpoint)
        .where(RegistryCheckpoint.source == source, RegistryCheckpoint.network == network)
        .with_for_update()
    )
    if row is None:
        session.add(
            RegistryCheckpoint(
                source=source,
                network=network,
                source_url=source_url,
                status_updated_after=status_updated_after,
                cursor_id=cursor_id,
                full_pass_at=full_pass_at,
            )
        )
        await session.flush()
        return
    if (row.status_updated_after, row.cursor_id or "") < (status_updated_after, cursor_id or ""):
        row.status_updated_after, row.cursor_id = status_updated_after, cursor_id
    if full_pass_at is not None:
        row.full_pass_at = full_pass_at
    await session.flush()
