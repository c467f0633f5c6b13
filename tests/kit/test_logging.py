"""Secrets never reach the logs."""

from __future__ import annotations

import httpx2
import pytest

from agora.kit.logging import REDACTED, configure_logging, redact_processor, redact_text
from tests.conftest import MakeUser


def test_redaction_of_text_and_fields() -> None:
    key = "agora_usr_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    assert key not in redact_text(f"GET /mcp?api_key={key}&x=1")
    assert "x=1" in redact_text(f"GET /mcp?api_key={key}&x=1")
    assert redact_text(f"using {key} now") == f"using {REDACTED} now"
    event = redact_processor(
        None, "info", {"event": "e", "authorization": "Bearer x", "headers": {"x-api-key": "k"}}
    )
    assert event["authorization"] == REDACTED
    assert event["headers"] == {"x-api-key": REDACTED}


async def test_access_log_redacts_query_keys(
    client: httpx2.AsyncClient, make_user: MakeUser, capsys: pytest.CaptureFixture[str]
) -> None:
    user = await make_user()
    configure_logging("INFO", json=True)
    try:
        await client.get(f"/v1/users/me?api_key={user.api_key}", headers=user.key_headers)
        await client.get("/v1/users/me", headers={"Authorization": f"Bearer {user.api_key}"})
    finally:
        with capsys.disabled():  # bind the session's stderr again, not this test's (closed after)
            configure_logging("WARNING")
    captured = capsys.readouterr()
    assert '"path": "/v1/users/me"' in captured.err
    assert user.api_key not in captured.err + captured.out
