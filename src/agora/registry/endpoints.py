"""Registry import, admin side (bearer family): the quarantine of entries that did not import."""

from __future__ import annotations

from fastapi import Request

from agora.auth.dependencies import Admin, SessionDep
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.pagination import PageDep
from agora.registry import service
from agora.registry.schemas import QuarantinedOut

router = bearer_router(prefix="/admin/registry", tags=["admin"])


@router.get(
    "/quarantine",
    operation_id="adminRegistryQuarantine",
    response_model=EnvelopeB[list[QuarantinedOut]],
)
async def list_quarantine(
    request: Request, session: SessionDep, _admin: Admin, params: PageDep
) -> EnvelopeB[list[QuarantinedOut]]:
    """Registry entries that could not be imported, with the reason (most recent first)."""
    rows, total = await service.quarantine_page(session, params)
    return EnvelopeB[list[QuarantinedOut]](data=rows, meta=meta_b(request, params.meta(total)))
