from __future__ import annotations

import pytest

from agora.settings import Settings
from tests.jobs.helpers import fast_settings


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Fast dispatch, and credits for a new account so a paid agent can be hired."""
    return fast_settings(settings).with_changes(welcome_credits=100_000_000)
