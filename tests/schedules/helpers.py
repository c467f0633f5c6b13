"""Shared helpers for schedule tests: a clock tests move, agents as rows, schedulers."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx2
from fastapi import FastAPI
from sqlalchemy import func, select

from agora.kit.db import Database
from agora.kit.money import to_base
from agora.models import Agent, Job
from agora.schedules.worker import Scheduler
from tests.conftest import TestUser


class Clock:
    """The time the scheduler and the schedule routes read; tests move it."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


async def make_agent(
    db: Database, *, price: float = 0, base_url: str = "http://127.0.0.1:9/"
) -> str:
    """A VERIFIED agent row (no schema: any input), priced in credits."""
    async with db.transaction() as session:
        agent = Agent(name="Reporter", base_url=base_url, status="VERIFIED", price=to_base(price))
        session.add(agent)
        await session.flush()
        return str(agent.id)


def use_clock(app: FastAPI, clock: Clock) -> None:
    app.state.schedule_clock = clock


def scheduler(app: FastAPI, clock: Clock, owner: str, lease_seconds: float = 30) -> Scheduler:
    return Scheduler(
        app.state.db, app.state.settings, owner=owner, clock=clock, lease_seconds=lease_seconds
    )


async def create(
    client: httpx2.AsyncClient, user: TestUser, agent_id: str, **body: Any
) -> dict[str, Any]:
    response = await client.post(
        "/v1/schedules", json={"agentId": agent_id, **body}, headers=user.key_headers
    )
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def runs(
    client: httpx2.AsyncClient, user: TestUser, schedule_id: str
) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor = None
    for _ in range(50):
        params = {"limit": "100", **({"cursor": cursor} if cursor else {})}
        response = await client.get(
            f"/v1/schedules/{schedule_id}/runs", params=params, headers=user.key_headers
        )
        assert response.status_code == 200, response.text
        found += response.json()["data"]
        cursor = response.json()["nextCursor"]
        if cursor is None:
            break
    return sorted(found, key=lambda r: r["occurrenceAt"])


async def get(client: httpx2.AsyncClient, user: TestUser, schedule_id: str) -> dict[str, Any]:
    response = await client.get(f"/v1/schedules/{schedule_id}", headers=user.key_headers)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def job_count(db: Database, agent_id: str) -> int:
    async with db.transaction(write=False) as session:
        count = await session.scalar(
            select(func.count()).select_from(Job).where(Job.agent_id == uuid.UUID(agent_id))
        )
    return int(count or 0)


async def rounds(*schedulers: Scheduler) -> None:
    """One round of every scheduler at once (they race for the same rows)."""
    await asyncio.gather(*(s.run_once() for s in schedulers))
