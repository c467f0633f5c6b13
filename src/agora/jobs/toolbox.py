"""A person's MCP toolbox: each agent they favourited or added to their assistant is a tool of its
own, ``hire_<slug>``, whose arguments are the agent's input schema as a JSON Schema (with two
optional controls, ``_max_credits`` and ``_idempotency_key``) and whose description states the
price and the credit ceiling. Calling one is hiring the agent: the same admission as
``create_job`` (docs/mcp.md, "Your toolbox").

Names: ``hire_`` and the agent's name in lower case, every run of other characters one ``_``,
at most 64 characters in all (``agent`` when nothing is left). When two agents of the toolbox
share a name, the one chosen first keeps it and each other one gets ``_`` and the first 8 hex
digits of its id: the same toolbox always gives the same names.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import service as agents
from agora.auth.principal import Permission, Principal
from agora.jobs.admission import CreatedJob, create_job
from agora.jobs.schemas import JobCreate
from agora.kit.errors import BadRequest, NotFound
from agora.kit.money import to_display
from agora.mip003.jsonschema import to_json_schema
from agora.models import Agent
from agora.models.statuses import PricingType
from agora.ratings import service as ratings
from agora.settings import Settings

PREFIX = "hire_"
MAX_NAME = 64  # MCP tool names: 1 to 64 of [A-Za-z0-9_-] (SEP-986)
MAX_CREDITS = "_max_credits"
IDEMPOTENCY_KEY = "_idempotency_key"
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
DESCRIPTION_CHARS = 300  # of the agent's own description, in the tool's


@dataclass(frozen=True)
class HireTool:
    name: str
    agent_id: uuid.UUID
    description: str
    input_schema: dict[str, Any]


def slug(name: str) -> str:
    """The agent's name as a tool name's tail: ``[a-z0-9_]``, no leading/trailing ``_``."""
    text = _NOT_SLUG.sub("_", name.lower()).strip("_")
    return text[: MAX_NAME - len(PREFIX)].rstrip("_") or "agent"


def _names(chosen: list[Agent]) -> dict[uuid.UUID, str]:
    """A tool name per agent, in the order chosen (collisions: see the module)."""
    out: dict[uuid.UUID, str] = {}
    taken: set[str] = set()
    for agent in chosen:
        base = slug(agent.name)
        name = PREFIX + base
        if name in taken:
            tail = "_" + agent.id.hex[:8]
            name = PREFIX + base[: MAX_NAME - len(PREFIX) - len(tail)].rstrip("_") + tail
        taken.add(name)
        out[agent.id] = name
    return out


def _description(agent: Agent) -> str:
    about = " ".join((agent.description or "").split())
    if len(about) > DESCRIPTION_CHARS:
        about = about[: DESCRIPTION_CHARS - 1].rstrip() + "…"
    if agent.pricing_type == PricingType.DYNAMIC:
        cost = (
            "Price: set by the seller for each job (Dynamic). Credit ceiling: the "
            f"{MAX_CREDITS} you give (required), held when the job is created; the seller's "
            "price is captured and the rest given back."
        )
    else:
        price = to_display(agent.price + agent.fee)
        cost = (
            f"Price: {price} credits per job (fee included), held on your workspace's credits "
            f"when the job is created. Credit ceiling: {price} credits, or less with "
            f"{MAX_CREDITS} (the job is refused if the price is above it)."
        )
    return (
        f"Hire {agent.name}: {about} {cost} Creates a job like create_job and returns it; "
        "follow it with wait_for_job."
    ).replace("  ", " ")


def _arguments(agent: Agent) -> dict[str, Any]:
    schema = to_json_schema(agent.input_schema)
    properties: dict[str, Any] = schema["properties"]
    if MAX_CREDITS not in properties:
        properties[MAX_CREDITS] = {
            "type": "number",
            "minimum": 0,
            "description": "The most credits you accept for this job (the credit ceiling).",
        }
        if agent.pricing_type == PricingType.DYNAMIC:
            schema["required"] = [*schema.get("required", []), MAX_CREDITS]
    if IDEMPOTENCY_KEY not in properties:
        properties[IDEMPOTENCY_KEY] = {
            "type": "string",
            "maxLength": 200,
            "description": "The same key again answers the same job, charged once.",
        }
    return schema


async def hire_tools(session: AsyncSession, principal: Principal) -> list[HireTool]:
    """The caller's toolbox as tools: their favourites and assistant picks that take jobs,
    in the order chosen."""
    entries = await ratings.toolbox(session, principal.user_id)
    found = {a.id: a for a in await agents.hireable(session, entries)}
    chosen = [found[agent_id] for agent_id in entries if agent_id in found]
    names = _names(chosen)
    return [HireTool(names[a.id], a.id, _description(a), _arguments(a)) for a in chosen]


def _split(arguments: dict[str, Any]) -> tuple[dict[str, Any], Any, Any]:
    data = dict(arguments)
    return data, data.pop(MAX_CREDITS, None), data.pop(IDEMPOTENCY_KEY, None)


async def hire(
    session: AsyncSession,
    principal: Principal,
    tool: str,
    arguments: dict[str, Any],
    *,
    settings: Settings,
) -> CreatedJob:
    """Call one of the caller's ``hire_<slug>`` tools: a job of its agent with ``arguments`` as
    the input, admitted exactly as ``create_job`` (404 when the tool is not theirs)."""
    principal.require(Permission.JOBS_WRITE)
    mine = {t.name: t for t in await hire_tools(session, principal)}
    if tool not in mine:
        raise NotFound(f"Tool {tool[:80]} is not in your toolbox")
    data, limit, key = _split(arguments)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int | float)):
        raise BadRequest.field(MAX_CREDITS, "must be a number of credits")
    if limit is not None and limit < 0:
        raise BadRequest.field(MAX_CREDITS, "must be 0 or more")
    if key is not None and not isinstance(key, str):
        raise BadRequest.field(IDEMPOTENCY_KEY, "must be a string")
    body = JobCreate(inputData=data, maxAcceptedCredits=limit)
    return await create_job(
        session,
        principal,
        str(mine[tool].agent_id),
        body,
        settings=settings,
        idempotency_key=key,
    )
