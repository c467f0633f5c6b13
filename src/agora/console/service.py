"""The console's review queue: the pending agents as an operator reviews them, and their live
check (``live_checks``, called with no transaction open). Who an operator is and the other
console use cases: ``console.users``, ``console.organizations``, ``console.jobs``,
``console.dashboard``."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import versions
from agora.developer import certification
from agora.developer import service as developer
from agora.kit.errors import AgoraError


@dataclass(frozen=True)
class QueuedAgent:
    id: uuid.UUID
    name: str
    base_url: str
    status: str
    description: str
    input_schema: dict[str, Any]
    conformance: certification.ShownRun | None  # the latest run of the suite
    version: versions.PendingChange  # the version approval makes, and the schema diff


async def review_queue(session: AsyncSession, agents: list[Any]) -> list[QueuedAgent]:
    """The pending agents with the input schema they showed when checked (a deferred column,
    loaded here)."""
    out = []
    runs = await certification.latest_runs(session, [agent.id for agent in agents])
    for agent in agents:
        await session.refresh(agent, attribute_names=["input_schema"])
        out.append(
            QueuedAgent(
                agent.id,
                agent.name,
                agent.base_url,
                agent.status,
                agent.description or "",
                agent.input_schema or {},
                runs.get(agent.id),
                await versions.pending_change(session, agent),
            )
        )
    return out


@dataclass(frozen=True)
class LiveCheck:
    """An agent's live check for the review queue: /availability and /input_schema now."""

    available: bool
    message: str | None
    input_schema: dict[str, Any] | None
    error: str | None  # the check failed (unreachable, bad answer): why


async def live_checks(
    client: Any, agents: list[QueuedAgent], *, concurrency: int = 10
) -> dict[uuid.UUID, LiveCheck]:
    """Check every queued agent live, at most ``concurrency`` at once, each bounded by the
    client's timeouts. Call it with no transaction open (the route's ``unit.call_out``)."""
    gate = asyncio.Semaphore(concurrency)

    async def one(agent: QueuedAgent) -> tuple[uuid.UUID, LiveCheck]:
        async with gate:
            try:
                found = await developer.probe(client, agent.base_url)
            except AgoraError as exc:
                return agent.id, LiveCheck(False, None, None, exc.message)
        return agent.id, LiveCheck(found.available, found.message, found.input_schema, None)

    return dict(await asyncio.gather(*(one(agent) for agent in agents)))
