"""The history feed (interface §4.2, DESIGN §3; decisions in docs/history.md).

Order: ``updatedAt`` descending, then ``id`` descending. Each kind's newest rows after the
position (limit + 1, its own keyset range scan) are merged by the database in one UNION ALL
statement, with each task's spend, so a page costs one statement however deep it is.
``status`` semantics (rules 1 to 5): task/job statuses select tasks and jobs; ``active``
and ``archived`` select conversations (and ``archived`` also shows archived tasks); a ``status``
naming no conversation state excludes conversations, one naming only conversation states excludes
tasks and jobs; no ``status`` at all shows everything that is not archived.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Permission, Principal
from agora.history import repository as repo
from agora.history.schemas import (
    ConversationItem,
    HistoryItem,
    HistoryPage,
    HistoryPagination,
    WorkItem,
)
from agora.kit.cursors import CursorSigner, binding_of
from agora.kit.errors import BadRequest
from agora.kit.ids import parse_uuid
from agora.kit.timeutil import isoformat, parse_isoformat
from agora.models.statuses import ConversationState

KINDS = ("task", "job", "conversation")
SCOPES = ("owned", "workspace")
CONVERSATION_STATES = frozenset(ConversationState)
CURSOR_MAX_AGE_SECONDS = 15 * 60
MAX_Q = 200


@dataclass(frozen=True)
class FeedQuery:
    cursor: str | None = None
    limit: int = 20
    scope: str = "owned"
    types: str | None = None
    status: str | None = None
    project_id: str | None = None
    q: str | None = None


@dataclass(frozen=True)
class _Filters:
    kinds: frozenset[str]
    statuses: frozenset[str]  # task/job statuses, upper case
    states: frozenset[str]  # conversation states named in ``status``
    status_given: bool
    project: uuid.UUID | None
    unassigned: bool
    q: str | None

    def key(self) -> list[Any]:
        return [
            sorted(self.kinds),
            sorted(self.statuses),
            sorted(self.states),
            self.status_given,
            str(self.project) if self.project else None,
            self.unassigned,
            self.q,
        ]


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def _parse(query: FeedQuery) -> _Filters:
    if not 1 <= query.limit <= 100:
        raise BadRequest.field("limit", "must be between 1 and 100")
    if query.scope not in SCOPES:
        raise BadRequest.field("scope", "must be 'owned' or 'workspace'")
    kinds = _split(query.types) if query.types is not None else list(KINDS)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise BadRequest.field("types", "a comma-separated subset of task, job, conversation")
    statuses: set[str] = set()
    states: set[str] = set()
    if query.status is not None:
        parts = _split(query.status)
        if not parts:
            raise BadRequest.field("status", "must name at least one status")
        for part in parts:
            if part.lower() in CONVERSATION_STATES:
                states.add(part.lower())
            elif len(part) <= 40 and part.replace("_", "").isalnum():
                statuses.add(part.upper())
            else:
                raise BadRequest.field("status", f"'{part[:40]}' is not a status")
    project: uuid.UUID | None = None
    unassigned = False
    if query.project_id is not None:
        if query.project_id == "null":
            unassigned = True
        else:
            project = parse_uuid(query.project_id)
            if project is None:
                raise BadRequest.field("projectId", "must be a project id (UUID) or 'null'")
    q = query.q.strip() if query.q is not None else None
    if q is not None and len(q) > MAX_Q:
        raise BadRequest.field("q", f"at most {MAX_Q} characters")
    return _Filters(
        frozenset(kinds),
        frozenset(statuses),
        frozenset(states),
        query.status is not None,
        project,
        unassigned,
        q or None,
    )


async def read_feed(
    session: AsyncSession, principal: Principal, query: FeedQuery, secret: str
) -> HistoryPage:
    """One page of the caller's feed in the current workspace."""
    principal.require(Permission.READ)
    f = _parse(query)
    signer = CursorSigner(secret, purpose="history", max_age_seconds=CURSOR_MAX_AGE_SECONDS)
    binding = binding_of(principal.user_id, principal.workspace_id, query.scope, f.key())
    position: tuple[datetime, uuid.UUID] | None = None
    if query.cursor:
        raw = signer.decode(query.cursor, binding)
        when, last_id = None, None
        if len(raw) == 2 and all(isinstance(v, str) for v in raw):
            when, last_id = parse_isoformat(raw[0]), parse_uuid(raw[1])
        if when is None or last_id is None:
            raise BadRequest.field("cursor", "is malformed; restart from the first page")
        position = (when, last_id)

    feed = repo.FeedFilter(
        workspace_id=principal.workspace_id,
        user_id=principal.user_id,
        owned=query.scope == "owned",
        position=position,
        statuses=f.statuses,
        project=f.project,
        unassigned=f.unassigned,
        q=f.q,
    )
    wanted_items = not f.status_given or bool(f.statuses)
    no_project_filter = f.project is None and not f.unassigned
    kinds = repo.Kinds(
        tasks="task" in f.kinds and wanted_items,
        jobs="job" in f.kinds and wanted_items,
        conversations="conversation" in f.kinds
        and no_project_filter
        and (not f.status_given or bool(f.states)),
        include_archived=ConversationState.ARCHIVED in f.states,
        states=f.states,
    )
    rows = await repo.feed_rows(session, feed, kinds, limit=query.limit + 1)
    page, has_more = rows[: query.limit], len(rows) > query.limit
    items = [_item(row) for row in page]
    cursor = None
    if has_more and page:
        last = page[-1]
        cursor = signer.encode([isoformat(last.updated_at), str(last.id)], binding)
    return HistoryPage(
        items=items,
        pagination=HistoryPagination(cursor=cursor, hasMore=has_more, limit=query.limit),
    )


def _item(row: repo.Row) -> HistoryItem:
    if row.kind == "conversation":
        return ConversationItem.model_validate(row)
    return WorkItem.model_validate(row)
