"""Agent versions (docs/developer.md, "Versions"): each approved change of an agent's base URL,
input schema or price is an immutable version (1, 2, 3 … per agent, with the developer's
changelog). A job records the version it runs (admission); the dispatcher calls that version's
base URL. Schedules and saved inputs pin a version or follow the latest compatible one (the
newest whose input schema accepts their stored input). A change whose schema drops or retypes a
field a schedule or saved input uses warns their owners when it is submitted, before approval
(``warn_breaking``); the review shows the schema diff (``schema_diff``)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import versions_repository as repo
from agora.kit.errors import BadRequest
from agora.kit.ids import uuid7
from agora.kit.timeutil import utcnow
from agora.mip003.validation import schema_fields, validate_input
from agora.models import Agent, AgentVersion
from agora.models.rows import AgentForJob
from agora.notifications import notify
from agora.notifications.kinds import AGENT_VERSION_BREAKING

FIRST_CHANGELOG = "First version"
CHANGELOG_MAX = 2000
# How many versions "latest compatible" looks back through (newest first).
LOOKBACK = 50
BREAKING_KIND = AGENT_VERSION_BREAKING.name


def clean_changelog(value: Any) -> str | None:
    """The developer's changelog text (400 naming ``changelog`` when too long), None if blank."""
    if value is None:
        return None
    text = str(value).strip()
    if len(text) > CHANGELOG_MAX:
        raise BadRequest.field("changelog", f"at most {CHANGELOG_MAX} characters")
    return text or None


# ---- recording versions ----------------------------------------------------------------------


def _same(version: AgentVersion, agent: Agent) -> bool:
    return (
        version.base_url == agent.base_url
        and version.input_schema == agent.input_schema
        and version.pricing_type == agent.pricing_type
        and version.price == agent.price
    )


async def record(
    session: AsyncSession, agent: Agent, *, now: datetime | None = None
) -> AgentVersion | None:
    """After an approval (a review's, an operator's verify or registration): the agent's base
    URL, input schema and price as the next version, unless the latest version already has them.
    The changelog is the one the developer gave with the change (``pending_changelog``)."""
    last = await repo.latest(session, agent.id)
    changelog = agent.pending_changelog
    agent.pending_changelog = None
    if last is not None and _same(last, agent):
        agent.current_version = last.number
        return None
    number = 1 if last is None else last.number + 1
    version = AgentVersion(
        id=uuid7(),
        agent_id=agent.id,
        number=number,
        base_url=agent.base_url,
        input_schema=agent.input_schema,
        pricing_type=agent.pricing_type,
        price=agent.price,
        fee=agent.fee,
        changelog=changelog or (FIRST_CHANGELOG if number == 1 else ""),
        created_at=now or utcnow(),
    )
    repo.add(session, version)
    agent.current_version = number
    await session.flush()
    return version


async def listed(
    session: AsyncSession, agent_id: uuid.UUID, *, limit: int, offset: int = 0
) -> list[AgentVersion]:
    """An agent's versions, newest first (its changelog)."""
    return await repo.newest_first(session, agent_id, limit=limit, offset=offset)


# ---- which version a job runs ------------------------------------------------------------------


@dataclass(frozen=True)
class VersionedAgent:
    """An agent as one of its versions has it (the ``AgentForJob`` shape): a job pinned to an
    older version is priced, validated and dispatched as that version."""

    id: uuid.UUID
    name: str
    status: str
    is_shown: bool
    price: int
    fee: int
    pricing_type: str
    base_url: str
    input_schema: dict[str, Any] | None
    current_version: int | None


async def at_version(
    session: AsyncSession, agent: AgentForJob, number: int, *, field: str = "agentVersion"
) -> AgentForJob:
    """``agent`` as its version ``number`` (400 naming ``field`` when it has no such version)."""
    if agent.current_version == number:
        return agent
    version = await repo.get(session, agent.id, number)
    if version is None:
        raise BadRequest.field(field, f"agent {agent.id} has no version {number}")
    shown = VersionedAgent(
        agent.id,
        agent.name,
        agent.status,
        agent.is_shown,
        agent.price,
        agent.fee,
        agent.pricing_type,
        agent.base_url,
        agent.input_schema,
        agent.current_version,
    )
    return replace(
        shown,
        price=version.price,
        fee=version.fee,
        pricing_type=version.pricing_type,
        base_url=version.base_url,
        input_schema=version.input_schema,
        current_version=version.number,
    )


async def latest_compatible(
    session: AsyncSession, agent_id: uuid.UUID, data: dict[str, Any]
) -> int | None:
    """The newest version whose input schema accepts ``data`` (the hire form's validation), or
    None when the agent has no version, or none of the last ``LOOKBACK`` accepts it (then the
    job is admitted against the current version, whose refusal names the fields)."""
    for version in await repo.newest_first(session, agent_id, limit=LOOKBACK):
        if not validate_input(version.input_schema, data):
            return version.number
    return None


async def chosen(
    session: AsyncSession, agent_id: uuid.UUID, pinned: int | None, data: dict[str, Any]
) -> int | None:
    """The version a schedule's or saved input's job runs: its pinned one, else the latest
    compatible (None: the agent's current one)."""
    if pinned is not None:
        return pinned
    return await latest_compatible(session, agent_id, data)


# ---- schema diff and breaking changes ------------------------------------------------------


def _types(schema: dict[str, Any] | None) -> dict[str, str]:
    return {
        str(f["id"]): str(f.get("type") or "string").strip().lower()
        for f in schema_fields(schema)
        if f.get("id") is not None
    }


@dataclass(frozen=True)
class SchemaDiff:
    """What changed between two input schemas, field by field (by id)."""

    added: list[tuple[str, str]]  # (id, type)
    removed: list[tuple[str, str]]  # (id, type)
    retyped: list[tuple[str, str, str]]  # (id, old type, new type)

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed or self.retyped)

    def words(self) -> list[str]:
        """The diff in words, one line per field (the review page, the warning)."""
        return (
            [f"added field “{fid}” ({kind})" for fid, kind in self.added]
            + [f"removed field “{fid}” ({kind})" for fid, kind in self.removed]
            + [f"field “{fid}” changed type from {old} to {new}" for fid, old, new in self.retyped]
        )


def schema_diff(old: dict[str, Any] | None, new: dict[str, Any] | None) -> SchemaDiff:
    before, after = _types(old), _types(new)
    return SchemaDiff(
        added=[(fid, kind) for fid, kind in after.items() if fid not in before],
        removed=[(fid, kind) for fid, kind in before.items() if fid not in after],
        retyped=[
            (fid, kind, after[fid])
            for fid, kind in before.items()
            if fid in after and after[fid] != kind
        ],
    )


@dataclass(frozen=True)
class PendingChange:
    """What approving an agent would make of its versions (the review queue shows it):
    ``current`` (None: no version yet), ``next`` (the number approval gives, or ``current`` when
    nothing versioned changed), the developer's changelog and the schema diff in words."""

    current: int | None
    next: int
    changelog: str | None
    changes: list[str]
    base_url_changed: bool
    price_changed: bool


async def pending_change(session: AsyncSession, agent: Agent) -> PendingChange:
    last = await repo.latest(session, agent.id)
    if last is None:
        return PendingChange(None, 1, agent.pending_changelog, [], False, False)
    diff = schema_diff(last.input_schema, agent.input_schema)
    changes = diff.words()
    if not changes and last.input_schema != agent.input_schema:
        changes = [
            "the schema changed (labels, validations or choices; no field added, removed "
            "or retyped)"
        ]
    return PendingChange(
        last.number,
        last.number if _same(last, agent) else last.number + 1,
        agent.pending_changelog,
        changes,
        last.base_url != agent.base_url,
        (last.price, last.pricing_type) != (agent.price, agent.pricing_type),
    )


def _used(data: dict[str, Any]) -> set[str]:
    return {key for key, value in data.items() if value not in (None, "", [])}


def broken_fields(diff: SchemaDiff, data: dict[str, Any]) -> list[str]:
    """The fields ``data`` uses that ``diff`` removes or retypes."""
    gone = {fid for fid, _ in diff.removed} | {fid for fid, _, _ in diff.retyped}
    return sorted(_used(data) & gone)


async def warn_breaking(
    session: AsyncSession, agent: Agent, new_schema: dict[str, Any] | None
) -> int:
    """Before a change takes effect (at submission, or at review when the schema the agent
    answers changed since): tell the owner of every schedule and saved input of ``agent`` whose
    input uses a field that ``new_schema`` drops or retypes, compared with the agent's latest
    version (``agent.version_breaking``, one notification per person). Returns how many people
    were told."""
    last = await repo.latest(session, agent.id)
    if last is None:
        return 0
    diff = schema_diff(last.input_schema, new_schema)
    if not (diff.removed or diff.retyped):
        return 0
    hit: dict[uuid.UUID, list[dict[str, Any]]] = defaultdict(list)
    for user in await repo.input_users(session, agent.id):
        fields = broken_fields(diff, user.input_data)
        if fields:
            hit[user.user_id].append(
                {
                    "kind": user.kind,
                    "id": str(user.id),
                    "name": user.name,
                    "fields": fields,
                    "pinnedVersion": user.agent_version,
                }
            )
    for user_id, items in hit.items():
        names = ", ".join(f"“{item['name']}”" for item in items[:5])
        await notify(
            session,
            user_id=user_id,
            kind=BREAKING_KIND,
            subject_ref=f"agent:{agent.id}",
            data={
                "agentId": str(agent.id),
                "name": agent.name,
                "version": last.number + 1,
                "currentVersion": last.number,
                "changes": diff.words(),
                "items": items[:20],
                "message": (
                    f"A change of “{agent.name}” waiting for review drops or retypes fields "
                    f"used by {names}. Pinned ones keep their version; those following the "
                    f"latest compatible version stay on version {last.number} (or the newest "
                    "that still accepts their input) until you update them."
                ),
            },
        )
    return len(hit)
