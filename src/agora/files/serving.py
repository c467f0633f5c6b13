"""How a stored file is served (docs/files.md, "Serving"): never as a page of Agora's origin.

- ``Content-Disposition: attachment`` unless the type is one the operator allows to preview
  (``AGORA_FILES_PREVIEW_TYPES``, images by default), then ``inline``; markup and script types
  are always served as ``application/octet-stream``.
- ``X-Content-Type-Options: nosniff`` and ``Content-Security-Policy: default-src 'none';
  sandbox`` on every file answer, so even a misdetected file cannot run script here.
- Strong ETags (the sha256), ``If-None-Match`` → 304, single byte ranges (``Range``, with
  ``If-Range``) → 206, an unsatisfiable range → 416.
- On S3, an authorised ``GET`` of ``/v1/files/{id}/content`` answers ``307`` to a presigned
  URL (``AGORA_STORAGE_S3_PRESIGN_SECONDS``, 60 s by default) that makes S3 send the same
  ``Content-Disposition`` and ``Content-Type``: the bytes never pass through the API process
  (S3 serves ranges itself). A ``HEAD`` and a ``304`` are still answered here (no bytes); the
  signed URLs agents fetch inputs from keep streaming (docs/operations.md, "Downloads from S3").
"""

from __future__ import annotations

import re
from urllib.parse import quote

from starlette.responses import RedirectResponse, Response, StreamingResponse

from agora.files.content import parse_types
from agora.files.storage import Storage
from agora.models import StoredFile
from agora.settings import Settings

FILE_CSP = "default-src 'none'; sandbox"
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
_NEVER_AS_IS = ("html", "xml", "svg", "javascript", "ecmascript", "xhtml")


def served_type(mime: str | None) -> str:
    kind = (mime or "application/octet-stream").lower()
    if any(word in kind for word in _NEVER_AS_IS):
        return "application/octet-stream"
    return kind


def is_preview(settings: Settings, mime: str | None) -> bool:
    kind = served_type(mime)
    return kind in parse_types(settings.files.preview_types) and kind.startswith("image/")


def _disposition(kind: str, name: str) -> str:
    ascii_name = name.encode("ascii", "replace").decode().replace('"', "_").replace("?", "_")
    return f"{kind}; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name, safe='')}"


def _range(header: str | None, size: int) -> tuple[int, int] | bool | None:
    """(start, end) of a satisfiable single range, None for no range, False if unsatisfiable."""
    if not header:
        return None
    match = _RANGE.match(header.strip())
    if match is None:
        return None  # several ranges or another unit: answer the whole file (RFC 9110 14.2)
    first, last = match.groups()
    if not first and not last:
        return None
    if not first:
        length = int(last)
        if length == 0:
            return False
        return max(0, size - length), size - 1
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if start >= size or start > end:
        return False
    return start, end


def file_response(
    storage: Storage,
    row: StoredFile,
    settings: Settings,
    *,
    method: str,
    range_header: str | None,
    if_none_match: str | None,
    if_range: str | None,
    redirect: bool = False,
) -> Response:
    size = row.size or 0
    etag = f'"{row.sha256}"'
    kind = served_type(row.mime_type)
    disposition = "inline" if is_preview(settings, row.mime_type) else "attachment"
    headers = {
        "ETag": etag,
        "Accept-Ranges": "bytes",
        "Content-Disposition": _disposition(disposition, row.name),
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": FILE_CSP,
        "Cross-Origin-Resource-Policy": "same-site",
        "Cache-Control": "private, no-cache",
    }
    if if_none_match is not None and etag in {t.strip() for t in if_none_match.split(",")}:
        return Response(status_code=304, headers=headers)
    assert row.storage_key is not None
    if redirect and method == "GET":
        url = storage.download_url(
            row.storage_key, disposition=headers["Content-Disposition"], content_type=kind
        )
        if url is not None:
            return RedirectResponse(url, status_code=307, headers={"Cache-Control": "no-store"})
    wanted = _range(range_header, size) if (if_range is None or if_range == etag) else None
    if wanted is False:
        return Response(status_code=416, headers={**headers, "Content-Range": f"bytes */{size}"})
    if isinstance(wanted, tuple):
        start, end = wanted
        status = 206
        headers["Content-Range"] = f"bytes {start}-{end}/{size}"
    else:
        start, end, status = 0, size - 1, 200
    headers["Content-Length"] = str(max(0, end - start + 1))
    if method == "HEAD" or size == 0:
        return Response(status_code=status, headers=headers, media_type=kind)
    return StreamingResponse(
        storage.read(row.storage_key, start, end),
        status_code=status,
        headers=headers,
        media_type=kind,
    )
