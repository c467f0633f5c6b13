"""Slow and aborted uploads (issue 43, item 9), over real sockets against the app served by
uvicorn in the test's own event loop (so the test reads the served app's own pool):

- uploads that trickle in hold no pooled database connection while their bytes arrive, and
  another person is served meanwhile; past ``AGORA_FILES_UPLOAD_TIMEOUT_SECONDS`` each is cut
  off with 408;
- an upload cut off or aborted mid-body leaves no row and no blob, not even a temporary file.

Every wait is bounded."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import httpx2
import pytest
import uvicorn
from fastapi import FastAPI
from sqlalchemy import func, select

from agora.kit.db import Database
from agora.models import StoredFile
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.support.server import free_port

pytestmark = pytest.mark.process  # real sockets and a real deadline: make prove

UPLOAD_SECONDS = 4.0  # the upload deadline the served app runs with
TRICKLERS = 30  # more than either pool holds (PostgreSQL 20 + 5, SQLite 4 + 1)
BOUNDARY = "trickle"


async def until(done: Callable[[], Awaitable[bool]], seconds: float, what: str) -> None:
    """Wait (polling every 20 ms) until ``done()``; fail after ``seconds``."""
    for _ in range(int(seconds / 0.02) + 1):
        if await done():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"not within {seconds:g} s: {what}")


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.with_changes(files={"upload_timeout_seconds": UPLOAD_SECONDS})


@pytest.fixture
async def served(app: FastAPI) -> AsyncIterator[int]:
    """The app on a loopback port, served in this event loop; its port."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", log_level="warning")
    )
    task = asyncio.create_task(server.serve())

    async def started() -> bool:
        return bool(server.started)

    await until(started, 15, "the server started")
    try:
        yield port
    finally:
        server.should_exit = True
        async with asyncio.timeout(15):
            await task


def upload_head(user: TestUser, declared: int) -> bytes:
    """The request line, headers and the file part's preamble of a text upload whose body
    declares ``declared`` bytes of file content (it never sends them all)."""
    preamble = (
        f"--{BOUNDARY}\r\n"
        'Content-Disposition: form-data; name="file"; filename="slow.txt"\r\n'
        "Content-Type: text/plain\r\n\r\n"
    ).encode()
    length = len(preamble) + declared + len(f"\r\n--{BOUNDARY}--\r\n")
    return (
        "POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"x-api-key: {user.api_key}\r\n"
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode() + preamble


async def trickle(port: int, user: TestUser, seconds: float) -> bytes:
    """An upload whose content arrives a byte every 0.1 s for up to ``seconds``: the first bytes
    of the server's answer (empty if it closed without one)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(upload_head(user, declared=10_000) + b"The first line arrives.\n")
        await writer.drain()
        deadline = time.monotonic() + seconds
        answer = asyncio.ensure_future(reader.read(200))
        while time.monotonic() < deadline and not answer.done():
            writer.write(b"x")
            await writer.drain()
            await asyncio.wait([answer], timeout=0.1)
        async with asyncio.timeout(10):
            return await answer
    except (ConnectionError, TimeoutError):
        return b""
    finally:
        writer.close()


async def files_left(db: Database, data_dir: Path) -> tuple[int, list[Path]]:
    """The stored-file rows and every file under the storage directory (temporary ones too)."""
    async with db.transaction(write=False) as session:
        rows = await session.scalar(select(func.count()).select_from(StoredFile))
    root = data_dir / "files"
    blobs = sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []
    return int(rows or 0), blobs


async def test_trickling_uploads_hold_no_connection_and_are_cut_off_with_408(
    served: int, db: Database, settings: Settings, make_user: MakeUser
) -> None:
    dripper, reader = await make_user(), await make_user()
    drips = [
        asyncio.create_task(trickle(served, dripper, UPLOAD_SECONDS + 3)) for _ in range(TRICKLERS)
    ]
    # Each upload reads (its key, the quota) first, then streams into a temporary file: once
    # every one is streaming, the pool is idle …
    streaming = settings.data_dir / "files" / ".tmp"

    async def all_streaming() -> bool:
        return streaming.exists() and len(list(streaming.glob("*"))) == TRICKLERS

    await until(all_streaming, UPLOAD_SECONDS - 1, "every upload streaming")
    checked_out = []
    for _ in range(10):  # … and stays so while their bytes trickle in
        checked_out.append(db.engine.pool.checkedout())
        await asyncio.sleep(0.1)
    latencies = []
    async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{served}", timeout=5) as client:
        for _ in range(10):
            started = time.monotonic()
            listed = await client.get("/v1/files", headers=reader.key_headers)
            latencies.append(time.monotonic() - started)
            assert listed.status_code == 200, listed.text
            await asyncio.sleep(0.1)
    answers = await asyncio.gather(*drips)
    assert checked_out == [0] * 10  # no trickling upload holds a pooled connection
    assert max(latencies) < 1.0, latencies
    assert all(a.startswith(b"HTTP/1.1 408") for a in answers), answers[:3]
    assert await files_left(db, settings.data_dir) == (0, [])


async def test_an_aborted_upload_leaves_no_row_and_no_blob(
    served: int, db: Database, settings: Settings, make_user: MakeUser
) -> None:
    user = await make_user()
    _, writer = await asyncio.open_connection("127.0.0.1", served)
    writer.write(upload_head(user, declared=200_000) + b"Half a file.\n" + b"y" * 100_000)
    await writer.drain()
    streaming = settings.data_dir / "files" / ".tmp"

    async def stored_in_part() -> bool:  # the first bytes are in storage's temporary file
        return streaming.exists() and any(p.stat().st_size for p in streaming.glob("*"))

    await until(stored_in_part, 10, "the upload streaming")
    writer.transport.abort()  # the client goes away mid-body

    async def cleaned_up() -> bool:
        left = await files_left(db, settings.data_dir)
        return left == (0, []) and not db.engine.pool.checkedout()

    await until(cleaned_up, 10, "the aborted upload cleaned up")
    # A whole upload on a fresh connection still works (the abort left nothing stuck).
    async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{served}", timeout=5) as client:
        made = await client.post(
            "/v1/files", headers=user.key_headers, files={"file": ("ok.txt", b"whole\n")}
        )
    assert made.status_code == 201, made.text
    rows, blobs = await files_left(db, settings.data_dir)
    assert rows == 1 and len(blobs) == 1
