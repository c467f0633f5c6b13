"""Schedules in a real headless Chromium against ``agora serve`` (embedded SQLite, demo agents,
the scheduler running in the server's process): create a schedule, see its next occurrences
before saving, watch its first run appear; pause, resume, change and end it from its page.
Marked ``process``."""

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
    data = tmp_path_factory.mktemp("schedules")
    env = agora_env(data, AGORA_WELCOME_CREDITS="100000000", AGORA_DEMO="true")
    with running_agora_serve(env, data / "banner.txt", startup_seconds=120) as base:
        yield base, data


def test_create_a_schedule_see_its_occurrences_and_watch_a_run_appear(
    site: tuple[str, Path], browser: object
) -> None:
    base, data = site
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        _sign_up_and_in(page, base, data, "Sched")
        page.click("#account-menu summary")  # Schedules is in the account menu
        page.click("#account-menu >> text=Schedules")
        page.wait_for_url(re.compile(r".*/schedules$"))
        # The agent first: its hire form (generated from its input schema) is the input.
        if page.locator("#schedule-agent option:checked").inner_text() != "Echo":
            with page.expect_navigation():
                page.select_option("#schedule-agent", label="Echo")
        assert page.locator("#new-schedule #f-text").count() == 1
        # The next five runs of the default rule (Mondays at 9) before anything is saved.
        items = page.locator("#preview li")
        expect(items).to_have_count(5)
        assert all("T09:00:00" in t for t in items.all_inner_texts())
        # A time zone changes them; a bad expression says why.
        page.fill("#schedule-timezone", "America/New_York")
        expect(items.first).to_contain_text(re.compile(r"T09:00:00-0[45]:00"))
        expect(items).to_have_count(5)
        assert all(re.search(r"T09:00:00-0[45]:00$", t) for t in items.all_inner_texts())
        page.fill("#schedule-cron", "61 * * * *")
        page.wait_for_selector("#preview-error:not([hidden])")
        assert "cron" in page.inner_text("#preview-error")
        # Every minute, starting now: the first run is due at once.
        page.check("input[name=kind][value=interval]")
        page.fill("#schedule-interval", "1")
        expect(items).to_have_count(5)
        page.fill("#new-schedule #f-text", "scheduled hello")
        page.fill("#schedule-name", "Minutely echo")
        _shot(page, "schedules-new")
        page.click("button:has-text('Create the schedule')")
        page.wait_for_url(re.compile(r".*/schedules/[0-9a-f-]{36}$"))
        assert page.locator("h1").inner_text() == "Minutely echo"
        assert page.locator("#occurrences li").count() >= 4
        # The scheduler in the server makes the first run; the page shows it without a reload.
        page.wait_for_selector("#runs tbody tr >> text=created", timeout=30_000)
        assert page.locator("#runs a[href^='/jobs/']").count() >= 1
        _shot(page, "schedule-runs")
        schedule_url = page.url

        # Pause, then resume, from the page.
        page.click("#schedule-actions button:has-text('Pause')")
        expect(page.locator("#schedule-state")).to_have_text(re.compile(r"^Paused"))
        page.click("#schedule-actions button:has-text('Resume')")
        expect(page.locator("#schedule-state")).to_have_text(re.compile(r"^Active"))

        # Change it: only what changed is sent; the preview follows the edited rule.
        page.click("#edit summary")
        page.fill("#schedule-name", "Hourly echo")
        page.fill("#schedule-interval", "60")
        expect(page.locator("#preview li")).to_have_count(5)
        assert page.input_value("#edit-schedule #f-text") == "scheduled hello"
        page.fill("#edit-schedule #f-text", "hourly hello")
        page.click("button:has-text('Save the changes')")
        expect(page.locator("h1")).to_have_text("Hourly echo")
        assert "every 3600 seconds" in page.inner_text("#schedule")

        # End it for good (after confirming): no more actions or changes offered.
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#schedule-actions button:has-text('End the schedule')")
        expect(page.locator("#schedule-state")).to_have_text(re.compile(r"^Ended"))
        assert page.locator("#schedule-actions").count() == 0
        assert page.locator("#edit-schedule").count() == 0
        assert page.url == schedule_url
        page.goto(f"{base}/schedules")
        assert "Hourly echo" in page.inner_text("#schedules")
        assert errors == []
    finally:
        context.close()
