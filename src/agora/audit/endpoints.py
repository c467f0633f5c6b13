"""/v1/admin/audit-events (operators: all) and /v1/organizations/{orgId}/audit-events (its
owners and admins: their organization's part; anyone else 404). ``/export`` answers CSV."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query, Request
from fastapi.responses import Response

from agora.audit import service
from agora.audit.schemas import AuditEventOut
from agora.auth.dependencies import Admin, ProfileWriter, SessionDep
from agora.kit.envelopes import EnvelopeA, EnvelopeB, meta_b
from agora.kit.families import bearer_router, key_router
from agora.kit.pagination import PageDep

admin_router = bearer_router(prefix="/admin/audit-events", tags=["admin"])
organization_router = key_router(prefix="/organizations", tags=["organizations"])

ActionQ = Annotated[str | None, Query(max_length=60, description="e.g. key.created")]
ActorQ = Annotated[str | None, Query(alias="actorId", max_length=60, description="a user id")]
TargetQ = Annotated[str | None, Query(alias="targetId", max_length=100)]

_CSV: dict[int | str, dict[str, Any]] = {
    "200": {"content": {"text/csv": {"schema": {"type": "string"}}}}
}


def _csv(body: str, name: str) -> Response:
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@admin_router.get(
    "", operation_id="adminListAuditEvents", response_model=EnvelopeB[list[AuditEventOut]]
)
async def list_all(
    request: Request,
    session: SessionDep,
    _admin: Admin,
    params: PageDep,
    action: ActionQ = None,
    actor_id: ActorQ = None,
    target_id: TargetQ = None,
) -> EnvelopeB[list[AuditEventOut]]:
    """The whole audit log, newest first."""
    rows, total = await service.search_all(
        session,
        service.Filters(action, actor_id, target_id),
        limit=params.limit,
        offset=params.offset,
    )
    return EnvelopeB[list[AuditEventOut]](
        data=[AuditEventOut.model_validate(row) for row in rows],
        meta=meta_b(request, params.meta(total)),
    )


@admin_router.get(
    "/export", operation_id="adminExportAuditEvents", response_class=Response, responses=_CSV
)
async def export_all(
    session: SessionDep,
    _admin: Admin,
    action: ActionQ = None,
    actor_id: ActorQ = None,
    target_id: TargetQ = None,
) -> Response:
    """The audit log as CSV (newest first, at most 10,000 rows)."""
    rows, _total = await service.search_all(
        session, service.Filters(action, actor_id, target_id), limit=service.EXPORT_LIMIT
    )
    return _csv(service.to_csv(rows), "audit.csv")


@organization_router.get(
    "/{orgId}/audit-events",
    response_model=EnvelopeA[list[AuditEventOut]],
    operation_id="listOrganizationAuditEvents",
    openapi_extra={"x-agora-errors": [404]},
)
async def list_organization(
    orgId: str,
    session: SessionDep,
    principal: ProfileWriter,
    params: PageDep,
    action: ActionQ = None,
    actor_id: ActorQ = None,
    target_id: TargetQ = None,
) -> EnvelopeA[list[AuditEventOut]]:
    """What happened in the organization, newest first (owners and admins; others 404)."""
    rows, _total = await service.search_organization(
        session,
        principal,
        orgId,
        service.Filters(action, actor_id, target_id),
        limit=params.limit,
        offset=params.offset,
    )
    return EnvelopeA[list[AuditEventOut]](data=[AuditEventOut.model_validate(r) for r in rows])


@organization_router.get(
    "/{orgId}/audit-events/export",
    response_class=Response,
    responses=_CSV,
    operation_id="exportOrganizationAuditEvents",
    openapi_extra={"x-agora-errors": [404]},
)
async def export_organization(
    orgId: str,
    session: SessionDep,
    principal: ProfileWriter,
    action: ActionQ = None,
    actor_id: ActorQ = None,
    target_id: TargetQ = None,
) -> Response:
    """The organization's audit log as CSV (owners and admins; others 404)."""
    rows, _total = await service.search_organization(
        session,
        principal,
        orgId,
        service.Filters(action, actor_id, target_id),
        limit=service.EXPORT_LIMIT,
    )
    return _csv(service.to_csv(rows), "audit.csv")
