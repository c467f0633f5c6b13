"""Saved inputs (docs/agents.md, "Saved inputs"): a person's named inputs for one agent, in one
workspace, with a pinned version or none (follow the latest compatible version). They fill the
hire form (the agent page's select), start a schedule (``savedInputId``) and MCP's
``create_job`` sends one (``saved_input_id``). Only their owner sees them: any other id is 404."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import saved_inputs_repository as repo
from agora.agents import service as agents
from agora.agents import versions
from agora.auth.principal import Permission, Principal
from agora.kit.errors import BadRequest, Conflict, FieldError, NotFound
from agora.kit.fields import trimmed
from agora.kit.ids import parse_uuid, uuid7
from agora.kit.timeutil import utcnow
from agora.mip003.validation import validate_input
from agora.models import SavedInput

# A person keeps at most this many saved inputs per agent (and workspace); lists show them all.
MAX_PER_AGENT = 100


def _refused(problems: list[FieldError]) -> BadRequest:
    first = problems[0]
    return BadRequest(f"{first.field}: {first.reason}", details=problems)


async def create(
    session: AsyncSession,
    principal: Principal,
    agent_id: str,
    *,
    name: str,
    input_data: dict[str, Any],
    agent_version: int | None,
) -> SavedInput:
    """Save an input for a shown agent. It must fit the pinned version's input schema, or the
    current one's (the hire form's validation); 400 naming the field otherwise."""
    principal.require(Permission.JOBS_WRITE)
    agent = await agents.get_for_job(session, agent_id)
    clean_name = trimmed("name", name, 200)
    shown = agent
    if agent_version is not None:
        shown = await versions.at_version(session, agent, agent_version)
    problems = validate_input(shown.input_schema, input_data)
    if problems:
        raise _refused([FieldError(f"inputData.{p.field}", p.reason) for p in problems])
    user_id, workspace_id = principal.user_id, principal.workspace_id
    if await repo.count_of_agent(session, agent.id, user_id, workspace_id) >= MAX_PER_AGENT:
        raise Conflict(f"You keep {MAX_PER_AGENT} saved inputs for this agent; delete one first")
    now = utcnow()
    saved = SavedInput(
        id=uuid7(),
        workspace_id=workspace_id,
        user_id=user_id,
        agent_id=agent.id,
        name=clean_name,
        input_data=input_data,
        agent_version=agent_version,
        created_at=now,
        updated_at=now,
    )
    await repo.add(session, saved)
    return saved


async def of_agent(session: AsyncSession, principal: Principal, agent_id: str) -> list[SavedInput]:
    """The person's saved inputs for a shown agent, newest first (at most ``MAX_PER_AGENT``)."""
    agent = await agents.get_shown(session, agent_id)
    return await repo.of_agent(
        session, agent.id, principal.user_id, principal.workspace_id, limit=MAX_PER_AGENT
    )


async def get_owned(
    session: AsyncSession,
    principal: Principal,
    saved_id: str,
    *,
    agent_id: uuid.UUID | None = None,
) -> SavedInput:
    """One of the person's saved inputs in this workspace (of ``agent_id`` when given); any
    other id → 404, whoever's it is."""
    parsed = parse_uuid(saved_id)
    found = (
        await repo.owned(session, parsed, principal.user_id, principal.workspace_id)
        if parsed
        else None
    )
    if found is None or (agent_id is not None and found.agent_id != agent_id):
        raise NotFound(f"Saved input {saved_id} not found")
    return found


async def delete(
    session: AsyncSession, principal: Principal, agent_id: str, saved_id: str
) -> SavedInput:
    principal.require(Permission.JOBS_WRITE)
    agent = await agents.get_any(session, agent_id)
    saved = await get_owned(session, principal, saved_id, agent_id=agent.id)
    await repo.remove(session, saved.id)
    return saved


@dataclass(frozen=True)
class Chosen:
    """What a job or schedule takes from a saved input: the agent, the input, the version
    (None: the agent's current one)."""

    agent_id: uuid.UUID
    input_data: dict[str, Any]
    pinned: int | None
    version: int | None


async def chosen(session: AsyncSession, principal: Principal, saved_id: str) -> Chosen:
    """A saved input resolved for a job: its pinned version, else the latest compatible one."""
    saved = await get_owned(session, principal, saved_id)
    data = dict(saved.input_data or {})
    number = await versions.chosen(session, saved.agent_id, saved.agent_version, data)
    return Chosen(saved.agent_id, data, saved.agent_version, number)
