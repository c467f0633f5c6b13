"""No list runs a statement per item: every list endpoint answers a page of 5 and a page of 50
with the same number of SQL statements (docs/performance.md, "Fifth round: lists").

Statements are counted where they reach the database: the session engine's
``before_cursor_execute`` and the lean reads' observers (``kit/reads.py``: prepared reads run on
the driver's own connections, outside the engine). The data looks like use: tasks with events by
users and by a coworker, some with jobs (some shared) and coworker usage, projects with tasks,
conversations, jobs outside tasks, more than 50 of each list's items."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from sqlalchemy import event

from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import (
    Agent,
    AgentDailyCompletions,
    Conversation,
    CoworkerUsage,
    Job,
    Notification,
    Project,
    StoredFile,
    Task,
    TaskEvent,
)
from agora.models.statuses import TaskActorType
from tests.conftest import MakeUser, TestUser
from tests.projects.factories import make_agent

ITEMS = 60  # of each kind: more than the larger page
SMALL, LARGE = 5, 50


@contextmanager
def counted(db: Database) -> Iterator[list[str]]:
    """The SQL of every statement run while inside, through the engine or the lean reads."""
    statements: list[str] = []

    def on_cursor(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        statements.append(sql)

    engine = db.engine.sync_engine
    event.listen(engine, "before_cursor_execute", on_cursor)
    if db.reads is not None:
        db.reads.observers.append(statements.append)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", on_cursor)
        if db.reads is not None:
            db.reads.observers.remove(statements.append)


async def _data(response: httpx2.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()["data"]


async def _coworker_key(client: httpx2.AsyncClient, owner: TestUser, admin: TestUser) -> str:
    """A whitelisted coworker of ``owner`` with an API key (through the API)."""
    coworker = await _data(
        await client.post(
            "/v1/coworkers",
            json={"name": "Scribe", "baseURL": "https://scribe.example.com"},
            headers=owner.bearer_headers,
        ),
        201,
    )
    await _data(
        await client.post(
            f"/v1/admin/coworkers/{coworker['id']}/whitelist", headers=admin.bearer_headers
        )
    )
    key = await _data(
        await client.post(
            f"/v1/coworkers/{coworker['id']}/api-keys",
            json={"name": "runtime"},
            headers=owner.bearer_headers,
        ),
        201,
    )
    return str(key["token"])


async def _seed(
    client: httpx2.AsyncClient, db: Database, user: TestUser, admin: TestUser
) -> tuple[str, str]:
    """→ (a project holding more than 50 tasks, a coworker key those tasks are assigned to)."""
    token = await _coworker_key(client, user, admin)
    # One task assigned through the API gives the coworker the workspace.
    coworkers = await _data(await client.get("/v1/coworkers", headers=user.bearer_headers))
    coworker_id = uuid.UUID(coworkers[0]["id"])
    await _data(
        await client.post(
            "/v1/tasks",
            json={"name": "First", "coworkerId": str(coworker_id)},
            headers=user.bearer_headers,
        ),
        201,
    )
    agent_id = await make_agent(db)
    start = utcnow() - timedelta(days=1)
    async with db.transaction() as session:
        projects = [
            Project(workspace_id=user.workspace_id, name=f"Project {i}", created_by=user.user_id)
            for i in range(ITEMS)
        ]
        session.add_all(projects)
        await session.flush()
        for i in range(2 * ITEMS):
            when = start + timedelta(seconds=i)
            task = Task(
                workspace_id=user.workspace_id,
                creator_id=user.user_id,
                name=f"Task {i}",
                project_id=projects[0].id if i % 2 == 0 else projects[1 + i % 5].id,
                coworker_id=coworker_id,
                created_at=when,
                updated_at=when,
            )
            session.add(task)
            await session.flush()
            session.add_all(
                [
                    TaskEvent(
                        task_id=task.id,
                        comment=f"Please do {i}",
                        actor_type=TaskActorType.USER,
                        actor_user_id=user.user_id,
                        created_at=when,
                    ),
                    TaskEvent(
                        task_id=task.id,
                        status="RUNNING",
                        actor_type=TaskActorType.COWORKER,
                        actor_coworker_id=coworker_id,
                        created_at=when + timedelta(milliseconds=1),
                    ),
                ]
            )
            if i % 3 == 0:
                for n in range(2):
                    session.add(
                        Job(
                            workspace_id=user.workspace_id,
                            user_id=user.user_id,
                            agent_id=agent_id,
                            task_id=task.id,
                            name=f"Job {i}.{n}",
                            identifier_from_purchaser=secrets.token_hex(8),
                            price=1_000_000 * (n + 1),
                            refund=0,
                            share_token=secrets.token_hex(16) if n == 0 else None,
                            share_user_id=user.user_id if n == 0 else None,
                            share_created_at=when if n == 0 else None,
                            created_at=when,
                            updated_at=when,
                        )
                    )
            if i % 4 == 0:
                session.add(
                    CoworkerUsage(
                        coworker_id=coworker_id,
                        user_id=user.user_id,
                        workspace_id=user.workspace_id,
                        task_id=task.id,
                        idempotency_key=f"usage-{i}",
                        credits=500_000,
                        request_hash="0" * 64,
                    )
                )
        for i in range(ITEMS):  # interleaved with the newer half of the tasks
            job_time = start + timedelta(seconds=ITEMS + i, milliseconds=300)
            chat_time = job_time + timedelta(milliseconds=300)
            session.add(
                Job(
                    workspace_id=user.workspace_id,
                    user_id=user.user_id,
                    agent_id=agent_id,
                    name=f"Loose job {i}",
                    identifier_from_purchaser=secrets.token_hex(8),
                    price=2_000_000,
                    refund=500_000 if i % 2 else 0,
                    created_at=job_time,
                    updated_at=job_time,
                )
            )
            session.add(
                Conversation(
                    workspace_id=user.workspace_id,
                    user_id=user.user_id,
                    title=f"Chat {i}",
                    created_at=chat_time,
                    updated_at=chat_time,
                )
            )
        # The newer lists: the person's inbox, the workspace's files, a rated catalogue.
        for i in range(ITEMS):
            when = start + timedelta(seconds=i)
            session.add(
                Notification(
                    user_id=user.user_id,
                    kind=("job.completed", "job.failed", "job.input_required")[i % 3],
                    subject_ref=f"job:{agent_id}",
                    title=f"Job {i}",
                    data={"jobId": str(agent_id), "name": f"Job {i}"},
                    read_at=when if i % 3 == 0 else None,
                    created_at=when,
                )
            )
            session.add(
                StoredFile(
                    workspace_id=user.workspace_id,
                    user_id=user.user_id,
                    origin="output" if i % 2 else "upload",
                    name=f"report-{i}.pdf",
                    state="stored" if i % 5 else "too_large",
                    source_url=f"https://example.com/report-{i}.pdf",
                    created_at=when,
                )
            )
            agent = Agent(
                name=f"Rated agent {i}",
                base_url="http://127.0.0.1:9/",
                status="VERIFIED",
                rating_count=(i * 7) % 23,
                rating_sum=((i * 7) % 23) * (1 + i % 5),
            )
            session.add(agent)
            await session.flush()
            session.add(
                AgentDailyCompletions(agent_id=agent.id, day=utcnow().date(), count=1 + i % 9)
            )
    return str(projects[0].id), token


# path, and the most statements a page may run (SQLite's count: its ORM reads add a BEGIN).
# The task listing's: the page with its count, spend, events, jobs (with their demo flag), the
# shared jobs' sharers, people, participants, coworkers, workspaces (and organizations, for an
# organization's workspace) — one per kind of data.
LISTS = {
    "tasks": ("/v1/tasks?limit={n}", 10),
    "tasks of a workspace, second page": ("/v1/tasks?limit={n}&page=2&scope=workspace", 10),
    "a project's tasks": ("/v1/tasks?limit={n}&projectId={project}", 10),
    "history (tasks, jobs and conversations)": ("/v1/history?limit={n}", 1),
    "history, tasks only": ("/v1/history?limit={n}&types=task", 1),
    "jobs": ("/v1/jobs?limit={n}", 1),
    "projects": ("/v1/projects?limit={n}", 1),
    "coworker events": ("/v1/coworkers/me/events?limit={n}", 4),
    # the page with the unread count beside each row
    "notifications": ("/v1/notifications?limit={n}", 1),
    "files": ("/v1/files?limit={n}", 1),
    # the page with its total, then the agents' categories
    "agents by rating": ("/v1/agents?limit={n}&sort=rating", 2),
    "agents by popularity": ("/v1/agents?limit={n}&sort=popularity", 2),
}
KEY_FAMILY = ("notifications", "files")  # x-api-key routes


@pytest.fixture
async def seeded(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser, admin: TestUser
) -> tuple[TestUser, str, str]:
    user = await make_user(name="Ada")
    project, token = await _seed(client, db, user, admin)
    return user, project, token


async def _statements(
    client: httpx2.AsyncClient, db: Database, path: str, headers: dict[str, str]
) -> tuple[list[str], list[Any]]:
    warm = await client.get(path, headers=headers)  # the key cache, the key's last-used time
    assert warm.status_code == 200, warm.text
    with counted(db) as counted_statements:
        response = await client.get(path, headers=headers)
    # Authentication reads its key once per request when its cache has expired (on its own
    # clock): not the list's work.
    statements = [sql for sql in counted_statements if "FROM api_keys" not in sql]
    assert response.status_code == 200, response.text
    body = response.json()
    items = body["data"] if "data" in body else body["items"]  # the history feed: "items"
    if isinstance(items, dict):  # the inbox: its page in data.items
        items = items["items"]
    return statements, items


@pytest.mark.parametrize("name", list(LISTS))
async def test_a_page_costs_the_same_statements_whatever_its_size(
    client: httpx2.AsyncClient, db: Database, seeded: tuple[TestUser, str, str], name: str
) -> None:
    user, project, token = seeded
    headers = {"Authorization": f"Bearer {token}"} if "coworker" in name else user.bearer_headers
    if name in KEY_FAMILY:
        headers = user.key_headers
    pages = {}
    for size in (SMALL, LARGE):
        path = LISTS[name][0].format(n=size, project=project)
        pages[size] = await _statements(client, db, path, headers)
    (small, small_items), (large, large_items) = pages[SMALL], pages[LARGE]
    assert (len(small_items), len(large_items)) == (SMALL, LARGE)  # the data fills both pages
    if name.startswith("history"):  # the mixed page holds every kind, tasks with their spend
        assert {item["kind"] for item in small_items} >= {"task"}
    shown = [" ".join(sql.split())[:100] for sql in ["page of 5:", *small, "page of 50:", *large]]
    assert len(large) == len(small), "\n".join(shown)
    print(f"{name}: {len(small)} statements per page")
    assert len(small) <= LISTS[name][1], "\n".join(shown)  # one per kind of data
