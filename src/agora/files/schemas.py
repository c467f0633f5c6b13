"""Files on the wire (docs/files.md)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from pydantic import BaseModel, Field

from agora.kit.schemas import Schema, UtcDateTime


class FileOut(Schema):
    """Read from a ``StoredFile`` row."""

    id: UUID
    name: str = Field(description="The uploaded (or fetched) file's name, made safe.")
    mime_type: str | None = Field(description="Sniffed from the content, never the client's word.")
    size: int | None
    sha256: str | None
    state: str = Field(
        description="stored, or why an agent's output file is not: too_large, refused "
        "(by policy), unreachable."
    )
    origin: str = Field(description="upload, or output (a file a job's agent returned).")
    job_id: UUID | None
    source_url: str | None = Field(description="Where an output file was fetched from.")
    created_at: UtcDateTime


def file_json(row: Any) -> dict[str, Any]:
    """``FileOut``'s JSON for a ``StoredFile`` row, written without the model (kit/wire.py)."""
    return {
        "id": row.id,
        "name": row.name,
        "mimeType": row.mime_type,
        "size": row.size,
        "sha256": row.sha256,
        "state": row.state,
        "origin": row.origin,
        "jobId": row.job_id,
        "sourceUrl": row.source_url,
        "createdAt": row.created_at,
    }


class FilePage(BaseModel):
    success: bool = True
    data: list[FileOut]
    nextCursor: str | None = Field(description="Send back as `cursor` for the next page.")
