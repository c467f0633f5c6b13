"""The rules of files (docs/files.md): uploads bounded per file and per workspace, types sniffed
and allow-listed, workspace isolation, signed URLs for agents, files of a job, deletion."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import time
import uuid
from collections.abc import AsyncIterable, AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode, urlsplit

from itsdangerous import Signer
from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Permission, Principal
from agora.files import repository as repo
from agora.files.content import (
    Meter,
    MultipartFile,
    Received,
    parse_types,
    safe_name,
    upload_refused,
    upload_too_large,
)
from agora.files.storage import Storage, storage_from_settings
from agora.kit.db import on_commit
from agora.kit.errors import BadRequest, FieldError, NotFound, PayloadTooLarge, RequestTimeout
from agora.kit.ids import fetch_by_id, parse_uuid, uuid7
from agora.kit.outbound import (
    OutboundError,
    OutboundPolicy,
    OutboundRefused,
    OutboundTooLarge,
    guarded_client,
    send_limited,
)
from agora.kit.timeutil import utcnow
from agora.mip003.validation import file_fields
from agora.models import StoredFile
from agora.models.statuses import FileState
from agora.settings import Settings

__all__ = ["StoredFile"]

MAX_PAGE = 100
_storages: dict[tuple[str, ...], Storage] = {}


def storage_for(settings: Settings) -> Storage:
    """One backend per storage configuration (an S3 client is built once per process)."""
    key = (
        str(settings.data_dir),
        settings.storage.url,
        settings.storage.s3_endpoint,
        settings.storage.s3_region,
        settings.storage.s3_access_key,
        str(settings.storage.s3_presign_seconds),
    )
    found = _storages.get(key)
    if found is None:
        found = _storages[key] = storage_from_settings(settings)
    return found


def storage_key(workspace_id: uuid.UUID, file_id: uuid.UUID) -> str:
    return f"{workspace_id}/{file_id}"


# ---- uploads -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Uploaded:
    file_id: uuid.UUID
    key: str
    received: Received


@dataclass(frozen=True)
class Allowance:
    limit: int
    by_quota: bool  # the workspace's quota, not the per-file limit, sets it


async def upload_allowance(
    session: AsyncSession, principal: Principal, settings: Settings
) -> Allowance:
    """The bytes the caller's next upload may take: the per-file limit, or what is left of the
    workspace's quota if that is less (413 when nothing is left)."""
    principal.require(Permission.JOBS_WRITE)
    left = settings.files.workspace_quota_bytes - await repo.used_bytes(
        session, principal.workspace_id
    )
    if left <= 0:
        raise PayloadTooLarge(
            f"file: the workspace's storage quota of {settings.files.workspace_quota_bytes} "
            "bytes is used up; delete files to make room"
        )
    return Allowance(min(settings.files.max_bytes, left), left < settings.files.max_bytes)


async def receive_upload(
    storage: Storage,
    body: AsyncIterable[bytes],
    content_type: str,
    *,
    workspace_id: uuid.UUID,
    allowance: Allowance,
    settings: Settings,
) -> Uploaded:
    """Stream the multipart body's ``file`` part to storage: counted, hashed, bounded by
    the allowance and by ``files_upload_timeout_seconds``, its type sniffed from its first bytes and
    refused (415) before anything is stored unless the operator's allow-list has it. Runs with
    no transaction open (a calls_out route's call)."""
    form = MultipartFile(content_type)
    return await _store(
        storage, form.file_data(body), lambda: safe_name(form.filename),
        workspace_id=workspace_id, allowance=allowance, settings=settings,
    )  # fmt: skip


async def _store(
    storage: Storage,
    chunks: AsyncIterable[bytes],
    name: Callable[[], str],
    *,
    workspace_id: uuid.UUID,
    allowance: Allowance,
    settings: Settings,
) -> Uploaded:
    meter = Meter(
        limit=allowance.limit,
        allowed=parse_types(settings.files.allowed_types),
        name=name,
        too_large=_over_quota if allowance.by_quota else upload_too_large,
        refused=upload_refused,
    )
    file_id = uuid7()
    key = storage_key(workspace_id, file_id)
    seconds = settings.files.upload_timeout_seconds
    try:
        async with asyncio.timeout(seconds):
            await storage.write(key, meter.run(chunks), meter.content_type)
    except TimeoutError:
        raise RequestTimeout(f"The upload did not arrive within {seconds:g} seconds") from None
    return Uploaded(file_id, key, meter.received)


async def _one(data: bytes) -> AsyncIterator[bytes]:
    yield data


async def receive_content(
    storage: Storage,
    data: bytes,
    filename: str,
    *,
    workspace_id: uuid.UUID,
    allowance: Allowance,
    settings: Settings,
) -> Uploaded:
    """``data`` (an MCP tool's base64 content, decoded) to storage, as an upload's file part."""
    return await _store(
        storage, _one(data), lambda: safe_name(filename),
        workspace_id=workspace_id, allowance=allowance, settings=settings,
    )  # fmt: skip


async def fetch_content(url: str, *, allowance: Allowance, settings: Settings) -> bytes:
    """GET ``url`` through the outbound guard (``AGORA_OUTBOUND_ALLOW``; no redirects), at most
    the allowance's bytes and ``files_upload_timeout_seconds``: its body. 400 naming ``url``
    when it is refused, unreachable or answers anything but 200; 413 when too large. Runs
    with no transaction open."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BadRequest.field("url", "must be an http(s) URL")
    policy = OutboundPolicy.from_setting(settings.outbound_allow)
    seconds = settings.files.upload_timeout_seconds
    try:
        async with guarded_client(policy, timeout=seconds) as client:
            answer = await send_limited(
                client, "GET", url, max_bytes=allowance.limit, total_seconds=seconds
            )
    except OutboundTooLarge:
        raise (_over_quota if allowance.by_quota else upload_too_large)(allowance.limit) from None
    except OutboundRefused:
        raise BadRequest.field("url", "is not allowed by the outbound policy") from None
    except OutboundError as exc:
        raise BadRequest.field("url", f"could not be fetched ({type(exc).__name__})") from None
    if answer.status_code != 200:
        raise BadRequest.field("url", f"answered HTTP {answer.status_code}, not 200")
    return answer.body


def _over_quota(limit: int) -> Exception:
    return PayloadTooLarge(
        f"file: larger than the {limit} bytes left of the workspace's storage quota"
    )


async def record_upload(
    session: AsyncSession,
    principal: Principal,
    uploaded: Uploaded,
    *,
    settings: Settings,
    storage: Storage,
) -> StoredFile:
    """The stored file's row. The quota is checked again (another upload may have landed
    meanwhile); a refused upload's blob is deleted."""
    used = await repo.used_bytes(session, principal.workspace_id)
    if used + uploaded.received.size > settings.files.workspace_quota_bytes:
        await storage.delete(uploaded.key)
        raise PayloadTooLarge(
            f"file: the workspace's storage quota of {settings.files.workspace_quota_bytes} "
            "bytes would be exceeded"
        )
    return await keep(
        session,
        uploaded.file_id,
        workspace_id=principal.workspace_id,
        user_id=principal.user_id,
        origin="upload",
        state=FileState.STORED,
        received=uploaded.received,
        key=uploaded.key,
    )


async def keep(
    session: AsyncSession,
    file_id: uuid.UUID,
    *,
    workspace_id: uuid.UUID,
    user_id: uuid.UUID,
    origin: str,
    state: FileState,
    received: Received | None = None,
    name: str = "file",
    key: str | None = None,
    job_id: uuid.UUID | None = None,
    source_url: str | None = None,
) -> StoredFile:
    """A file's row: an upload, or what the output collector made of a job's result file URL
    (``received``: what was stored; without it, ``name`` and the state that says why not)."""
    return await repo.add(
        session,
        id=file_id,
        workspace_id=workspace_id,
        user_id=user_id,
        job_id=job_id,
        origin=origin,
        name=received.name if received else name,
        mime_type=received.mime_type if received else None,
        size=received.size if received else None,
        sha256=received.sha256 if received else None,
        storage_key=key,
        state=state,
        source_url=source_url,
        created_at=utcnow(),
    )


# ---- reading, deleting -------------------------------------------------------------------


@dataclass(frozen=True)
class FilePage:
    files: list[repo.FileColumns]
    next_cursor: str | None


def _cursor(row: repo.FileColumns) -> str:
    raw = f"{row.created_at.isoformat()}|{row.id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _parse_cursor(cursor: str) -> tuple[datetime, uuid.UUID]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, file_id = raw.split("|", 1)
        return datetime.fromisoformat(created), uuid.UUID(file_id)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest.field("cursor", "is not a cursor this list gave") from None


async def list_files(
    session: AsyncSession, principal: Principal, *, cursor: str | None, limit: int | None
) -> FilePage:
    principal.require(Permission.READ)
    size = min(MAX_PAGE, limit or 20)
    before = _parse_cursor(cursor) if cursor else None
    rows = await repo.page(session, principal.workspace_id, before=before, limit=size + 1)
    more = len(rows) > size
    rows = rows[:size]
    return FilePage(rows, _cursor(rows[-1]) if more and rows else None)


async def get_file(session: AsyncSession, principal: Principal, file_id: str) -> StoredFile:
    """A file of the caller's workspace; any other id (malformed, unknown, another
    workspace's) is the same 404."""
    principal.require(Permission.READ)
    return await fetch_by_id(
        file_id, "File", lambda parsed: repo.get(session, principal.workspace_id, parsed)
    )


async def delete_file(
    session: AsyncSession, principal: Principal, file_id: str, *, storage: Storage
) -> None:
    principal.require(Permission.JOBS_WRITE)
    row = await get_file(session, principal, file_id)
    key = row.storage_key
    await repo.delete_file(session, row.id)
    if key:
        on_commit(session, lambda: _delete_blobs(storage, [key]))


async def _delete_blobs(storage: Storage, keys: Sequence[str]) -> None:
    for key in keys:
        await storage.delete(key)


async def forget_workspace(
    session: AsyncSession, workspace_id: uuid.UUID, *, storage: Storage
) -> None:
    """Before a workspace is deleted (its rows go with it, by cascade): delete its blobs once
    the deletion commits."""
    keys = await repo.keys_of_workspace(session, workspace_id)
    if keys:
        on_commit(session, lambda: _delete_blobs(storage, keys))


# ---- signed URLs ---------------------------------------------------------------------------


def _signer(settings: Settings) -> Signer:
    """HMAC-SHA256 over the file id and the expiry (itsdangerous, as cursors and unsubscribe
    links): the URL carries both, so only the signature is its own."""
    return Signer(settings.resolved_secret_key(), salt="agora.file", digest_method=hashlib.sha256)


def _signed(file_id: uuid.UUID, expires: int) -> str:
    return f"{file_id}:{expires}"


def signed_url(
    settings: Settings,
    file_id: uuid.UUID,
    *,
    seconds: float | None = None,
    expires_at: int | None = None,
    base: str | None = None,
) -> str:
    """A URL anyone holding it may GET the file from until it expires (agents' inputs; the web
    app's previews). Its base: ``files_public_url`` (agents outside the network), else
    ``public_url``."""
    if expires_at is not None:
        expires = expires_at
    else:
        expires = int(time.time() + (settings.files.url_seconds if seconds is None else seconds))
    signature = _signer(settings).get_signature(_signed(file_id, expires)).decode()
    root = (base if base is not None else settings.files.public_url or settings.public_url).rstrip(
        "/"
    )
    query = urlencode({"expires": expires, "signature": signature})
    return f"{root}/v1/files/{file_id}/signed?{query}"


async def file_for_signature(
    session: AsyncSession, settings: Settings, file_id: str, expires: int, signature: str
) -> StoredFile:
    """The file a signed URL names; a bad or expired signature is the same 404 as no file."""
    parsed = parse_uuid(file_id)
    if parsed is None or expires < time.time():
        raise NotFound(f"File {file_id} not found")
    if not _signer(settings).verify_signature(_signed(parsed, expires), signature):
        raise NotFound(f"File {file_id} not found")
    row = await repo.get_any(session, parsed)
    if row is None or row.state != FileState.STORED:
        raise NotFound(f"File {file_id} not found")
    return row


# ---- jobs: inputs and outputs --------------------------------------------------------------


def _input_file_ids(schema: dict[str, Any] | None, data: dict[str, Any]) -> dict[str, uuid.UUID]:
    found: dict[str, uuid.UUID] = {}
    for field in file_fields(schema):
        value = data.get(field)
        if isinstance(value, str):
            parsed = parse_uuid(value.strip())
            if parsed is not None:
                found[field] = parsed
    return found


async def check_job_inputs(
    session: AsyncSession,
    principal: Principal,
    schema: dict[str, Any] | None,
    data: dict[str, Any],
) -> None:
    """Every file id given for a ``file`` field names a stored file of the caller's workspace
    (400 naming the field otherwise: another workspace's file is as unknown as none)."""
    wanted = _input_file_ids(schema, data)
    if not wanted:
        return
    found = {
        row.id
        for row in await repo.in_workspace(session, principal.workspace_id, list(wanted.values()))
    }
    problems = [
        FieldError(f"inputData.{field}", "no such file in this workspace (POST /v1/files)")
        for field, file_id in wanted.items()
        if file_id not in found
    ]
    if problems:
        raise BadRequest(f"{problems[0].field}: {problems[0].reason}", details=problems)


def may_hold_file_ids(data: dict[str, Any]) -> bool:
    """Whether any top-level value could be a file id (the dispatcher skips the lookup else)."""
    return any(isinstance(v, str) and parse_uuid(v.strip()) is not None for v in data.values())


async def agent_input(
    session: AsyncSession,
    settings: Settings,
    *,
    workspace_id: uuid.UUID,
    agent_id: uuid.UUID,
    data: dict[str, Any],
    not_before: datetime,
) -> dict[str, Any]:
    """The input an agent receives: each file id of a ``file`` field replaced by a signed,
    expiring URL to the file (the dispatcher's start call, in a short read of its own). The
    URL expires ``files_url_seconds`` after ``not_before`` (the job's deadline): the same URL on
    every retry of the start call, so the agent's input hash does not change."""
    schema = await repo.agent_schema(session, agent_id)
    wanted = _input_file_ids(schema, data)
    if not wanted:
        return data
    rows = await repo.in_workspace(session, workspace_id, list(wanted.values()))
    stored = {row.id for row in rows}
    out = dict(data)
    for field, file_id in wanted.items():
        if file_id in stored:
            expires = int(not_before.timestamp() + settings.files.url_seconds)
            out[field] = signed_url(settings, file_id, expires_at=expires)
    return out


async def job_files(session: AsyncSession, job_id: uuid.UUID) -> list[StoredFile]:
    return await repo.of_job(session, job_id)


async def files_by_id(
    session: AsyncSession, workspace_id: uuid.UUID, file_ids: Sequence[uuid.UUID]
) -> list[StoredFile]:
    return await repo.in_workspace(session, workspace_id, file_ids)


# ---- storage check (agora storage check) ---------------------------------------------------


async def known_keys(session: AsyncSession, keys: Sequence[str]) -> set[str]:
    return await repo.known_keys(session, keys)


async def stored_keys(
    session: AsyncSession, *, after: uuid.UUID | None, limit: int
) -> list[tuple[uuid.UUID, str]]:
    return await repo.stored_without_blob_candidates(session, after=after, limit=limit)
