"""GET /v1/history (bearer family; the body keeps the interface's own shape, no Envelope B)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query

from agora.auth.dependencies import PrincipalDep, SessionDep, SettingsDep
from agora.history import service
from agora.history.schemas import HistoryPage
from agora.kit.families import bearer_router

router = bearer_router(tags=["history"])


@router.get("/history", response_model=HistoryPage, operation_id="getHistory")
async def get_history(
    session: SessionDep,
    principal: PrincipalDep,
    settings: SettingsDep,
    cursor: Annotated[
        str | None, Query(max_length=2000, description="Opaque cursor from the previous page")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="Items per page (1 to 100)")] = 20,
    scope: Annotated[
        str, Query(description="owned (items you created) or workspace (conversations stay yours)")
    ] = "owned",
    types: Annotated[
        str | None, Query(max_length=100, description="Comma-separated: task, job, conversation")
    ] = None,
    status: Annotated[
        str | None,
        Query(
            max_length=500,
            description="Comma-separated task/job statuses and/or conversation states "
            "(active, archived); conversations appear only when a state is named",
        ),
    ] = None,
    projectId: Annotated[
        str | None, Query(max_length=100, description="A project id, or 'null' for unassigned")
    ] = None,
    q: Annotated[
        str | None,
        Query(max_length=200, description="Case-insensitive search in title/description"),
    ] = None,
) -> HistoryPage:
    """One time-ordered page across tasks, jobs and conversations (newest change first)."""
    query = service.FeedQuery(cursor, limit, scope, types, status, projectId, q)
    return await service.read_feed(session, principal, query, settings.resolved_secret_key())
