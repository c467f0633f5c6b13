"""The header bell in a real headless Chromium against ``agora serve`` (embedded SQLite, demo
agents): its unread count follows the inbox live, in a tab that is never reloaded, while the
person hires the Reviewer in another tab, is asked for input and answers. Marked ``process``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.server import agora_env, running_agora_serve
from tests.web.test_browser import TIMEOUT_MS, _shot, _sign_up_and_in

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("bell")
    env = agora_env(data, AGORA_WELCOME_CREDITS="100000000", AGORA_DEMO="true")
    with running_agora_serve(env, data / "banner.txt", startup_seconds=120) as base:
        yield base, data


def test_the_bell_counts_live_while_a_job_asks_and_is_answered(
    site: tuple[str, Path], browser: object
) -> None:
    base, data = site
    context = browser.new_context()  # type: ignore[attr-defined]
    watcher, worker = context.new_page(), context.new_page()
    errors: list[str] = []
    for page in (watcher, worker):
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        _sign_up_and_in(worker, base, data, "Bell")
        watcher.goto(f"{base}/history")
        watcher.evaluate("window.__sameDocument = 'yes'")
        bell = watcher.locator("#bell-count")
        expect(bell).to_be_hidden()
        # The other tab hires the Reviewer, which asks for input: the watcher's bell shows 1.
        worker.goto(f"{base}/agents?q=review")
        worker.click("text=Reviewer")
        worker.fill("#f-text", "Lanterns along the harbour.")
        worker.click("#hire-form button[type=submit]")
        worker.wait_for_url(re.compile(r".*/jobs/[0-9a-f-]+$"))
        worker.wait_for_selector("#input-form")
        expect(bell).to_be_visible()
        expect(bell).to_have_text("1")
        _shot(watcher, "bell-unread")
        # Answering reads the question's notice, and the job page, open as the job completes,
        # reads its completion: the watcher's bell empties, still without a reload.
        worker.check("#f-approve")
        worker.click("#input-form button[type=submit]")
        worker.wait_for_selector("#job-status:has-text('COMPLETED')")
        expect(bell).to_be_hidden()
        worker.goto(f"{base}/notifications")
        expect(worker.locator("main li").filter(has_text="needs your input")).to_have_count(1)
        assert watcher.evaluate("window.__sameDocument") == "yes"
        assert errors == []
    finally:
        context.close()
