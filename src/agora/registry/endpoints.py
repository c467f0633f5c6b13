"""Registry import, admin side (bearer family): the quarantine of entries that did not import —
list, inspect, retry with the current rules, dismiss (docs/operations.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Request

from agora.accounts import service as accounts
from agora.auth.dependencies import Admin, SessionDep, SettingsDep
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.openapi import errors
from agora.kit.pagination import PageDep
from agora.registry import service
from agora.registry.schemas import DismissedOut, DismissIn, QuarantinedOut, RetriedOut

router = bearer_router(prefix="/admin/registry", tags=["admin"])

# A quarantined entry's id in the path. Ids stay ``str``: a malformed id answers the same 404 as
# an unknown one (ids are opaque); only its first 100 characters are looked up.
EntryId = Annotated[str, Path(alias="entryId")]


@router.get("/quarantine", operation_id="adminRegistryQuarantine")
async def list_quarantine(
    request: Request, session: SessionDep, _admin: Admin, params: PageDep
) -> EnvelopeB[list[QuarantinedOut]]:
    """Registry entries that could not be imported, with the reason (most recent first;
    dismissed entries are not listed)."""
    rows, total = await service.quarantine_page(session, params)
    return EnvelopeB[list[QuarantinedOut]](
        data=[QuarantinedOut.model_validate(row) for row in rows],
        meta=meta_b(request, params.meta(total)),
    )


@router.get(
    "/quarantine/{entryId}", operation_id="adminGetQuarantinedEntry", openapi_extra=errors(404)
)
async def get_quarantined(
    entry_id: EntryId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[QuarantinedOut]:
    """One quarantined entry with the raw entry as the feed gave it."""
    row = await service.get_quarantined(session, entry_id[:100])
    return EnvelopeB[QuarantinedOut](data=QuarantinedOut.model_validate(row), meta=meta_b(request))


@router.post(
    "/quarantine/{entryId}/retry",
    operation_id="adminRetryQuarantinedEntry",
    openapi_extra=errors(404),
)
async def retry_quarantined(
    entry_id: EntryId, request: Request, session: SessionDep, settings: SettingsDep, admin: Admin
) -> EnvelopeB[RetriedOut]:
    """Parse the stored entry with the current rules: imported (a PENDING agent) if it passes
    now, else kept with the new reason. Audited (``registry.retried``)."""
    actor = await accounts.require_operator(session, settings, admin, acting=True)
    done = await service.retry_quarantined(session, settings, actor, entry_id[:100])
    return EnvelopeB[RetriedOut](data=RetriedOut.model_validate(done), meta=meta_b(request))


@router.post(
    "/quarantine/{entryId}/dismiss",
    operation_id="adminDismissQuarantinedEntry",
    openapi_extra=errors(404),
)
async def dismiss_quarantined(
    entry_id: EntryId,
    body: DismissIn,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    admin: Admin,
) -> EnvelopeB[DismissedOut]:
    """Take the entry out of the quarantine with a reason; the next sync leaves the same
    unchanged entry alone (a changed one is quarantined again). Audited (``registry.dismissed``)."""
    actor = await accounts.require_operator(session, settings, admin, acting=True)
    row = await service.dismiss_quarantined(session, actor, entry_id[:100], body.reason)
    return EnvelopeB[DismissedOut](data=DismissedOut.model_validate(row), meta=meta_b(request))
