from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, BigInt, Timestamp, created_at_column, foreign_key, id_column


class StoredFile(Base):
    """A file a workspace holds: an upload, or a file an agent returned for a job (docs/files.md).

    ``state`` is ``stored`` (the bytes are in storage under ``storage_key``) or, for an output
    that could not be kept, why: ``too_large``, ``refused`` (by policy: the outbound guard or the
    type allow-list) or ``unreachable``. Deleting the row's workspace or job deletes the row; the
    blob is deleted by the service, and ``agora storage check`` reports blobs without a row.
    """

    __tablename__ = "stored_files"
    __table_args__ = (
        Index("ix_stored_files_workspace", "workspace_id", "created_at", "id"),
        Index("ix_stored_files_job", "job_id"),
        Index("ix_stored_files_storage_key", "storage_key"),
    )

    id: Mapped[uuid.UUID] = id_column()
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    job_id: Mapped[uuid.UUID | None] = foreign_key("jobs.id", "CASCADE")
    origin: Mapped[str] = mapped_column(String(10), nullable=False)  # upload | output
    name: Mapped[str] = mapped_column(String(255), nullable=False)
    mime_type: Mapped[str | None] = mapped_column(String(100))
    size: Mapped[int | None] = mapped_column(BigInt)
    sha256: Mapped[str | None] = mapped_column(String(64))
    storage_key: Mapped[str | None] = mapped_column(String(300))
    state: Mapped[str] = mapped_column(String(20), nullable=False)
    source_url: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = created_at_column()


class JobFileScan(Base):
    """One completed job's output collection: claimed with a lease by the collector, then done."""

    __tablename__ = "job_file_scans"

    job_id: Mapped[uuid.UUID] = foreign_key("jobs.id", "CASCADE", primary_key=True)
    state: Mapped[str] = mapped_column(String(10), nullable=False)  # leased | done
    lease_expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    updated_at: Mapped[datetime] = created_at_column()
