"""/v1/coworkers and /v1/admin/coworkers (bearer family: Envelope B, Detailed errors).
Decisions: docs/coworkers.md."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request, Response

from agora.auth.dependencies import (
    Admin,
    CoworkerId,
    CoworkerKeyDep,
    ProjectsWriter,
    Reader,
    SessionDep,
    SettingsDep,
)
from agora.coworkers import service
from agora.coworkers.schemas import (
    Capability,
    CoworkerCreate,
    CoworkerKeyCreate,
    CoworkerKeyOut,
    CoworkerOut,
    CoworkerUpdate,
    Scope,
    UsageCreate,
    UsageOut,
)
from agora.kit import wire
from agora.kit.envelopes import EnvelopeB, meta_b, written_b
from agora.kit.families import bearer_router
from agora.tasks import service as tasks
from agora.tasks.schemas import TaskEventOut, event_item

router = bearer_router(prefix="/coworkers", tags=["coworkers"])
admin_router = bearer_router(prefix="/admin/coworkers", tags=["admin"])

LimitQuery = Annotated[int | None, Query(ge=1, le=100, description="Page size (default 20).")]
CursorQuery = Annotated[
    str | None, Query(max_length=100, description="`nextCursor` of the previous page.")
]


@router.get("", response_model=EnvelopeB[list[CoworkerOut]], operation_id="listCoworkers")
async def list_coworkers(
    request: Request,
    session: SessionDep,
    principal: Reader,
    scope: Annotated[
        Scope, Query(description="whitelisted (default), all (also your own), archived")
    ] = "whitelisted",
    capability: Annotated[
        list[Capability] | None, Query(description="chat and/or tasks (repeat the parameter)")
    ] = None,
    q: Annotated[str | None, Query(max_length=200, description="Name contains")] = None,
    limit: LimitQuery = None,
    cursor: CursorQuery = None,
) -> EnvelopeB[list[CoworkerOut]]:
    """Coworkers, oldest first; any of the given capabilities."""
    rows, next_cursor = await service.listing(
        session,
        principal,
        scope=scope,
        capabilities=list(capability or []),
        search=q,
        limit=limit,
        cursor=cursor,
    )
    pagination = {
        "cursor": cursor,
        "limit": service.page_size(limit),
        "nextCursor": next_cursor,
        "hasMore": next_cursor is not None,
    }
    return EnvelopeB[list[CoworkerOut]](data=rows, meta=meta_b(request, pagination))


@router.post(
    "", status_code=201, response_model=EnvelopeB[CoworkerOut], operation_id="registerCoworker"
)
async def register_coworker(
    body: CoworkerCreate, request: Request, session: SessionDep, principal: ProjectsWriter
) -> EnvelopeB[CoworkerOut]:
    """Register a coworker (PENDING until an admin whitelists it)."""
    coworker = await service.register(session, principal, body)
    return EnvelopeB[CoworkerOut](data=coworker, meta=meta_b(request))


@router.get("/me", response_model=EnvelopeB[CoworkerOut], operation_id="getCurrentCoworker")
async def get_me(
    request: Request, session: SessionDep, principal: CoworkerKeyDep
) -> EnvelopeB[CoworkerOut]:
    """The coworker of this coworker key (403 for other keys)."""
    coworker = await service.me(session, principal)
    return EnvelopeB[CoworkerOut](data=coworker, meta=meta_b(request))


@router.get(
    "/me/events", response_model=EnvelopeB[list[TaskEventOut]], operation_id="listCoworkerEvents"
)
async def my_events(
    request: Request,
    session: SessionDep,
    principal: CoworkerKeyDep,
    limit: LimitQuery = None,
    cursor: CursorQuery = None,
) -> Response:
    """Events of the tasks assigned to this coworker (not its own), oldest first. Poll with
    `cursor` = the previous `nextCursor` (it stays valid when there is nothing new)."""
    page = await service.my_events(session, principal, limit=limit, cursor=cursor)
    pagination = {
        "cursor": cursor,
        "limit": service.page_size(limit),
        "nextCursor": page.next_cursor,
        "previousCursor": page.previous_cursor,
        "hasMore": page.has_more,
    }
    events = await tasks.render_events(session, page.events)
    meta = meta_b(request, pagination)
    return wire.answer(
        written_b([event_item(event) for event in events], meta),
        lambda: EnvelopeB[list[TaskEventOut]](data=events, meta=meta),
    )


@router.post(
    "/me/usage",
    status_code=201,
    response_model=EnvelopeB[UsageOut],
    operation_id="chargeCoworkerUsage",
    openapi_extra={"x-agora-errors": [402]},
)
async def charge_usage(
    body: UsageCreate,
    request: Request,
    response: Response,
    session: SessionDep,
    principal: CoworkerKeyDep,
) -> EnvelopeB[UsageOut]:
    """Charge a user's credits for this coworker's work, once per `idempotencyKey` (a replay
    answers 200 with the first charge)."""
    charged = await service.charge_usage(session, principal, body)
    if charged.replayed:
        response.status_code = 200
        response.headers["Idempotent-Replayed"] = "true"
    return EnvelopeB[UsageOut](data=charged.usage, meta=meta_b(request))


@router.get("/{coworkerId}", response_model=EnvelopeB[CoworkerOut], operation_id="getCoworker")
async def get_coworker(
    coworker_id: CoworkerId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[CoworkerOut]:
    """A coworker by id, slug or name."""
    coworker = await service.find(session, principal, coworker_id)
    return EnvelopeB[CoworkerOut](data=coworker, meta=meta_b(request))


@router.patch("/{coworkerId}", response_model=EnvelopeB[CoworkerOut], operation_id="updateCoworker")
async def update_coworker(
    coworker_id: CoworkerId,
    body: CoworkerUpdate,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[CoworkerOut]:
    """Change a coworker you own (admins: any)."""
    coworker = await service.update(session, principal, coworker_id, body)
    return EnvelopeB[CoworkerOut](data=coworker, meta=meta_b(request))


@router.post(
    "/{coworkerId}/archive",
    response_model=EnvelopeB[CoworkerOut],
    operation_id="archiveCoworker",
)
async def archive_coworker(
    coworker_id: CoworkerId, request: Request, session: SessionDep, principal: ProjectsWriter
) -> EnvelopeB[CoworkerOut]:
    """Archive a coworker you own (idempotent)."""
    coworker = await service.archive(session, principal, coworker_id)
    return EnvelopeB[CoworkerOut](data=coworker, meta=meta_b(request))


@router.post(
    "/{coworkerId}/api-keys",
    status_code=201,
    response_model=EnvelopeB[CoworkerKeyOut],
    operation_id="createCoworkerApiKey",
    openapi_extra={"x-agora-errors": [409]},
)
async def create_key(
    coworker_id: CoworkerId,
    body: CoworkerKeyCreate,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
    settings: SettingsDep,
) -> EnvelopeB[CoworkerKeyOut]:
    """A coworker key bound to the current workspace (the token is shown once)."""
    issued = await service.issue_key(session, principal, coworker_id, body, settings)
    return EnvelopeB[CoworkerKeyOut](data=issued, meta=meta_b(request))


@admin_router.post(
    "/{coworkerId}/whitelist",
    response_model=EnvelopeB[CoworkerOut],
    operation_id="adminWhitelistCoworker",
    openapi_extra={"x-agora-errors": [409]},
)
async def whitelist(
    coworker_id: CoworkerId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[CoworkerOut]:
    """Whitelist a coworker: everyone may see it and give it tasks (idempotent)."""
    coworker = await service.whitelist(session, coworker_id)
    return EnvelopeB[CoworkerOut](data=coworker, meta=meta_b(request))


@admin_router.delete(
    "/{coworkerId}/whitelist",
    response_model=EnvelopeB[CoworkerOut],
    operation_id="adminUnwhitelistCoworker",
)
async def unwhitelist(
    coworker_id: CoworkerId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[CoworkerOut]:
    """Take a coworker off the whitelist (idempotent)."""
    coworker = await service.whitelist(session, coworker_id, on=False)
    return EnvelopeB[CoworkerOut](data=coworker, meta=meta_b(request))
