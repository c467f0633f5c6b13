"""Issue 33, inputs and outputs through HTTP: a job's `file` field takes an uploaded file's id,
the agent (a real loopback MIP-003 server) fetches it through the signed URL Agora gives it, and
the files its result names are fetched, stored, hashed and listed with their state; another
workspace's key gets 404 for every one of them. Local directory and S3 (moto server mode)."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI

from agora.app import create_app
from agora.files.worker import OutputCollector
from agora.kit.db import Database
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.jobs.helpers import dispatcher, fast_settings, register
from tests.support.agents import LoopbackAgents, serve_asgi
from tests.support.files import CSV, PDF, PNG, LoopBridge, file_agent
from tests.support.s3 import S3Server

Served = tuple[FastAPI, httpx2.AsyncClient, str]


@pytest.fixture(params=["local", "s3"])
async def served(
    request: pytest.FixtureRequest, settings: Settings, db: Database
) -> AsyncIterator[Served]:
    bridge = LoopBridge()
    with serve_asgi(bridge, "agora-bridge") as bridge_url:
        update: dict[str, Any] = {"files_public_url": bridge_url}
        if request.param == "s3":
            s3 = request.getfixturevalue("s3_server")
            update |= s3.settings_update(s3.new_bucket())
        configured = fast_settings(settings).with_changes(**update)
        app = create_app(configured, db=db, migrate=False, background=False)
        async with app.router.lifespan_context(app):
            transport = httpx2.ASGITransport(app=app)
            async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
                bridge.target, bridge.loop = c, asyncio.get_running_loop()
                yield app, c, bridge_url


async def _upload(client: httpx2.AsyncClient, headers: dict[str, str], content: bytes) -> str:
    answer = await client.post(
        "/v1/files", headers=headers, files={"file": ("brief.pdf", content, "application/pdf")}
    )
    assert answer.status_code == 201, answer.text
    file_id: str = answer.json()["data"]["id"]
    return file_id


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


async def _download(
    client: httpx2.AsyncClient, url: str, headers: dict[str, str]
) -> httpx2.Response:
    """A download through the API; on S3 it is a 307 to a presigned URL, followed here."""
    answer = await client.get(_path(url), headers=headers)
    if answer.status_code == 307:
        async with httpx2.AsyncClient(timeout=10) as outside:
            return await outside.get(answer.headers["location"])
    assert answer.status_code == 200, answer.text
    return answer


async def test_input_file_to_agent_and_output_files_back(
    served: Served, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    app, client, bridge_url = served
    owner, stranger = await make_user(), await make_user()
    agent = file_agent(agents_server)
    assert agent.behaviour is not None
    agent_id = await register(app, agents_server, agent.behaviour)
    file_id = await _upload(client, owner.key_headers, PDF)

    # another workspace's file (or an unknown id) is refused, naming the field
    foreign = await _upload(client, stranger.key_headers, PDF)
    refused = await client.post(
        f"/v1/agents/{agent_id}/jobs",
        headers=owner.key_headers,
        json={"inputData": {"document": foreign}},
    )
    assert refused.status_code == 400
    assert "inputData.document" in refused.text

    created = await client.post(
        f"/v1/agents/{agent_id}/jobs",
        headers=owner.key_headers,
        json={"inputData": {"document": file_id}},
    )
    assert created.status_code == 201, created.text
    job_id = created.json()["data"]["id"]
    await dispatcher(app).run_until_idle()
    job = (await client.get(f"/v1/jobs/{job_id}", headers=owner.key_headers)).json()["data"]
    assert job["status"] == "COMPLETED", job
    # the agent fetched the upload through a signed URL of Agora's public files base
    [(url, status, body)] = agent.received
    assert url.startswith(f"{bridge_url}/v1/files/{file_id}/signed?expires=")
    assert (status, body) == (200, PDF)
    assert job["input"] and file_id in job["input"]  # the job keeps the id, not the URL

    assert await OutputCollector(app.state.db, app.state.settings).run_once() == 1
    listed = await client.get(f"/v1/jobs/{job_id}/files", headers=owner.key_headers)
    assert listed.status_code == 200
    files = {f["name"]: f for f in listed.json()["data"]}
    assert set(files) == {"brief.pdf", "chart.png", "data.csv"}
    assert files["brief.pdf"]["source"] == "input"
    assert files["chart.png"]["status"] == "STORED"
    assert files["chart.png"]["mimeType"] == "image/png"
    assert files["chart.png"]["sha256"] == hashlib.sha256(PNG).hexdigest()
    assert files["data.csv"]["status"] == "STORED"
    assert files["data.csv"]["size"] == len(CSV)
    assert files["data.csv"]["sourceUrl"] == f"{agent.assets_url}/data.csv"

    chart = await _download(client, files["chart.png"]["fileUrl"], owner.key_headers)
    assert chart.content == PNG
    assert chart.headers["content-disposition"].startswith("inline;")
    csv = await _download(client, files["data.csv"]["fileUrl"], owner.key_headers)
    assert csv.content == CSV
    assert csv.headers["content-disposition"].startswith("attachment;")
    if not app.state.settings.storage.url.startswith("s3://"):  # else S3's origin, not Agora's
        assert "sandbox" in csv.headers["content-security-policy"]

    # another workspace's key: 404 for the job's files, the upload and both outputs
    assert (
        await client.get(f"/v1/jobs/{job_id}/files", headers=stranger.key_headers)
    ).status_code == 404
    for item in files.values():
        answer = await client.get(_path(item["fileUrl"]), headers=stranger.key_headers)
        assert answer.status_code == 404, item["name"]
        meta = await client.get(f"/v1/files/{item['id']}", headers=stranger.key_headers)
        assert meta.status_code == 404

    # a signed URL that was tampered with, or has expired, is a 404 too
    tampered = _path(url)[:-3] + "AAA"
    assert (await client.get(tampered)).status_code == 404
    expired = _path(url).replace("expires=", "expires=1")
    assert (await client.get(expired)).status_code == 404
    # the collector has nothing left to do
    assert await OutputCollector(app.state.db, app.state.settings).run_once() == 0


async def test_output_states_too_large_refused_unreachable(
    served: Served, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    app, client, _ = served
    owner = await make_user()
    page = b"<html><body><script>alert(1)</script></body></html>"
    agent = file_agent(
        agents_server,
        extra_outputs={"big.txt": (b"x" * 5000, "text/plain"), "cat.png": (page, "image/png")},
        result_extra=(
            "\n\n[big](ASSETS/big.txt) [cat](ASSETS/cat.png) [gone](ASSETS/gone.pdf) "
            "[inside](http://10.0.0.1/secret.pdf)"
        ),
    )
    assert agent.behaviour is not None
    agent_id = await register(app, agents_server, agent.behaviour)
    app.state.settings.files = app.state.settings.with_changes(files_output_max_bytes=1000).files
    file_id = await _upload(client, owner.key_headers, PDF)
    created = await client.post(
        f"/v1/agents/{agent_id}/jobs",
        headers=owner.key_headers,
        json={"inputData": {"document": file_id}},
    )
    job_id = created.json()["data"]["id"]
    await dispatcher(app).run_until_idle()
    assert await OutputCollector(app.state.db, app.state.settings).run_once() == 1
    listed = await client.get(f"/v1/jobs/{job_id}/files", headers=owner.key_headers)
    states = {f["name"]: f["status"] for f in listed.json()["data"]}
    assert states == {
        "brief.pdf": "STORED",
        "chart.png": "STORED",
        "data.csv": "STORED",
        "big.txt": "TOO_LARGE",
        "cat.png": "REFUSED",
        "gone.pdf": "UNREACHABLE",
        "secret.pdf": "REFUSED",
    }
    kept = (await client.get("/v1/files", headers=owner.key_headers)).json()["data"]
    assert sorted(f["state"] for f in kept) == sorted(
        ["stored", "stored", "stored", "too_large", "refused", "unreachable", "refused"]
    )


async def test_the_web_pages_hire_with_a_file_and_show_previews_and_downloads(
    served: Served, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    """The hire form's file field (its picker posts to /v1/files with the session's CSRF token,
    as static/files.js does), then the job page's image preview and CSV download."""
    from tests.web.test_pages import _sign_up_in

    app, client, _ = served
    stranger = await make_user()
    agent = file_agent(agents_server)
    assert agent.behaviour is not None
    agent_id = await register(app, agents_server, agent.behaviour)
    csrf = await _sign_up_in(client, app.state.settings, "fiona@example.com")
    form = await client.get(f"/agents/{agent_id}")
    assert 'data-upload-for="f-document"' in form.text
    assert '<input type="file"' in form.text
    uploaded = await client.post(
        "/v1/files",
        headers={"X-CSRF-Token": csrf},
        files={"file": ("brief.pdf", PDF, "application/pdf")},
    )
    assert uploaded.status_code == 201, uploaded.text
    file_id = uploaded.json()["data"]["id"]
    hired = await client.post(
        f"/agents/{agent_id}/hire", data={"csrf": csrf, "in.document": file_id}
    )
    assert hired.status_code == 303, hired.text
    job_path = hired.headers["location"]
    await dispatcher(app).run_until_idle()
    await OutputCollector(app.state.db, app.state.settings).run_once()
    page = await client.get(job_path)
    assert page.status_code == 200
    [preview] = re.findall(r'<img class="preview" src="([^"]+)"', page.text)
    downloads = dict(
        (name, href.replace("&amp;", "&"))
        for href, name in re.findall(r'<a href="([^"]+)" download="([^"]+)"', page.text)
    )
    assert set(downloads) == {"brief.pdf", "chart.png", "data.csv"}
    image = await client.get(preview.replace("&amp;", "&"))
    assert image.status_code == 200 and image.content == PNG
    assert image.headers["content-type"] == "image/png"
    csv = await client.get(downloads["data.csv"])
    assert csv.content == CSV and csv.headers["content-disposition"].startswith("attachment;")
    # another workspace's key: the job and its files are 404
    job_id = job_path.rsplit("/", 1)[-1]
    client.cookies.clear()
    assert (
        await client.get(f"/v1/jobs/{job_id}/files", headers=stranger.key_headers)
    ).status_code == 404
    assert (
        await client.get(f"/v1/files/{file_id}/content", headers=stranger.key_headers)
    ).status_code == 404


def _object_type(s3: S3Server, settings: Settings, key: str) -> str:
    """The stored object's ``Content-Type``, read back with boto3 (HeadObject)."""
    bucket, prefix = settings.storage.url.removeprefix("s3://").split("/", 1)
    head = s3.client.head_object(Bucket=bucket, Key=f"{prefix}/{key}")
    kind: str = head["ContentType"]
    return kind


async def test_s3_objects_carry_the_files_content_type(
    served: Served,
    request: pytest.FixtureRequest,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
) -> None:
    """An upload and an agent's output files are written to the bucket with their sniffed type
    (PutObject's ``ContentType``), not S3's default ``binary/octet-stream``."""
    app, client, _ = served
    settings: Settings = app.state.settings
    if not settings.storage.url.startswith("s3://"):
        pytest.skip("S3 only: a local file's type lives in its row alone")
    s3: S3Server = request.getfixturevalue("s3_server")
    owner = await make_user()
    upload = await _upload(client, owner.key_headers, PDF)
    assert _object_type(s3, settings, f"{owner.workspace_id}/{upload}") == "application/pdf"

    agent = file_agent(agents_server)
    assert agent.behaviour is not None
    agent_id = await register(app, agents_server, agent.behaviour)
    created = await client.post(
        f"/v1/agents/{agent_id}/jobs",
        headers=owner.key_headers,
        json={"inputData": {"document": upload}},
    )
    job_id = created.json()["data"]["id"]
    await dispatcher(app).run_until_idle()
    assert await OutputCollector(app.state.db, settings).run_once() == 1
    listed = await client.get(f"/v1/jobs/{job_id}/files", headers=owner.key_headers)
    outputs = {f["name"]: f for f in listed.json()["data"] if f["source"] != "input"}
    assert set(outputs) == {"chart.png", "data.csv"}
    for name, item in outputs.items():
        stored = _object_type(s3, settings, f"{owner.workspace_id}/{item['id']}")
        assert stored == item["mimeType"], name
    assert outputs["chart.png"]["mimeType"] == "image/png"
