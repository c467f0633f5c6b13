"""People on tasks: the one assignee (a member of the workspace or a coworker) and the
participants beside it (docs/tasks.md). Each change is a task event (kinds ``assignment`` and
``participants``); a change that changes nothing writes no event, so a retried request is
harmless. Services flush; the caller owns the transaction."""

from __future__ import annotations

import uuid
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.coworkers import service as coworkers
from agora.kit.errors import BadRequest
from agora.kit.ids import parse_uuid
from agora.kit.timeutil import utcnow
from agora.models import Coworker, Task
from agora.tasks import repository as repo
from agora.tasks.access import locked, record, require_user_writer
from agora.tasks.views import AssigneeView


async def member(session: AsyncSession, principal: Principal, raw: str, field_name: str) -> Any:
    """A person of the workspace (the owner of a personal one, a member of an organization's),
    else 400 naming the field."""
    parsed = parse_uuid(raw.strip())
    found = await repo.workspace_member(session, principal.workspace_id, parsed) if parsed else None
    if found is None:
        raise BadRequest.field(field_name, f"{raw.strip()[:100]} is not a member of this workspace")
    return found


async def assignee(
    session: AsyncSession, principal: Principal, raw: str, field_name: str
) -> tuple[Any, Coworker | None]:
    """``raw`` names a member of the workspace or a coworker the caller may assign."""
    parsed = parse_uuid(raw.strip())
    found = await repo.workspace_member(session, principal.workspace_id, parsed) if parsed else None
    if found is not None:
        return found, None
    try:
        return None, await coworkers.assignable(session, principal, raw, field_name)
    except BadRequest as exc:
        raise BadRequest.field(
            field_name,
            f"{raw.strip()[:100]} is neither a member of this workspace "
            "nor a coworker you may assign",
        ) from exc


def _key(view: AssigneeView | None) -> tuple[str, uuid.UUID] | None:
    return (view.type, view.id) if view else None


def _view_of(person: Any, coworker: Coworker | None) -> AssigneeView | None:
    if person is not None:
        return AssigneeView("user", person.id, person.name)
    if coworker is not None:
        return AssigneeView("coworker", coworker.id, coworker.name, coworker.slug)
    return None


async def _current_assignee(session: AsyncSession, task: Task) -> AssigneeView | None:
    if task.assignee_user_id is not None:
        people = await repo.people(session, [task.assignee_user_id])
        person = people.get(task.assignee_user_id)
        return AssigneeView("user", task.assignee_user_id, person.name if person else "")
    if task.coworker_id is not None:
        coworker = await repo.coworker(session, task.coworker_id)
        return AssigneeView("coworker", task.coworker_id, coworker.name if coworker else "")
    return None


async def set_assignee(
    session: AsyncSession,
    principal: Principal,
    task: Task,
    person: Any,
    coworker: Coworker | None,
) -> None:
    """One assignee (a member or a coworker, never both); a change is a task event of kind
    ``assignment`` whose ``change`` names the new and the previous assignee. No change, no
    event (a retried request is harmless)."""
    previous = await _current_assignee(session, task)
    new = _view_of(person, coworker)
    if _key(previous) == _key(new):
        return
    task.assignee_user_id = person.id if person is not None else None
    task.coworker_id = coworker.id if coworker is not None else None
    await record(
        session, task, principal, kind="assignment",
        change={
            "assignee": new.as_change() if new else None,
            "previous": previous.as_change() if previous else None,
        },
    )  # fmt: skip


async def assign(
    session: AsyncSession, principal: Principal, task_id: str, raw_assignee: str | None
) -> Task:
    """Assign (or reassign) the task to a member of its workspace or a coworker; ``None``
    unassigns. Users with projects:write; a coworker key cannot (403)."""
    require_user_writer(principal)
    task = await locked(session, principal, task_id)  # another workspace's task: 404 first
    person, coworker = None, None
    if raw_assignee is not None:
        person, coworker = await assignee(session, principal, raw_assignee, "assigneeId")
    await set_assignee(session, principal, task, person, coworker)
    task.updated_at = utcnow()
    await session.flush()
    return task


async def _participants_changed(
    session: AsyncSession,
    principal: Principal,
    task: Task,
    how: Literal["added", "removed"],
    user_id: uuid.UUID,
    name: str,
) -> None:
    """The event of kind ``participants`` (``change.added`` or ``change.removed``)."""
    change: dict[str, Any] = {how: {"id": str(user_id), "name": name}}
    await record(session, task, principal, kind="participants", change=change)
    task.updated_at = utcnow()


async def add_participant(
    session: AsyncSession, principal: Principal, task_id: str, raw_user_id: str
) -> Task:
    """A member of the workspace takes part in the task (idempotent); an event of kind
    ``participants`` (``change.added``)."""
    require_user_writer(principal)
    task = await locked(session, principal, task_id)
    person = await member(session, principal, raw_user_id, "userId")
    if not await repo.is_participant(session, task.id, person.id):
        await repo.add_participant(session, task.id, person.id)
        await _participants_changed(session, principal, task, "added", person.id, person.name)
    await session.flush()
    return task


async def remove_participant(
    session: AsyncSession, principal: Principal, task_id: str, raw_user_id: str
) -> Task:
    """The person no longer takes part (idempotent; someone who is not a participant: no
    change)."""
    require_user_writer(principal)
    task = await locked(session, principal, task_id)
    user_id = parse_uuid(raw_user_id.strip())
    if user_id is not None and await repo.is_participant(session, task.id, user_id):
        people = await repo.people(session, [user_id])
        person = people.get(user_id)
        await repo.remove_participant(session, task.id, user_id)
        name = person.name if person else ""
        await _participants_changed(session, principal, task, "removed", user_id, name)
    await session.flush()
    return task


async def members(session: AsyncSession, principal: Principal, limit: int = 200) -> list[Any]:
    """The people a task of the caller's workspace may be assigned to (id, name, email)."""
    return await repo.workspace_members(session, principal.workspace_id, limit)
