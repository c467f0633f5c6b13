"""Issue 33: `agora storage check` reports blobs no file row names (orphans) and stored files
whose blob is gone; --delete-orphans removes old orphans only (an upload in flight writes its
blob before its row)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx2
from typer.testing import CliRunner

from agora.cli.main import app as cli
from agora.files.service import storage_for
from agora.kit.db import Database
from agora.kit.ids import uuid7
from agora.settings import Settings, get_settings
from tests.conftest import MakeUser
from tests.support.files import PDF


async def check(settings: Settings, db: Database, *args: str) -> dict[str, Any]:
    env = {
        "AGORA_DATABASE_URL": db.url,
        "AGORA_DATA_DIR": str(settings.data_dir),
        "AGORA_SECRET_KEY": "test-secret-key",
        "AGORA_LOG_LEVEL": "WARNING",
    }
    get_settings.cache_clear()
    result = await asyncio.to_thread(
        CliRunner().invoke, cli, ["storage", "check", "--json", *args], env=env
    )
    get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


async def one(data: bytes) -> AsyncIterator[bytes]:
    yield data


async def test_orphans_and_missing_blobs(
    client: httpx2.AsyncClient, settings: Settings, db: Database, make_user: MakeUser
) -> None:
    user = await make_user()
    kept = (
        await client.post("/v1/files", headers=user.key_headers, files={"file": ("a.pdf", PDF)})
    ).json()["data"]
    lost = (
        await client.post("/v1/files", headers=user.key_headers, files={"file": ("b.pdf", PDF)})
    ).json()["data"]
    storage = storage_for(settings)
    await storage.delete(f"{user.workspace_id}/{lost['id']}")
    old_orphan = f"{user.workspace_id}/00000000-0000-7000-8000-000000000001"  # a 1970 UUIDv7
    young = f"{user.workspace_id}/{uuid7()}"
    for key in (old_orphan, young):
        await storage.write(key, one(b"left behind"))

    report = await check(settings, db)
    assert report["blobs"] == 3
    assert sorted(report["orphans"]) == sorted([old_orphan, young])
    assert report["missing"] == [lost["id"]]
    assert kept["id"] not in report["missing"]

    cleaned = await check(settings, db, "--delete-orphans")
    assert cleaned["deleted"] == 1  # the young one may be an upload in flight
    assert [k async for k in storage.list_keys()] == sorted(
        [f"{user.workspace_id}/{kept['id']}", young]
    )
