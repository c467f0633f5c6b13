"""The CLI against a real embedded database (subprocesses, as an operator runs it)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2
import pytest

from tests.support.server import agora_env, create_user, run_cli, running_server

pytestmark = pytest.mark.process  # CLI subprocesses and a real server: make prove


def test_users_keys_orgs_and_revocation(tmp_path: Path) -> None:
    env = agora_env(tmp_path, AGORA_DEMO="false")
    user = create_user(env, "ops@example.com", credits="12.5")
    assert set(user) == {"userId", "workspaceId", "apiKey"}
    org = json.loads(
        run_cli(
            env,
            "orgs",
            "create",
            "--slug",
            "acme",
            "--name",
            "Acme",
            "--owner",
            "ops@example.com",
            "--json",
        )
    )
    assert set(org) == {"organizationId", "workspaceId"}
    create_user(env, "dev@example.com")
    run_cli(env, "orgs", "add-member", "--slug", "acme", "--user", "dev@example.com")
    key = json.loads(
        run_cli(
            env,
            "keys",
            "create",
            "--user",
            "dev@example.com",
            "--kind",
            "coworker",
            "--workspace",
            org["workspaceId"],
            "--json",
        )
    )
    assert key["workspaceId"] == org["workspaceId"]
    with running_server(env) as base:
        me = httpx2.get(f"{base}/v1/users/me", headers={"x-api-key": key["apiKey"]})
        assert me.status_code == 200
        assert me.json()["data"]["email"] == "dev@example.com"
        run_cli(env, "keys", "revoke", key["keyId"])
        after = httpx2.get(f"{base}/v1/users/me", headers={"x-api-key": key["apiKey"]})
        assert after.status_code == 401


def test_cli_errors_are_clear(tmp_path: Path) -> None:
    env = agora_env(tmp_path, AGORA_DEMO="false")
    create_user(env, "a@example.com")
    with pytest.raises(AssertionError, match="already exists"):
        create_user(env, "a@example.com")
    with pytest.raises(AssertionError, match="No user"):
        run_cli(env, "keys", "create", "--user", "ghost@example.com")


def test_serve_prints_a_working_demo_key(tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    from tests.support.server import free_port

    env = agora_env(tmp_path)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "agora.cli.main", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        key = None
        deadline = time.monotonic() + 30
        assert process.stdout is not None
        while key is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            if "Demo API key" in line:
                key = line.rsplit(" ", 1)[-1].strip()
        assert key, "serve did not print a demo key"
        for _ in range(100):
            try:
                response = httpx2.get(
                    f"http://127.0.0.1:{port}/v1/users/me", headers={"x-api-key": key}
                )
                break
            except httpx2.TransportError:
                time.sleep(0.1)
        assert response.status_code == 200
        assert response.json()["data"]["email"] == "demo@agora.local"
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_coworkers_whitelist(tmp_path: Path) -> None:
    env = agora_env(tmp_path, AGORA_DEMO="false")
    user = create_user(env, "owner@example.com")
    headers = {"Authorization": f"Bearer {user['apiKey']}"}
    with running_server(env) as base:
        created = httpx2.post(f"{base}/v1/coworkers", json={"name": "Scribe"}, headers=headers)
        assert created.status_code == 201, created.text
        assert created.json()["data"]["isWhitelisted"] is False
        out = json.loads(run_cli(env, "coworkers", "whitelist", "scribe", "--json"))
        assert out == {"id": created.json()["data"]["id"], "slug": "scribe", "isWhitelisted": True}
        listed = httpx2.get(f"{base}/v1/coworkers?scope=whitelisted", headers=headers)
        assert [c["slug"] for c in listed.json()["data"]] == ["scribe"]
        run_cli(env, "coworkers", "unwhitelist", "scribe")
        listed = httpx2.get(f"{base}/v1/coworkers?scope=whitelisted", headers=headers)
        assert listed.json()["data"] == []
    with pytest.raises(AssertionError, match="not found"):
        run_cli(env, "coworkers", "whitelist", "ghost")
