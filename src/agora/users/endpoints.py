"""/v1/users/me (key family: Envelope A, Simple errors)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Path, Request
from fastapi.responses import StreamingResponse

from agora.accounts.dependencies import ContextDep
from agora.auth.dependencies import PrincipalDep, ProfileWriter, Reader, SessionDep, public
from agora.coworkers import service as coworkers
from agora.files import service as files
from agora.kit.envelopes import EnvelopeA
from agora.kit.families import key_router
from agora.kit.openapi import errors
from agora.models import AccountDeletion
from agora.users import privacy, service
from agora.users.schemas import (
    AccountDeletionOut,
    DataExportOut,
    DownloadIn,
    ProfileUpdate,
    UserOut,
)

router = key_router(prefix="/users", tags=["users"])
# Ids stay ``str`` in the path: a malformed id answers the same 404 as an unknown one.
UserId = Annotated[str, Path(alias="userId")]


@router.get("/me", operation_id="getCurrentUser")
async def get_me(session: SessionDep, principal: PrincipalDep) -> EnvelopeA[UserOut]:
    """The authenticated user's profile."""
    user = await service.get_profile(session, principal.user_id)
    return EnvelopeA[UserOut](data=user)


@router.put("/me", operation_id="replaceCurrentUser")
async def put_me(
    body: ProfileUpdate, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[UserOut]:
    """Replace the editable profile. Omitted opt-ins revert to false; an omitted name is kept."""
    user = await service.replace_profile(session, principal.user_id, body)
    return EnvelopeA[UserOut](data=user)


@router.patch("/me", operation_id="updateCurrentUser")
async def patch_me(
    body: ProfileUpdate, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[UserOut]:
    """Change only the given fields."""
    user = await service.update_profile(session, principal.user_id, body)
    return EnvelopeA[UserOut](data=user)


@router.get("/{userId}", operation_id="getUser")
async def get_user(
    user_id: UserId, session: SessionDep, principal: PrincipalDep
) -> EnvelopeA[UserOut]:
    """A user: yourself, or, with a coworker key, a user whose task the coworker works on.
    Anyone else: 404."""
    user = await coworkers.visible_user(session, principal, user_id)
    return EnvelopeA[UserOut](data=user)


# ---- your data (docs/accounts.md, "Your data", "Deleting your account") -----------------------


def _deletion(row: AccountDeletion | None) -> EnvelopeA[AccountDeletionOut]:
    if row is None:
        return EnvelopeA[AccountDeletionOut](data=AccountDeletionOut(state="none"))
    return EnvelopeA[AccountDeletionOut](data=AccountDeletionOut.model_validate(row))


@router.post("/me/data-exports", status_code=202, operation_id="requestDataExport")
async def request_data_export(
    session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[DataExportOut]:
    """Export everything Agora holds about you: a ZIP of JSON files, built in the background
    and mailed to you as a one-time link (the pending export if one is under way)."""
    row = await privacy.request_export(session, principal)
    return EnvelopeA[DataExportOut](data=DataExportOut.model_validate(row))


@router.get("/me/data-exports", operation_id="listDataExports")
async def list_data_exports(
    session: SessionDep, principal: Reader
) -> EnvelopeA[list[DataExportOut]]:
    """Your latest data exports, newest first."""
    rows = await privacy.list_exports(session, principal)
    return EnvelopeA[list[DataExportOut]](data=[DataExportOut.model_validate(r) for r in rows])


@router.post(
    "/me/data-exports/download",
    operation_id="downloadDataExport",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/zip": {}}, "description": "The ZIP"}},
)
async def download_data_export(
    body: DownloadIn, request: Request, session: SessionDep, principal: ProfileWriter
) -> StreamingResponse:
    """The ZIP, with the token of the mailed link: once, by the person it was made for."""
    taken = await privacy.take_export(session, principal, body.token)
    storage = files.storage_for(request.app.state.settings)
    return zip_response(storage.read(taken.key), taken.size, taken.filename)


def zip_response(chunks: AsyncIterator[bytes], size: int, filename: str) -> StreamingResponse:
    return StreamingResponse(
        chunks,
        media_type="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Content-Length": str(size),
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )


@router.get("/me/deletion", operation_id="getAccountDeletion")
async def get_account_deletion(
    session: SessionDep, principal: Reader
) -> EnvelopeA[AccountDeletionOut]:
    """Whether your account is to be deleted, and when."""
    return _deletion(await privacy.deletion_status(session, principal))


@router.post(
    "/me/deletion",
    status_code=202,
    operation_id="requestAccountDeletion",
    openapi_extra=errors(409),
)
async def request_account_deletion(
    session: SessionDep, principal: ProfileWriter, ctx: ContextDep
) -> EnvelopeA[AccountDeletionOut]:
    """Ask to delete your account: a mail asks you to confirm. 409 while you are the only
    owner of an organization (make another member an owner first)."""
    row = await privacy.request_deletion(session, principal, ctx.settings, ctx.mailer)
    return _deletion(row)


@router.post("/me/deletion/confirm", operation_id="confirmAccountDeletion")
@public
async def confirm_account_deletion(
    body: DownloadIn, session: SessionDep, ctx: ContextDep
) -> EnvelopeA[AccountDeletionOut]:
    """Confirm with the mailed token: the account is erased after the grace period
    (AGORA_ACCOUNT_DELETION_GRACE_DAYS) and you are signed out everywhere; signing in before
    then cancels it."""
    return _deletion(await privacy.confirm_deletion(session, body.token, ctx.settings, ctx.mailer))


@router.delete("/me/deletion", operation_id="cancelAccountDeletion")
async def cancel_account_deletion(
    session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[AccountDeletionOut]:
    """Cancel a pending deletion (404 when none is pending)."""
    return _deletion(await privacy.cancel_deletion(session, principal))
