"""All SQL of the files domain: stored files and the output collector's scans."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import bindparam, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.reads import Prepared, read_all
from agora.models import Agent, DataExport, Job, JobFileScan, StoredFile
from agora.models.statuses import FileState, JobStatus

MAX_SCAN_ATTEMPTS = 3


async def add(session: AsyncSession, **values: Any) -> StoredFile:
    row = StoredFile(**values)
    session.add(row)
    await session.flush()
    return row


async def get(
    session: AsyncSession, workspace_id: uuid.UUID, file_id: uuid.UUID
) -> StoredFile | None:
    return await session.scalar(
        select(StoredFile).where(StoredFile.id == file_id, StoredFile.workspace_id == workspace_id)
    )


async def get_any(session: AsyncSession, file_id: uuid.UUID) -> StoredFile | None:
    """A file by id alone: only for a request whose signature names it."""
    return await session.get(StoredFile, file_id)


async def in_workspace(
    session: AsyncSession, workspace_id: uuid.UUID, file_ids: Sequence[uuid.UUID]
) -> list[StoredFile]:
    if not file_ids:
        return []
    rows = await session.scalars(
        select(StoredFile).where(
            StoredFile.workspace_id == workspace_id,
            StoredFile.id.in_(list(file_ids)),
            StoredFile.state == FileState.STORED,
        )
    )
    return list(rows)


class FileColumns(Protocol):
    """What the files list shows of a stored file (``FileOut``): a ``StoredFile``, or a row
    read lean."""

    @property
    def id(self) -> uuid.UUID: ...
    @property
    def name(self) -> str: ...
    @property
    def mime_type(self) -> str | None: ...
    @property
    def size(self) -> int | None: ...
    @property
    def sha256(self) -> str | None: ...
    @property
    def state(self) -> str: ...
    @property
    def origin(self) -> str: ...
    @property
    def job_id(self) -> uuid.UUID | None: ...
    @property
    def source_url(self) -> str | None: ...
    @property
    def created_at(self) -> datetime: ...


def _page_statement(after: bool) -> Prepared[FileColumns]:
    conditions = [StoredFile.workspace_id == bindparam("workspace_id")]
    if after:
        created = bindparam("before_at", type_=StoredFile.created_at.type)
        file_id = bindparam("before_id", type_=StoredFile.id.type)
        conditions.append(
            or_(
                StoredFile.created_at < created,
                (StoredFile.created_at == created) & (StoredFile.id < file_id),
            )
        )
    return Prepared(
        select(
            StoredFile.id,
            StoredFile.name,
            StoredFile.mime_type,
            StoredFile.size,
            StoredFile.sha256,
            StoredFile.state,
            StoredFile.origin,
            StoredFile.job_id,
            StoredFile.source_url,
            StoredFile.created_at,
        )
        .where(*conditions)
        .order_by(StoredFile.created_at.desc(), StoredFile.id.desc())
        .limit(bindparam("limit")),
        shape=FileColumns,
    )


# The workspace's files, newest first: prepared (first page, and after a cursor), read lean.
_PAGES = {after: _page_statement(after) for after in (False, True)}


async def page(
    session: AsyncSession,
    workspace_id: uuid.UUID,
    *,
    before: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> list[FileColumns]:
    params: dict[str, Any] = {"workspace_id": workspace_id, "limit": limit}
    if before is not None:
        params["before_at"], params["before_id"] = before
    return list(await read_all(session, _PAGES[before is not None], **params))


async def used_bytes(session: AsyncSession, workspace_id: uuid.UUID) -> int:
    total = await session.scalar(
        select(func.coalesce(func.sum(StoredFile.size), 0)).where(
            StoredFile.workspace_id == workspace_id, StoredFile.state == FileState.STORED
        )
    )
    return int(total or 0)


async def of_job(session: AsyncSession, job_id: uuid.UUID) -> list[StoredFile]:
    rows = await session.scalars(
        select(StoredFile)
        .where(StoredFile.job_id == job_id)
        .order_by(StoredFile.created_at, StoredFile.id)
    )
    return list(rows)


async def delete_file(session: AsyncSession, file_id: uuid.UUID) -> None:
    await session.execute(delete(StoredFile).where(StoredFile.id == file_id))
    await session.flush()


async def keys_of_workspace(session: AsyncSession, workspace_id: uuid.UUID) -> list[str]:
    rows = await session.scalars(
        select(StoredFile.storage_key).where(
            StoredFile.workspace_id == workspace_id, StoredFile.storage_key.is_not(None)
        )
    )
    return [k for k in rows if k]


async def known_keys(session: AsyncSession, keys: Sequence[str]) -> set[str]:
    if not keys:
        return set()
    rows = await session.scalars(
        select(StoredFile.storage_key).where(StoredFile.storage_key.in_(list(keys)))
    )
    # a person's data export (users/worker.py) is a blob of its own, named by its row
    exports = await session.scalars(
        select(DataExport.storage_key).where(DataExport.storage_key.in_(list(keys)))
    )
    return {k for k in rows if k} | {k for k in exports if k}


async def stored_without_blob_candidates(
    session: AsyncSession, *, after: uuid.UUID | None, limit: int
) -> list[tuple[uuid.UUID, str]]:
    query = select(StoredFile.id, StoredFile.storage_key).where(
        StoredFile.state == FileState.STORED, StoredFile.storage_key.is_not(None)
    )
    if after is not None:
        query = query.where(StoredFile.id > after)
    rows = await session.execute(query.order_by(StoredFile.id).limit(limit))
    return [(r[0], r[1] or "") for r in rows]


# ---- the output collector ------------------------------------------------------------------


async def unscanned_jobs(
    session: AsyncSession, *, completed_after: datetime, now: datetime, limit: int
) -> list[uuid.UUID]:
    """Completed jobs (recent enough) whose outputs were never collected, or whose collector's
    lease has expired."""
    query = (
        select(Job.id)
        .outerjoin(JobFileScan, JobFileScan.job_id == Job.id)
        .where(
            Job.status == JobStatus.COMPLETED,
            Job.completed_at >= completed_after,
            or_(
                JobFileScan.job_id.is_(None),
                (JobFileScan.state == "leased")
                & (JobFileScan.lease_expires_at < now)
                & (JobFileScan.attempts < MAX_SCAN_ATTEMPTS),
            ),
        )
        .order_by(Job.completed_at)
        .limit(limit)
    )
    return list(await session.scalars(query))


async def lease_scan(
    session: AsyncSession, job_id: uuid.UUID, *, until: datetime, now: datetime
) -> bool:
    existing = await session.get(JobFileScan, job_id)
    if existing is None:
        session.add(
            JobFileScan(
                job_id=job_id, state="leased", lease_expires_at=until, attempts=1, updated_at=now
            )
        )
        await session.flush()
        return True
    if existing.state != "leased" or (
        existing.lease_expires_at is not None
        and existing.lease_expires_at.replace(tzinfo=None) >= now.replace(tzinfo=None)
    ):
        return False
    result = await session.execute(
        update(JobFileScan)
        .where(JobFileScan.job_id == job_id, JobFileScan.attempts == existing.attempts)
        .values(lease_expires_at=until, attempts=existing.attempts + 1, updated_at=now)
    )
    await session.flush()
    return bool(getattr(result, "rowcount", 0))


async def finish_scan(session: AsyncSession, job_id: uuid.UUID, now: datetime) -> None:
    await session.execute(
        update(JobFileScan)
        .where(JobFileScan.job_id == job_id)
        .values(state="done", lease_expires_at=None, updated_at=now)
    )
    await session.flush()


async def job_for_scan(session: AsyncSession, job_id: uuid.UUID) -> Job | None:
    return await session.get(Job, job_id)


async def agent_schema(session: AsyncSession, agent_id: uuid.UUID) -> dict[str, Any] | None:
    schema: dict[str, Any] | None = await session.scalar(
        select(Agent.input_schema).where(Agent.id == agent_id)
    )
    return schema
