"""agora-client (clients/python) against a real `agora serve` on loopback, with the sandbox's
demo agents: the 15-line first-steps script, sync and async, paging, typed errors, the device
sign-in, webhooks; ``Retry-After`` and ``Idempotency-Key`` against a loopback stand-in that
answers 429/503; and the committed generated client against the current OpenAPI document."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import subprocess
import sys
import threading
import time
import tomllib
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import agora_client
import httpx2
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tests.oauth.helpers import csrf_of
from tests.support.server import (
    agora_env,
    create_user,
    running_agora_serve,
    serve_in_thread,
)

pytestmark = pytest.mark.process  # a real server: make prove

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "clients" / "python" / "examples" / "first_steps.py"
JOBS = 250


@dataclass
class Receiver:
    """A webhook receiver on loopback: keeps every POST (raw body, headers); ``GET /received?job=``
    answers the first delivery about that job, waiting for it (at most 30 s)."""

    deliveries: list[dict[str, Any]] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    async def receive(self, request: Request) -> Response:
        body = (await request.body()).decode()
        with self.arrived:
            self.deliveries.append({"body": body, "headers": dict(request.headers)})
            self.arrived.notify_all()
        return Response(status_code=204)

    async def received(self, request: Request) -> Response:
        job = request.query_params["job"]
        found = await asyncio.to_thread(self._wait_for, job)
        return JSONResponse(found, status_code=200 if found else 404)

    def _wait_for(self, job: str) -> dict[str, Any] | None:
        deadline = time.monotonic() + 30
        with self.arrived:
            while time.monotonic() < deadline:
                for delivery in self.deliveries:
                    if job in delivery["body"]:
                        return delivery
                self.arrived.wait(timeout=0.5)
        return None

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/hook", self.receive, methods=["POST"]),
                Route("/hook/received", self.received, methods=["GET"]),
            ]
        )


@dataclass
class Served:
    base: str
    env: dict[str, str]
    key: str
    banner: Path
    hook: str
    receiver: Receiver


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`agora serve` (embedded SQLite, the demo agents) and a person with 249 jobs already."""
    tmp = tmp_path_factory.mktemp("client")
    env = agora_env(tmp)
    receiver = Receiver()
    with (
        serve_in_thread(receiver.app(), "webhook-receiver") as hook_base,
        running_agora_serve(env, tmp / "serve.out") as base,
    ):
        key = create_user(env, f"client-{uuid.uuid4().hex[:8]}@example.com", credits="5000")[
            "apiKey"
        ]
        with agora_client.Client(base, api_key=key) as client, ThreadPoolExecutor(4) as pool:
            echo = client.agents.find("Echo")
            list(
                pool.map(lambda n: client.jobs.create(echo, {"text": f"job {n}"}), range(JOBS - 1))
            )
        yield Served(base, env, key, tmp / "serve.out", f"{hook_base}/hook", receiver)


def test_first_steps_script_signs_in_runs_pages_and_verifies_a_webhook(served: Served) -> None:
    lines = [line for line in SCRIPT.read_text().splitlines() if line.strip()]
    assert len(lines) <= 15, len(lines)
    env = dict(os.environ, AGORA_URL=served.base, AGORA_API_KEY=served.key, WEBHOOK_URL=served.hook)
    result = subprocess.run(
        [sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=180,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    found = re.fullmatch(r"job (\S+): HELLO; (\d+) jobs; webhook (\S+) ok\n", result.stdout)
    assert found, result.stdout
    assert int(found.group(2)) == JOBS
    # The delivery the script verified is the one Agora sent for that job.
    delivery = next(d for d in served.receiver.deliveries if found.group(1) in d["body"])
    assert delivery["headers"]["webhook-id"] == found.group(3)


def test_paging_follows_signed_cursors_to_every_job_once(served: Served) -> None:
    with agora_client.Client(served.base, api_key=served.key) as client:
        seen = [job.id for job in client.jobs.iter(page_size=7)]
        assert len(seen) >= JOBS - 1 and len(set(seen)) == len(seen)
        agents = [agent.name for agent in client.agents.iter(page_size=1)]
        assert sorted(agents) == ["Echo", "Reviewer"]
        # A cursor the server did not sign is refused, naming the field.
        with pytest.raises(agora_client.BadRequest) as refused:
            client.request("GET", "/v1/jobs", params={"cursor": "forged"})
    assert refused.value.status == 400 and refused.value.code == "400"
    assert [d.field for d in refused.value.details] == ["cursor"]


def test_run_follows_the_live_stream(served: Served, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="agora_client")
    with agora_client.Client(served.base, api_key=served.key) as client:
        job = client.jobs.run(client.agents.find("Echo"), {"text": "streamed"}, timeout=60)
    assert (job.status, job.result) == ("COMPLETED", "STREAMED")
    messages = [r.getMessage() for r in caplog.records]
    assert f"job {job.id}: settled, as its stream said" in messages, messages
    assert not any("polling" in m for m in messages), messages


async def test_async_client_runs_pages_and_refuses(served: Served) -> None:
    async with agora_client.AsyncClient(served.base, api_key=served.key) as client:
        echo = await client.agents.find("Echo")
        job = await client.jobs.run(echo, {"text": "async"}, timeout=60)
        assert (job.status, job.result) == ("COMPLETED", "ASYNC")
        ids = [j.id async for j in client.jobs.iter(page_size=50)]
        assert job.id in ids and len(set(ids)) == len(ids) >= JOBS
        with pytest.raises(agora_client.BadRequest) as bad:
            await client.jobs.create(echo, {"nope": 1})
        assert {d.field for d in bad.value.details} == {"inputData.nope", "inputData.text"}


def test_errors_carry_both_envelope_families_fields(served: Served) -> None:
    with agora_client.Client(served.base, api_key=served.key) as client:
        with pytest.raises(agora_client.NotFound) as simple:  # key family: the Simple shape
            client.jobs.get(str(uuid.uuid4()))
        assert (simple.value.status, simple.value.code) == (404, "404")
        assert simple.value.request_id  # from X-Request-Id: the Simple shape has no meta
        missing = f"/v1/projects/{uuid.uuid4()}"
        with pytest.raises(agora_client.NotFound) as detailed:  # bearer family: Detailed
            client.request("GET", missing)
        assert detailed.value.path == missing and detailed.value.method == "GET"
        assert detailed.value.code is None and detailed.value.request_id
    with (
        agora_client.Client(served.base, api_key="agora_usr_wrong") as stranger,
        pytest.raises(agora_client.Unauthorized) as refused,
    ):
        next(stranger.jobs.iter())
    assert refused.value.error and refused.value.message == "Authentication required"


def test_the_same_idempotency_key_is_one_job(served: Served) -> None:
    with agora_client.Client(served.base, api_key=served.key) as client:
        echo = client.agents.find("Echo")
        key = str(uuid.uuid4())
        first = client.jobs.create(echo, {"text": "once"}, idempotency_key=key)
        again = client.jobs.create(echo, {"text": "once"}, idempotency_key=key)
        other = client.jobs.create(echo, {"text": "once"})  # a fresh key of its own
    assert first.id == again.id != other.id


def test_device_flow_sign_in(served: Served) -> None:
    """The program shows a code; the demo person, signed in to the web app, allows it; the
    program's client then works with the tokens."""
    link = re.search(
        r"Demo sign-in link \(web app; one use, 15 min\): (\S+)", served.banner.read_text()
    )
    assert link is not None
    shown: list[agora_client.DeviceCode] = []

    def allow(code: agora_client.DeviceCode) -> None:
        shown.append(code)
        with httpx2.Client(base_url=served.base, timeout=10) as browser:
            token = link.group(1).split("token=")[1]
            signed_in = browser.post("/magic-link", data={"csrf": "", "token": token})
            assert signed_in.status_code == 303, signed_in.text
            page = browser.get("/oauth/device", params={"user_code": code.user_code})
            assert page.status_code == 200, page.text
            workspace = page.text.split('<option value="')[1].split('"')[0]
            answer = browser.post(
                "/oauth/device",
                data={"csrf": csrf_of(page.text), "user_code": code.user_code,
                      "decision": "allow", "workspace": workspace},
            )  # fmt: skip
            assert answer.status_code == 200, answer.text

    client = agora_client.sign_in_with_device(served.base, allow, timeout=60)
    with client:
        me = client.request("GET", "/v1/users/me")["data"]
        job = client.jobs.run(client.agents.find("Echo"), {"text": "device"}, timeout=60)
    assert me["email"] == "demo@agora.local"
    assert (job.status, job.result) == ("COMPLETED", "DEVICE")
    # An access token that no longer works (expired, revoked) is refreshed once, on its 401.
    tokens = client.credentials.tokens
    assert tokens is not None and tokens.refresh_token
    stale = agora_client.Tokens("agora_oat_stale", tokens.refresh_token, tokens.client_id,
                                tokens.token_url)  # fmt: skip
    with agora_client.Client(served.base, tokens=stale) as refreshed:
        assert refreshed.request("GET", "/v1/users/me")["data"]["email"] == "demo@agora.local"
    assert stale.access_token not in ("agora_oat_stale", tokens.access_token)
    # Without credentials: public reads work, and a job list is a typed 401.
    with agora_client.Client(served.base) as anonymous:
        assert anonymous.agents.get(job.agent_id).name == "Echo"
        with pytest.raises(agora_client.Unauthorized):
            anonymous.jobs.get(job.id)
    assert shown and re.fullmatch(r"[A-Z]{4}-[A-Z]{4}", shown[0].user_code)


def test_webhook_with_a_wrong_secret_or_body_is_refused(served: Served) -> None:
    with agora_client.Client(served.base, api_key=served.key) as client:
        secret = client.request("GET", "/v1/notifications/signing-secret")["data"]["secret"]
    delivery = served.receiver.deliveries[0]
    assert agora_client.verify_webhook(delivery["body"], delivery["headers"], secret)
    with pytest.raises(agora_client.WebhookVerificationError):
        agora_client.verify_webhook(delivery["body"] + " ", delivery["headers"], secret)
    other = "whsec_" + "A" * 32
    with pytest.raises(agora_client.WebhookVerificationError):
        agora_client.verify_webhook(delivery["body"], delivery["headers"], other)


def test_run_falls_back_to_polling_when_streams_are_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="agora_client")
    env = agora_env(tmp_path, AGORA_JOB_STREAM_MAX="0")  # every stream: 503 + Retry-After
    with running_agora_serve(env, tmp_path / "serve.out") as base:
        key = create_user(env, "poll@example.com", credits="100")["apiKey"]
        retry = agora_client.RetryPolicy(max_retries=1, max_wait=2)
        with agora_client.Client(base, api_key=key, retry=retry) as client:
            job = client.jobs.run(client.agents.find("Echo"), {"text": "polled"}, timeout=60)
    assert (job.status, job.result) == ("COMPLETED", "POLLED")
    messages = [r.getMessage() for r in caplog.records]
    assert any(m.startswith(f"job {job.id}: the stream failed (503") for m in messages), messages


# --- Retry-After and Idempotency-Key against a stand-in that refuses first -----------------------


@dataclass
class Refusing:
    """Answers ``refusals`` times with ``status`` and ``Retry-After: retry_after``, then as
    Agora's create would (201); records every attempt's Idempotency-Key and time."""

    status: int
    retry_after: str
    refusals: int
    attempts: list[tuple[float, str | None]] = field(default_factory=list)

    async def answer(self, request: Request) -> Response:
        await request.body()
        self.attempts.append((time.monotonic(), request.headers.get("idempotency-key")))
        if len(self.attempts) <= self.refusals:
            body = {"error": "Too Many Requests", "code": str(self.status), "message": "later"}
            return JSONResponse(body, self.status, headers={"Retry-After": self.retry_after})
        return JSONResponse({"success": True, "data": {"ok": True}}, status_code=201)


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_is_honoured_with_one_idempotency_key(status: int) -> None:
    refusing = Refusing(status, "1", refusals=2)
    app = Starlette(routes=[Route("/v1/agents/a/jobs", refusing.answer, methods=["POST"])])
    with serve_in_thread(app, "refusing") as base, agora_client.Client(base, "k") as client:
        answer = client.request("POST", "/v1/agents/a/jobs", json={"inputData": {}})
    assert answer == {"success": True, "data": {"ok": True}}
    (first, key), (second, _), (third, _) = refusing.attempts
    assert key and {k for _, k in refusing.attempts} == {key}  # one key for every attempt
    assert second - first >= 0.9 and third - second >= 0.9  # Retry-After: 1


async def test_retries_are_bounded_and_a_long_retry_after_is_not_waited() -> None:
    refusing = Refusing(429, "1", refusals=100)
    app = Starlette(routes=[Route("/v1/agents/a/jobs", refusing.answer, methods=["POST"])])
    with serve_in_thread(app, "refusing") as base:
        retry = agora_client.RetryPolicy(max_retries=2)
        async with agora_client.AsyncClient(base, "k", retry=retry) as client:
            with pytest.raises(agora_client.RateLimited) as limited:
                await client.request("POST", "/v1/agents/a/jobs", json={})
        assert len(refusing.attempts) == 3 and limited.value.retry_after == 1
        refusing.attempts.clear()
        refusing.retry_after = "3600"
        started = time.monotonic()
        async with agora_client.AsyncClient(base, "k") as client:
            with pytest.raises(agora_client.RateLimited) as later:
                await client.request("POST", "/v1/agents/a/jobs", json={})
    assert len(refusing.attempts) == 1 and later.value.retry_after == 3600
    assert time.monotonic() - started < 5


# --- the committed generated client ---------------------------------------------------------------


def test_regenerating_the_client_from_the_current_openapi_changes_nothing() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "client.py"), "check"],
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")), capture_output=True, text=True,
        timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr + result.stdout


def test_the_package_installs_on_its_own(tmp_path: Path) -> None:
    """clients/python installs into an empty virtual environment with its own dependencies
    (no agora, no fastapi) and imports there."""
    declared = tomllib.loads((ROOT / "clients" / "python" / "pyproject.toml").read_text())
    names = {re.split(r"[<>=\[ ]", d)[0] for d in declared["project"]["dependencies"]}
    assert names == {"httpx", "attrs", "python-dateutil", "standardwebhooks"}
    venv = tmp_path / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    installed = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         str(ROOT / "clients" / "python")],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    probe = (
        "import importlib.util, agora_client; "
        "print(agora_client.__version__, [m for m in ('agora', 'fastapi', 'sqlalchemy') "
        "if importlib.util.find_spec(m)])"
    )
    alone = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # not our src/
    shown = subprocess.run(
        [python, "-c", probe], capture_output=True, text=True, timeout=60, check=False,
        cwd=tmp_path, env=alone,
    )  # fmt: skip
    assert shown.stdout == "0.1.0 []\n", shown.stderr
