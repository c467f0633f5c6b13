"""Run again in a real headless Chromium against ``agora serve`` (embedded SQLite, demo agents):
hire Echo, open the job, press "Run again": the hire form is filled in with the job's input, and
sending it makes a second job. Marked ``process``."""

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
    data = tmp_path_factory.mktemp("rerun")
    env = agora_env(data, AGORA_WELCOME_CREDITS="100000000", AGORA_DEMO="true")
    with running_agora_serve(env, data / "banner.txt", startup_seconds=120) as base:
        yield base, data


def test_run_again_opens_the_hire_form_filled_in_and_makes_a_new_job(
    site: tuple[str, Path], browser: object
) -> None:
    base, data = site
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        _sign_up_and_in(page, base, data, "Rerun")
        page.fill("#q", "echo")
        page.click("form[role=search] button")
        page.wait_for_url(re.compile(r".*q=echo.*"))
        page.click(".cards .agent >> text=Echo")
        page.wait_for_selector("#hire-form")
        agent_url = page.url
        page.fill("#f-text", "Lanterns over the harbour")
        page.click("#hire-form button[type=submit]")
        page.wait_for_url(re.compile(r".*/jobs/[0-9a-f-]+$"))
        first_job = page.url
        page.wait_for_selector("#job-status:has-text('COMPLETED')")

        page.click("#run-again")
        page.wait_for_url(re.compile(r".*/agents/[0-9a-f-]+\?from_job=[0-9a-f-]+#hire-form$"))
        assert page.url.startswith(agent_url.split("?")[0])
        expect(page.locator("#f-text")).to_have_value("Lanterns over the harbour")
        _shot(page, "run-again-filled")
        page.click("#hire-form button[type=submit]")
        page.wait_for_url(re.compile(r".*/jobs/[0-9a-f-]+$"))
        assert page.url != first_job
        page.wait_for_selector("#job-status:has-text('COMPLETED')")
        assert "Lanterns over the harbour" in page.inner_text("#job-input")
        assert errors == []
    finally:
        context.close()
