from __future__ import annotations

import pytest

from agora.settings import Settings
from tests.jobs.helpers import fast_settings


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Fast dispatch; loopback agents exempt from the outbound policy (as the tests' Settings).
    A followed stream lasts up to the agent timeout (the cancel test waits it out once)."""
    return fast_settings(settings).with_changes(
        outbound_allow="127.0.0.0/8,::1/128",
        agent_timeout_seconds=5.0,  # a loaded machine: the agent's first answer in time
    )
