from __future__ import annotations

from collections.abc import Iterator

import pytest

from agora.settings import Settings
from tests.jobs.helpers import fast_settings
from tests.support.smtp import Inbox, smtp_server


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return fast_settings(settings)


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server on loopback and its port; what it accepted is in the Inbox."""
    with smtp_server() as server:
        yield server
