"""Issue 50.4: on S3 storage a download answers 307 to a short-lived presigned URL of the bucket
(after the same checks), so the bytes never pass through the API process; following it gets the
bytes with Agora's Content-Disposition and Content-Type. Local storage keeps streaming. S3 is
moto in server mode (a real HTTP server on loopback)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import httpx2

from agora.app import create_app
from agora.kit.db import Database
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.files.test_uploads import PDF, PNG, upload
from tests.support.s3 import S3Server

Client = Callable[..., AsyncIterator[httpx2.AsyncClient]]


@asynccontextmanager
async def _client(settings: Settings, db: Database) -> AsyncIterator[httpx2.AsyncClient]:
    app = create_app(settings, db=db, migrate=False, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
            yield c


async def test_s3_download_redirects_to_a_presigned_url(
    settings: Settings, db: Database, make_user: MakeUser, s3_server: S3Server
) -> None:
    configured = settings.with_changes(**s3_server.settings_update(s3_server.new_bucket()))
    async with _client(configured, db) as client:
        owner, stranger = await make_user(), await make_user()
        uploaded = await upload(client, owner, PDF, name="quarterly report.pdf")
        assert uploaded.status_code == 201, uploaded.text
        file_id = uploaded.json()["data"]["id"]

        disposition = (
            "attachment; filename=\"quarterly report.pdf\"; filename*=UTF-8''quarterly%20report.pdf"
        )
        before = time.time()
        answer = await client.get(f"/v1/files/{file_id}/content", headers=owner.key_headers)
        assert answer.status_code == 307, answer.text
        assert answer.content == b""  # no bytes through the API
        location = answer.headers["location"]
        assert location.startswith(f"{s3_server.endpoint}/")
        query = {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}
        # SigV4: valid for AGORA_STORAGE_S3_PRESIGN_SECONDS (60 by default) from now
        assert query["X-Amz-Expires"] == "60"
        signed_at = datetime.strptime(query["X-Amz-Date"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        assert before - 5 <= signed_at.timestamp() <= time.time() + 5
        assert query["response-content-type"] == "application/pdf"
        assert query["response-content-disposition"] == disposition

        # the client fetches the bytes from S3 itself, served as Agora would serve them
        fetched = httpx2.get(location, timeout=10)
        assert fetched.status_code == 200
        assert fetched.content == PDF
        assert fetched.headers["content-type"] == "application/pdf"
        assert fetched.headers["content-disposition"] == disposition
        assert fetched.headers["content-disposition"].startswith("attachment;")
        # ranges are S3's own
        part = httpx2.get(location, headers={"Range": "bytes=0-3"}, timeout=10)
        assert (part.status_code, part.content) == (206, PDF[:4])

        # the same checks first: another workspace (or no key) gets no URL
        foreign = await client.get(f"/v1/files/{file_id}/content", headers=stranger.key_headers)
        assert foreign.status_code == 404
        assert "location" not in foreign.headers and "X-Amz" not in foreign.text
        anonymous = await client.get(f"/v1/files/{file_id}/content")
        assert anonymous.status_code == 401 and "location" not in anonymous.headers

        # a conditional GET is still answered by the API (no bytes)
        etag = f'"{uploaded.json()["data"]["sha256"]}"'
        cached = await client.get(
            f"/v1/files/{file_id}/content", headers={**owner.key_headers, "If-None-Match": etag}
        )
        assert cached.status_code == 304


async def test_the_presigned_urls_lifetime_is_a_setting(
    settings: Settings, db: Database, make_user: MakeUser, s3_server: S3Server
) -> None:
    configured = settings.with_changes(
        **s3_server.settings_update(s3_server.new_bucket()), storage_s3_presign_seconds=5
    )
    async with _client(configured, db) as client:
        owner = await make_user()
        uploaded = await upload(client, owner, PNG, name="chart.png", claimed="image/png")
        file_id = uploaded.json()["data"]["id"]
        answer = await client.get(f"/v1/files/{file_id}/content", headers=owner.key_headers)
        assert answer.status_code == 307
        query = parse_qs(urlsplit(answer.headers["location"]).query)
        assert query["X-Amz-Expires"] == ["5"]
        # a preview type is served inline by S3 too
        assert query["response-content-disposition"][0].startswith("inline;")
        assert query["response-content-type"] == ["image/png"]


async def test_local_storage_keeps_streaming(
    settings: Settings, db: Database, make_user: MakeUser
) -> None:
    async with _client(settings, db) as client:
        owner = await make_user()
        uploaded = await upload(client, owner, PDF)
        file_id = uploaded.json()["data"]["id"]
        answer = await client.get(f"/v1/files/{file_id}/content", headers=owner.key_headers)
        assert answer.status_code == 200 and answer.content == PDF
        assert "location" not in answer.headers
