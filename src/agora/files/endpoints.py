"""File endpoints (key family: Envelope A, Simple errors). Decisions: docs/files.md."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path, Query, Request, Response

from agora.auth.dependencies import JobsWriter, Reader, SessionDep, SettingsDep, UnitDep, public
from agora.files import service
from agora.files.schemas import FileOut, FilePage, file_json
from agora.files.serving import file_response
from agora.kit import wire
from agora.kit.envelopes import EnvelopeA, written_a
from agora.kit.families import key_router
from agora.kit.openapi import errors
from agora.kit.units import Mode, mode, streams_body
from agora.settings import Settings

router = key_router(tags=["files"])

# A file id in the path stays ``str``: the service parses it, so a malformed id answers the same
# 404 as an unknown one (or another workspace's).
FileId = Annotated[str, Path(alias="fileId")]
# How both downloads are documented: the bytes (206 for a range), 416 for a range out of bounds.
_DOWNLOAD: dict[str, Any] = {
    "response_class": Response,
    "responses": {
        200: {
            "description": "The file's bytes (206 for a range).",
            "content": {
                "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
            },
        }
    },
    "openapi_extra": errors(416),
}
_REDIRECTED: dict[str, Any] = {
    **_DOWNLOAD,
    "responses": {
        **_DOWNLOAD["responses"],
        307: {
            "description": "On S3 storage: the bytes are at the `Location`, a presigned URL "
            "valid for AGORA_STORAGE_S3_PRESIGN_SECONDS."
        },
    },
}
_UPLOAD_BODY = {
    "required": True,
    "content": {
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "required": ["file"],
                "properties": {"file": {"type": "string", "format": "binary"}},
            }
        }
    },
}


@router.post(
    "/files",
    status_code=201,
    operation_id="uploadFile",
    openapi_extra={**errors(408, 413, 415), "requestBody": _UPLOAD_BODY},
)
@mode(Mode.CALLS_OUT)
@streams_body
async def upload_file(
    request: Request, unit: UnitDep, principal: JobsWriter, settings: SettingsDep
) -> EnvelopeA[FileOut]:
    """Upload one file (multipart/form-data, part `file`). It streams to storage, bounded per
    file and by the workspace's quota (413); its type is sniffed from its content and must be
    on the operator's allow-list (415). Use its id where an agent's schema says `file`."""
    storage = service.storage_for(settings)
    allowance = await service.upload_allowance(await unit.session(), principal, settings)
    uploaded = await unit.call_out(
        service.receive_upload(
            storage,
            request.stream(),
            request.headers.get("content-type", ""),
            workspace_id=principal.workspace_id,
            allowance=allowance,
            settings=settings,
        )
    )
    session = await unit.write()
    row = await service.record_upload(
        session, principal, uploaded, settings=settings, storage=storage
    )
    return EnvelopeA[FileOut](data=FileOut.model_validate(row))


@router.get("/files", response_model=FilePage, operation_id="listFiles")
async def list_files(
    session: SessionDep,
    principal: Reader,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int | None, Query(ge=1, le=100)] = None,
) -> Response:
    """The workspace's files (uploads and jobs' output files), newest first."""
    page = await service.list_files(session, principal, cursor=cursor, limit=limit)
    return wire.answer(
        written_a([file_json(row) for row in page.files], None, nextCursor=page.next_cursor),
        lambda: FilePage(
            data=[FileOut.model_validate(row) for row in page.files], nextCursor=page.next_cursor
        ),
    )


@router.get("/files/{fileId}", operation_id="getFile")
async def get_file(file_id: FileId, session: SessionDep, principal: Reader) -> EnvelopeA[FileOut]:
    """One file of the workspace (another workspace's id answers 404)."""
    return EnvelopeA[FileOut](
        data=FileOut.model_validate(await service.get_file(session, principal, file_id))
    )


@router.get("/files/{fileId}/content", operation_id="downloadFile", **_REDIRECTED)
async def download_file(
    file_id: FileId,
    request: Request,
    session: SessionDep,
    principal: Reader,
    settings: SettingsDep,
) -> Response:
    """The file's bytes: `attachment` unless an allow-listed preview type, with ETag and
    ranges. On S3 storage a GET answers 307 to a short-lived presigned URL of the bucket."""
    row = await service.get_file(session, principal, file_id)
    return _serve(request, row, settings, redirect=True)


@router.get("/files/{fileId}/signed", operation_id="downloadSignedFile", **_DOWNLOAD)
@public
async def download_signed_file(
    file_id: FileId,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    expires: Annotated[int, Query(ge=0, le=2**40)],
    signature: Annotated[str, Query(max_length=100)],
) -> Response:
    """The file a signed, expiring URL names (what agents receive for a `file` input; the web
    app's previews). A wrong or expired signature answers 404."""
    row = await service.file_for_signature(session, settings, file_id, expires, signature)
    return _serve(request, row, settings)


@router.delete(
    "/files/{fileId}",
    status_code=204,
    operation_id="deleteFile",
    response_class=Response,
)
async def delete_file(
    file_id: FileId, session: SessionDep, principal: JobsWriter, settings: SettingsDep
) -> Response:
    """Delete a file (its bytes go once the deletion commits)."""
    await service.delete_file(session, principal, file_id, storage=service.storage_for(settings))
    return Response(status_code=204)


def _serve(
    request: Request, row: service.StoredFile, settings: Settings, *, redirect: bool = False
) -> Response:
    return file_response(
        service.storage_for(settings),
        row,
        settings,
        method=request.method,
        range_header=request.headers.get("range"),
        if_none_match=request.headers.get("if-none-match"),
        if_range=request.headers.get("if-range"),
        redirect=redirect,
    )
