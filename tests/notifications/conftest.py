from __future__ import annotations

import pytest

from agora.settings import Settings
from tests.jobs.helpers import fast_settings


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return fast_settings(settings)
