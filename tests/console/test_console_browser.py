"""Issue 32 in a real headless Chromium against ``agora serve`` (its embedded worker, SQLite):
an operator finds a user by email and suspends them (their key answers 401 at once, their
running job is cancelled and refunded), grants another user credits with a reason, approves a
pending agent from the queue; the audit log shows each action with its actor and target. And:
an operator finds an organization, suspends it with a reason (its workspace refuses the owner's
key at once) and sees the audit row; opens a job from the jobs search and reads its events.
Marked ``process``."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from agora.sandbox.protocol import Step
from tests.jobs.helpers import echo
from tests.support.agents import LoopbackAgents, loopback_agents
from tests.support.server import agora_env, create_user, run_cli, running_agora_serve
from tests.web.test_browser import TIMEOUT_MS, _shot, _sign_up_and_in

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def site(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, Path, dict[str, str], LoopbackAgents]]:
    data = tmp_path_factory.mktemp("console")
    env = agora_env(data)
    with (
        loopback_agents() as agents,
        running_agora_serve(env, data / "banner.txt", startup_seconds=120) as base,
    ):
        yield base, data, env, agents


def _api(base: str, method: str, path: str, key: str, body: Any = None) -> httpx2.Response:
    return httpx2.request(
        method, f"{base}{path}", headers={"Authorization": f"Bearer {key}"}, json=body, timeout=15
    )


def _until(check: Any, what: str, seconds: float = 15.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_operator_suspends_grants_and_approves(
    site: tuple[str, Path, dict[str, str], LoopbackAgents], browser: object
) -> None:
    base, data, env, agents = site
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        operator_email = _sign_up_and_in(page, base, data, "Olga")
        made = json.loads(
            run_cli(env, "keys", "create", "--user", operator_email, "--kind", "admin", "--json")
        )
        admin_key = made["apiKey"]

        # A user with a job running on an agent that never finishes.
        running_url = agents.serve(echo(name="forever", step=lambda _job: Step("running")))
        registered = _api(
            base, "POST", "/v1/admin/agents", admin_key,
            {"baseUrl": running_url, "name": "Forever", "price": 5, "verify": True},
        )  # fmt: skip
        assert registered.status_code in (200, 201), registered.text
        agent_id = registered.json()["data"]["id"]
        victim_email = f"mallory-{uuid.uuid4().hex[:6]}@example.com"
        victim = create_user(env, victim_email, credits="50")
        job = _api(
            base, "POST", f"/v1/agents/{agent_id}/jobs", victim["apiKey"],
            {"inputData": {"text": "hello"}},
        )  # fmt: skip
        assert job.status_code in (200, 201), job.text
        job_id = job.json()["data"]["id"]
        _until(
            lambda: (
                _api(base, "GET", f"/v1/jobs/{job_id}", victim["apiKey"]).json()["data"]["status"]
                == "RUNNING"
            ),
            "the job to run",
        )
        # A developer's agent waiting for review; a user to grant credits to.
        developer = create_user(env, f"dev-{uuid.uuid4().hex[:6]}@example.com")
        submitted = _api(
            base, "POST", "/v1/developer/agents", developer["apiKey"],
            {"baseUrl": agents.serve(echo(name="candidate")), "name": "Candidate", "price": 0},
        )  # fmt: skip
        assert submitted.status_code == 201, submitted.text
        pending_id = submitted.json()["data"]["id"]
        grace_email = f"grace-{uuid.uuid4().hex[:6]}@example.com"
        grace = create_user(env, grace_email)

        # Find the user by email, open them, suspend.
        page.goto(f"{base}/admin")
        page.click("#console-nav a:has-text('Users')")
        page.fill("#user-q", victim_email)
        page.click("form[role=search] button:has-text('Search')")
        page.click(f"#users a:has-text('{victim_email}')")
        page.fill("#suspend-reason", "chargeback fraud, ticket 4711")
        page.click("#suspend button:has-text('Suspend')")
        page.wait_for_selector("#notice")
        assert "Suspended since" in page.inner_text("#user-state")
        assert page.inner_text("#user-jobs .job-status") == "Canceled"  # in words
        assert page.get_attribute("#user-jobs .job-status .status", "data-status") == "CANCELLED"
        _shot(page, "console-suspended")
        refused = _api(base, "GET", "/v1/credits", victim["apiKey"])
        assert refused.status_code == 401, refused.text
        detail = _api(base, "GET", f"/v1/admin/users/{victim['userId']}", admin_key).json()
        jobs = detail["data"]["jobs"]
        assert [(j["id"], j["status"]) for j in jobs] == [(job_id, "CANCELLED")]
        workspace = detail["data"]["workspaces"][0]
        assert workspace["balance"] == 50 and workspace["held"] == 0  # refunded in full

        # Grant another user credits with a reason.
        page.goto(f"{base}/admin/users?q={grace_email}")
        page.click(f"#users a:has-text('{grace_email}')")
        page.fill("#grant-amount", "7")
        page.fill("#grant-reason", "goodwill after outage, ticket 815")
        page.click("#grant button:has-text('Grant')")
        page.wait_for_selector("#notice")
        balance = _api(base, "GET", "/v1/credits", grace["apiKey"]).json()["data"]["balance"]
        assert balance == 7

        # Approve the pending agent from the queue (checked live first).
        page.click("#console-nav a:has-text('Review queue')")
        page.click(f"#review-{pending_id} button:has-text('Approve')")
        page.wait_for_url(re.compile(r".*/admin/reviews\?done=approved$"))
        assert page.locator(f"#review-{pending_id}").count() == 0
        listed = httpx2.get(f"{base}/v1/agents/{pending_id}", timeout=15)
        assert listed.status_code == 200, listed.text

        # The audit log: each action with its actor (the operator) and its target.
        page.click("#console-nav a:has-text('Audit log')")
        page.wait_for_url(re.compile(r".*/admin/audit$"))
        operator_id = _api(base, "GET", "/v1/admin/users", admin_key).json()["data"]
        operator_id = next(u["id"] for u in operator_id if u["email"] == operator_email)
        for action, target in (
            ("user.suspended", victim["userId"]),
            ("credits.granted", grace["userId"]),
            ("agent.approved", pending_id),
        ):
            row = page.locator(f"tr[data-action='{action}']")
            assert row.count() == 1, action
            assert row.locator("a.actor").inner_text() == operator_id
            assert row.locator("code.target").inner_text() == target
            assert "admin" in row.inner_text()
        assert "ticket 815" in page.inner_text("main") and "ticket 4711" in page.inner_text("main")
        _shot(page, "console-audit-log")
    finally:
        context.close()


def test_operator_suspends_an_organization_and_reads_a_job(
    site: tuple[str, Path, dict[str, str], LoopbackAgents], browser: object
) -> None:
    base, data, env, agents = site
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        operator_email = _sign_up_and_in(page, base, data, "Oscar")
        made = json.loads(
            run_cli(env, "keys", "create", "--user", operator_email, "--kind", "admin", "--json")
        )
        admin_key = made["apiKey"]
        registered = _api(
            base, "POST", "/v1/admin/agents", admin_key,
            {"baseUrl": agents.serve(echo(name="quick")), "name": "Quick", "verify": True},
        )  # fmt: skip
        assert registered.status_code in (200, 201), registered.text
        agent_id = registered.json()["data"]["id"]
        owner = create_user(env, f"owner-{uuid.uuid4().hex[:6]}@example.com")
        slug = f"acme-{uuid.uuid4().hex[:6]}"
        org = _api(
            base, "POST", "/v1/organizations", owner["apiKey"], {"name": "Acme", "slug": slug}
        )
        assert org.status_code == 201, org.text
        in_org = {"Authorization": f"Bearer {owner['apiKey']}", "X-Organization-Slug": slug}
        job = httpx2.post(
            f"{base}/v1/agents/{agent_id}/jobs",
            headers=in_org,
            json={"inputData": {"text": "hello"}},
            timeout=15,
        )
        assert job.status_code in (200, 201), job.text
        job_id = job.json()["data"]["id"]
        _until(
            lambda: (
                _api(base, "GET", f"/v1/admin/jobs/{job_id}", admin_key).json()["data"]["job"][
                    "status"
                ]
                == "COMPLETED"
            ),
            "the job to finish",
        )

        # Find the organization, open it, suspend it with a reason.
        page.goto(f"{base}/admin")
        page.click("#console-nav a:has-text('Organizations')")
        page.fill("#org-q", slug)
        page.click("form[role=search] button:has-text('Search')")
        page.click("#organizations a:has-text('Acme')")
        assert job_id in page.inner_text("#org-jobs")
        page.fill("#suspend-reason", "unpaid invoices, ticket 9001")
        page.click("#suspend button:has-text('Suspend')")
        page.wait_for_selector("#notice")
        assert "Suspended since" in page.inner_text("#org-state")
        row = page.locator("tr[data-action='org.suspended']")
        assert row.count() == 1
        assert row.locator("code.target").inner_text() == org.json()["data"]["id"]
        assert "ticket 9001" in row.inner_text() and "admin" in row.inner_text()
        _shot(page, "console-organization-suspended")
        refused = httpx2.get(f"{base}/v1/credits", headers=in_org, timeout=15)
        assert refused.status_code == 403, refused.text
        assert _api(base, "GET", "/v1/credits", owner["apiKey"]).status_code == 200

        # Open the job from the jobs search: its events in order.
        page.click("#console-nav a:has-text('Jobs')")
        page.fill("#job-agent", agent_id)
        page.click("#job-search button:has-text('Search')")
        page.click(f"#jobs a:has-text('{job_id}')")
        # The click only starts the navigation: wait for the job's page before counting rows.
        page.wait_for_url(re.compile(rf".*/admin/jobs/{job_id}$"))
        page.wait_for_selector("#job-events tbody tr")
        events = page.locator("#job-events tbody tr")
        assert events.count() >= 2
        # In words, the stored word in data-status.
        assert "Running → Completed" in events.last.inner_text()
        assert events.last.locator("[data-status=COMPLETED]").count() == 1
        assert page.inner_text("#job-fields .job-status").startswith("Completed")
        _shot(page, "console-job")
    finally:
        context.close()
