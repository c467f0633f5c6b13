"""Your data with the files in an S3 bucket (moto on loopback, tests/support/s3.py): the export's
ZIP is written to the bucket by multipart upload when large, holds the files' bytes read back
from it, and the erasure deletes the person's objects and their export's."""

from __future__ import annotations

import io
import zipfile
from collections.abc import AsyncIterator
from datetime import timedelta

import httpx2
import pytest

from agora.app import create_app
from agora.files import service as files
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.settings import Settings
from agora.users.worker import PrivacyWorker
from tests.accounts.helpers import last_link
from tests.conftest import MakeUser
from tests.support.s3 import S3Server
from tests.users.seed import seed


@pytest.fixture
async def s3_settings(settings: Settings, s3_server: S3Server) -> Settings:
    return settings.with_changes(**s3_server.settings_update(s3_server.new_bucket()))


@pytest.fixture
async def s3_client(s3_settings: Settings, db: Database) -> AsyncIterator[httpx2.AsyncClient]:
    app = create_app(s3_settings, db=db, migrate=False, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
            yield c


async def test_export_and_erasure_with_s3_storage(
    s3_client: httpx2.AsyncClient, s3_settings: Settings, db: Database, make_user: MakeUser
) -> None:
    alice = await make_user(name="Alice S3", email="alice-s3@example.com")
    seeded = await seed(db, s3_settings, alice, "ALICE-S3-2b7")
    worker = PrivacyWorker(db, s3_settings)
    storage = files.storage_for(s3_settings)
    assert storage.description.startswith("s3")

    asked = await s3_client.post("/v1/users/me/data-exports", headers=alice.key_headers)
    assert asked.status_code == 202
    assert await worker.build_one()
    _, token = last_link(s3_settings, alice.email, "data export")
    got = await s3_client.post(
        "/v1/users/me/data-exports/download", json={"token": token}, headers=alice.key_headers
    )
    assert got.status_code == 200, got.text
    archive = zipfile.ZipFile(io.BytesIO(got.content))
    [blob] = [n for n in archive.namelist() if n.startswith("files/")]
    assert archive.read(blob) == f"bytes of {seeded.marker}".encode()
    held = [k async for k in storage.list_keys()]
    assert seeded.blob_key in held and any(k.startswith("exports/") for k in held)

    asked = await s3_client.post("/v1/users/me/deletion", headers=alice.key_headers)
    assert asked.status_code == 202
    _, token = last_link(s3_settings, alice.email, "Confirm deleting")
    confirmed = await s3_client.post("/v1/users/me/deletion/confirm", json={"token": token})
    assert confirmed.status_code == 200
    due = utcnow() + timedelta(days=s3_settings.accounts.account_deletion_grace_days, hours=1)
    assert (await worker.run_once(now=due))["erased"] == 1
    assert [k async for k in storage.list_keys()] == []
