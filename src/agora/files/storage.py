"""Where file bytes live: one interface, two backends (docs/files.md, "Storage").

- ``LocalStorage``: a directory (default ``<data dir>/files``; ``AGORA_STORAGE_URL=file:///path``).
  A write goes to a temporary file beside the blobs and is renamed into place when complete, so a
  reader never sees half a file.
- ``S3Storage``: an S3-compatible bucket (``AGORA_STORAGE_URL=s3://bucket/prefix``, endpoint,
  region and credentials from ``AGORA_STORAGE_S3_*``). boto3 is synchronous: every call runs in a
  worker thread (``asyncio.to_thread``), never on the event loop. A write is buffered one part at
  a time (``PART_BYTES``): a small file is one ``PutObject``, a large one a multipart upload that
  is aborted if the stream fails. The object carries the file's sniffed type as its
  ``Content-Type`` (S3's ``ContentType`` of PutObject / CreateMultipartUpload), so a download
  straight from the bucket (a console, a CDN, a presigned URL) is served as what it is.

Callers bound what they write (size, time); a backend only moves bytes. Keys are
``<workspace id>/<file id>``: no user text ever reaches a path or an object key.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterable, AsyncIterator, Callable
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

from agora.settings import Settings

CHUNK_BYTES = 64 * 1024
PART_BYTES = 8 * 1024 * 1024  # S3's minimum part is 5 MiB (except the last)
_TMP = ".tmp"


# The stored bytes' media type, asked once the chunks are under way (it is sniffed from the
# first bytes); None: no type (the backend's default).
ContentType = Callable[[], str | None] | None


class Storage(Protocol):
    """What the files service needs of a backend."""

    description: str

    async def write(
        self, key: str, chunks: AsyncIterable[bytes], content_type: ContentType = None
    ) -> int:
        """Store the chunks under ``key`` (replacing it); the bytes written. If ``chunks`` raises,
        nothing is left under ``key`` and the error propagates. ``content_type`` gives the
        type once the first bytes went by (``Meter`` sniffs it), for a backend that keeps one."""
        ...

    def read(self, key: str, start: int = 0, end: int | None = None) -> AsyncIterator[bytes]:
        """The bytes ``start`` to ``end`` (inclusive; None: to the end)."""
        ...

    async def delete(self, key: str) -> None:
        """Remove ``key`` (no error if it is absent)."""
        ...

    def list_keys(self) -> AsyncIterator[str]:
        """Every key held (``agora storage check``)."""
        ...

    def download_url(self, key: str, *, disposition: str, content_type: str) -> str | None:
        """A short-lived URL the client fetches the bytes from itself, served with these
        ``Content-Disposition`` and ``Content-Type``; None: the API streams them."""
        ...


class LocalStorage:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.description = f"local directory {root}"

    def _path(self, key: str) -> Path:
        parts = key.split("/")
        if not key or any(p in ("", ".", "..") or p.startswith(".") for p in parts):
            raise ValueError(f"invalid storage key {key!r}")
        return self.root.joinpath(*parts)

    async def write(
        self, key: str, chunks: AsyncIterable[bytes], content_type: ContentType = None
    ) -> int:
        path = self._path(key)
        tmp = self.root / _TMP / uuid.uuid4().hex

        def _open() -> Any:
            tmp.parent.mkdir(parents=True, exist_ok=True)
            path.parent.mkdir(parents=True, exist_ok=True)
            return tmp.open("wb")

        handle = await asyncio.to_thread(_open)
        size = 0
        try:
            async for chunk in chunks:
                size += len(chunk)
                await asyncio.to_thread(handle.write, chunk)
            await asyncio.to_thread(handle.close)
            await asyncio.to_thread(os.replace, tmp, path)
        except BaseException:
            handle.close()
            tmp.unlink(missing_ok=True)
            raise
        return size

    async def read(self, key: str, start: int = 0, end: int | None = None) -> AsyncIterator[bytes]:
        path = self._path(key)
        handle = await asyncio.to_thread(path.open, "rb")
        try:
            await asyncio.to_thread(handle.seek, start)
            left = None if end is None else end - start + 1
            while left is None or left > 0:
                want = CHUNK_BYTES if left is None else min(CHUNK_BYTES, left)
                chunk = await asyncio.to_thread(handle.read, want)
                if not chunk:
                    break
                if left is not None:
                    left -= len(chunk)
                yield chunk
        finally:
            handle.close()

    async def delete(self, key: str) -> None:
        await asyncio.to_thread(self._path(key).unlink, missing_ok=True)

    def download_url(self, key: str, *, disposition: str, content_type: str) -> str | None:
        return None  # a local directory has no URL of its own: the API streams the file

    async def list_keys(self) -> AsyncIterator[str]:
        def _walk() -> list[str]:
            if not self.root.exists():
                return []
            return sorted(
                p.relative_to(self.root).as_posix()
                for p in self.root.rglob("*")
                if p.is_file() and not p.relative_to(self.root).as_posix().startswith(_TMP)
            )

        for key in await asyncio.to_thread(_walk):
            yield key


class S3Storage:
    def __init__(
        self,
        bucket: str,
        prefix: str,
        *,
        endpoint_url: str | None,
        region: str,
        access_key: str | None,
        secret_key: str | None,
        presign_seconds: int = 60,
    ) -> None:
        import boto3
        from botocore.config import Config

        self.bucket = bucket
        self.presign_seconds = presign_seconds
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""
        self.description = f"s3://{bucket}/{self.prefix}" + (
            f" at {endpoint_url}" if endpoint_url else ""
        )
        self.client: Any = boto3.session.Session().client(
            "s3",
            endpoint_url=endpoint_url or None,
            region_name=region,
            aws_access_key_id=access_key or None,
            aws_secret_access_key=secret_key or None,
            config=Config(
                s3={"addressing_style": "path"} if endpoint_url else {},
                retries={"max_attempts": 3, "mode": "standard"},
                signature_version="s3v4",  # presigned URLs: X-Amz-Expires, any region
                connect_timeout=10,
                read_timeout=60,
            ),
        )

    def _key(self, key: str) -> str:
        return self.prefix + key

    async def write(
        self, key: str, chunks: AsyncIterable[bytes], content_type: ContentType = None
    ) -> int:
        name = self._key(key)
        buffer = bytearray()
        size = 0
        upload_id: str | None = None
        parts: list[dict[str, Any]] = []

        async def flush_part() -> None:
            nonlocal upload_id
            if upload_id is None:
                started = await asyncio.to_thread(
                    self.client.create_multipart_upload,
                    Bucket=self.bucket,
                    Key=name,
                    **_typed(content_type),
                )
                upload_id = started["UploadId"]
            number = len(parts) + 1
            answer = await asyncio.to_thread(
                self.client.upload_part,
                Bucket=self.bucket,
                Key=name,
                UploadId=upload_id,
                PartNumber=number,
                Body=bytes(buffer),
            )
            parts.append({"ETag": answer["ETag"], "PartNumber": number})
            buffer.clear()

        try:
            async for chunk in chunks:
                size += len(chunk)
                buffer += chunk
                if len(buffer) >= PART_BYTES:
                    await flush_part()
            if upload_id is None:
                await asyncio.to_thread(
                    self.client.put_object,
                    Bucket=self.bucket,
                    Key=name,
                    Body=bytes(buffer),
                    **_typed(content_type),
                )
            else:
                if buffer:
                    await flush_part()
                await asyncio.to_thread(
                    self.client.complete_multipart_upload,
                    Bucket=self.bucket,
                    Key=name,
                    UploadId=upload_id,
                    MultipartUpload={"Parts": parts},
                )
        except BaseException:
            if upload_id is not None:
                await asyncio.shield(
                    asyncio.to_thread(
                        self.client.abort_multipart_upload,
                        Bucket=self.bucket,
                        Key=name,
                        UploadId=upload_id,
                    )
                )
            raise
        return size

    async def read(self, key: str, start: int = 0, end: int | None = None) -> AsyncIterator[bytes]:
        extra = {}
        if start or end is not None:
            extra["Range"] = f"bytes={start}-{'' if end is None else end}"
        answer = await asyncio.to_thread(
            self.client.get_object, Bucket=self.bucket, Key=self._key(key), **extra
        )
        body = answer["Body"]
        try:
            while True:
                chunk = await asyncio.to_thread(body.read, CHUNK_BYTES)
                if not chunk:
                    break
                yield chunk
        finally:
            body.close()

    async def delete(self, key: str) -> None:
        await asyncio.to_thread(self.client.delete_object, Bucket=self.bucket, Key=self._key(key))

    def download_url(self, key: str, *, disposition: str, content_type: str) -> str | None:
        """A presigned GetObject URL (SigV4, signed locally: no call to S3) that makes S3 answer
        with Agora's ``Content-Disposition`` and ``Content-Type`` (``response-content-*``)."""
        url: str = self.client.generate_presigned_url(
            "get_object",
            Params={
                "Bucket": self.bucket,
                "Key": self._key(key),
                "ResponseContentDisposition": disposition,
                "ResponseContentType": content_type,
                "ResponseCacheControl": "private, no-store",
            },
            ExpiresIn=self.presign_seconds,
        )
        return url

    async def list_keys(self) -> AsyncIterator[str]:
        token: str | None = None
        while True:
            extra = {"ContinuationToken": token} if token else {}
            page = await asyncio.to_thread(
                self.client.list_objects_v2, Bucket=self.bucket, Prefix=self.prefix, **extra
            )
            for item in page.get("Contents", ()):
                yield item["Key"][len(self.prefix) :]
            if not page.get("IsTruncated"):
                break
            token = page.get("NextContinuationToken")


def _typed(content_type: ContentType) -> dict[str, str]:
    """S3's ``ContentType`` argument, when the type is known by now."""
    kind = content_type() if content_type is not None else None
    return {"ContentType": kind} if kind else {}


def storage_from_settings(settings: Settings) -> Storage:
    """The backend ``AGORA_STORAGE_URL`` names (empty: ``<data dir>/files``)."""
    url = settings.storage.url.strip()
    if not url:
        return LocalStorage(settings.data_dir / "files")
    parts = urlsplit(url)
    if parts.scheme == "file":
        return LocalStorage(Path(unquote(parts.path)))
    if parts.scheme == "s3":
        if not parts.netloc:
            raise ValueError("AGORA_STORAGE_URL=s3://bucket/prefix needs a bucket")
        return S3Storage(
            parts.netloc,
            parts.path,
            endpoint_url=settings.storage.s3_endpoint or None,
            region=settings.storage.s3_region,
            access_key=settings.storage.s3_access_key or None,
            secret_key=settings.storage.s3_secret_key or None,
            presign_seconds=settings.storage.s3_presign_seconds,
        )
    raise ValueError(f"AGORA_STORAGE_URL: unknown scheme {parts.scheme!r} (file:// or s3://)")
