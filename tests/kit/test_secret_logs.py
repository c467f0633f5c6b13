"""A DEBUG run never logs a secret (docs/security.md, "What is logged"): SQL parameters are never
logged (the engine hides them; SQLAlchemy's and the SQLite driver's statement logs stay below the
app's level), and share tokens in paths are redacted. The test creates every kind of secret —
password, session, API key, webhook secret and URL, share token, magic-link token — with DEBUG
logging on, and greps the captured log for each."""

from __future__ import annotations

import httpx2
import pytest
from fastapi import FastAPI

from agora.kit.logging import configure_logging
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link, sign_up_verified
from tests.jobs.helpers import create, register, reviewer
from tests.support.agents import LoopbackAgents

WEBHOOK_URL = "https://hooks.example.com/agora-private-path-7781"


async def test_a_debug_run_logs_no_secret(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    agents_server: LoopbackAgents,
    capsys: pytest.CaptureFixture[str],
) -> None:
    agent_id = await register(app, agents_server, reviewer())
    capsys.readouterr()
    secrets: dict[str, str] = {"password": STRONG_PASSWORD}
    configure_logging("DEBUG", json=True)
    try:
        email = "logs@example.com"
        csrf = await sign_up_verified(client, settings, email)
        secrets["session"] = str(client.cookies.get(settings.accounts.session_cookie))
        secrets["csrf token"] = csrf["X-CSRF-Token"]
        made = await client.post("/v1/api-keys", json={"name": "k"}, headers=csrf)
        assert made.status_code == 201, made.text
        secrets["api key"] = made.json()["data"]["key"]
        key = {"x-api-key": secrets["api key"]}
        hook = await client.put("/v1/notifications/webhook", json={"url": WEBHOOK_URL}, headers=key)
        assert hook.status_code == 200, hook.text
        secrets["webhook secret"] = hook.json()["data"]["secret"]
        secrets["webhook url"] = WEBHOOK_URL
        shared = {"inputData": {"text": "x"}, "jobShareRequest": {}}
        job = await create(client, key, agent_id, shared)
        assert job.status_code == 201, job.text
        share_url = job.json()["data"]["share"]["url"]
        secrets["share token"] = share_url.rsplit("/", 1)[1]
        assert (await client.get(share_url)).status_code == 200
        assert (await client.get(f"/shares/{secrets['share token']}")).status_code == 200
        await client.post("/v1/auth/magic-link", json={"email": email})
        _, secrets["magic-link token"] = last_link(settings, email, "sign-in link")
        signed = await client.get(f"/v1/auth/magic-link?token={secrets['magic-link token']}")
        assert signed.status_code in (200, 303), signed.text
        assert (await client.get("/v1/users/me", headers=key)).status_code == 200
    finally:
        configure_logging("WARNING")
    captured = capsys.readouterr()
    logs = captured.err + captured.out
    assert "/v1/notifications/webhook" in logs  # the access log was captured …
    assert "/v1/shares/[redacted]" in logs  # … with the share's path, its token redacted
    for what, secret in secrets.items():
        assert len(secret) >= 8, what
        assert secret not in logs, f"the {what} is in the log"
