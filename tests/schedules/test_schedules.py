"""Schedules (issue 35) through the public surface, with a clock the tests move: exactly one job
per occurrence with racing schedulers and restarts, DST in two time zones, pause/resume, the
monthly budget, and failures in a row pausing the schedule and mailing its owner."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta
from zoneinfo import ZoneInfo

import httpx2
from fastapi import FastAPI

from agora.kit.db import Database
from agora.kit.money import to_base
from agora.notifications.worker import NotificationSender
from agora.schedules.worker import LEASE_SECONDS, Scheduler
from tests.conftest import MakeUser
from tests.jobs.helpers import dispatcher, fast_settings
from tests.schedules.helpers import (
    Clock,
    at,
    create,
    get,
    job_count,
    make_agent,
    rounds,
    runs,
    scheduler,
    use_clock,
)


async def test_create_preview_and_validation(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    clock = Clock(at("2030-01-01T00:00:00+00:00"))
    use_clock(app, clock)
    user = await make_user()
    agent = await make_agent(db)
    preview = await client.get(
        "/v1/schedules/preview",
        params={"cron": "0 9 * * MON", "timezone": "Europe/Berlin"},
        headers=user.key_headers,
    )
    assert preview.status_code == 200, preview.text
    data = preview.json()["data"]
    assert data["local"] == [
        "2030-01-07T09:00:00+01:00",
        "2030-01-14T09:00:00+01:00",
        "2030-01-21T09:00:00+01:00",
        "2030-01-28T09:00:00+01:00",
        "2030-02-04T09:00:00+01:00",
    ]
    assert data["occurrences"][0] == "2030-01-07T08:00:00Z"
    schedule = await create(client, user, agent, cron="0 9 * * MON", timezone="Europe/Berlin")
    assert schedule["state"] == "active" and schedule["nextRunAt"] == "2030-01-07T08:00:00Z"
    assert schedule["missedPolicy"] == "run_once" and schedule["failureLimit"] == 5
    shown = await client.get(
        f"/v1/schedules/{schedule['id']}/occurrences", headers=user.key_headers
    )
    assert shown.json()["data"]["occurrences"] == data["occurrences"]
    listed = await client.get("/v1/schedules", headers=user.key_headers)
    assert [s["id"] for s in listed.json()["data"]] == [schedule["id"]]

    for body, field in [
        ({"cron": "61 * * * *"}, "cron"),
        ({"cron": "* * *"}, "cron"),
        ({}, "cron"),
        ({"cron": "0 9 * * *", "intervalSeconds": 3600}, "cron"),
        ({"intervalSeconds": 59}, "intervalSeconds"),
        ({"intervalSeconds": 60, "inputData": {"x": 1}}, "inputData.x"),
        ({"cron": "0 9 * * *", "timezone": "Mars/Olympus"}, "timezone"),
        (
            {
                "cron": "0 9 * * *",
                "startsAt": "2030-02-01T00:00:00Z",
                "endsAt": "2030-01-01T00:00:00Z",
            },
            "endsAt",
        ),
    ]:
        refused = await client.post(
            "/v1/schedules", json={"agentId": agent, **body}, headers=user.key_headers
        )
        assert refused.status_code == 400, (body, refused.text)
        assert field in refused.text, (body, refused.text)
    # Another user's schedule is 404 on every route.
    other = await make_user()
    for method, path in [
        ("GET", ""),
        ("GET", "/occurrences"),
        ("GET", "/runs"),
        ("POST", "/pause"),
        ("PATCH", ""),
    ]:
        response = await client.request(
            method,
            f"/v1/schedules/{schedule['id']}{path}",
            headers=other.key_headers,
            json={"name": "mine"} if method == "PATCH" else None,
        )
        assert response.status_code == 404, (path, response.text)


async def test_three_schedulers_and_restarts_make_exactly_one_job_per_occurrence(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    start = at("2030-01-01T00:00:00+00:00")
    clock = Clock(start - timedelta(seconds=1))
    use_clock(app, clock)
    user = await make_user(credits=to_base(1000))
    agent = await make_agent(db, price=1)
    schedule = await create(
        client, user, agent, intervalSeconds=60, startsAt=start.isoformat(), name="Every minute"
    )
    workers = [scheduler(app, clock, f"w{i}") for i in range(3)]
    for step in range(100):
        clock.now = start + timedelta(minutes=step)
        if step == 40:
            # One worker claims the schedule and dies before running it: its lease must
            # expire (the next minute) and another worker runs the occurrence, late but once.
            assert await workers[0].claim() == [uuid.UUID(schedule["id"])]
            workers[0] = scheduler(app, clock, "w0-restarted")
            continue
        if step == 70:  # every worker restarts (new owners, nothing in memory)
            workers = [scheduler(app, clock, f"r{i}") for i in range(3)]
        await rounds(*workers)
    clock.advance(seconds=59)
    await rounds(*workers)
    recorded = await runs(client, user, schedule["id"])
    assert len(recorded) == 100
    assert len({r["occurrenceAt"] for r in recorded}) == 100
    assert {r["status"] for r in recorded} == {"created"}
    assert len({r["jobId"] for r in recorded}) == 100
    assert await job_count(db, agent) == 100
    # Each run held its credit like any job: 1000 - 100.
    credits = await client.get("/v1/credits", headers=user.key_headers)
    assert credits.status_code == 200
    assert "900" in credits.text


async def _daily_runs(
    app: FastAPI,
    client: httpx2.AsyncClient,
    user: object,
    agent: str,
    *,
    cron: str,
    timezone: str,
    first: str,
    days: int,
) -> list[str]:
    """Move a clock over ``days`` days from ``first`` as a loop would (to each next occurrence,
    and half an hour later again); the runs' local times."""
    start = at(first)
    clock = Clock(start)
    use_clock(app, clock)
    schedule = await create(
        client,
        user,
        agent,
        cron=cron,
        timezone=timezone,
        startsAt=start.isoformat(),  # type: ignore[arg-type]
    )
    workers = [scheduler(app, clock, "a"), scheduler(app, clock, "b")]
    end = start + timedelta(days=days)
    for _ in range(days * 3):  # as a real loop: wake at the next occurrence, and 30 min later
        upcoming = (await get(client, user, schedule["id"]))["nextRunAt"]  # type: ignore[arg-type]
        if at(upcoming) > end:
            break
        clock.now = at(upcoming)
        await rounds(*workers)
        clock.advance(minutes=30)
        await rounds(*workers)
    zone = ZoneInfo(timezone)
    return [
        at(r["occurrenceAt"]).astimezone(zone).isoformat()
        for r in await runs(client, user, schedule["id"])  # type: ignore[arg-type]
        if r["status"] == "created"
    ]


async def test_dst_berlin_and_new_york(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user(credits=to_base(100))
    agent = await make_agent(db)
    # Spring forward, Europe/Berlin 2030-03-31: 02:00 → 03:00. 02:30 runs once, at 03:00.
    assert await _daily_runs(
        app, client, user, agent,
        cron="30 2 * * *", timezone="Europe/Berlin", first="2030-03-30T00:00:00+00:00", days=3,
    ) == [
        "2030-03-30T02:30:00+01:00",
        "2030-03-31T03:00:00+02:00",
        "2030-04-01T02:30:00+02:00",
    ]  # fmt: skip
    # Fall back, Europe/Berlin 2030-10-27: 02:30 happens twice on the wall; it runs once.
    assert await _daily_runs(
        app, client, user, agent,
        cron="30 2 * * *", timezone="Europe/Berlin", first="2030-10-26T00:00:00+00:00", days=3,
    ) == [
        "2030-10-26T02:30:00+02:00",
        "2030-10-27T02:30:00+02:00",
        "2030-10-28T02:30:00+01:00",
    ]  # fmt: skip
    # Spring forward, America/New_York 2030-03-10.
    assert await _daily_runs(
        app, client, user, agent,
        cron="30 2 * * *", timezone="America/New_York", first="2030-03-09T12:00:00+00:00", days=2,
    ) == [
        "2030-03-10T03:00:00-04:00",
        "2030-03-11T02:30:00-04:00",
    ]  # fmt: skip
    # Fall back, America/New_York 2030-11-03: 01:30 twice on the wall, once here.
    assert await _daily_runs(
        app, client, user, agent,
        cron="30 1 * * *", timezone="America/New_York", first="2030-11-02T12:00:00+00:00", days=2,
    ) == [
        "2030-11-03T01:30:00-04:00",
        "2030-11-04T01:30:00-05:00",
    ]  # fmt: skip


async def test_pause_resume_and_end(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    start = at("2030-01-01T00:00:00+00:00")
    clock = Clock(start)
    use_clock(app, clock)
    user = await make_user(credits=to_base(100))
    agent = await make_agent(db)
    schedule = await create(client, user, agent, intervalSeconds=3600, startsAt=start.isoformat())
    sid = schedule["id"]
    worker = scheduler(app, clock, "w")
    await worker.run_once()
    assert len(await runs(client, user, sid)) == 1
    paused = await client.post(f"/v1/schedules/{sid}/pause", headers=user.key_headers)
    assert paused.status_code == 200 and paused.json()["data"]["state"] == "paused"
    for _ in range(3):
        clock.advance(hours=1)
        await worker.run_once()
    assert len(await runs(client, user, sid)) == 1  # nothing while paused
    clock.advance(minutes=10)  # 03:10
    resumed = await client.post(f"/v1/schedules/{sid}/resume", headers=user.key_headers)
    assert resumed.status_code == 200, resumed.text
    assert resumed.json()["data"]["state"] == "active"
    assert resumed.json()["data"]["nextRunAt"] == "2030-01-01T04:00:00Z"
    clock.advance(minutes=50)
    await worker.run_once()
    recorded = await runs(client, user, sid)
    assert [r["occurrenceAt"] for r in recorded] == [
        "2030-01-01T00:00:00Z",
        "2030-01-01T04:00:00Z",
    ]  # the paused hours were neither run nor counted as missed
    ended = await client.post(f"/v1/schedules/{sid}/end", headers=user.key_headers)
    assert ended.json()["data"]["state"] == "ended"
    assert ended.json()["data"]["nextRunAt"] is None
    clock.advance(hours=5)
    await worker.run_once()
    assert len(await runs(client, user, sid)) == 2
    again = await client.post(f"/v1/schedules/{sid}/resume", headers=user.key_headers)
    assert again.status_code == 409


async def test_missed_occurrences_run_once_or_skip(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    start = at("2030-01-01T00:00:00+00:00")
    clock = Clock(start)
    use_clock(app, clock)
    user = await make_user(credits=to_base(100))
    agent = await make_agent(db)
    once = await create(client, user, agent, intervalSeconds=3600, startsAt=start.isoformat())
    skip = await create(
        client, user, agent, intervalSeconds=3600, startsAt=start.isoformat(), missedPolicy="skip"
    )
    clock.advance(hours=5, minutes=30)  # every worker was down from 00:00 to 05:30
    await scheduler(app, clock, "w").run_once()
    ran = await runs(client, user, once["id"])
    assert [(r["occurrenceAt"], r["status"], r["missedCount"]) for r in ran] == [
        ("2030-01-01T00:00:00Z", "missed", 5),
        ("2030-01-01T05:00:00Z", "created", 0),
    ]
    assert "missed" in ran[0]["reason"] and "ran late" in ran[1]["reason"]
    skipped = await runs(client, user, skip["id"])
    assert [(r["occurrenceAt"], r["status"], r["missedCount"]) for r in skipped] == [
        ("2030-01-01T00:00:00Z", "missed", 6)
    ]
    assert (await get(client, user, skip["id"]))["nextRunAt"] == "2030-01-01T06:00:00Z"


async def test_budget_and_balance_skip_with_a_reason(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    start = at("2030-01-01T00:00:00+00:00")
    clock = Clock(start)
    use_clock(app, clock)
    user = await make_user(credits=to_base(5))
    agent = await make_agent(db, price=2)
    budgeted = await create(
        client, user, agent, intervalSeconds=3600, startsAt=start.isoformat(), monthlyBudget=3
    )
    worker = scheduler(app, clock, "w")
    await worker.run_once()  # 2 held (budget 3: 2 left? no, 1 left)
    clock.advance(hours=1)
    await worker.run_once()  # 2 more would pass the budget: skipped, not retried
    for _ in range(3):
        await worker.run_once()
    recorded = await runs(client, user, budgeted["id"])
    assert [r["status"] for r in recorded] == ["created", "skipped"]
    assert "monthly budget of 3" in recorded[1]["reason"]
    assert recorded[0]["credits"] == 2.0 and recorded[1]["credits"] == 0.0
    assert (await get(client, user, budgeted["id"]))["state"] == "active"
    assert await job_count(db, agent) == 1
    # The balance: 3 credits left, a second schedule's runs of 2 each → one runs, one skips.
    unbudgeted = await create(
        client, user, agent, intervalSeconds=3600, startsAt=(start + timedelta(hours=2)).isoformat()
    )
    clock.advance(hours=1)  # 02:00: the budgeted one skips again, the other runs
    await worker.run_once()
    clock.advance(hours=1)
    await worker.run_once()
    other = await runs(client, user, unbudgeted["id"])
    assert [r["status"] for r in other] == ["created", "skipped"]
    assert "credits" in other[1]["reason"].lower()
    assert await job_count(db, agent) == 2


async def test_five_failed_runs_pause_and_mail_the_owner(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    app.state.settings = fast_settings(app.state.settings)
    start = at("2030-01-01T00:00:00+00:00")
    clock = Clock(start)
    use_clock(app, clock)
    user = await make_user(credits=to_base(100))
    agent = await make_agent(db)  # its address refuses connections: every job fails
    schedule = await create(
        client, user, agent, intervalSeconds=3600, startsAt=start.isoformat(), name="Nightly"
    )
    worker = scheduler(app, clock, "w")
    jobs = dispatcher(app)
    for hour in range(7):
        await worker.run_once()
        await jobs.run_until_idle(max_seconds=10)
        if hour < 4:
            assert (await get(client, user, schedule["id"]))["consecutiveFailures"] == hour
        clock.advance(hours=1)
    await worker.run_once()
    shown = await get(client, user, schedule["id"])
    assert shown["state"] == "paused"
    assert shown["consecutiveFailures"] == 5
    assert "5 runs in a row failed" in shown["stateReason"]
    recorded = await runs(client, user, schedule["id"])
    assert [r["status"] for r in recorded] == ["failed"] * 5
    # The pause is a notification: in the owner's inbox at once, and mailed by the sender.
    inbox = await client.get(
        "/v1/notifications", params={"kind": "schedule.paused"}, headers=user.key_headers
    )
    assert [n["title"] for n in inbox.json()["data"]["items"]] == ["Schedule paused: Nightly"]
    await NotificationSender(app.state.db, app.state.settings).run_once()
    mails = [
        text
        for path in (app.state.settings.data_dir / "mail").glob("*.eml")
        if "Schedule paused: Nightly" in (text := path.read_text())
    ]
    assert len(mails) == 1
    assert user.email in mails[0] and "5 runs in a row failed" in mails[0]


async def test_a_task_template_makes_a_task_and_its_job_per_run(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    start = at("2030-01-06T08:00:00+00:00")
    clock = Clock(start)
    use_clock(app, clock)
    user = await make_user(credits=to_base(10))
    agent = await make_agent(db, price=1)
    schedule = await create(
        client, user, agent, cron="0 9 * * *", timezone="Europe/Berlin",
        startsAt=start.isoformat(), task={"name": "Daily check", "description": "see the job"},
    )  # fmt: skip
    assert schedule["name"] == "Daily check"
    worker = scheduler(app, clock, "w")
    for _ in range(2):
        await worker.run_once()
        clock.advance(days=1)
    recorded = await runs(client, user, schedule["id"])
    assert [r["status"] for r in recorded] == ["created", "created"]
    for run, day in zip(recorded, ("2030-01-06", "2030-01-07"), strict=True):
        task = await client.get(f"/v1/tasks/{run['taskId']}", headers=user.bearer_headers)
        assert task.status_code == 200, task.text
        assert task.json()["data"]["name"] == f"Daily check · {day} 09:00"
        assert task.json()["data"]["credits"] == 1
        jobs = await client.get(f"/v1/tasks/{run['taskId']}/jobs", headers=user.bearer_headers)
        assert [j["id"] for j in jobs.json()["data"]] == [run["jobId"]]


async def test_update_restarts_the_rule_and_refuses_bad_fields(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    clock = Clock(at("2030-01-01T00:00:00+00:00"))
    use_clock(app, clock)
    user = await make_user()
    agent = await make_agent(db)
    schedule = await create(client, user, agent, cron="0 9 * * *", timezone="UTC")
    path = f"/v1/schedules/{schedule['id']}"
    changed = await client.patch(
        path, json={"cron": "30 7 * * *", "timezone": "Asia/Tokyo", "name": "Tokyo"},
        headers=user.key_headers,
    )  # fmt: skip
    assert changed.status_code == 200, changed.text
    data = changed.json()["data"]
    assert (data["name"], data["cron"], data["timezone"]) == ("Tokyo", "30 7 * * *", "Asia/Tokyo")
    assert data["nextRunAt"] == "2030-01-01T22:30:00Z"  # 07:30 in Tokyo, after now
    switched = await client.patch(path, json={"intervalSeconds": 3600}, headers=user.key_headers)
    assert switched.json()["data"]["cron"] is None
    assert switched.json()["data"]["intervalSeconds"] == 3600
    for body, field in [
        ({}, "at least one"),
        ({"timezone": "Nope/Nope"}, "timezone"),
        ({"name": None}, "name"),
        ({"inputData": {"x": 1}}, "inputData.x"),
        ({"agentId": agent}, "agentId"),
    ]:
        refused = await client.patch(path, json=body, headers=user.key_headers)
        assert refused.status_code == 400, (body, refused.text)
        assert field in refused.text, (body, refused.text)
    ended = await client.post(f"{path}/end", headers=user.key_headers)
    assert ended.status_code == 200
    late = await client.patch(path, json={"name": "again"}, headers=user.key_headers)
    assert late.status_code == 409


async def test_two_scheduler_processes_at_the_budget_edge_run_exactly_one_more(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    """Issue 43, item 9: schedules whose budget allows exactly one more run, two schedulers
    as two processes run them (each its own engine and pool) racing every round, one of them
    also losing its lease mid-round: exactly one more job per schedule, the budget never passed."""
    start = at("2030-01-01T00:00:00+00:00")
    clock = Clock(start)
    use_clock(app, clock)
    user = await make_user(credits=to_base(1000))
    agent = await make_agent(db, price=2)
    made = [
        await create(
            client, user, agent, intervalSeconds=3600, startsAt=start.isoformat(), monthlyBudget=4
        )
        for _ in range(8)
    ]
    engines = [Database(db.url), Database(db.url)]
    try:
        workers = [
            Scheduler(engine, app.state.settings, owner=f"process-{i}", clock=clock)
            for i, engine in enumerate(engines)
        ]
        await rounds(*workers)  # 00:00: 2 of 4 held by each schedule
        clock.advance(hours=1)  # 01:00: 2 left, exactly one more run's price
        claimed = await workers[0].claim(limit=3)  # process 0 claims some, then stalls …
        assert len(claimed) == 3
        clock.advance(seconds=LEASE_SECONDS + 1)  # … past its lease: process 1 takes them too
        await asyncio.gather(
            *(workers[0].run_claimed(schedule_id) for schedule_id in claimed),
            workers[1].run_once(),
            workers[0].run_once(),
        )
        for _ in range(3):  # 02:00 … 04:00: the budget is spent, every run is skipped
            clock.advance(hours=1)
            await rounds(*workers)
    finally:
        for engine in engines:
            await engine.dispose()
    assert await job_count(db, agent) == 2 * len(made)
    for schedule in made:
        recorded = await runs(client, user, schedule["id"])
        assert [r["status"] for r in recorded] == ["created"] * 2 + ["skipped"] * 3, recorded
        assert sum(r["credits"] for r in recorded) == 4.0  # the budget, to the credit
        assert all("monthly budget of 4" in r["reason"] for r in recorded[2:])
