"""What the pages need beyond the other domains' services: the workspace switcher, agent names,
the agent page's facts (author, example outputs, run figures) and availability badges."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import repository as agents_repo
from agora.auth import service as auth
from agora.auth.principal import Principal
from agora.mip003.validation import schema_fields
from agora.models import Agent
from agora.organizations import repository as org_repo


@dataclass(frozen=True)
class WorkspaceChoice:
    id: uuid.UUID
    label: str
    current: bool


async def workspaces(session: AsyncSession, principal: Principal) -> list[WorkspaceChoice]:
    """The signed-in person's workspaces: the personal one, then their organizations'."""
    out = []
    personal = await auth.personal_workspace(session, principal.user_id)
    if personal is not None:
        out.append(WorkspaceChoice(personal.id, "Personal", personal.id == principal.workspace_id))
    for org in await org_repo.memberships_of(session, principal.user_id):
        wid = org["workspace_id"]
        out.append(WorkspaceChoice(wid, str(org["name"]), wid == principal.workspace_id))
    return out


async def agent_names(session: AsyncSession, agent_ids: list[uuid.UUID]) -> dict[uuid.UUID, str]:
    """The names of the agents of a page of jobs (one query)."""
    return await agents_repo.names(session, sorted(set(agent_ids)))


@dataclass(frozen=True)
class InputItem:
    label: str
    value: str


def _shown_value(value: Any) -> str:
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if value is None:
        return "—"
    return str(value)


async def job_input(session: AsyncSession, agent_id: uuid.UUID, data: Any) -> list[InputItem]:
    """The job's own input (the job page), in the agent's field order with its field names (a
    field its current schema no longer has keeps its id). Shown as text, never as HTML."""
    if not isinstance(data, dict) or not data:
        return []
    agent = await agents_repo.get(session, agent_id)
    fields = schema_fields(agent.input_schema if agent is not None else None)
    names = {str(f.get("id")): str(f.get("name") or f.get("id")) for f in fields}
    order = [fid for fid in names if fid in data] + [k for k in data if k not in names]
    return [InputItem(names.get(str(key), str(key)), _shown_value(data[key])) for key in order]


# ---- the agent page and the gallery ---------------------------------------------------------


def _web_link(value: Any) -> str | None:
    """An http(s) link from a listing, or None: listings are untrusted (developers, registries);
    both writers check links, and the page checks again before making one clickable."""
    if not isinstance(value, str):
        return None
    parts = urlsplit(value.strip())
    return value.strip() if parts.scheme in ("http", "https") and parts.netloc else None


@dataclass(frozen=True)
class Author:
    name: str
    organization: str | None
    contact_email: str | None
    website: str | None


@dataclass(frozen=True)
class ExampleOutput:
    name: str
    mime_type: str
    url: str  # as listed (a registry may give ipfs:// or other schemes)
    link: str | None  # the url when it is http(s): only then is it rendered as a link


@dataclass(frozen=True)
class AgentFacts:
    """What the agent page shows beside the catalogue row: the listing's author and example
    outputs, the run figures, the latest availability check."""

    author: Author | None
    examples: list[ExampleOutput]
    runs: int
    completed_sampled: int
    average_seconds: float | None
    availability: Availability


@dataclass(frozen=True)
class Availability:
    """An agent's latest stored availability check, as a badge (text, never color only)."""

    state: str  # available | unavailable | unknown
    checked_at: datetime | None

    @property
    def label(self) -> str:
        return {"available": "Available", "unavailable": "Unavailable"}.get(
            self.state, "Not checked yet"
        )


def _availability(found: tuple[bool, datetime] | None) -> Availability:
    if found is None:
        return Availability("unknown", None)
    available, checked_at = found
    return Availability("available" if available else "unavailable", checked_at)


async def availability(
    session: AsyncSession, agent_ids: list[uuid.UUID]
) -> dict[uuid.UUID, Availability]:
    """The latest stored check of each agent (one query; no agent is called)."""
    found = await agents_repo.latest_checks(session, agent_ids)
    return {agent_id: _availability(found.get(agent_id)) for agent_id in agent_ids}


def _author(raw: Any) -> Author | None:
    if not isinstance(raw, dict) or not str(raw.get("name") or "").strip():
        return None
    return Author(
        name=str(raw["name"]).strip(),
        organization=str(raw["organization"]) if raw.get("organization") else None,
        contact_email=str(raw["contactEmail"]) if raw.get("contactEmail") else None,
        website=_web_link(raw.get("website")),
    )


def _examples(raw: Any) -> list[ExampleOutput]:
    out = []
    for item in raw if isinstance(raw, list) else []:
        url = item.get("url") if isinstance(item, dict) else None
        if isinstance(url, str) and url.strip():
            name = str(item.get("name") or url)
            link = _web_link(url)
            out.append(ExampleOutput(name, str(item.get("mimeType") or ""), url.strip(), link))
    return out


async def agent_facts(session: AsyncSession, agent: Agent) -> AgentFacts:
    listing = agent.listing or {}
    sampled, average = await agents_repo.completed_duration(session, agent.id)
    checks = await agents_repo.latest_checks(session, [agent.id])
    return AgentFacts(
        author=_author(listing.get("author")),
        examples=_examples(listing.get("exampleOutputs")),
        runs=agent.job_count,
        completed_sampled=sampled,
        average_seconds=average,
        availability=_availability(checks.get(agent.id)),
    )
