from __future__ import annotations

from typing import Any

import pytest

from agora.settings import Settings
from tests.agents.conftest import make_categories
from tests.jobs.helpers import fast_settings

__all__ = ["make_categories"]


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Fast dispatch; loopback agents exempt from the outbound policy (as the tests' Settings)."""
    return fast_settings(settings).with_changes(outbound_allow="127.0.0.0/8,::1/128")


def submission(base_url: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "baseUrl": base_url,
        "name": "Summariser",
        "description": "Summarises text",
        "tags": ["text", "summary"],
        "exampleOutputs": [
            {"name": "Sample", "mimeType": "text/plain", "url": "https://example.com/s.txt"}
        ],
        "author": {"name": "Ada", "contactEmail": "ada@example.com"},
        "legal": {"terms": "https://example.com/terms"},
        "price": 2,
    }
    body.update(extra)
    return body
