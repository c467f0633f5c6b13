"""Versions, saved inputs and the Conformant badge in a real headless Chromium against
``agora serve`` (embedded SQLite, demo agents): a saved input made over the API fills the hire
form from the agent page's select and hires; the job page shows the agent's version; the
gallery's "Only conformant agents" checkbox filters, and the badge shows. Marked ``process``."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2
import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from agora.conformance import checks
from agora.conformance.checks import CheckResult, Outcome
from agora.developer import certification
from agora.kit.db import Database
from agora.models import Agent
from agora.models.statuses import AgentCheckKind
from agora.settings import Settings
from tests.support.server import agora_env, running_agora_serve
from tests.web.test_browser import TIMEOUT_MS, _shot, _sign_up_and_in

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("versions")
    env = agora_env(data, AGORA_WELCOME_CREDITS="100000000", AGORA_DEMO="true")
    with running_agora_serve(env, data / "banner.txt", startup_seconds=120) as base:
        yield base, data


def test_a_saved_input_fills_the_hire_form_and_the_job_shows_its_version(
    site: tuple[str, Path], browser: object
) -> None:
    base, data = site
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        _sign_up_and_in(page, base, data, "Saver")
        page.goto(f"{base}/keys")
        page.fill("#key-name", "script")
        page.click("main button:has-text('Create a key')")
        key = page.locator("#new-key").inner_text().strip()
        headers = {"x-api-key": key}
        with httpx2.Client(base_url=base, timeout=15) as api:
            listed = api.get("/v1/agents", params={"q": "Echo"}).json()["data"]
            echo = next(a for a in listed if a["name"] == "Echo")
            assert echo["version"] == 1
            saved = api.post(
                f"/v1/agents/{echo['id']}/saved-inputs",
                json={"name": "Shout it", "inputData": {"text": "saved hello", "mode": "upper"}},
                headers=headers,
            )
            assert saved.status_code == 201, saved.text
        page.goto(f"{base}/agents/{echo['id']}")
        expect(page.locator("#agent-version")).to_contain_text("version 1")
        expect(page.locator("#savedInput option")).to_have_text(["Shout it"])
        assert page.input_value("#f-text") == ""
        page.click("#saved-input-form button[type=submit]")
        page.wait_for_url(re.compile(r".*savedInput=.*"))
        assert page.input_value("#f-text") == "saved hello"
        _shot(page, "saved-input-filled")
        page.click("#hire-form button[type=submit]")
        page.wait_for_selector("#job-status:has-text('COMPLETED')")
        expect(page.locator("#job-agent-version")).to_have_text("version 1")
        assert "SAVED HELLO" in page.inner_text("#result")
        assert errors == []
    finally:
        context.close()


async def _record_a_passing_run(db_path: Path, name: str) -> None:
    """A passing run of the suite for the demo agent ``name``, recorded by the certification
    use case in the served database (the demo agents themselves fail ``rejects-bad-input``, and
    the round first runs an hour after start)."""
    db = Database(f"sqlite+aiosqlite:///{db_path}")
    try:
        async with db.transaction() as session:
            agent_id = await session.scalar(select(Agent.id).where(Agent.name == name))
            assert agent_id is not None
            results = [CheckResult(checks.AVAILABILITY, Outcome.PASSED)]
            settings = Settings(database_url=f"sqlite:///{db_path}")
            await certification.record(
                session, settings, agent_id, AgentCheckKind.PERIODIC, results
            )
    finally:
        await db.dispose()


def test_the_gallery_filters_conformant_agents_and_shows_the_badge(
    site: tuple[str, Path], browser: object
) -> None:
    base, data = site
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{base}/agents")
        assert page.locator(".cards .agent").count() >= 2
        assert page.locator(".badge.conformant").count() == 0
        page.check("#conformant-only")
        page.click("form.search button[type=submit]")
        page.wait_for_url(re.compile(r".*conformant=true.*"))
        expect(page.locator("#conformant-only")).to_be_checked()
        expect(page.locator(".cards .agent")).to_have_count(0)  # nobody holds the badge yet

        # (in a thread of its own: Playwright's sync API holds this thread's event loop)
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, _record_a_passing_run(data / "agora.db", "Echo")).result(30)
        page.reload()
        cards = page.locator(".cards .agent")
        expect(cards).to_have_count(1)
        expect(cards.first.locator("h2")).to_have_text("Echo")
        expect(cards.first.locator(".badge.conformant")).to_contain_text("Conformant")
        page.uncheck("#conformant-only")
        page.click("form.search button[type=submit]")
        page.wait_for_url(re.compile(r".*/agents\?(?!.*conformant=true).*"))
        assert page.locator(".cards .agent").count() >= 2
        assert page.locator(".badge.conformant").count() == 1
        _shot(page, "gallery-conformant")
    finally:
        context.close()
