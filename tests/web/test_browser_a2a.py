"""An A2A agent in a real headless Chromium against ``agora serve`` (embedded SQLite): the real
``a2a-sdk`` painter (tests/support/a2a_agent.py) is submitted on the developer pages by its Agent
Card, approved, and hired from the web app; it asks for input ("Which colour?"), gets the answer
as the next message of the same task, streams an artifact (text and a file); the job ends
COMPLETED with the result and the stored file. A cancel pressed on the job page reaches the agent
as ``tasks/cancel``. Marked ``process``."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx2
import pytest
from playwright.sync_api import expect

from tests.support.a2a_agent import Painter, painter_agent
from tests.support.server import agora_env, run_cli, running_agora_serve
from tests.web.test_browser import TIMEOUT_MS, _shot, _sign_up_and_in

pytestmark = pytest.mark.process
JOB_URL = re.compile(r".*/jobs/[0-9a-f-]+$")


@pytest.fixture(scope="module")
def site(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, Path, dict[str, str], Painter]]:
    data = tmp_path_factory.mktemp("a2a")
    env = agora_env(
        data,
        AGORA_WELCOME_CREDITS="100000000",
        AGORA_AGENT_TIMEOUT_SECONDS="3",  # a followed stream is read for at most this long
        AGORA_STATUS_POLL_INITIAL_SECONDS="0.2",
        AGORA_STATUS_POLL_MAX_SECONDS="0.5",
    )
    with (
        painter_agent() as painter,
        running_agora_serve(env, data / "banner.txt", startup_seconds=120) as base,
    ):
        yield base, data, env, painter


def _until(check: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _submit_and_approve(
    page: object, base: str, data: Path, env: dict[str, str], painter: Painter
) -> str:
    p = page
    email = _sign_up_and_in(p, base, data, "Painterdev")
    p.goto(f"{base}/developer")  # type: ignore[attr-defined]
    p.click("#submit-a2a-agent")  # type: ignore[attr-defined]
    p.fill("#agentCardUrl", f"{painter.base_url}/nothing")  # type: ignore[attr-defined]
    p.click("#a2a-form button[type=submit]")  # type: ignore[attr-defined]
    expect(p.locator("#err-agentCardUrl")).to_contain_text("failed the A2A check")  # type: ignore[attr-defined]
    p.fill("#agentCardUrl", f"{painter.base_url}/.well-known/agent-card.json")  # type: ignore[attr-defined]
    p.fill("#credential", painter.token)  # type: ignore[attr-defined]
    p.fill("#price", "2")  # type: ignore[attr-defined]
    _shot(p, "a2a-submit-form")
    p.click("#a2a-form button[type=submit]")  # type: ignore[attr-defined]
    p.wait_for_url(re.compile(r".*/developer/[0-9a-f-]+\?submitted=1$"))  # type: ignore[attr-defined]
    expect(p.locator("h1")).to_have_text("Painter")  # type: ignore[attr-defined]
    expect(p.locator("#agent-status")).to_have_attribute("data-status", "PENDING")  # type: ignore[attr-defined]
    assert painter.token not in p.content()  # type: ignore[attr-defined]
    agent_id = p.url.split("/developer/")[1].split("?")[0]  # type: ignore[attr-defined]
    made = json.loads(run_cli(env, "keys", "create", "--user", email, "--kind", "admin", "--json"))
    with httpx2.Client(base_url=base, timeout=15) as api:
        approved = api.post(
            f"/v1/admin/agents/{agent_id}/approve",
            json={"reason": "reviewed"},
            headers={"Authorization": f"Bearer {made['apiKey']}"},
        )
        assert approved.status_code == 200, approved.text
    return agent_id


def test_an_a2a_agent_submitted_by_its_card_is_hired_from_the_web_app(
    site: tuple[str, Path, dict[str, str], Painter], browser: object
) -> None:
    base, data, env, painter = site
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        agent_id = _submit_and_approve(page, base, data, env, painter)

        page.goto(f"{base}/agents/{agent_id}")
        page.fill("#f-text", "a cat")
        skill = page.locator("#f-skill")
        if skill.evaluate("e => e.tagName") == "SELECT":
            skill.select_option("paint")
        else:
            page.check("input[value=paint]")
        page.click("#hire-form button[type=submit]")
        page.wait_for_url(JOB_URL)
        page.wait_for_selector("#job-status[data-status=INPUT_REQUIRED]", timeout=30_000)
        page.reload()
        expect(page.locator("#agent-message")).to_contain_text("Which colour?")
        _shot(page, "a2a-asks")
        page.fill("#input-form textarea, #input-form input[name$=text]", "blue")
        page.click("#input-form button[type=submit]")
        page.wait_for_selector("#job-status:has-text('COMPLETED')", timeout=30_000)
        expect(page.locator("#result")).to_contain_text("Painted in blue")
        assert painter.messages[-2:] == [("a cat", "paint"), ("blue", None)]

        def stored() -> bool:
            page.reload()
            return "Download report.txt" in page.inner_text("main")

        _until(stored, "the output collector to store report.txt", 30)
        _shot(page, "a2a-completed")
        assert errors == []
    finally:
        context.close()


def test_a_cancel_on_the_job_page_reaches_the_a2a_agent(
    site: tuple[str, Path, dict[str, str], Painter], browser: object
) -> None:
    base, data, env, painter = site
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        agent_id = _submit_and_approve(page, base, data, env, painter)
        page.goto(f"{base}/agents/{agent_id}")
        page.fill("#f-text", "wait")
        page.click("#hire-form button[type=submit]")
        page.wait_for_url(JOB_URL)
        job_id = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#job-status:has-text('RUNNING')", timeout=30_000)
        _until(lambda: any(m[0] == "wait" for m in painter.messages), "the task to start")
        before = list(painter.cancelled)
        page.once("dialog", lambda dialog: dialog.accept())  # a destructive action asks first
        page.click("button:has-text('Cancel the job')")
        page.wait_for_selector("#job-status[data-status=CANCELLED]")
        _until(lambda: len(painter.cancelled) > len(before), "tasks/cancel at the agent", 30)
        assert job_id not in painter.cancelled  # the agent's own task id, not Agora's job id
    finally:
        context.close()
