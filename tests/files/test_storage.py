"""Issue 33: both storage backends behind one interface — a local directory and S3 (moto in
server mode on loopback) — write, ranged reads, multipart parts, failed writes leave nothing."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agora.files.storage import PART_BYTES, LocalStorage, S3Storage, Storage, storage_from_settings
from agora.settings import Settings
from tests.support.s3 import S3Server


@pytest.fixture(params=["local", "s3"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Storage:
    if request.param == "local":
        return LocalStorage(tmp_path / "files")
    server: S3Server = request.getfixturevalue("s3_server")
    settings = Settings(data_dir=tmp_path, **server.settings_update(server.new_bucket()))
    made = storage_from_settings(settings)
    assert isinstance(made, S3Storage)
    return made


async def chunks(data: bytes, size: int = 100_000) -> AsyncIterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


async def read_all(storage: Storage, key: str, start: int = 0, end: int | None = None) -> bytes:
    return b"".join([c async for c in storage.read(key, start, end)])


async def test_write_read_range_delete_keys(storage: Storage) -> None:
    data = bytes(range(256)) * 40
    assert await storage.write("ws/one", chunks(data)) == len(data)
    assert await read_all(storage, "ws/one") == data
    assert await read_all(storage, "ws/one", 10, 19) == data[10:20]
    assert await read_all(storage, "ws/one", len(data) - 5) == data[-5:]
    await storage.write("ws/two", chunks(b""))
    assert sorted([k async for k in storage.list_keys()]) == ["ws/one", "ws/two"]
    await storage.delete("ws/one")
    await storage.delete("ws/absent")
    assert [k async for k in storage.list_keys()] == ["ws/two"]


async def test_a_large_write_goes_in_parts(storage: Storage) -> None:
    data = hashlib.sha256(b"seed").digest() * ((PART_BYTES + 12345) // 32)
    assert await storage.write("ws/big", chunks(data, 1 << 20)) == len(data)
    got = await read_all(storage, "ws/big")
    assert hashlib.sha256(got).hexdigest() == hashlib.sha256(data).hexdigest()


async def test_a_failed_write_leaves_nothing(storage: Storage) -> None:
    async def failing() -> AsyncIterator[bytes]:
        yield b"a" * (PART_BYTES + 10)
        yield b"b" * 10
        raise RuntimeError("client went away")

    with pytest.raises(RuntimeError):
        await storage.write("ws/broken", failing())
    assert [k async for k in storage.list_keys()] == []


async def test_the_storage_url_picks_the_backend(tmp_path: Path) -> None:
    default = storage_from_settings(Settings(data_dir=tmp_path))
    assert isinstance(default, LocalStorage) and default.root == tmp_path / "files"
    other = storage_from_settings(Settings(data_dir=tmp_path, storage_url="file:///srv/blobs"))
    assert isinstance(other, LocalStorage) and other.root == Path("/srv/blobs")
    with pytest.raises(ValueError, match="unknown scheme"):
        storage_from_settings(Settings(data_dir=tmp_path, storage_url="ftp://x/y"))
    with pytest.raises(ValueError, match="invalid storage key"):
        await LocalStorage(tmp_path).delete("../etc/passwd")


async def test_s3_writes_the_content_type_small_and_in_parts(
    s3_server: S3Server, tmp_path: Path
) -> None:
    """The type the caller gives (sniffed as the bytes go by) is the object's ``ContentType``,
    for a single PutObject and for a multipart upload alike (read back with boto3)."""
    bucket = s3_server.new_bucket()
    made = storage_from_settings(Settings(data_dir=tmp_path, **s3_server.settings_update(bucket)))
    big = hashlib.sha256(b"part").digest() * ((PART_BYTES + 999) // 32)
    await made.write("ws/small", chunks(b"%PDF-1.4\n"), lambda: "application/pdf")
    await made.write("ws/big", chunks(big, 1 << 20), lambda: "text/csv")
    await made.write("ws/untyped", chunks(b"x"))
    types = {
        key: s3_server.client.head_object(Bucket=bucket, Key=f"files/{key}")["ContentType"]
        for key in ("ws/small", "ws/big", "ws/untyped")
    }
    assert types["ws/small"] == "application/pdf"
    assert types["ws/big"] == "text/csv"
    assert types["ws/untyped"] != "application/pdf"  # S3's default, untouched
