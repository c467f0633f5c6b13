"""Task rules (docs/tasks.md). Tasks are workspace resources: every member of the workspace may
read and change them; a coworker key reads and changes only the tasks assigned to its coworker.
``status`` moves along the table in ``tasks.lifecycle`` (409 otherwise), and every move and
comment is a task event with an actor. A task's credits are the net spend of its jobs plus its
coworker usage. Archive and unarchive are idempotent. Project assignment lives in
``agora.projects``. Every write bumps ``updated_at`` (the history feed orders by it, so events
and moves surface there at once). Services flush; the caller owns the transaction."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Permission, Principal, coworker_of
from agora.coworkers import repository as coworkers_repo
from agora.files import attachments
from agora.jobs import service as jobs_service
from agora.jobs.schemas import JobCreate
from agora.jobs.service import ShownJob
from agora.kit.cursors import CursorSigner, binding_of
from agora.kit.errors import BadRequest, Forbidden
from agora.kit.fields import patch_fields, trimmed
from agora.kit.ids import fetch_by_id, parse_uuid
from agora.kit.money import to_base
from agora.kit.pagination import Page, PageParams
from agora.kit.schemas import RowView
from agora.kit.timeutil import utcnow
from agora.models import Coworker, Organization, Task, TaskEvent, User, Workspace
from agora.models.statuses import TaskActorType
from agora.settings import Settings
from agora.tasks import lifecycle
from agora.tasks import repository as repo
from agora.tasks.schemas import (
    CHANNELS,
    TaskCreate,
    TaskEventCreate,
    TaskJobCreate,
    TaskScope,
    TaskUpdate,
)

KNOWN_STATUSES = lifecycle.STATUSES
Archived = Literal["false", "true", "all"]
MAX_EVENTS = 200  # per task in a snapshot
MAX_JOBS = 100  # per task in a snapshot
CURSOR_MAX_AGE = 15 * 60


@dataclass(frozen=True)
class TaskFilters:
    statuses: list[str]
    project: str | None  # a project id, "null" for unassigned, None for any
    archived: Archived = "false"
    q: str | None = None
    scope: TaskScope = "owned"
    coworker_id: uuid.UUID | None = None
    assignee: str | None = None  # "me" or a member's id: the tasks assigned to that person


def clean_status(value: str, field: str = "status") -> str:
    return lifecycle.clean(value, field)


def _channel(value: str | None, field: str) -> str | None:
    if value is None:
        return None
    channel = value.strip().upper()
    if channel not in CHANNELS:
        raise BadRequest.field(field, f"must be one of {', '.join(CHANNELS)}")
    return channel


def _clean_name(name: str) -> str:
    return trimmed("name", name, 500)


# ---- what the responses read ------------------------------------------------------------


@dataclass(frozen=True)
class ActorView:
    """Who wrote an event (or created a task): what ``Actor`` reads."""

    type: TaskActorType
    id: uuid.UUID | None
    user: User | None = None
    coworker: Coworker | None = None


@dataclass(frozen=True)
class ShownTaskEvent(RowView):
    """A task event row with its actor: what ``TaskEventOut`` reads."""

    row: TaskEvent
    actor: ActorView | None


@dataclass(frozen=True)
class AssigneeView:
    """Who a task is assigned to: a member of its workspace or a coworker (``AssigneeRef``)."""

    type: Literal["user", "coworker"]
    id: uuid.UUID
    name: str
    slug: str | None = None

    def as_change(self) -> dict[str, Any]:
        return {"type": self.type, "id": str(self.id), "name": self.name}


@dataclass(frozen=True)
class TaskSnapshot(RowView):
    """A task row with everything its snapshot shows: what ``TaskOut`` reads. ``credits``:
    net spend in base units."""

    row: Task  # or a row of its columns (the listing's)
    credits: int
    workspace: Workspace
    organization: Organization | None
    creator: User | None
    coworker: Coworker | None
    jobs: list[ShownJob]
    events: list[ShownTaskEvent]
    links: list[attachments.JobLink]
    files: list[attachments.JobFile]
    assignee_user: User | None = None
    participants: list[Any] = field(default_factory=list)

    @property
    def assignee(self) -> AssigneeView | None:
        """The member the task is assigned to, else its coworker, else None."""
        if self.assignee_user is not None:
            return AssigneeView("user", self.assignee_user.id, self.assignee_user.name)
        if self.coworker is not None:
            return AssigneeView(
                "coworker", self.coworker.id, self.coworker.name, self.coworker.slug
            )
        return None

    @property
    def assignee_id(self) -> uuid.UUID | None:
        assignee = self.assignee
        return assignee.id if assignee else None

    @property
    def creator_actor(self) -> ActorView:
        return ActorView(TaskActorType.USER, self.row.creator_id, user=self.creator)

    @property
    def organization_id(self) -> uuid.UUID | None:
        return self.organization.id if self.organization else None


def _actor(
    kind: str | None,
    user_id: uuid.UUID | None,
    coworker_id: uuid.UUID | None,
    users: dict[uuid.UUID, User],
    coworkers: dict[uuid.UUID, Coworker],
) -> ActorView | None:
    if kind == TaskActorType.COWORKER:
        coworker = coworkers.get(coworker_id) if coworker_id else None
        return ActorView(TaskActorType.COWORKER, coworker_id, coworker=coworker)
    if kind == TaskActorType.USER:
        user = users.get(user_id) if user_id else None
        return ActorView(TaskActorType.USER, user_id, user=user)
    if kind == TaskActorType.ORCHESTRATOR:
        return ActorView(TaskActorType.ORCHESTRATOR, None)
    return None


def _shown_event(
    event: TaskEvent, users: dict[uuid.UUID, User], coworkers: dict[uuid.UUID, Coworker]
) -> ShownTaskEvent:
    actor = _actor(event.actor_type, event.actor_user_id, event.actor_coworker_id, users, coworkers)
    return ShownTaskEvent(event, actor)


async def render_events(session: AsyncSession, events: list[Any]) -> list[ShownTaskEvent]:
    users = await repo.people(session, [e.actor_user_id for e in events])
    coworkers = await repo.coworker_refs(session, [e.actor_coworker_id for e in events])
    return [_shown_event(e, users, coworkers) for e in events]


async def render(
    session: AsyncSession,
    tasks: list[Task],
    settings: Settings | None = None,
    *,
    preview: bool = False,
) -> list[TaskSnapshot]:
    """Full snapshots, with a bounded number of queries for the whole page. Without
    ``settings`` the jobs are left out; with ``preview`` (listings) job results are previews."""
    ids = [t.id for t in tasks]
    spend = await repo.spend_by_task(session, ids)
    events = await repo.events_of(session, ids, MAX_EVENTS * max(1, len(ids)))
    job_rows = await repo.jobs_of(session, ids, MAX_JOBS * max(1, len(ids)))
    shown_jobs: list[ShownJob] = (
        await jobs_service.shown(session, job_rows, settings, preview=preview, demo=_demo(job_rows))
        if settings and job_rows
        else []
    )
    users = await repo.people(
        session,
        [t.creator_id for t in tasks]
        + [t.assignee_user_id for t in tasks]
        + [e.actor_user_id for e in events],
    )
    participants: dict[uuid.UUID, list[Any]] = {}
    for p in await repo.participants_of(session, ids):
        participants.setdefault(p.task_id, []).append(p)
    coworkers = await repo.coworker_refs(
        session, [t.coworker_id for t in tasks] + [e.actor_coworker_id for e in events]
    )
    workspaces = await repo.workspace_refs(session, [t.workspace_id for t in tasks])
    orgs = await repo.organization_refs(session, [w.organization_id for w in workspaces.values()])
    # Each task's events and jobs, grouped once for the page (not one scan per task).
    events_by_task: dict[uuid.UUID, list[ShownTaskEvent]] = {}
    for e in events:
        events_by_task.setdefault(e.task_id, []).append(_shown_event(e, users, coworkers))
    rows_by_task: dict[uuid.UUID, list[Any]] = {}
    for row in job_rows:
        rows_by_task.setdefault(row.task_id, []).append(row)
    jobs_by_task: dict[uuid.UUID | None, list[ShownJob]] = {}
    for job in shown_jobs:
        jobs_by_task.setdefault(job.row.task_id, []).append(job)
    out = []
    for task in tasks:
        workspace = workspaces[task.workspace_id]
        found = [attachments.found(j) for j in rows_by_task.get(task.id, [])[:MAX_JOBS]]
        out.append(
            TaskSnapshot(
                task,
                credits=spend.get(task.id, 0),
                workspace=workspace,
                organization=orgs.get(workspace.organization_id)
                if workspace.organization_id
                else None,
                creator=users.get(task.creator_id),
                coworker=coworkers.get(task.coworker_id) if task.coworker_id else None,
                jobs=jobs_by_task.get(task.id, [])[:MAX_JOBS],
                events=events_by_task.get(task.id, [])[:MAX_EVENTS],
                links=[link for links, _ in found for link in links],
                files=[f for _, files in found for f in files],
                assignee_user=users.get(task.assignee_user_id) if task.assignee_user_id else None,
                participants=participants.get(task.id, []),
            )
        )
    return out


async def render_one(
    session: AsyncSession, task: Task, settings: Settings | None = None
) -> TaskSnapshot:
    return (await render(session, [task], settings))[0]


# ---- creating and reading -------------------------------------------------------------------


async def _assignable(
    session: AsyncSession, principal: Principal, raw: str, field: str = "coworkerId"
) -> Coworker:
    """A coworker the caller may give a task: whitelisted (or the caller's own), not archived.
    Giving it the task gives it access to the workspace."""
    parsed = parse_uuid(raw.strip())
    coworker = await repo.coworker(session, parsed) if parsed else None
    if coworker is None or not (
        coworker.whitelisted_at is not None or coworker.owner_user_id == principal.user_id
    ):
        raise BadRequest.field(field, f"no coworker {raw} you may assign")
    if coworker.archived_at is not None:
        raise BadRequest.field(field, f"coworker {raw} is archived")
    if "tasks" not in (coworker.capabilities or []):
        raise BadRequest.field(field, f"coworker {raw} does not take tasks")
    await coworkers_repo.grant_workspace(session, coworker.id, principal.workspace_id)
    return coworker


def _require_user_writer(principal: Principal) -> None:
    principal.require(Permission.PROJECTS_WRITE)


async def _record(
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


async def create_task(session: AsyncSession, principal: Principal, body: TaskCreate) -> Task:
    _require_user_writer(principal)
    if body.coworkerId and body.assigneeId:
        raise BadRequest.field(
            "assigneeId", "a task has one assignee; send one of coworkerId and assigneeId"
        )
    member, coworker = None, None
    if body.assigneeId:
        member, coworker = await _assignee(session, principal, body.assigneeId, "assigneeId")
    elif body.coworkerId:
        coworker = await _assignable(session, principal, body.coworkerId)
    task = Task(
        assignee_user_id=member.id if member else None,
        workspace_id=principal.workspace_id,
        creator_id=principal.user_id,
        name=_clean_name(body.name),
        description=body.description,
        status=clean_status(body.status),
        coworker_id=coworker.id if coworker else None,
        origin=_channel(body.origin, "origin"),
        channel=_channel(body.channel, "channel"),
        meta=body.metadata,
    )
    await repo.add(session, task)
    # The first event: the coworker (if any) learns of its new task from /coworkers/me/events.
    await _record(
        session, task, principal, status=task.status, channel=task.channel, origin=task.origin
    )
    return task


def _filter_args(principal: Principal, filters: TaskFilters) -> dict[str, Any]:
    """The listing's filters (the WHERE is built in the repository): a coworker key sees only
    the tasks assigned to its coworker; a user key its own (``scope=owned``) or the
    workspace's."""
    project_id: uuid.UUID | None = None
    if filters.project not in (None, "null"):
        project_id = parse_uuid(filters.project)
        if project_id is None:
            raise BadRequest.field("query.projectId", "must be a project id or the literal null")
    acting = coworker_of(principal)
    coworker_ids = [c for c in (acting, filters.coworker_id) if c is not None]
    owned = acting is None and filters.scope == "owned" and filters.assignee is None
    assignee: uuid.UUID | None = None
    if filters.assignee == "me":
        assignee = principal.user_id
    elif filters.assignee is not None:
        assignee = parse_uuid(filters.assignee)
    return {
        "assignee_user_id": assignee,
        "statuses": filters.statuses,
        "project_id": project_id,
        "unassigned": filters.project == "null",
        "archived": filters.archived,
        "creator_id": principal.user_id if owned else None,
        "coworker_ids": coworker_ids,
        "name_contains": filters.q,
    }


def parse_filters(
    status: str | None,
    project_id: str | None,
    archived: Archived,
    *,
    q: str | None = None,
    scope: TaskScope = "owned",
    coworker_id: str | None = None,
    assignee_id: str | None = None,
) -> TaskFilters:
    statuses = [clean_status(s, "query.status") for s in (status or "").split(",") if s.strip()]
    assignee = (assignee_id or "").strip() or None
    if assignee is not None and assignee.lower() == "me":
        assignee = "me"
    elif assignee is not None and parse_uuid(assignee) is None:
        raise BadRequest.field("query.assigneeId", "must be me or a member's user id")
    coworker: uuid.UUID | None = None
    if coworker_id:
        coworker = parse_uuid(coworker_id.strip())
        if coworker is None:
            raise BadRequest.field("query.coworkerId", "must be a coworker id")
    return TaskFilters(
        statuses,
        project_id.strip() if project_id else None,
        archived,
        (q or "").strip() or None,
        scope,
        coworker,
        assignee,
    )


def _signer(settings: Settings) -> CursorSigner:
    return CursorSigner(
        settings.resolved_secret_key(), purpose="tasks", max_age_seconds=CURSOR_MAX_AGE
    )


def _binding(principal: Principal, filters: TaskFilters) -> str:
    return binding_of(str(principal.key_id), str(principal.workspace_id), filters)


def paging_from_cursor(
    settings: Settings,
    principal: Principal,
    filters: TaskFilters,
    cursor: str | None,
    paging: PageParams,
) -> PageParams:
    """A ``cursor`` (from ``nextCursor``) wins over ``page``: it is an offset, signed and bound
    to the caller and the filters."""
    if not cursor:
        return paging
    position = _signer(settings).decode(cursor, _binding(principal, filters))
    if len(position) != 1 or not isinstance(position[0], int) or position[0] < 0:
        raise BadRequest.field("cursor", "restart from the first page without a cursor")
    return PageParams(position[0] // paging.limit + 1, paging.limit)


def next_cursor(
    settings: Settings, principal: Principal, filters: TaskFilters, paging: PageParams, total: int
) -> str | None:
    end = paging.offset + paging.limit
    if end >= total:
        return None
    return _signer(settings).encode([end], _binding(principal, filters))


async def list_tasks(
    session: AsyncSession,
    principal: Principal,
    filters: TaskFilters,
    paging: PageParams,
    settings: Settings | None = None,
) -> Page[TaskSnapshot]:
    await _acting_coworker(session, principal)
    tasks, total = await repo.listing(
        session,
        principal.workspace_id,
        offset=paging.offset,
        limit=paging.limit,
        **_filter_args(principal, filters),
    )
    return Page(await render(session, tasks, settings, preview=True), total)


async def _acting_coworker(session: AsyncSession, principal: Principal) -> None:
    """A coworker key whose coworker is archived (or gone) no longer acts: 403."""
    acting = coworker_of(principal)
    if acting is None:
        return
    coworker = await repo.coworker(session, acting)
    if coworker is None or coworker.archived_at is not None:
        raise Forbidden(f"Coworker {acting} is archived; its keys no longer act for it")


def _visible_to(task: Task | None, principal: Principal) -> Task | None:
    acting = coworker_of(principal)
    if task is None or (acting is not None and task.coworker_id != acting):
        return None
    return task


async def get_task(session: AsyncSession, principal: Principal, task_id: str) -> Task:
    """A task of the workspace; for a coworker key, only one assigned to it (else 404)."""
    await _acting_coworker(session, principal)

    async def fetch(parsed: uuid.UUID) -> Task | None:
        return _visible_to(await repo.get(session, principal.workspace_id, parsed), principal)

    return await fetch_by_id(task_id, "Task", fetch)


async def _locked(session: AsyncSession, principal: Principal, task_id: str) -> Task:
    await _acting_coworker(session, principal)

    async def fetch(parsed: uuid.UUID) -> Task | None:
        task = await repo.get_for_update(session, principal.workspace_id, parsed)
        return _visible_to(task, principal)

    return await fetch_by_id(task_id, "Task", fetch)


def _may_write(principal: Principal) -> None:
    """User keys need projects:write; a coworker key may write the tasks assigned to it."""
    if coworker_of(principal) is None:
        _require_user_writer(principal)


async def update_task(
    session: AsyncSession, principal: Principal, task_id: str, body: TaskUpdate
) -> Task:
    _may_write(principal)
    given = patch_fields(body)
    if "name" in given and "title" in given and given["name"] != given["title"]:
        raise BadRequest.field("title", "differs from name; send one of them")
    task = await _locked(session, principal, task_id)
    if "name" in given or "title" in given:
        task.name = _clean_name(given.get("name", given.get("title", "")))
    if "description" in given:
        task.description = given["description"]
    if "metadata" in given:
        task.meta = given["metadata"]
    if "coworkerId" in given and "assigneeId" in given:
        raise BadRequest.field(
            "assigneeId", "a task has one assignee; send one of coworkerId and assigneeId"
        )
    if "coworkerId" in given or "assigneeId" in given:
        if coworker_of(principal) is not None:
            raise Forbidden("A coworker key cannot reassign a task")
        if "assigneeId" in given:
            member, coworker = await _assignee(
                session, principal, given["assigneeId"], "assigneeId"
            )
        else:
            member, coworker = None, await _assignable(session, principal, given["coworkerId"])
        await _set_assignee(session, principal, task, member, coworker)
    if "status" in given:
        target = clean_status(given["status"])
        lifecycle.check_move(task.status, target)
        if target != task.status:
            task.status = target
            await _record(session, task, principal, status=target)
    task.updated_at = utcnow()
    await session.flush()
    return task


async def set_archived(
    session: AsyncSession, principal: Principal, task_id: str, *, archived: bool
) -> Task:
    """Idempotent: archiving an archived task (or unarchiving an active one) changes nothing.
    An archived task keeps its project; it only cannot be added to one."""
    _require_user_writer(principal)
    task = await _locked(session, principal, task_id)
    if (task.archived_at is not None) == archived:
        return task
    now = utcnow()
    task.archived_at = now if archived else None
    task.updated_at = now
    await session.flush()
    return task


# ---- people on tasks -----------------------------------------------------------------------


async def _member(session: AsyncSession, principal: Principal, raw: str, field_name: str) -> Any:
    """A person of the workspace (the owner of a personal one, a member of an organization's),
    else 400 naming the field."""
    parsed = parse_uuid(raw.strip())
    member = (
        await repo.workspace_member(session, principal.workspace_id, parsed) if parsed else None
    )
    if member is None:
        raise BadRequest.field(field_name, f"{raw.strip()[:100]} is not a member of this workspace")
    return member


async def _assignee(
    session: AsyncSession, principal: Principal, raw: str, field_name: str
) -> tuple[Any, Coworker | None]:
    """``raw`` names a member of the workspace or a coworker the caller may assign."""
    parsed = parse_uuid(raw.strip())
    member = (
        await repo.workspace_member(session, principal.workspace_id, parsed) if parsed else None
    )
    if member is not None:
        return member, None
    try:
        return None, await _assignable(session, principal, raw, field_name)
    except BadRequest as exc:
        raise BadRequest.field(
            field_name,
            f"{raw.strip()[:100]} is neither a member of this workspace "
            "nor a coworker you may assign",
        ) from exc


def _key(view: AssigneeView | None) -> tuple[str, uuid.UUID] | None:
    return (view.type, view.id) if view else None


def _view_of(member: Any, coworker: Coworker | None) -> AssigneeView | None:
    if member is not None:
        return AssigneeView("user", member.id, member.name)
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


async def _set_assignee(
    session: AsyncSession,
    principal: Principal,
    task: Task,
    member: Any,
    coworker: Coworker | None,
) -> None:
    """One assignee (a member or a coworker, never both); a change is a task event of kind
    ``assignment`` whose ``change`` names the new and the previous assignee. No change, no
    event (a retried request is harmless)."""
    previous = await _current_assignee(session, task)
    new = _view_of(member, coworker)
    if _key(previous) == _key(new):
        return
    task.assignee_user_id = member.id if member is not None else None
    task.coworker_id = coworker.id if coworker is not None else None
    await _record(
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
    _require_user_writer(principal)
    task = await _locked(session, principal, task_id)  # another workspace's task: 404 first
    member, coworker = None, None
    if raw_assignee is not None:
        member, coworker = await _assignee(session, principal, raw_assignee, "assigneeId")
    await _set_assignee(session, principal, task, member, coworker)
    task.updated_at = utcnow()
    await session.flush()
    return task


async def add_participant(
    session: AsyncSession, principal: Principal, task_id: str, raw_user_id: str
) -> Task:
    """A member of the workspace takes part in the task (idempotent); an event of kind
    ``participants`` (``change.added``)."""
    _require_user_writer(principal)
    task = await _locked(session, principal, task_id)
    member = await _member(session, principal, raw_user_id, "userId")
    if not await repo.is_participant(session, task.id, member.id):
        await repo.add_participant(session, task.id, member.id)
        await _record(
            session, task, principal, kind="participants",
            change={"added": {"id": str(member.id), "name": member.name}},
        )  # fmt: skip
        task.updated_at = utcnow()
    await session.flush()
    return task


async def remove_participant(
    session: AsyncSession, principal: Principal, task_id: str, raw_user_id: str
) -> Task:
    """The person no longer takes part (idempotent; someone who is not a participant: no
    change)."""
    _require_user_writer(principal)
    task = await _locked(session, principal, task_id)
    user_id = parse_uuid(raw_user_id.strip())
    if user_id is not None and await repo.is_participant(session, task.id, user_id):
        people = await repo.people(session, [user_id])
        person = people.get(user_id)
        await repo.remove_participant(session, task.id, user_id)
        await _record(
            session, task, principal, kind="participants",
            change={"removed": {"id": str(user_id), "name": person.name if person else ""}},
        )  # fmt: skip
        task.updated_at = utcnow()
    await session.flush()
    return task


async def members(session: AsyncSession, principal: Principal, limit: int = 200) -> list[Any]:
    """The people a task of the caller's workspace may be assigned to (id, name, email)."""
    return await repo.workspace_members(session, principal.workspace_id, limit)


# ---- events and jobs ----------------------------------------------------------------------


async def list_events(
    session: AsyncSession, principal: Principal, task_id: str
) -> list[ShownTaskEvent]:
    task = await get_task(session, principal, task_id)
    return await render_events(session, await repo.events_of(session, [task.id], MAX_EVENTS))


async def add_event(
    session: AsyncSession, principal: Principal, task_id: str, body: TaskEventCreate
) -> ShownTaskEvent:
    """A comment and/or a status move (at least one). AUTHENTICATION_REQUIRED needs an
    authenticationUrl; ``credits`` records what the actor reports (no charge: coworkers charge
    through /coworkers/me/usage)."""
    _may_write(principal)
    if body.status is None and not (body.comment or "").strip():
        raise BadRequest.field("status", "send a status and/or a comment")
    if body.channel and body.origin and body.channel.upper() != body.origin.upper():
        raise BadRequest.field("origin", "differs from channel; send one of them")
    target = clean_status(body.status) if body.status is not None else None
    if target == lifecycle.AUTHENTICATION_REQUIRED and not body.authenticationUrl:
        raise BadRequest.field("authenticationUrl", "is required with AUTHENTICATION_REQUIRED")
    if body.authenticationUrl and not body.authenticationUrl.startswith(("https://", "http://")):
        raise BadRequest.field("authenticationUrl", "must be an http(s) URL")
    credits = None
    if body.credits is not None:
        try:
            credits = to_base(body.credits)
        except ValueError as exc:
            raise BadRequest.field("credits", str(exc)) from exc
    channel = _channel(body.channel or body.origin, "channel")
    task = await _locked(session, principal, task_id)
    if target is not None:
        lifecycle.check_move(task.status, target)
        task.status = target
    task.updated_at = utcnow()
    event = await _record(
        session,
        task,
        principal,
        status=target,
        comment=(body.comment or "").strip() or None,
        credits=credits,
        authentication_url=body.authenticationUrl,
        channel=channel,
        origin=channel,
        metadata=body.metadata,
    )
    await session.flush()
    return (await render_events(session, [event]))[0]


async def list_jobs(
    session: AsyncSession, principal: Principal, task_id: str, settings: Settings
) -> list[ShownJob]:
    task = await get_task(session, principal, task_id)
    rows = await repo.jobs_of(session, [task.id], MAX_JOBS)
    return await jobs_service.shown(session, rows, settings, preview=True, demo=_demo(rows))


def _demo(job_rows: list[Any]) -> set[uuid.UUID]:
    """The demo agents among the rows' (``jobs_of`` reads whether each job's agent is one)."""
    return {row.agent_id for row in job_rows if row.is_demo_agent}


async def create_job(
    session: AsyncSession,
    principal: Principal,
    task_id: str,
    body: TaskJobCreate,
    settings: Settings,
    idempotency_key: str | None = None,
) -> ShownJob:
    """Hire an agent for the task: the job belongs to the task (its credits count there)."""
    task = await get_task(session, principal, task_id)
    created = await jobs_service.create_job(
        session,
        principal,
        body.agentId,
        JobCreate(
            maxAcceptedCredits=body.maxAcceptedCredits,
            maxCredits=body.maxCredits,
            inputData=body.inputData,
            inputSchema=body.inputSchema,
            name=body.name,
            taskId=str(task.id),
        ),
        settings=settings,
        idempotency_key=idempotency_key,
    )
    return created.job
