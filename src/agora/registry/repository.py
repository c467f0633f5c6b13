"""All SQL for registry imports: agents by agentIdentifier, the quarantine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Agent, RegistryQuarantine


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


async def release(session: AsyncSession, source: str, keys: Sequence[str]) -> int:
    """Forget quarantined entries that now import cleanly."""
    if not keys:
        return 0
    result = await session.execute(
        delete(RegistryQuarantine).where(
            RegistryQuarantine.source == source, RegistryQuarantine.entry_key.in_(keys)
        )
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


async def quarantine_page(
    session: AsyncSession, *, offset: int, limit: int
) -> tuple[list[RegistryQuarantine], int]:
    total = await session.scalar(select(func.count()).select_from(RegistryQuarantine))
    result = await session.scalars(
        select(RegistryQuarantine)
        .order_by(RegistryQuarantine.updated_at.desc(), RegistryQuarantine.id)
        .offset(offset)
        .limit(limit)
    )
    return list(result), int(total or 0)


def entry_json(entry: Any) -> dict[str, Any]:
    return entry if isinstance(entry, dict) else {"value": entry}
