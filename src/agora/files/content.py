"""What a file is (sniffed from its first bytes, never the client's word), its safe name, and the
streaming multipart reader an upload goes through (docs/files.md, "Uploads")."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import AsyncIterable, AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import puremagic
from python_multipart.multipart import MultipartParser, parse_options_header

from agora.kit.errors import BadRequest, PayloadTooLarge, UnsupportedMediaType

SNIFF_BYTES = 8192
_HTML_STARTS = (
    b"<!doctype html",
    b"<html",
    b"<head",
    b"<body",
    b"<script",
    b"<iframe",
    b"<svg",
    b"<?xml",
    b"<!--",
    b"<meta",
    b"<title",
    b"<div",
    b"<a ",
    b"<img",
    b"<style",
)
_TEXT_BY_EXTENSION = {
    ".csv": "text/csv",
    ".json": "application/json",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
}
# puremagic names some types differently from what browsers and agents expect
_ALIASES = {"image/x-png": "image/png", "audio/x-wav": "audio/wav", "audio/wave": "audio/wav"}
_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f\"\\/<>:|?*]")


def sniff(head: bytes, name: str) -> str:
    """The media type of content starting with ``head``. Markup (HTML, SVG, XML) is
    ``text/html`` whatever its name says; unrecognised bytes are ``application/octet-stream``;
    text is ``text/plain`` unless its extension names a text type (CSV, JSON, Markdown)."""
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if start.startswith(_HTML_STARTS) or b"<script" in head[:1024].lower():
        return "text/html"
    try:
        found = puremagic.from_string(head, mime=True)
    except (puremagic.PureError, ValueError):
        found = ""
    if found and not found.startswith("text/"):
        return _ALIASES.get(found, found)
    if b"\x00" not in head:
        try:
            head.decode("utf-8")
            is_text = True
        except UnicodeDecodeError as exc:
            is_text = exc.start >= len(head) - 4  # a character cut at the sniff window's end
        if is_text:
            extension = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
            return _TEXT_BY_EXTENSION.get(extension, "text/plain")
    return "application/octet-stream"


def safe_name(raw: str | None, fallback: str = "file") -> str:
    """A file name to show and to put in Content-Disposition: the last path segment, normalised,
    without control or path characters, at most 200 characters."""
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = unicodedata.normalize("NFC", name)
    name = _UNSAFE_NAME.sub("_", name).strip(" .")
    return name[:200] or fallback


def parse_types(value: str) -> frozenset[str]:
    return frozenset(t.strip().lower() for t in value.split(",") if t.strip())


@dataclass
class Received:
    """What an upload's stream produced (the bytes themselves went to storage)."""

    name: str = "file"
    mime_type: str = "application/octet-stream"
    size: int = 0
    sha256: str = ""


@dataclass
class Meter:
    """Counts, hashes and bounds bytes on their way to storage; sniffs the type from the first
    ``SNIFF_BYTES`` and refuses a type outside ``allowed`` before anything is stored."""

    limit: int
    allowed: frozenset[str]
    name: Callable[[], str]
    too_large: Callable[[int], Exception]
    refused: Callable[[str], Exception]
    received: Received = field(default_factory=Received)
    _hash: Any = field(default_factory=hashlib.sha256)

    async def run(self, chunks: AsyncIterable[bytes]) -> AsyncIterator[bytes]:
        head = bytearray()
        sniffed = False
        async for chunk in chunks:
            if not chunk:
                continue
            self.received.size += len(chunk)
            if self.received.size > self.limit:
                raise self.too_large(self.limit)
            self._hash.update(chunk)
            if not sniffed:
                head += chunk
                if len(head) < SNIFF_BYTES:
                    continue
                self._decide(bytes(head))
                sniffed = True
                yield bytes(head)
                head.clear()
                continue
            yield chunk
        if not sniffed:
            self._decide(bytes(head))
            if head:
                yield bytes(head)
        self.received.sha256 = self._hash.hexdigest()

    def content_type(self) -> str:
        """The sniffed type (``application/octet-stream`` until the first bytes went by; a
        storage asks once it has them)."""
        return self.received.mime_type

    def _decide(self, head: bytes) -> None:
        self.received.name = self.name()
        kind = sniff(head, self.received.name)
        if kind not in self.allowed:
            raise self.refused(kind)
        self.received.mime_type = kind


def upload_too_large(limit: int) -> Exception:
    return PayloadTooLarge(f"file: larger than the limit of {limit} bytes")


def upload_refused(kind: str) -> Exception:
    return UnsupportedMediaType(f"file: content of type {kind} is not accepted here")


MAX_FIELD_BYTES = 16 * 1024  # the non-file parts of an upload, together
# What a multipart body may carry beyond its file: boundaries, part headers, other fields
UPLOAD_FRAMING_BYTES = 64 * 1024


class MultipartFile:
    """Reads a ``multipart/form-data`` body as it arrives and yields the data of its part named
    ``file`` (which must carry a filename); other parts are skipped (bounded). Nothing is
    buffered beyond one received chunk."""

    def __init__(self, content_type: str) -> None:
        media, params = parse_options_header(content_type)
        if media != b"multipart/form-data" or not params.get(b"boundary"):
            raise UnsupportedMediaType(
                "Send the file as multipart/form-data with a part named file"
            )
        self.filename: str | None = None
        self._headers: dict[str, str] = {}
        self._header_name = b""
        self._header_value = b""
        self._in_file = False
        self._done_file = False
        self._pending: list[bytes] = []
        self._other = 0
        self._parser = MultipartParser(
            params[b"boundary"],
            {
                "on_part_begin": self._part_begin,
                "on_header_field": self._header_field,
                "on_header_value": self._header_value_cb,
                "on_header_end": self._header_end,
                "on_headers_finished": self._headers_finished,
                "on_part_data": self._part_data,
                "on_part_end": self._part_end,
            },
        )

    def _part_begin(self) -> None:
        self._headers = {}

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name += data[start:end]

    def _header_value_cb(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def _header_end(self) -> None:
        self._headers[self._header_name.decode("latin-1").lower()] = self._header_value.decode(
            "utf-8", "replace"
        )
        self._header_name = self._header_value = b""

    def _headers_finished(self) -> None:
        _, params = parse_options_header(self._headers.get("content-disposition", ""))
        name = params.get(b"name", b"").decode("utf-8", "replace")
        filename = params.get(b"filename")
        if name == "file" and filename is not None and not self._done_file:
            self._in_file = True
            self.filename = filename.decode("utf-8", "replace")

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        if self._in_file:
            self._pending.append(data[start:end])
        else:
            self._other += end - start
            if self._other > MAX_FIELD_BYTES:
                raise PayloadTooLarge("Form fields beside the file are too large")

    def _part_end(self) -> None:
        if self._in_file:
            self._in_file = False
            self._done_file = True

    async def file_data(self, body: AsyncIterable[bytes]) -> AsyncIterator[bytes]:
        async for chunk in body:
            try:
                self._parser.write(chunk)
            except (PayloadTooLarge, UnsupportedMediaType):
                raise
            except Exception as exc:
                raise BadRequest.field("file", "the multipart body is malformed") from exc
            if self.filename is None and not self._pending and self._done_file is False:
                continue
            pending, self._pending = self._pending, []
            for piece in pending:
                yield piece
        try:
            self._parser.finalize()
        except Exception as exc:
            raise BadRequest.field("file", "the multipart body is malformed") from exc
        if self.filename is None:
            raise BadRequest.field("file", "a part named file, with a filename, is required")
        if not self._done_file:
            raise BadRequest.field("file", "the multipart body ended inside the file")
