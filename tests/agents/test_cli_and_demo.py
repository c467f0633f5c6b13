"""Operators' CLI for agents, and the embedded demo's built-in agents (real processes)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from agora.sandbox.agents import DEMO_AGENTS
from tests.support.agents import LoopbackAgents
from tests.support.server import agora_env, run_cli, running_agora_serve

pytestmark = pytest.mark.process  # CLI subprocesses and a real server: make prove


def test_agents_cli_register_verify_revoke_show(
    tmp_path: Path, agents_server: LoopbackAgents
) -> None:
    env = agora_env(tmp_path, AGORA_DEMO="false")
    url = agents_server.serve(DEMO_AGENTS[0].behaviour())
    run_cli(env, "categories", "create", "--slug", "text", "--name", "Text")
    registered = json.loads(
        run_cli(
            env,
            *("agents", "register", url, "--name", "Echo", "--price", "3"),
            *("--category", "text", "--tag", "free", "--json"),
        )
    )
    agent_id = registered["agentId"]
    shown = json.loads(run_cli(env, "agents", "show", agent_id, "--json"))
    assert shown["status"] == "PENDING"
    assert shown["baseUrl"] == url
    assert shown["price"] == {"credits": 3.15, "includedFee": 0.15}
    assert "VERIFIED" in run_cli(env, "agents", "verify", agent_id)
    assert "REVOKED" in run_cli(env, "agents", "revoke", agent_id)
    assert json.loads(run_cli(env, "agents", "show", agent_id, "--json"))["status"] == "REVOKED"


def test_agents_cli_refuses_a_url_that_is_not_an_agent(
    tmp_path: Path, agents_server: LoopbackAgents
) -> None:
    env = agora_env(tmp_path, AGORA_DEMO="false")
    result = subprocess.run(
        [
            *(sys.executable, "-m", "agora.cli.main", "agents", "register"),
            *(f"{agents_server.base_url}/nothing-here", "--name", "X"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "does not speak MIP-003" in result.stderr


def test_embedded_demo_registers_and_verifies_its_agents(tmp_path: Path) -> None:
    env = agora_env(tmp_path, AGORA_OUTBOUND_ALLOW="")  # the embedded default: SQLite, demo on
    banner = tmp_path / "serve.out"
    for _ in range(2):  # a second start re-points the same agents (no duplicates)
        with running_agora_serve(env, banner) as base:
            listing = httpx2.get(f"{base}/v1/agents", timeout=10).json()
            names = sorted(a["name"] for a in listing["data"])
            assert names == ["Echo", "Reviewer"]
            assert {a["status"] for a in listing["data"]} == {"VERIFIED"}
            key = re.search(r"Demo API key \(new on every start\): (\S+)", banner.read_text())
            assert key is not None
            me = httpx2.get(f"{base}/v1/users/me", headers={"x-api-key": key.group(1)})
            assert me.status_code == 200
            text = banner.read_text()
            assert text.count("token=") == 1, text  # exactly one sign-in link
            link = re.search(
                r"Demo sign-in link \(web app; one use, 15 min\): (\S+/magic-link\?token=(\S+))",
                text,
            )
            assert link is not None, text
            with httpx2.Client(timeout=10) as browser:
                landing = browser.get(link.group(1))  # the web page: a button that POSTs it
                assert landing.status_code == 200 and link.group(2) in landing.text
                form = {"csrf": "", "token": link.group(2)}
                signed_in = browser.post(f"{base}/magic-link", data=form)
                assert signed_in.status_code == 303, signed_in.text
                assert signed_in.headers["location"] == "/agents"
                me = browser.get(f"{base}/v1/users/me")
                assert me.status_code == 200 and me.json()["data"]["email"] == "demo@agora.local"
                browser.cookies.clear()
                assert browser.post(f"{base}/magic-link", data=form).status_code == 400  # once
            echo = next(a for a in listing["data"] if a["name"] == "Echo")
            schema = httpx2.get(f"{base}/v1/agents/{echo['id']}/input-schema").json()
            assert schema["data"]["input_data"][0]["id"] == "text"
