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


def test_the_direct_json_line_is_structlogs_line(capsys: pytest.CaptureFixture[str]) -> None:
    """The access log writes its JSON line without structlog's chain (kit/logging.py): the same
    keys in the same order, the same values and redaction, the request id from the context."""
    import json

    import structlog

    from agora.kit.accesslog import _logger, log_request

    key = "agora_usr_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    configure_logging("INFO", json=True)
    tokens = structlog.contextvars.bind_contextvars(request_id="rid-1")
    try:
        scope = {"method": "GET", "path": "/v1/x", "query_string": f"api_key={key}".encode()}
        log_request(scope, 200, 0.01234)
        fields = dict(method="GET", path="/v1/x", query=f"api_key={key}", status=200)
        _logger().info("request", **fields, duration_ms=12.34)
    finally:
        structlog.contextvars.reset_contextvars(**tokens)
        with capsys.disabled():
            configure_logging("WARNING")
    direct, chained = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert list(direct) == list(chained)
    direct.pop("timestamp"), chained.pop("timestamp")
    assert direct == chained
    assert direct["query"] == "api_key=[redacted]" and direct["request_id"] == "rid-1"
