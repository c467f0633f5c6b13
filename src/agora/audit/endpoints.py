"""/v1/admin/audit-events (operators: all) and /v1/organizations/{orgId}/audit-events (its
owners and admins: their organization's part; anyone else 404). ``/export`` answers CSV."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Query, Request
from fastapi.responses import Response

from agora.audit import service
from agora.audit.export import csv_download
from agora.audit.schemas import AuditEventOut
from agora.auth.dependencies import Admin, ProfileWriter, SessionDep
from agora.kit.csvexport import CSV_ANSWER
from agora.kit.envelopes import EnvelopeA, EnvelopeB, meta_b
from agora.kit.families import bearer_router, key_router
from agora.kit.openapi import errors
from agora.kit.pagination import PageDep

admin_router = bearer_router(prefix="/admin/audit-events", tags=["admin"])
organization_router = key_router(prefix="/organizations", tags=["organizations"])

# The organization's id stays ``str`` in the path: a malformed id answers the same 404 as an
# unknown one (or one whose log the caller may not read).
OrgId = Annotated[str, Path(alias="orgId")]
ActionQ = Annotated[str | None, Query(max_length=60, description="e.g. key.created")]
ActorQ = Annotated[str | None, Query(alias="actorId", max_length=60, description="a user id")]
TargetQ = Annotated[str | None, Query(alias="targetId", max_length=100)]


async def _filters(
    action: ActionQ = None, actor_id: ActorQ = None, target_id: TargetQ = None
) -> service.Filters:
    return service.Filters(action, actor_id, target_id)


FiltersDep = Annotated[service.Filters, Depends(_filters)]


@admin_router.get("", operation_id="adminListAuditEvents")
async def list_all(
    request: Request, session: SessionDep, _admin: Admin, filters: FiltersDep, params: PageDep
) -> EnvelopeB[list[AuditEventOut]]:
    """The whole audit log, newest first."""
    rows, total = await service.search_all(
        session, filters, limit=params.limit, offset=params.offset
    )
    return EnvelopeB[list[AuditEventOut]](data=rows, meta=meta_b(request, params.meta(total)))


@admin_router.get(
    "/export", operation_id="adminExportAuditEvents", response_class=Response, responses=CSV_ANSWER
)
async def export_all(session: SessionDep, _admin: Admin, filters: FiltersDep) -> Response:
    """The audit log as CSV (newest first, at most 10,000 rows)."""
    rows, _total = await service.search_all(session, filters, limit=service.EXPORT_LIMIT)
    return csv_download(rows)


@organization_router.get(
    "/{orgId}/audit-events",
    operation_id="listOrganizationAuditEvents",
    openapi_extra=errors(404),
)
async def list_organization(
    org_id: OrgId,
    session: SessionDep,
    principal: ProfileWriter,
    filters: FiltersDep,
    params: PageDep,
) -> EnvelopeA[list[AuditEventOut]]:
    """What happened in the organization, newest first (owners and admins; others 404)."""
    rows, _total = await service.search_organization(
        session, principal, org_id, filters, limit=params.limit, offset=params.offset
    )
    return EnvelopeA[list[AuditEventOut]](data=rows)


@organization_router.get(
    "/{orgId}/audit-events/export",
    response_class=Response,
    responses=CSV_ANSWER,
    operation_id="exportOrganizationAuditEvents",
    openapi_extra=errors(404),
)
async def export_organization(
    org_id: OrgId, session: SessionDep, principal: ProfileWriter, filters: FiltersDep
) -> Response:
    """The organization's audit log as CSV (owners and admins; others 404)."""
    rows, _total = await service.search_organization(
        session, principal, org_id, filters, limit=service.EXPORT_LIMIT
    )
    return csv_download(rows)
