"""What the task answers read: a task's snapshot (its credits, workspace, people, coworker, jobs,
events, links and files) and its events with their actors, built for a whole page in a bounded
number of queries. ``TaskOut`` and ``TaskEventOut`` (tasks/schemas.py) read these views."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from agora.files import attachments
from agora.jobs import service as jobs_service
from agora.jobs.service import ShownJob
from agora.kit.schemas import RowView
from agora.models import Coworker, Organization, Task, TaskEvent, User, Workspace
from agora.models.statuses import TaskActorType
from agora.settings import Settings
from agora.tasks import repository as repo

MAX_EVENTS = 200  # per task in a snapshot
MAX_JOBS = 100  # per task in a snapshot


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


def _grouped(rows: list[Any], key: str) -> dict[Any, list[Any]]:
    """The rows by their ``key`` attribute, in order (each task's, once for the page)."""
    groups: dict[Any, list[Any]] = {}
    for row in rows:
        groups.setdefault(getattr(row, key), []).append(row)
    return groups


async def jobs_of(session: AsyncSession, task_ids: list[uuid.UUID], limit: int) -> list[Any]:
    """The tasks' job rows, each knowing whether its agent is a demo agent."""
    return await repo.jobs_of(session, task_ids, limit, jobs_service.DEMO_AGENT_PATH)


async def shown_jobs(
    session: AsyncSession, job_rows: list[Any], settings: Settings, *, preview: bool
) -> list[ShownJob]:
    """The job rows as the jobs domain shows them (the demo agents among them already read)."""
    demo = {row.agent_id for row in job_rows if row.is_demo_agent}
    return await jobs_service.shown(session, job_rows, settings, preview=preview, demo=demo)


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
    job_rows = await jobs_of(session, ids, MAX_JOBS * max(1, len(ids)))
    shown = (
        await shown_jobs(session, job_rows, settings, preview=preview)
        if settings and job_rows
        else []
    )
    users = await repo.people(
        session,
        [t.creator_id for t in tasks]
        + [t.assignee_user_id for t in tasks]
        + [e.actor_user_id for e in events],
    )
    participants = _grouped(await repo.participants_of(session, ids), "task_id")
    coworkers = await repo.coworker_refs(
        session, [t.coworker_id for t in tasks] + [e.actor_coworker_id for e in events]
    )
    workspaces = await repo.workspace_refs(session, [t.workspace_id for t in tasks])
    orgs = await repo.organization_refs(session, [w.organization_id for w in workspaces.values()])
    # Each task's events and jobs, grouped once for the page (not one scan per task).
    events_by_task = {
        task_id: [_shown_event(e, users, coworkers) for e in rows]
        for task_id, rows in _grouped(events, "task_id").items()
    }
    rows_by_task = _grouped(job_rows, "task_id")
    jobs_by_task: dict[uuid.UUID | None, list[ShownJob]] = {}
    for job in shown:
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
