"""History feed at a million items, on PostgreSQL.

    make bench-history          (or: .venv/bin/python -m bench.history [--items 1000000])

Seeds one workspace of a throwaway database with ``--items`` tasks, jobs and conversations
(40/40/20 %) by INSERT … SELECT generate_series (not the API), then times the feed's service
function, ``history.service.read_feed``, in this process: the server time of one request minus
HTTP parsing (a request's own session, as the endpoint opens one). Reports p50/p99 against the
targets, this process's RSS before seeding and after the reads, and EXPLAIN (ANALYZE, BUFFERS)
of the statements one first-page read runs.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import time
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import event, text

from agora.accounts import provisioning as identity
from agora.auth.principal import Principal
from agora.history.service import FeedQuery, read_feed
from agora.kit.db import Database
from agora.kit.logging import configure_logging
from agora.kit.migrate import upgrade
from agora.models import Agent, Project
from bench.common import percentile, throwaway_postgres

SECRET = "bench-secret"
RUNS = 100
FIRST_PAGE_P50_MS = 10.0
DEEP_RATIO = 1.5
SEARCH_P50_MS = 50.0


def rss_mib() -> float:
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024  # type: ignore[union-attr]


SEED = """
INSERT INTO tasks (id, workspace_id, creator_id, name, description, status, project_id,
                   created_at, updated_at)
SELECT gen_random_uuid(), CAST(:ws AS uuid), CAST(:user AS uuid),
       'task ' || i || ' ' || md5(i::text),
       'about ' || md5((-i)::text),
       (ARRAY['PENDING','RUNNING','COMPLETED','FAILED','CANCELLED'])[1 + i % 5],
       CASE WHEN i % 4 = 0 THEN (CAST(:projects AS uuid[]))[1 + i % 10] END,
       now() - make_interval(secs => i * 3), now() - make_interval(secs => i * 3)
FROM generate_series(1, :tasks) AS i;

INSERT INTO jobs (id, workspace_id, user_id, agent_id, name, status, job_type, input_data,
                  identifier_from_purchaser, price, fee, refund, refund_fee, settled,
                  share_public, dispatch_state, attempts, project_id, created_at, updated_at)
SELECT gen_random_uuid(), CAST(:ws AS uuid), CAST(:user AS uuid),
       CAST(:agent AS uuid), 'job ' || i || ' ' || md5((i * 7)::text),
       (ARRAY['PENDING','RUNNING','COMPLETED','FAILED','CANCELLED'])[1 + i % 5], 'PAID', '{}',
       md5(i::text), 1000000, 50000, CASE WHEN i % 5 = 3 THEN 1000000 ELSE 0 END, 0, true,
       false, 'done', 0, CASE WHEN i % 4 = 1 THEN (CAST(:projects AS uuid[]))[1 + i % 10] END,
       now() - make_interval(secs => i * 3 + 1), now() - make_interval(secs => i * 3 + 1)
FROM generate_series(1, :jobs) AS i;

INSERT INTO conversations (id, workspace_id, user_id, title, description, archived_at,
                           created_at, updated_at)
SELECT gen_random_uuid(), CAST(:ws AS uuid), CAST(:user AS uuid),
       'chat ' || i || ' ' || md5((i * 13)::text), '',
       CASE WHEN i % 10 = 0 THEN now() END,
       now() - make_interval(secs => i * 3 + 2), now() - make_interval(secs => i * 3 + 2)
FROM generate_series(1, :conversations) AS i;
"""


async def seed(db: Database, items: int) -> tuple[Principal, list[uuid.UUID]]:
    async with db.transaction() as session:
        created = await identity.create_user(session, email="bench@example.com", name="Bench")
        agent = Agent(name="Bench agent", base_url="http://127.0.0.1:9", status="VERIFIED")
        session.add(agent)
        projects = [Project(workspace_id=created.workspace.id, name=f"P{i}") for i in range(10)]
        session.add_all(projects)
        await session.flush()
        principal = Principal(
            user_id=created.user.id,
            key_id=created.key.id,
            key_kind="user",
            workspace_id=created.workspace.id,
            organization_id=None,
        )
        params = {
            "ws": created.workspace.id,
            "user": created.user.id,
            "agent": agent.id,
            "projects": [p.id for p in projects],
            "tasks": items * 4 // 10,
            "jobs": items * 4 // 10,
            "conversations": items - 2 * (items * 4 // 10),
        }
        for statement in SEED.strip().split(";\n\n"):
            await session.execute(text(statement), params)
    async with db.engine.connect() as conn:
        conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
        await conn.execute(text("VACUUM ANALYZE tasks, jobs, conversations"))
    return principal, [p.id for p in projects]


async def timed(db: Database, principal: Principal, query: FeedQuery) -> tuple[float, Any]:
    started = time.perf_counter()
    async with db.transaction(write=False) as session:
        page = await read_feed(session, principal, query, SECRET)
    return (time.perf_counter() - started) * 1000, page


async def series(
    db: Database, principal: Principal, query: FeedQuery, runs: int = RUNS
) -> dict[str, float]:
    await timed(db, principal, query)  # warm
    values = [(await timed(db, principal, query))[0] for _ in range(runs)]
    return {"p50": percentile(values, 50), "p99": percentile(values, 99)}


async def explain(db: Database, principal: Principal, query: FeedQuery) -> list[str]:
    captured: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            captured.append((statement, parameters))

    event.listen(db.engine.sync_engine, "before_cursor_execute", capture)
    try:
        await timed(db, principal, query)
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", capture)
    plans = []
    async with db.engine.connect() as conn:
        for statement, parameters in captured:
            result = await conn.exec_driver_sql(
                "EXPLAIN (ANALYZE, BUFFERS) " + statement, parameters
            )
            plans.append("\n".join(row[0] for row in result))
    return plans


async def run(items: int) -> None:
    before = rss_mib()
    async with throwaway_postgres("agora_bench_history") as url:
        db = Database(url, pool_size=5)
        try:
            await upgrade(db.engine)
            started = time.perf_counter()
            principal, projects = await seed(db, items)
            seeded_in = time.perf_counter() - started
            first = FeedQuery(limit=20)
            results: dict[str, dict[str, float]] = {
                "first page": await series(db, principal, first)
            }

            cursor = None
            for _ in range(499):  # walk to page 500
                _, page = await timed(db, principal, FeedQuery(limit=20, cursor=cursor))
                cursor = page.pagination.cursor
            results["page 500"] = await series(db, principal, FeedQuery(limit=20, cursor=cursor))
            searches: dict[str, FeedQuery] = {
                "q search": FeedQuery(limit=20, q="abc"),
                "q search, rare": FeedQuery(limit=20, q="task 12345 "),
                "status=RUNNING": FeedQuery(limit=20, status="RUNNING"),
                "status=RUNNING,active": FeedQuery(limit=20, status="RUNNING,active"),
                "projectId": FeedQuery(limit=20, project_id=str(projects[3])),
                "projectId, no items": FeedQuery(limit=20, project_id=str(uuid.uuid4())),
                "projectId=null": FeedQuery(limit=20, project_id="null"),
                "scope=workspace": FeedQuery(limit=20, scope="workspace"),
            }
            for name, query in searches.items():
                results[name] = await series(db, principal, query, runs=30)
            plans = {
                "first page": await explain(db, principal, first),
                "q search": await explain(db, principal, searches["q search"]),
            }
        finally:
            await db.dispose()
    after = rss_mib()
    report(items, seeded_in, results, before, after, plans)


def report(
    items: int,
    seeded_in: float,
    results: dict[str, dict[str, float]],
    before: float,
    after: float,
    plans: dict[str, list[str]],
) -> None:
    print(
        f"\nhistory feed, PostgreSQL, {items:,} items in one workspace, seeded in {seeded_in:.0f} s"
    )
    print("server time of read_feed (in-process, own session), limit=20\n")
    print(f"{'read':<24}{'p50 ms':>9}{'p99 ms':>9}")
    for name, figures in results.items():
        print(f"{name:<24}{figures['p50']:>9.2f}{figures['p99']:>9.2f}")
    first, deep = results["first page"]["p50"], results["page 500"]["p50"]
    search = results["q search"]["p50"]
    print(
        f"\nfirst page p50 {first:.2f} ms vs target {FIRST_PAGE_P50_MS} ms: "
        f"{first / FIRST_PAGE_P50_MS:.2f}x of target"
    )
    print(f"page 500 / page 1 p50: {deep / first:.2f} (target <= {DEEP_RATIO})")
    print(
        f"q search p50 {search:.2f} ms vs target {SEARCH_P50_MS} ms: {search / SEARCH_P50_MS:.2f}x"
    )
    print(f"RSS of this process: {before:.0f} MiB before seeding, {after:.0f} MiB after the reads")
    for name, statements in plans.items():
        print(f"\n--- plans: {name} ---")
        for plan in statements:
            print(plan, end="\n\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--items", type=int, default=1_000_000)
    args = parser.parse_args()
    configure_logging("WARNING")
    asyncio.run(run(args.items))


if __name__ == "__main__":
    main()
