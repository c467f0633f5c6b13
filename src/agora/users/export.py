"""The data export's ZIP, written as a stream (docs/accounts.md, "Your data").

``zip_chunks`` yields the archive's bytes as they are made: one ``<table>.json`` per table of
models/personal_data.py that has rows about the person (a JSON array, one row at a time, read a
page at a time), the bytes of their stored files under ``files/``, and ``README.txt``. The
archive is written for a stream (``zipfile`` on an unseekable sink: sizes in data descriptors,
ZIP64 for large members), so memory holds one page of rows and one chunk of a file, whatever the
export's size; the caller hands the chunks to storage (``Storage.write``).
"""

from __future__ import annotations

import json
import time
import zipfile
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from agora.files.content import safe_name
from agora.models.personal_data import TABLES, Table

PAGE_ROWS = 200
# (table, last primary key or None) -> the next page of rows about the person
Pages = Callable[[Table, tuple[Any, ...] | None], Awaitable[list[dict[str, Any]]]]
# (table, row) -> the row's primary key, to read the page after it
PageKey = Callable[[Table, dict[str, Any]], tuple[Any, ...]]
# storage key -> the blob's chunks
Blob = Callable[[str], AsyncIterator[bytes]]

README = """This archive holds everything Agora keeps about your account, as JSON: one file per
kind of record (profile: users.json; API keys: api_keys.json, names and prefixes only, never the
secrets; jobs with their inputs and results: jobs.json and job_events.json; tasks, files,
ratings, notifications, ledger entries, audit rows about you, ...). Your stored files' bytes are
in files/, named <file id>-<name>. Hashes of secrets (passwords, keys, links) are left out.
"""


class _Sink:
    """A write-only, unseekable file for ``zipfile``: what is written waits in a buffer until
    ``take`` hands it on."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.position = 0

    def write(self, data: bytes) -> int:
        self.buffer += data
        self.position += len(data)
        return len(data)

    def tell(self) -> int:
        return self.position

    def seek(self, *_args: Any) -> int:
        raise OSError("unseekable")

    def flush(self) -> None:
        return None

    def close(self) -> None:
        return None

    def take(self) -> bytes:
        out = bytes(self.buffer)
        self.buffer.clear()
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID | Decimal):
        return str(value)
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(f"cannot write {type(value).__name__}")


def _line(row: dict[str, Any]) -> bytes:
    return json.dumps(row, default=_plain, ensure_ascii=False, sort_keys=True).encode()


async def zip_chunks(
    pages: Pages, page_key: PageKey, blob: Blob, *, about: dict[str, Any]
) -> AsyncIterator[bytes]:
    """The archive's bytes, in order. ``about``: the manifest's facts (who, when)."""
    sink = _Sink()
    archive = zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED)
    counts: dict[str, int] = {}
    files: list[tuple[str, str]] = []  # (member name, storage key)
    for spec in TABLES:
        if not spec.reach or not spec.export:
            continue
        count = 0
        after: tuple[Any, ...] | None = None
        with archive.open(f"{spec.name}.json", "w", force_zip64=True) as member:
            member.write(b"[")
            while True:
                rows = await pages(spec, after)
                for row in rows:
                    member.write((b",\n" if count else b"\n") + _line(row))
                    count += 1
                    if spec.name == "stored_files" and row.get("storage_key"):
                        name = f"files/{row['id']}-{safe_name(str(row.get('name') or 'file'))}"
                        files.append((name, str(row["storage_key"])))
                    yield sink.take()
                if len(rows) < PAGE_ROWS:
                    break
                after = page_key(spec, rows[-1])
            member.write(b"\n]\n")
        counts[spec.name] = count
        yield sink.take()
    for name, key in files:
        # stored as they are: files are mostly compressed already (PDF, images, archives), and
        # deflating them again costs CPU for nothing
        info = zipfile.ZipInfo(name, date_time=time.gmtime()[:6])
        info.compress_type = zipfile.ZIP_STORED
        with archive.open(info, "w", force_zip64=True) as member:
            async for chunk in blob(key):
                member.write(chunk)
                yield sink.take()
        yield sink.take()
    manifest = {**about, "rows": counts, "files": len(files)}
    archive.writestr("manifest.json", json.dumps(manifest, default=_plain, indent=2))
    archive.writestr("README.txt", README)
    archive.close()
    yield sink.take()
