"""Who may read and change which task, and the event every change writes.

Every member of the workspace reads its tasks; user keys change them with projects:write; a
coworker key reads and changes only the tasks assigned to its coworker, and stops acting once
that coworker is archived (403). Another workspace's task, or one a coworker key may not see, is
a 404. Services flush; the caller owns the transaction."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Permission, Principal, coworker_of
from agora.kit.errors import BadRequest, Forbidden
from agora.kit.fields import trimmed
from agora.kit.ids import fetch_by_id
from agora.models import Task, TaskEvent
from agora.models.statuses import TaskActorType
from agora.tasks import lifecycle
from agora.tasks import repository as repo
from agora.tasks.schemas import CHANNELS


def clean_status(value: str, field: str = "status") -> str:
    return lifecycle.clean(value, field)


def clean_channel(value: str | None, field: str) -> str | None:
    if value is None:
        return None
    channel = value.strip().upper()
    if channel not in CHANNELS:
        raise BadRequest.field(field, f"must be one of {', '.join(CHANNELS)}")
    return channel


def clean_name(name: str) -> str:
    return trimmed("name", name, 500)


def require_user_writer(principal: Principal) -> None:
    principal.require(Permission.PROJECTS_WRITE)


def require_writer(principal: Principal) -> None:
    """User keys need projects:write; a coworker key may write the tasks assigned to it."""
    if coworker_of(principal) is None:
        require_user_writer(principal)


async def require_acting_coworker(session: AsyncSession, principal: Principal) -> None:
    """A coworker key whose coworker is archived (or gone) no longer acts: 403."""
    acting = coworker_of(principal)
    if acting is None:
        return
    coworker = await repo.coworker(session, acting)
    if coworker is None or coworker.archived_at is not None:
        raise Forbidden(f"Coworker {acting} is archived; its keys no longer act for it")


def visible_to(task: Task | None, principal: Principal) -> Task | None:
    """The task if the caller may see it: any of its workspace's, or for a coworker key one
    assigned to its coworker."""
    acting = coworker_of(principal)
    if task is None or (acting is not None and task.coworker_id != acting):
        return None
    return task


async def locked(session: AsyncSession, principal: Principal, task_id: str) -> Task:
    """A task the caller may see (else 404; ``tasks.service.get_task``), locked for a change."""
    await require_acting_coworker(session, principal)

    async def fetch(parsed: uuid.UUID) -> Task | None:
        task = await repo.get_for_update(session, principal.workspace_id, parsed)
        return visible_to(task, principal)

    return await fetch_by_id(task_id, "Task", fetch)


async def record(
    session: AsyncSession,
    task: Task,
    principal: Principal,
    *,
    status: str | None = None,
    comment: str | None = None,
    credits: int | None = None,
    authentication_url: str | None = None,
    channel: str | None = None,
    origin: str | None = None,
    metadata: dict[str, Any] | None = None,
    kind: str | None = None,
    change: dict[str, Any] | None = None,
) -> TaskEvent:
    """A task event written by the caller: a person, or the coworker behind a coworker key."""
    acting = coworker_of(principal)
    event = TaskEvent(
        kind=kind,
        change=change,
        task_id=task.id,
        status=status,
        comment=comment,
        credits=credits,
        authentication_url=authentication_url,
        meta=metadata,
        actor_type=TaskActorType.COWORKER if acting else TaskActorType.USER,
        actor_user_id=None if acting else principal.user_id,
        actor_coworker_id=acting,
        channel=channel,
        origin=origin,
    )
    return await repo.add_event(session, event)
