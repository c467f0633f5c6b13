"""A job's links and files, read from its result Markdown and its input (docs/jobs.md): what
the output collector (files/worker.py) fetches and what a job's file listing shows.

A link is a URL the result names, a file is an http(s) URL in the input's text values or in the
result whose path ends in a file extension, or an uploaded file the input names by id. A result
file is listed as found (status AVAILABLE, MIME type guessed from the extension, size unknown)
until the output collector (files/worker.py) has fetched it; then with its state (STORED,
TOO_LARGE, REFUSED, UNREACHABLE), and when stored with its size, sha256, sniffed type and
Agora's URL. Ids of files not kept are stable (UUIDv5 of the job and the URL).
"""

from __future__ import annotations

import mimetypes
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

from agora.models import Job
from agora.models.statuses import FileState

MAX_ITEMS = 100
MAX_SCAN = 200_000  # characters of a result scanned for links
_MD_LINK = re.compile(
    r"(!?)\[([^\]\n]{0,500})\]\((https?://[^\s)]{1,2000})(?:\s+\"([^\"\n]{0,500})\")?\)"
)
_BARE_URL = re.compile(r"(?<![(\[<\"'])\bhttps?://[^\s<>()\"'\]]{1,2000}")
_PAGE_EXTENSIONS = frozenset({"", ".html", ".htm", ".php", ".asp", ".aspx"})


@dataclass(frozen=True)
class JobLink:
    """What ``JobLinkOut`` reads."""

    id: uuid.UUID
    job_id: uuid.UUID
    title: str | None
    url: str
    description: str | None
    created_at: datetime


@dataclass(frozen=True)
class JobFile:
    """What ``JobFileOut`` reads."""

    id: uuid.UUID
    job_id: uuid.UUID
    name: str
    file_url: str
    source_url: str | None
    source: str
    size: int | None
    mime_type: str | None
    status: str
    created_at: datetime
    updated_at: datetime
    sha256: str | None = None


class KeptFile(Protocol):
    """What ``collected``/``uploaded`` read of a stored file (``models.StoredFile``)."""

    id: uuid.UUID
    name: str
    mime_type: str | None
    size: int | None
    sha256: str | None
    state: str
    created_at: datetime


def _content_url(base: str, file_id: uuid.UUID) -> str:
    return f"{base.rstrip('/')}/v1/files/{file_id}/content"


def collected(item: JobFile, kept: KeptFile | None, base: str) -> JobFile:
    """A result file with what the output collector made of it (as found while not yet
    collected, and for an input URL)."""
    if kept is None or item.source != "result":
        return item
    stored = kept.state == FileState.STORED
    return replace(
        item,
        id=kept.id,
        name=kept.name if stored else item.name,
        file_url=_content_url(base, kept.id) if stored else item.file_url,
        size=kept.size,
        mime_type=kept.mime_type if stored else item.mime_type,
        status=kept.state.upper(),  # a kept file's state, as a job's file status
        sha256=kept.sha256,
        updated_at=kept.created_at,
    )


def uploaded(job: Job, kept: KeptFile, base: str) -> JobFile:
    """An uploaded file the job's input names by id."""
    return JobFile(
        id=kept.id,
        job_id=job.id,
        name=kept.name,
        file_url=_content_url(base, kept.id),
        source_url=None,
        source="input",
        size=kept.size,
        mime_type=kept.mime_type,
        status=kept.state.upper(),
        created_at=kept.created_at,
        updated_at=kept.created_at,
        sha256=kept.sha256,
    )


def _links_in(text: str) -> Iterator[tuple[str, str | None, str | None]]:
    """(url, title, description) in order of appearance, each URL once."""
    seen: set[str] = set()
    text = text[:MAX_SCAN]
    for match in _MD_LINK.finditer(text):
        url = match.group(3).rstrip(".,;:")
        if url not in seen:
            seen.add(url)
            yield url, match.group(2).strip() or None, match.group(4)
    for match in _BARE_URL.finditer(text):
        url = match.group(0).rstrip(".,;:")
        if url not in seen:
            seen.add(url)
            yield url, None, None


def _extension(url: str) -> str:
    path = urlsplit(url).path
    name = path.rsplit("/", 1)[-1]
    return ("." + name.rsplit(".", 1)[-1].lower()) if "." in name else ""


def _stable_id(job: Job, kind: str, url: str) -> uuid.UUID:
    return uuid.uuid5(job.id, f"{kind}:{url}")


def links(job: Job) -> list[JobLink]:
    if not job.result or job.completed_at is None:
        return []
    when = job.completed_at
    return [
        JobLink(
            id=_stable_id(job, "link", url),
            job_id=job.id,
            title=title,
            url=url,
            description=description,
            created_at=when,
        )
        for url, title, description in list(_links_in(job.result))[:MAX_ITEMS]
    ]


_CACHE_SIZE = 4096
_found: dict[tuple[Any, ...], tuple[list[JobLink], list[JobFile]]] = {}


def found(job: Job) -> tuple[list[JobLink], list[JobFile]]:
    """``links(job)`` and ``files(job)``, parsed once per version of the job: listings show the
    same jobs again and again, and a result changes only with the job's ``updated_at`` (its
    completion). Bounded (cleared when full); the values are frozen, so they are shared."""
    key = (job.id, job.updated_at, job.completed_at, len(job.result or ""))
    hit = _found.get(key)
    if hit is None:
        if len(_found) >= _CACHE_SIZE:
            _found.clear()
        hit = _found[key] = (links(job), files(job))
    return hit


def _input_urls(value: Any, depth: int = 0) -> Iterator[str]:
    if depth > 5:
        return
    if isinstance(value, str):
        for url, _, _ in _links_in(value):
            yield url
    elif isinstance(value, dict):
        for item in value.values():
            yield from _input_urls(item, depth + 1)
    elif isinstance(value, list):
        for item in value[:100]:
            yield from _input_urls(item, depth + 1)


def files(job: Job) -> list[JobFile]:
    found: list[tuple[str, str]] = [(url, "input") for url in _input_urls(job.input_data)]
    if job.result and job.completed_at is not None:
        found += [(url, "result") for url, _, _ in _links_in(job.result)]
    out: list[JobFile] = []
    seen: set[str] = set()
    for url, source in found:
        extension = _extension(url)
        if url in seen or extension in _PAGE_EXTENSIONS:
            continue
        seen.add(url)
        name = unquote(urlsplit(url).path.rsplit("/", 1)[-1]) or url
        created = job.created_at if source == "input" else (job.completed_at or job.created_at)
        out.append(
            JobFile(
                id=_stable_id(job, "file", url),
                job_id=job.id,
                name=name[:500],
                file_url=url,
                source_url=url,
                source=source,
                size=None,
                mime_type=mimetypes.guess_type(f"f{extension}")[0],
                status="AVAILABLE",
                created_at=created,
                updated_at=created,
            )
        )
        if len(out) >= MAX_ITEMS:
            break
    return out
