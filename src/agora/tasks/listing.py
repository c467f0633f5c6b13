"""Listing tasks (GET /v1/tasks, the list_tasks tool, the task and project pages): the filters
from a request, checked once here, a page by number or by a signed cursor, and the snapshots of
the page. The WHERE is built in the repository. A coworker key sees only the tasks assigned to
its coworker; a user key its own (``scope=owned``) or the workspace's."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal, coworker_of
from agora.coworkers import service as coworkers
from agora.kit.cursors import CursorSigner, binding_of
from agora.kit.errors import BadRequest
from agora.kit.ids import parse_uuid
from agora.kit.pagination import MAX_LIMIT, PageParams
from agora.settings import Settings
from agora.tasks import repository as repo
from agora.tasks.access import clean_status, require_acting_coworker
from agora.tasks.schemas import TaskScope
from agora.tasks.views import TaskSnapshot, render

Archived = Literal["false", "true", "all"]
SCOPES: tuple[TaskScope, ...] = ("owned", "workspace")
CURSOR_MAX_AGE = 15 * 60


@dataclass(frozen=True)
class TaskQuery:
    """What a listing asks for, as the request gave it (``status``: comma-separated;
    ``project_id``: an id or ``null``; ``assignee_id``: ``me`` or a member's id;
    ``coworker``: a coworker's id, slug or name, the tool's way to name one)."""

    status: str | None = None
    project_id: str | None = None
    archived: Archived = "false"
    q: str | None = None
    scope: str = "owned"
    coworker_id: str | None = None
    coworker: str | None = None
    assignee_id: str | None = None
    cursor: str | None = None


@dataclass(frozen=True)
class TaskFilters:
    statuses: list[str]
    project: str | None  # a project id, "null" for unassigned, None for any
    archived: Archived = "false"
    q: str | None = None
    scope: TaskScope = "owned"
    coworker_id: uuid.UUID | None = None
    assignee: str | None = None  # "me" or a member's id: the tasks assigned to that person


@dataclass(frozen=True)
class TaskPage:
    items: list[TaskSnapshot]
    total: int
    paging: PageParams  # the page answered (a cursor's page when one was given)
    next_cursor: str | None


def _where(principal: Principal, filters: TaskFilters) -> repo.TaskWhere:
    """The repository's filters."""
    project_id: uuid.UUID | None = None
    if filters.project not in (None, "null"):
        project_id = parse_uuid(filters.project)
        if project_id is None:
            raise BadRequest.field("query.projectId", "must be a project id or the literal null")
    acting = coworker_of(principal)
    owned = acting is None and filters.scope == "owned" and filters.assignee is None
    assignee: uuid.UUID | None = None
    if filters.assignee == "me":
        assignee = principal.user_id
    elif filters.assignee is not None:
        assignee = parse_uuid(filters.assignee)
    return repo.TaskWhere(
        statuses=filters.statuses,
        project_id=project_id,
        unassigned=filters.project == "null",
        archived=filters.archived,
        creator_id=principal.user_id if owned else None,
        coworker_ids=[c for c in (acting, filters.coworker_id) if c is not None],
        name_contains=filters.q,
        assignee_user_id=assignee,
    )


def _scope(value: str) -> TaskScope:
    for scope in SCOPES:
        if value == scope:
            return scope
    raise BadRequest.field("scope", "must be owned or workspace")


def _assignee(value: str | None) -> str | None:
    assignee = (value or "").strip() or None
    if assignee is not None and assignee.lower() == "me":
        return "me"
    if assignee is not None and parse_uuid(assignee) is None:
        raise BadRequest.field("query.assigneeId", "must be me or a member's user id")
    return assignee


async def _coworker(
    session: AsyncSession, principal: Principal, query: TaskQuery
) -> uuid.UUID | None:
    """The coworker the tasks are assigned to: by id, or (the tool's) by id, slug or name."""
    coworker: uuid.UUID | None = None
    if query.coworker_id:
        coworker = parse_uuid(query.coworker_id.strip())
        if coworker is None:
            raise BadRequest.field("query.coworkerId", "must be a coworker id")
    if query.coworker is not None:
        found = await coworkers.find(session, principal, query.coworker)
        if query.coworker_id is not None and coworker != found.id:
            raise BadRequest.field("coworker", "differs from coworker_id; send one of them")
        coworker = found.id
    return coworker


async def filters_of(session: AsyncSession, principal: Principal, query: TaskQuery) -> TaskFilters:
    """The query checked: each problem a 400 naming its parameter."""
    scope = _scope(query.scope)
    statuses = [
        clean_status(s, "query.status") for s in (query.status or "").split(",") if s.strip()
    ]
    assignee = _assignee(query.assignee_id)
    return TaskFilters(
        statuses,
        query.project_id.strip() if query.project_id else None,
        query.archived,
        (query.q or "").strip() or None,
        scope,
        await _coworker(session, principal, query),
        assignee,
    )


def _signer(settings: Settings) -> CursorSigner:
    return CursorSigner(
        settings.resolved_secret_key(), purpose="tasks", max_age_seconds=CURSOR_MAX_AGE
    )


def _binding(principal: Principal, filters: TaskFilters) -> str:
    return binding_of(str(principal.key_id), str(principal.workspace_id), filters)


def _paging(
    settings: Settings,
    principal: Principal,
    filters: TaskFilters,
    cursor: str | None,
    paging: PageParams,
) -> PageParams:
    """A ``cursor`` (from ``nextCursor``) wins over ``page``: it is an offset, signed and bound
    to the caller and the filters."""
    if not 1 <= paging.limit <= MAX_LIMIT:
        raise BadRequest.field("limit", f"must be between 1 and {MAX_LIMIT}")
    if not cursor:
        return paging
    position = _signer(settings).decode(cursor, _binding(principal, filters))
    if len(position) != 1 or not isinstance(position[0], int) or position[0] < 0:
        raise BadRequest.field("cursor", "restart from the first page without a cursor")
    return PageParams(position[0] // paging.limit + 1, paging.limit)


def _next_cursor(
    settings: Settings, principal: Principal, filters: TaskFilters, paging: PageParams, total: int
) -> str | None:
    end = paging.offset + paging.limit
    if end >= total:
        return None
    return _signer(settings).encode([end], _binding(principal, filters))


async def list_tasks(
    session: AsyncSession,
    principal: Principal,
    query: TaskQuery,
    paging: PageParams,
    settings: Settings,
    *,
    jobs: bool = True,
) -> TaskPage:
    """A page of the tasks the query names, most recently updated first; with ``jobs`` each
    snapshot shows its jobs (results as previews)."""
    filters = await filters_of(session, principal, query)
    paging = _paging(settings, principal, filters, query.cursor, paging)
    await require_acting_coworker(session, principal)
    where = _where(principal, filters)
    tasks, total = await repo.listing(
        session, principal.workspace_id, where, offset=paging.offset, limit=paging.limit
    )
    items = await render(session, tasks, settings if jobs else None, preview=True)
    next_cursor = _next_cursor(settings, principal, filters, paging, total)
    return TaskPage(items, total, paging, next_cursor)
