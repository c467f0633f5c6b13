"""/v1/coworkers and /v1/admin/coworkers (bearer family: Envelope B, Detailed errors).
Decisions: docs/coworkers.md. The events of the tasks assigned to a coworker
(``/v1/coworkers/me/events``) are the tasks domain's (tasks/endpoints.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request, Response

from agora.auth.dependencies import (
    Admin,
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
    CursorQuery,
    LimitQuery,
    Scope,
    UsageCreate,
    UsageOut,
)
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.openapi import errors

router = bearer_router(prefix="/coworkers", tags=["coworkers"])
admin_router = bearer_router(prefix="/admin/coworkers", tags=["admin"])

# A coworker's id (or slug, or name) in the path: anything that names no coworker the caller
# may see answers 404, so it stays a string here and the service looks it up.
CoworkerId = Annotated[str, Path(alias="coworkerId")]


def _one(request: Request, coworker: object) -> EnvelopeB[CoworkerOut]:
    return EnvelopeB[CoworkerOut](data=coworker, meta=meta_b(request))


@router.get("", operation_id="listCoworkers")
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
    found = await service.listing(
        session, principal, scope=scope, capabilities=capability, search=q, limit=limit,
        cursor=cursor,
    )  # fmt: skip
    pagination = {
        "cursor": cursor, "limit": found.limit, "nextCursor": found.next_cursor,
        "hasMore": found.next_cursor is not None,
    }  # fmt: skip
    return EnvelopeB[list[CoworkerOut]](data=found.items, meta=meta_b(request, pagination))


@router.post("", status_code=201, operation_id="registerCoworker")
async def register_coworker(
    body: CoworkerCreate, request: Request, session: SessionDep, principal: ProjectsWriter
) -> EnvelopeB[CoworkerOut]:
    """Register a coworker (PENDING until an admin whitelists it)."""
    return _one(request, await service.register(session, principal, body))


@router.get("/me", operation_id="getCurrentCoworker")
async def get_me(
    request: Request, session: SessionDep, principal: CoworkerKeyDep
) -> EnvelopeB[CoworkerOut]:
    """The coworker of this coworker key (403 for other keys)."""
    return _one(request, await service.me(session, principal))


@router.post(
    "/me/usage", status_code=201, operation_id="chargeCoworkerUsage", openapi_extra=errors(402)
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


@router.get("/{coworkerId}", operation_id="getCoworker")
async def get_coworker(
    coworker_id: CoworkerId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[CoworkerOut]:
    """A coworker by id, slug or name."""
    return _one(request, await service.find(session, principal, coworker_id))


@router.patch("/{coworkerId}", operation_id="updateCoworker")
async def update_coworker(
    coworker_id: CoworkerId,
    body: CoworkerUpdate,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[CoworkerOut]:
    """Change a coworker you own (admins: any)."""
    return _one(request, await service.update(session, principal, coworker_id, body))


@router.post("/{coworkerId}/archive", operation_id="archiveCoworker")
async def archive_coworker(
    coworker_id: CoworkerId, request: Request, session: SessionDep, principal: ProjectsWriter
) -> EnvelopeB[CoworkerOut]:
    """Archive a coworker you own (idempotent)."""
    return _one(request, await service.archive(session, principal, coworker_id))


@router.post(
    "/{coworkerId}/api-keys",
    status_code=201,
    operation_id="createCoworkerApiKey",
    openapi_extra=errors(409),
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
    "/{coworkerId}/whitelist", operation_id="adminWhitelistCoworker", openapi_extra=errors(409)
)
async def whitelist(
    coworker_id: CoworkerId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[CoworkerOut]:
    """Whitelist a coworker: everyone may see it and give it tasks (idempotent)."""
    return _one(request, await service.whitelist(session, coworker_id))


@admin_router.delete("/{coworkerId}/whitelist", operation_id="adminUnwhitelistCoworker")
async def unwhitelist(
    coworker_id: CoworkerId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[CoworkerOut]:
    """Take a coworker off the whitelist (idempotent)."""
    return _one(request, await service.whitelist(session, coworker_id, on=False))
