"""Debian's Chromium driven by Playwright for Python (``executable_path``; never
``playwright install``): the one launcher of the browser tests (their ``browser`` fixture is in
tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def launched_chromium() -> Iterator[object]:
    playwright_sync = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail("/usr/bin/chromium is missing (apt-get install -y chromium)")
    with playwright_sync.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield instance
        finally:
            instance.close()
