"""Schemathesis against the live server's /v1/openapi: zero server errors, zero response-schema
violations. (A longer, hostile run is `make fuzz`.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.server import agora_env, create_user, running_server

pytestmark = pytest.mark.process  # fuzzing a real server: make prove

EXAMPLES = os.environ.get("AGORA_SCHEMATHESIS_EXAMPLES", "15")


def test_schemathesis_finds_no_server_errors_or_schema_violations(tmp_path: Path) -> None:
    # Billing's webhook is fuzzed with a secret configured, so a forged delivery gets its 400
    # (without one it answers 503 "not configured", a server error to schemathesis).
    env = agora_env(tmp_path, AGORA_DEMO="false", AGORA_STRIPE_WEBHOOK_SECRET="whsec_fuzz")
    user = create_user(env, "fuzz@example.com", credits="100")
    with running_server(env) as base:
        result = subprocess.run(
            [
                str(Path(sys.executable).parent / "st"),
                "run",
                f"{base}/v1/openapi",
                "--checks",
                "not_a_server_error,response_schema_conformance",
                "--max-examples",
                EXAMPLES,
                "--generation-database",
                "none",
                "--seed",
                "20261122",
                "--request-timeout",
                "10",
                "--no-color",
                "-H",
                f"Authorization: Bearer {user['apiKey']}",
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
