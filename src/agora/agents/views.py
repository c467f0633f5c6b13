"""What the web pages show of agents beyond their catalogue rows: names for a page of jobs, a
job's input in its agent's words, the agent page's facts (author, example outputs, run figures)
and availability badges. Not a door: the gallery (agents/pages.py) and the agent and job pages
(jobs/pages.py) read them."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import badge_repository
from agora.agents import figures_repository as figures
from agora.agents import repository as repo
from agora.mip003.validation import schema_fields
from agora.models import Agent


async def agent_names(session: AsyncSession, agent_ids: list[uuid.UUID]) -> dict[uuid.UUID, str]:
    """The names of the agents of a page of jobs (one query)."""
    return await repo.names(session, sorted(set(agent_ids)))


async def marks(
    session: AsyncSession, user_id: uuid.UUID, agent_ids: list[uuid.UUID]
) -> tuple[set[uuid.UUID], set[uuid.UUID]]:
    """(favourite, hired before) among ``agent_ids``, for the person: two statements a page."""
    return (
        await repo.marked(session, agent_ids, repo.favourites_of(user_id)),
        await repo.marked(session, agent_ids, repo.hired_by(user_id)),
    )


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
    agent = await repo.get(session, agent_id)
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
    badge: Badge | None


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


@dataclass(frozen=True)
class Badge:
    """The "Conformant" badge: the listing passed the conformance suite (its latest passing run's
    date and the suite's version) and has not failed it for the grace days since."""

    certified_on: datetime
    suite_version: str


async def badges(session: AsyncSession, agent_ids: list[uuid.UUID]) -> dict[uuid.UUID, Badge]:
    """The badges of a page of agents (one query); agents without one are absent."""
    found = await badge_repository.badges(session, agent_ids)
    return {agent_id: Badge(on, version) for agent_id, (on, version) in found.items()}


def _availability(found: tuple[bool, datetime] | None) -> Availability:
    if found is None:
        return Availability("unknown", None)
    available, checked_at = found
    return Availability("available" if available else "unavailable", checked_at)


async def availability(
    session: AsyncSession, agent_ids: list[uuid.UUID]
) -> dict[uuid.UUID, Availability]:
    """The latest stored check of each agent (one query; no agent is called)."""
    found = await repo.latest_checks(session, agent_ids)
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
    sampled, average = await figures.completed_duration(session, agent.id)
    checks = await repo.latest_checks(session, [agent.id])
    return AgentFacts(
        author=_author(listing.get("author")),
        examples=_examples(listing.get("exampleOutputs")),
        runs=agent.job_count,
        completed_sampled=sampled,
        average_seconds=average,
        availability=_availability(checks.get(agent.id)),
        badge=(await badges(session, [agent.id])).get(agent.id),
    )
