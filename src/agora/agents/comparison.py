"""Agents side by side (the comparison's API, tool and page): price, rating, p50 duration,
failure rate, completed jobs in the last 30 days, the latest availability check and the input
fields. The ids come through ``service.parse_compared``."""

from __future__ import annotations

import statistics
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import figures_repository as figures
from agora.agents import repository as repo
from agora.agents.service import ComparedAgent, get_shown
from agora.kit.timeutil import utcnow


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


async def compare(session: AsyncSession, agent_ids: list[str]) -> list[ComparedAgent]:
    """Shown agents side by side: price, rating, p50 duration, failure rate, completed jobs in
    the last 30 days, latest availability check and input fields. A few statements per agent,
    at most ``MAX_COMPARED`` agents."""
    since = repo.popular_since(utcnow())
    compared = []
    for agent_id in agent_ids:
        agent = await get_shown(session, agent_id)
        completed, failed = await figures.outcome_counts(session, agent.id)
        durations = await figures.completed_durations(session, agent.id)
        checks = await repo.latest_checks(session, [agent.id])
        available, checked_at = checks.get(agent.id, (None, None))
        compared.append(
            ComparedAgent(
                agent,
                (await repo.categories_of(session, [agent.id])).get(agent.id, []),
                p50_duration_seconds=statistics.median(durations) if durations else None,
                failure_rate=failed / (completed + failed) if completed + failed else None,
                completed_jobs_30d=await figures.completed_since(session, agent.id, since),
                available=available,
                checked_at=checked_at,
                input_fields=_input_fields(agent.input_schema),
            )
        )
    return compared
