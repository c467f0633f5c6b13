"""Issue 50 item 7: `agora backup DEST` / `agora restore SRC`: a drill. Seed a person with
completed jobs, uploaded files and ledger entries; back up; restore into a fresh database and
storage; an app on the restored database finds every job, file (same bytes) and entry."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from typer.testing import CliRunner

from agora.app import create_app
from agora.cli.main import app as cli
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.settings import Settings, get_settings
from tests.conftest import MakeUser, _admin_execute, _postgres_url
from tests.jobs.helpers import create, dispatcher, echo, fast_settings, job, register
from tests.support.agents import LoopbackAgents
from tests.support.files import CSV, PDF
from tests.support.s3 import S3Server, moto_s3


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return fast_settings(settings)


def invoke(database_url: str, data_dir: Path, *args: str, **extra: str) -> Any:
    env = {
        "AGORA_DATABASE_URL": database_url,
        "AGORA_DATA_DIR": str(data_dir),
        "AGORA_SECRET_KEY": "test-secret-key",
        "AGORA_LOG_LEVEL": "WARNING",
        **extra,
    }
    get_settings.cache_clear()
    try:
        return CliRunner().invoke(cli, list(args), env=env)
    finally:
        get_settings.cache_clear()


@pytest.fixture
async def fresh_database(db: Database, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database of the same kind, the restore's target."""
    if db.is_sqlite:
        yield f"sqlite+aiosqlite:///{tmp_path / 'restored' / 'agora.db'}"
        return
    name = f"agora_restore_{uuid.uuid4().hex[:12]}"
    await _admin_execute(f'CREATE DATABASE "{name}"')
    try:
        yield _postgres_url(name)
    finally:
        await _admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_backup_and_restore_drill(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    db: Database,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    fresh_database: str,
    tmp_path: Path,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=1)
    user = await make_user(credits=to_base(5))
    job_ids = [
        (await create(client, user.key_headers, agent_id)).json()["data"]["id"] for _ in range(2)
    ]
    await dispatcher(app).run_until_idle(5)
    jobs = [await job(client, user.key_headers, job_id) for job_id in job_ids]
    assert [j["status"] for j in jobs] == ["COMPLETED", "COMPLETED"]
    uploads = {}
    for name, data in (("a.pdf", PDF), ("b.csv", CSV)):
        response = await client.post(
            "/v1/files", headers=user.key_headers, files={"file": (name, data)}
        )
        assert response.status_code == 201, response.text
        uploads[response.json()["data"]["id"]] = data
    credits = (await client.get("/v1/credits", headers=user.key_headers)).json()["data"]
    assert len(credits["entries"]) >= 3  # grant, then a hold and a capture per job

    dest = tmp_path / "backup"
    done = await asyncio.to_thread(invoke, db.url, settings.data_dir, "backup", str(dest))
    assert done.exit_code == 0, done.output
    manifest = json.loads((dest / "manifest.json").read_text())
    assert manifest["database"] == ("sqlite" if db.is_sqlite else "postgresql")
    assert manifest["alembic_revision"]
    assert manifest["file_count"] >= 2
    assert not (dest / ".partial").exists()
    # A second backup into the same directory is refused, not mixed in.
    again = await asyncio.to_thread(invoke, db.url, settings.data_dir, "backup", str(dest))
    assert again.exit_code == 1

    restored_dir = tmp_path / "restored"
    done = await asyncio.to_thread(invoke, fresh_database, restored_dir, "restore", str(dest))
    assert done.exit_code == 0, done.output
    # Restoring again over the now-populated target is refused without --force.
    again = await asyncio.to_thread(invoke, fresh_database, restored_dir, "restore", str(dest))
    assert again.exit_code == 1
    assert "not empty" in again.output

    restored_db = Database(fresh_database)
    restored_settings = settings.with_changes(database_url=fresh_database, data_dir=restored_dir)
    restored = create_app(restored_settings, db=restored_db, migrate=False, background=False)
    try:
        async with restored.router.lifespan_context(restored):
            transport = httpx2.ASGITransport(app=restored)
            async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
                for before in jobs:
                    after = await job(c, user.key_headers, before["id"])
                    assert (after["status"], after["output"]) == (
                        before["status"],
                        before["output"],
                    )
                for file_id, data in uploads.items():
                    content = await c.get(f"/v1/files/{file_id}/content", headers=user.key_headers)
                    assert content.status_code == 200
                    assert content.content == data
                got = (await c.get("/v1/credits", headers=user.key_headers)).json()["data"]
                assert got == credits
    finally:
        await restored_db.dispose()


async def test_a_damaged_backup_is_refused(
    client: httpx2.AsyncClient,
    settings: Settings,
    db: Database,
    make_user: MakeUser,
    fresh_database: str,
    tmp_path: Path,
) -> None:
    user = await make_user()
    response = await client.post(
        "/v1/files", headers=user.key_headers, files={"file": ("a.pdf", PDF)}
    )
    file_id = response.json()["data"]["id"]
    dest = tmp_path / "backup"
    done = await asyncio.to_thread(invoke, db.url, settings.data_dir, "backup", str(dest))
    assert done.exit_code == 0, done.output
    (dest / "files" / str(user.workspace_id) / file_id).write_bytes(b"tampered")
    failed = await asyncio.to_thread(
        invoke, fresh_database, tmp_path / "restored", "restore", str(dest)
    )
    assert failed.exit_code == 1
    assert "damaged" in failed.output


@pytest.fixture(scope="module")
def s3_server() -> Iterator[S3Server]:
    with moto_s3() as server:
        yield server


def _s3_env(s3: S3Server, bucket: str) -> dict[str, str]:
    return {f"AGORA_{k.upper()}": str(v) for k, v in s3.settings_update(bucket).items()}


async def test_backup_and_restore_drill_on_s3(
    settings: Settings,
    db: Database,
    make_user: MakeUser,
    fresh_database: str,
    tmp_path: Path,
    s3_server: S3Server,
) -> None:
    """The same drill with the files on S3 (moto in server mode on loopback): backed up from one
    bucket, restored into another, downloaded from it again (a presigned redirect, followed)."""
    source, target = s3_server.new_bucket(), s3_server.new_bucket()
    on_s3 = settings.with_changes(**s3_server.settings_update(source))
    app = create_app(on_s3, db=db, migrate=False, background=False)
    uploads: dict[str, bytes] = {}
    user = await make_user()
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
            for name, data in (("a.pdf", PDF), ("b.csv", CSV)):
                response = await c.post(
                    "/v1/files", headers=user.key_headers, files={"file": (name, data)}
                )
                assert response.status_code == 201, response.text
                uploads[response.json()["data"]["id"]] = data

    dest = tmp_path / "backup"
    done = await asyncio.to_thread(
        invoke, db.url, tmp_path / "data", "backup", str(dest), **_s3_env(s3_server, source)
    )
    assert done.exit_code == 0, done.output
    assert json.loads((dest / "manifest.json").read_text())["file_count"] == 2
    done = await asyncio.to_thread(
        invoke, fresh_database, tmp_path / "r", "restore", str(dest), **_s3_env(s3_server, target)
    )
    assert done.exit_code == 0, done.output
    restored_keys = s3_server.client.list_objects_v2(Bucket=target).get("Contents", [])
    assert len(restored_keys) == 2

    restored_db = Database(fresh_database)
    restored_settings = settings.with_changes(
        database_url=fresh_database, **s3_server.settings_update(target)
    )
    restored = create_app(restored_settings, db=restored_db, migrate=False, background=False)
    try:
        async with restored.router.lifespan_context(restored):
            transport = httpx2.ASGITransport(app=restored)
            async with (
                httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c,
                httpx2.AsyncClient() as bucket,
            ):
                for file_id, data in uploads.items():
                    answer = await c.get(f"/v1/files/{file_id}/content", headers=user.key_headers)
                    assert answer.status_code == 307, answer.text
                    location = answer.headers["location"]
                    assert f"/{target}/" in location
                    assert (await bucket.get(location)).content == data
    finally:
        await restored_db.dispose()
