"""Certified listings (issue 47 item 3), through HTTP with a real agent generated from Agora's
template, served on loopback behind a switch that breaks its /status: the conformance suite runs
at submission and at approval (stored, shown by name to the developer and on the review page),
the certification round (a fake clock) gives the "Conformant" badge after a pass and takes it
away after failures older than the grace days, telling the developer and the operators; the
gallery and ``GET /v1/agents`` filter by it. On SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import select
from starlette.responses import PlainTextResponse

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.conformance.checks import SUITE_VERSION
from agora.developer.worker import CertificationRound, certify_due
from agora.kit.timeutil import utcnow
from agora.models import ConformanceRun, Notification
from agora.settings import Settings
from agora.workers import background_services
from tests.accounts.helpers import sign_in, sign_up_verified
from tests.conformance.helpers import generate
from tests.developer.conftest import submission
from tests.schedules.helpers import Clock
from tests.support.agents import serve_asgi


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.with_changes(certification_job_seconds=10.0)


class Switch:
    """The agent as generated, or, when ``broken``, answering 500 to every /status (a real
    HTTP answer, as a crashed handler behind a proxy gives)."""

    def __init__(self, app: Any) -> None:
        self.app, self.broken = app, False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.broken and scope["type"] == "http" and scope["path"].endswith("/status"):
            await PlainTextResponse("internal error", status_code=500)(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def _runs(app: FastAPI, agent_id: str) -> list[ConformanceRun]:
    async with app.state.db.transaction() as session:
        found = await session.scalars(
            select(ConformanceRun)
            .where(ConformanceRun.agent_id == uuid.UUID(agent_id))
            .order_by(ConformanceRun.ran_at)
        )
        return list(found)


async def _conformant_ids(client: httpx2.AsyncClient) -> list[str]:
    listed = await client.get("/v1/agents", params={"conformant": "true"})
    assert listed.status_code == 200, listed.text
    return [a["id"] for a in listed.json()["data"]]


async def _lost_notices(app: FastAPI) -> list[Notification]:
    async with app.state.db.transaction() as session:
        found = await session.scalars(
            select(Notification).where(Notification.kind == "agent.conformance_lost")
        )
        return list(found)


async def test_the_badge_follows_the_suite_from_submission_to_the_scheduled_round(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, tmp_path: Path
) -> None:
    _, module = await generate(tmp_path, "certified-agent")
    agent = Switch(module.app)
    agent.broken = True
    with serve_asgi(agent, "certified-agent") as url:
        dev = await sign_up_verified(client, settings, "dev@example.com", "Dev")
        created = await client.post("/v1/developer/agents", json=submission(url), headers=dev)
        assert created.status_code == 201, created.text
        agent_id = created.json()["data"]["id"]

        # Submission ran the suite and stored it; the developer sees the failed check by name.
        [submitted] = await _runs(app, agent_id)
        assert (submitted.kind, submitted.passed, submitted.certified_on) == (
            "submit", False, None,
        )  # fmt: skip
        outcomes = {c["name"]: c["outcome"] for c in submitted.checks}
        assert outcomes["job-completes"] == "failed" and outcomes["availability"] == "passed"
        page = await client.get(f"/developer/{agent_id}")
        assert page.status_code == 200
        assert '<code class="failed-check">job-completes</code>' in page.text

        # The operator's review page shows the latest run, every check by name with its reason.
        await sign_up_verified(client, settings, "op@example.com", "Olga Operator")
        async with app.state.db.transaction() as session:
            operator = await identity_repo.user_by_email(session, "op@example.com")
            assert operator is not None
            await identity.create_key(session, user=operator, kind="admin")
        csrf = (await sign_in(client, "op@example.com"))["X-CSRF-Token"]
        queue = await client.get("/admin/reviews", params={"live": "0"})
        assert queue.status_code == 200
        for name in outcomes:
            assert f'data-check="{name}"' in queue.text
        assert "/status: the agent answered 500" in queue.text

        approved = await client.post(f"/admin/reviews/{agent_id}/approve", data={"csrf": csrf})
        assert approved.status_code == 303, approved.text
        reviewed = (await _runs(app, agent_id))[-1]
        assert (reviewed.kind, reviewed.passed) == ("review", False)
        assert agent_id not in await _conformant_ids(client)

        # A passing scheduled run: the badge, dated, with the suite's version.
        agent.broken = False
        clock = Clock(utcnow() + timedelta(days=1, minutes=1))
        client_ = app.state.agent_client
        assert await certify_due(app.state.db, client_, settings, clock=clock) == {
            "ran": 1, "passed": 1,
        }  # fmt: skip
        assert await certify_due(app.state.db, client_, settings, clock=clock) == {
            "ran": 0,
            "passed": 0,
        }  # fmt: skip  (not due again before the interval)
        assert agent_id in await _conformant_ids(client)
        badge = f"✓ Conformant {clock.now:%Y-%m-%d} (suite v{SUITE_VERSION})"
        assert badge in (await client.get(f"/agents/{agent_id}")).text
        assert badge in (await client.get("/agents", params={"conformant": "true"})).text

        # Failing: the badge stays for the grace days (3) from the first failure, then goes.
        agent.broken, passed_at = True, clock.now
        for days, kept in ((1, True), (2, True), (4, False)):  # first failure: day 1
            clock.now = passed_at + timedelta(days=days, minutes=days)  # each one due
            await certify_due(app.state.db, client_, settings, clock=clock)
            assert (agent_id in await _conformant_ids(client)) is kept, days
        assert "Conformant" not in (await client.get(f"/agents/{agent_id}")).text
        gallery = await client.get("/agents", params={"conformant": "true"})
        assert f"/agents/{agent_id}" not in gallery.text
        everyone = await client.get("/v1/agents")
        assert agent_id in [a["id"] for a in everyone.json()["data"]]  # listed, without badge

    bad = await client.get("/v1/agents", params={"conformant": "maybe"})
    assert bad.status_code == 400, bad.text
    assert "conformant" in bad.text

    # The developer and the operator were told, once.
    async with app.state.db.transaction() as session:
        developer = await identity_repo.user_by_email(session, "dev@example.com")
    assert developer is not None
    notices = await _lost_notices(app)
    assert sorted(n.user_id for n in notices) == sorted([operator.id, developer.id])
    assert [n.data["failedChecks"] for n in notices] == [["job-completes", "unknown-job"]] * 2
    runs = await _runs(app, agent_id)
    assert [r.kind for r in runs] == ["submit", "review", "periodic", *["periodic"] * 3]


async def test_a_serving_process_runs_the_round_unless_turned_off(
    app: FastAPI, settings: Settings
) -> None:
    def rounds(s: Settings) -> list[CertificationRound]:
        found = background_services(
            app.state.db, app.state.agent_client, s, dispatching=False, serving=True
        )
        return [service for service in found if isinstance(service, CertificationRound)]

    [daily] = rounds(settings)
    assert daily.interval == 3600.0  # wakes hourly; an agent is due after a day
    assert rounds(settings.with_changes(certification_seconds=0)) == []
