"""Small row factories for project tests: jobs are created by the jobs feature, so tests insert
Job rows (and the Agent they need) directly."""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime

from sqlalchemy import select

from agora.kit.db import Database
from agora.models import Agent, Job, Project, Task
from tests.conftest import TestUser


async def make_agent(db: Database) -> uuid.UUID:
    async with db.transaction() as session:
        agent = Agent(name="Test agent", base_url="http://127.0.0.1:9/", status="VERIFIED")
        session.add(agent)
        await session.flush()
        return agent.id


async def make_job(
    db: Database,
    user: TestUser,
    agent_id: uuid.UUID,
    *,
    task_id: uuid.UUID | None = None,
    price: int = 0,
    refund: int = 0,
) -> uuid.UUID:
    async with db.transaction() as session:
        job = Job(
            workspace_id=user.workspace_id,
            user_id=user.user_id,
            agent_id=agent_id,
            task_id=task_id,
            name="Test job",
            identifier_from_purchaser=secrets.token_hex(8),
            price=price,
            refund=refund,
        )
        session.add(job)
        await session.flush()
        return job.id


async def job_row(db: Database, job_id: uuid.UUID | str) -> Job:
    async with db.transaction(write=False) as session:
        job = await session.scalar(select(Job).where(Job.id == uuid.UUID(str(job_id))))
    assert job is not None
    return job


async def task_row(db: Database, task_id: uuid.UUID | str) -> Task:
    async with db.transaction(write=False) as session:
        task = await session.scalar(select(Task).where(Task.id == uuid.UUID(str(task_id))))
    assert task is not None
    return task


async def project_row(db: Database, project_id: uuid.UUID | str) -> Project | None:
    async with db.transaction(write=False) as session:
        return await session.scalar(select(Project).where(Project.id == uuid.UUID(str(project_id))))


async def set_updated_at(db: Database, project_id: str, when: datetime) -> None:
    async with db.transaction() as session:
        project = await session.get(Project, uuid.UUID(project_id))
        assert project is not None
        project.updated_at = when
