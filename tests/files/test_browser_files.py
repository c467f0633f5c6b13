"""Issue 33 in a real headless Chromium against ``agora serve`` (embedded SQLite, its embedded
dispatcher and output collector): a person signed in on the web hires a loopback MIP-003 agent
whose schema has a ``file`` field, picks a PDF in the hire form's file input (uploaded by
static/files.js), submits; the agent fetches it through the signed URL and answers with an image
URL and a CSV URL; the job page shows the image as a loaded preview and the CSV as a download;
another workspace's key gets 404 for the upload, the image and the CSV. Local directory and S3
(moto in server mode). Marked ``process``."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.support.agents import LoopbackAgents, loopback_agents
from tests.support.files import CSV, PDF, PNG, file_agent
from tests.support.server import agora_env, create_user, free_port, run_cli, running_process
from tests.web.test_browser import TIMEOUT_MS, _shot, _sign_up_and_in

pytestmark = pytest.mark.process


@dataclass
class Site:
    base: str
    data: Path
    env: dict[str, str]
    agents: LoopbackAgents
    backend: str
    stored_keys: Callable[[], list[str]]  # what the storage backend holds


@pytest.fixture(scope="module", params=["local", "s3"])
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    data = tmp_path_factory.mktemp(f"files-{request.param}")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    extra = {
        "AGORA_WELCOME_CREDITS": "100000000",
        "AGORA_DEMO": "false",
        # the agent (on loopback) fetches its input from this server's own address
        "AGORA_FILES_PUBLIC_URL": base,
        "AGORA_PUBLIC_URL": base,
    }
    files_dir = data / "files"

    def stored_keys() -> list[str]:
        return [str(p.relative_to(files_dir)) for p in files_dir.glob("*/*") if p.is_file()]

    if request.param == "s3":
        s3 = request.getfixturevalue("s3_server")
        bucket = s3.new_bucket()
        update = s3.settings_update(bucket)
        extra |= {f"AGORA_{k.upper()}": str(v) for k, v in update.items()}

        def stored_keys() -> list[str]:
            listed = s3.client.list_objects_v2(Bucket=bucket, Prefix="files/")
            return [str(o["Key"]).removeprefix("files/") for o in listed.get("Contents", [])]

    env = agora_env(data, **extra)
    serve = ["-m", "agora.cli.main", "serve", "--port", str(port)]
    with (
        loopback_agents() as agents,
        running_process(env, serve, port, stdout=data / "banner.txt", startup_seconds=120),
    ):
        yield Site(base, data, env, agents, request.param, stored_keys)


def _until(check: Callable[[], Any], what: str, seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_hire_with_an_uploaded_pdf_then_see_the_image_preview_and_the_csv_download(
    site: Site, browser: object
) -> None:
    agent = file_agent(site.agents)
    assert agent.behaviour is not None
    url = site.agents.serve(agent.behaviour)
    registered = json.loads(
        run_cli(
            site.env,
            *("agents", "register", url, "--name", f"Reader {site.backend}"),
            *("--price", "0", "--verify", "--json"),
        )
    )
    agent_id = registered["agentId"]
    stranger = create_user(site.env, f"stranger-{uuid.uuid4().hex[:6]}@example.com")

    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on(
        "console",
        lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None,
    )
    try:
        _sign_up_and_in(page, site.base, site.data, "Fiona")
        page.goto(f"{site.base}/agents/{agent_id}")
        page.wait_for_selector("#hire-form")
        # Pick the PDF in the file input: files.js uploads it and puts its id in the text box.
        page.set_input_files(
            "#f-document-picker",
            files=[{"name": "brief.pdf", "mimeType": "application/pdf", "buffer": PDF}],
        )
        page.wait_for_selector("#f-document-status:has-text('Uploaded brief.pdf')")
        upload_id = page.input_value("#f-document")
        assert re.fullmatch(r"[0-9a-f-]{36}", upload_id), upload_id
        page.click("#hire-form button[type=submit]")
        page.wait_for_url(re.compile(r".*/jobs/[0-9a-f-]{36}$"))
        job_id = page.url.rsplit("/", 1)[-1]
        page.wait_for_selector("#job-status:has-text('COMPLETED')", timeout=30_000)
        # The agent read the upload through Agora's signed URL, and nothing else.
        [(fetched, status, body)] = agent.received
        assert fetched.startswith(f"{site.base}/v1/files/{upload_id}/signed?expires=")
        assert (status, body) == (200, PDF)

        # The collector stores the outputs in the background: reload until both are shown.
        def collected() -> bool:
            page.reload()
            return page.locator("img.preview").count() == 1 and (
                page.locator("a[download='data.csv']").count() == 1
            )

        _until(collected, "the job page to show the stored outputs")
        preview = page.locator("img.preview")
        preview.scroll_into_view_if_needed()
        page.wait_for_function("() => document.querySelector('img.preview').complete")
        assert page.evaluate("() => document.querySelector('img.preview').naturalWidth") > 0
        assert preview.get_attribute("alt") == "chart.png (preview)"
        with page.expect_download() as started:
            page.click("a[download='data.csv']")
        download = started.value
        assert download.suggested_filename == "data.csv"
        assert Path(download.path()).read_bytes() == CSV
        _shot(page, f"job-files-{site.backend}")

        # The job's files, read with the person's session: the upload and both outputs.
        listed = page.request.get(f"{site.base}/v1/jobs/{job_id}/files")
        assert listed.status == 200, listed.text()
        files = {f["name"]: f for f in listed.json()["data"]}
        assert set(files) == {"brief.pdf", "chart.png", "data.csv"}
        assert files["brief.pdf"]["id"] == upload_id
        assert all(files[n]["status"] == "STORED" for n in ("chart.png", "data.csv"))
        # ... kept in the backend under test (keys <workspace id>/<file id>)
        kept = {key.rsplit("/", 1)[-1] for key in site.stored_keys()}
        assert {f["id"] for f in files.values()} <= kept, kept
        if site.backend == "s3":  # and not on the local disk
            assert not [p for p in (site.data / "files").glob("*/*") if p.is_file()]
        image = page.request.get(f"{site.base}/v1/files/{files['chart.png']['id']}/content")
        assert image.body() == PNG

        # Another workspace's key: 404 for the upload, the image and the CSV (and the job).
        stranger_headers = {"Authorization": f"Bearer {stranger['apiKey']}"}
        for name in ("brief.pdf", "chart.png", "data.csv"):
            file_id = files[name]["id"]
            for path in (f"/v1/files/{file_id}", f"/v1/files/{file_id}/content"):
                answer = httpx2.get(f"{site.base}{path}", headers=stranger_headers, timeout=15)
                assert answer.status_code == 404, (name, path, answer.text)
        answer = httpx2.get(
            f"{site.base}/v1/jobs/{job_id}/files", headers=stranger_headers, timeout=15
        )
        assert answer.status_code == 404
        assert errors == []
    finally:
        context.close()
