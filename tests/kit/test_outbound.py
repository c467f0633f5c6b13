"""The outbound policy (kit/outbound.py) through the public surface: webhook settings and
deliveries, and admin agent registration, against real loopback listeners that count the requests
reaching them — zero for every refused target. The app here runs with the default (strict) policy:
``outbound_allow`` is cleared, unlike every other test."""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.app import demo_route
from agora.kit.db import Database
from agora.kit.outbound import OutboundPolicy, literal_address
from agora.mip003.client import client_for
from agora.notifications.worker import NotificationSender
from agora.sandbox import MOUNT_PREFIX, demo_host
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.support.listener import Listener, counting_listener


@pytest.fixture
def settings(settings: Settings) -> Settings:
    # Strict policy; the demo is on so that its in-process agents can be hired without any
    # exemption (and proves that the demo needs none).
    return settings.with_changes(
        outbound_allow="",
        demo=True,
        notification_retry_schedule_seconds=[0.01],  # 2 attempts
        notification_timeout_seconds=1.0,
    )


@pytest.fixture
def v4() -> Any:
    with counting_listener("127.0.0.1") as listener:
        yield listener


@pytest.fixture
def v6() -> Any:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    with counting_listener("::1") as listener:
        yield listener


def hostile_urls(v4: Listener, v6: Listener) -> list[str]:
    port = v4.port
    return [
        f"http://127.0.0.1:{port}/in",
        f"http://[::1]:{v6.port}/in",
        f"http://[::ffff:127.0.0.1]:{port}/in",
        "http://169.254.169.254/latest/meta-data/",
        "http://metadata.google.internal/computeMetadata/v1/",
        f"http://2130706433:{port}/in",
        f"http://127.1:{port}/in",
        f"http://0x7f.0.0.1:{port}/in",
        f"http://localhost:{port}/in",
        f"http://user:pass@127.0.0.1:{port}/in",
        f"http://user:pass@example.com:{port}/in",
        "file:///etc/passwd",
        f"http://10.0.0.1:{port}/in",
        f"http://100.64.0.1:{port}/in",
        f"http://0.0.0.0:{port}/in",
    ]


def relax(app: FastAPI, settings: Settings, allow: str) -> None:
    """Exempt one range (standing in for a public host) for this app's webhooks and agents."""
    app.state.settings = relaxed = settings.with_changes(outbound_allow=allow)
    app.state.agent_client = client_for(relaxed, local={MOUNT_PREFIX: demo_route(demo_host())})


async def admin_headers(db: Database, user: TestUser) -> dict[str, str]:
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, user.user_id)
        assert owner is not None
        key = await identity.create_key(session, user=owner, kind="admin")
    return {"Authorization": f"Bearer {key.plaintext}"}


async def test_webhook_urls_to_private_targets_are_refused_and_never_called(
    client: httpx2.AsyncClient, make_user: MakeUser, v4: Listener, v6: Listener
) -> None:
    user = await make_user()
    for url in hostile_urls(v4, v6):
        answer = await client.put(
            "/v1/notifications/webhook", json={"url": url}, headers=user.key_headers
        )
        assert answer.status_code == 400, (url, answer.text)
        assert answer.json()["details"][0]["field"] == "url", url
    assert (v4.count, v6.count) == (0, 0)


async def test_agent_registration_to_private_targets_is_refused_without_an_oracle(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser, v4: Listener, v6: Listener
) -> None:
    headers = await admin_headers(db, await make_user())
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    messages = set()
    for url in [*hostile_urls(v4, v6), f"http://127.0.0.1:{closed_port}/agent"]:
        answer = await client.post(
            "/v1/admin/agents", json={"baseUrl": url, "name": "Probe"}, headers=headers
        )
        assert answer.status_code == 400, (url, answer.text)
        message = answer.json()["message"].replace(url.rstrip("/"), "<url>")
        for leak in ("ConnectError", "Errno", "timed out", str(v4.port), str(closed_port)):
            assert leak not in message, (url, message)
        if url.startswith("http") and "@" not in url:
            assert "refused by policy" in message, (url, message)
            messages.add(message)
    # Open port, closed port, metadata: one and the same answer.
    assert len(messages) == 1, messages
    assert (v4.count, v6.count) == (0, 0)


async def opt_in_with_job(
    client: httpx2.AsyncClient, db: Database, user: TestUser, admin: dict[str, str]
) -> str:
    """Register the demo's in-process Echo (no exemption needed), opt in, create and cancel a
    job: one notification per status change is queued."""
    agent = await client.post(
        "/v1/admin/agents",
        json={"baseUrl": "http://127.0.0.1:1/demo-agents/echo", "name": "Echo", "verify": True},
        headers=admin,
    )
    assert agent.status_code == 201, agent.text
    agent_id = agent.json()["data"]["id"]
    opt_in = await client.patch(
        "/v1/users/me", json={"jobStatusNotificationsOptIn": True}, headers=user.key_headers
    )
    assert opt_in.status_code == 200, opt_in.text
    job = await client.post(
        f"/v1/agents/{agent_id}/jobs",
        json={"inputData": {"text": "hi"}},
        headers=user.key_headers,
    )
    assert job.status_code in (200, 201), job.text
    job_id: str = job.json()["data"]["id"]
    cancel = await client.post(f"/v1/jobs/{job_id}/cancel", headers=user.key_headers)
    assert cancel.status_code == 200, cancel.text
    return job_id


async def drain(app: FastAPI, client: httpx2.AsyncClient, user: TestUser) -> list[dict[str, Any]]:
    sender = NotificationSender(app.state.db, app.state.settings)
    log: list[dict[str, Any]] = []
    try:
        for _ in range(100):
            await sender.run_once()
            log = (
                await client.get("/v1/notifications/deliveries", headers=user.key_headers)
            ).json()["data"]
            if log and all(d["state"] in ("delivered", "failed") for d in log):
                break
            await asyncio.sleep(0.02)
    finally:
        await sender.stop()
    return log


async def test_a_host_name_resolving_to_loopback_is_refused_at_connect_time(
    app: FastAPI, client: httpx2.AsyncClient, db: Database, make_user: MakeUser, v4: Listener
) -> None:
    name = socket.gethostname()
    try:
        resolved = {i[4][0] for i in socket.getaddrinfo(name, v4.port, type=socket.SOCK_STREAM)}
    except OSError:
        pytest.skip("the host name does not resolve here")
    if not all((a := literal_address(str(r))) is not None and a.is_loopback for r in resolved):
        pytest.skip("the host name does not resolve to loopback here")
    user = await make_user()
    admin = await admin_headers(db, user)
    url = f"http://{name}:{v4.port}/in"
    saved = await client.put(
        "/v1/notifications/webhook", json={"url": url}, headers=user.key_headers
    )
    assert saved.status_code == 200, saved.text  # a name: checked, resolved, at each delivery
    await opt_in_with_job(client, db, user, admin)
    log = await drain(app, client, user)
    assert log and all(d["state"] == "failed" for d in log), log
    assert all(d["lastError"] == "refused by policy" for d in log), log
    assert all(d["lastStatusCode"] is None for d in log), log
    assert v4.count == 0


async def test_redirects_are_not_followed(
    settings: Settings,
    app: FastAPI,
    client: httpx2.AsyncClient,
    db: Database,
    make_user: MakeUser,
    v4: Listener,
) -> None:
    # A public-looking receiver (127.0.0.2, exempted for this test) redirects to loopback.
    relax(app, settings, "127.0.0.2/32")
    with counting_listener("127.0.0.2", redirect_to=v4.url) as redirector:
        user = await make_user()
        admin = await admin_headers(db, user)
        saved = await client.put(
            "/v1/notifications/webhook",
            json={"url": f"{redirector.url}/in"},
            headers=user.key_headers,
        )
        assert saved.status_code == 200, saved.text
        await opt_in_with_job(client, db, user, admin)
        log = await drain(app, client, user)
        assert log and all(d["lastStatusCode"] == 307 for d in log), log
        assert redirector.count >= 1
        registration = await client.post(
            "/v1/admin/agents",
            json={"baseUrl": f"{redirector.url}/agent", "name": "Redirect"},
            headers=admin,
        )
        assert registration.status_code == 400, registration.text
    assert v4.count == 0


@pytest.mark.parametrize("mode", ["drip", "big"])
async def test_slow_or_huge_webhook_answers_are_cut_off(
    mode: str,
    settings: Settings,
    app: FastAPI,
    client: httpx2.AsyncClient,
    db: Database,
    make_user: MakeUser,
) -> None:
    relax(app, settings, "127.0.0.3/32")
    with counting_listener("127.0.0.3", mode=mode) as receiver:
        user = await make_user()
        admin = await admin_headers(db, user)
        await client.put(
            "/v1/notifications/webhook",
            json={"url": f"{receiver.url}/in"},
            headers=user.key_headers,
        )
        await opt_in_with_job(client, db, user, admin)
        started = time.monotonic()
        log = await drain(app, client, user)
        elapsed = time.monotonic() - started
    want = "timed out" if mode == "drip" else "answer too large"
    assert log and all(d["lastError"] == want for d in log), log
    # 2 attempts per delivery, run concurrently, each bounded by the 1 s total time.
    assert elapsed < 8, elapsed
    assert receiver.count >= 1


def test_policy_classifies_addresses_in_every_notation() -> None:
    strict = OutboundPolicy()
    for host in (
        "127.0.0.1",
        "2130706433",
        "127.1",
        "0x7f000001",
        "::1",
        "::ffff:127.0.0.1",
        "169.254.169.254",
        "fd00:ec2::254",
        "100.64.1.1",
        "224.0.0.1",
        "0.0.0.0",
        "64:ff9b::7f00:1",
        "2002:7f00:1::",
        "fe80::1",
        "10.1.2.3",
        "192.168.1.1",
    ):
        address = literal_address(host)
        assert address is not None, host
        assert not strict.address_allowed(address), host
    for host in ("93.184.216.34", "2606:4700::1111", "8.8.8.8"):
        address = literal_address(host)
        assert address is not None and strict.address_allowed(address), host
    relaxed = OutboundPolicy.from_setting("127.0.0.0/8, ::1/128")
    assert relaxed.address_allowed(literal_address("127.0.0.1"))  # type: ignore[arg-type]
    assert relaxed.address_allowed(literal_address("::ffff:127.0.0.1"))  # type: ignore[arg-type]
    assert not relaxed.address_allowed(literal_address("169.254.169.254"))  # type: ignore[arg-type]
