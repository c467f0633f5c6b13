"""The lean reference for ``make load``: the same requests answered from the same database by the
same stack (FastAPI, uvicorn) with the fewest honest steps — no ORM, no middleware, no app-wide
dependencies. Each authenticated request hashes the key, runs ONE lookup of key + workspace
(refusing revoked and expired keys), reads its rows with hand-written SQL and answers JSON in the
same envelope as Agora. It is a yardstick, not a product: no rate limits, request ids, logs or
metrics, and only the paths below.

    AGORA_REF_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/db \\
        uvicorn --factory bench.reference_app:create_app --port 8001
    AGORA_REF_DATABASE_URL=sqlite:///path/agora.db AGORA_REF_SECRET_KEY=... (same as Agora's)

PostgreSQL goes through an asyncpg pool (10 connections, like Agora's engine); SQLite through a
few aiosqlite connections (WAL, writes take ``BEGIN IMMEDIATE`` like Agora's).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import aiosqlite
import asyncpg
import orjson
from fastapi import FastAPI, Request
from fastapi.responses import Response
from itsdangerous import URLSafeTimedSerializer

BASE = 10**6  # base units per credit (agora.kit.money)


def _display(base_units: int) -> float | int:
    if base_units % BASE == 0:
        return base_units // BASE
    return float(Decimal(base_units) / Decimal(BASE))


def _iso(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):  # SQLite keeps 'YYYY-MM-DD HH:MM:SS.ffffff' (UTC)
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return str(value.astimezone(UTC).isoformat().replace("+00:00", "Z"))


def _now_iso() -> str:
    return _iso(datetime.now(UTC)) or ""


def _json(payload: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(payload), status_code=status, media_type="application/json")


def _error_a(status: int, message: str) -> Response:
    return _json({"success": False, "error": message, "timestamp": _now_iso()}, status)


@dataclass
class Key:
    id: Any
    user_id: Any
    kind: str
    workspace_id: Any
    organization_id: Any
    coworker_id: str | None = None  # a coworker key's coworker


class Backend:
    """The handful of statements the reference runs, on one database."""

    sqlite: bool

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        raise NotImplementedError

    def transaction(self) -> Any:
        raise NotImplementedError

    def uuid(self, value: uuid.UUID) -> Any:
        return value.hex if self.sqlite else value

    def ts(self, value: datetime) -> Any:
        return value.strftime("%Y-%m-%d %H:%M:%S.%f") if self.sqlite else value

    def p(self, sql: str) -> str:
        """Our SQL uses $1, $2 …; SQLite wants ?NNN."""
        return sql.replace("$", "?") if self.sqlite else sql

    async def close(self) -> None:
        raise NotImplementedError


class Postgres(Backend):
    sqlite = False

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        async with self.pool.acquire() as conn:
            return list(await conn.fetch(sql, *args))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Any]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield _PgConn(conn)

    async def close(self) -> None:
        await self.pool.close()


class _PgConn:
    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        return list(await self.conn.fetch(sql, *args))


class Sqlite(Backend):
    sqlite = True

    def __init__(self, connections: list[aiosqlite.Connection]) -> None:
        self.connections = connections
        self.free: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for conn in connections:
            self.free.put_nowait(conn)

    @classmethod
    async def open(cls, path: str, size: int = 4) -> Sqlite:
        conns = []
        for _ in range(size):
            conn = await aiosqlite.connect(path, timeout=30, isolation_level=None)
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA busy_timeout=30000")
            conns.append(conn)
        return cls(conns)

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        conn = await self.free.get()
        try:
            return list(await conn.execute_fetchall(self.p(sql), args))
        finally:
            self.free.put_nowait(conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Any]:
        conn = await self.free.get()
        try:
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield _SqliteConn(conn, self)
                await conn.execute("COMMIT")
            except BaseException:
                await conn.execute("ROLLBACK")
                raise
        finally:
            self.free.put_nowait(conn)

    async def close(self) -> None:
        for conn in self.connections:
            await conn.close()


class _SqliteConn:
    def __init__(self, conn: aiosqlite.Connection, backend: Sqlite) -> None:
        self.conn, self.backend = conn, backend

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        return list(await self.conn.execute_fetchall(self.backend.p(sql), args))


KEY_SQL = """
SELECT k.id, k.user_id, k.kind, k.revoked_at, k.expires_at, k.default_workspace_id,
       w.organization_id, k.scopes
FROM api_keys k JOIN workspaces w ON w.id = k.default_workspace_id
WHERE k.key_hash = $1
"""


async def authenticate(db: Backend, request: Request) -> Key | None:
    token = request.headers.get("x-api-key")
    if not token:
        scheme, _, rest = (request.headers.get("authorization") or "").partition(" ")
        token = rest.strip() if scheme.lower() == "bearer" else None
    if not token:
        return None
    rows = await db.fetch(KEY_SQL, hashlib.sha256(token.encode()).hexdigest())
    if not rows:
        return None
    kid, user_id, kind, revoked, expires, workspace_id, org_id, scopes = rows[0]
    if revoked is not None:
        return None
    if expires is not None and _iso(expires) <= _now_iso():  # type: ignore[operator]
        return None
    scopes = json.loads(scopes) if isinstance(scopes, str) else scopes
    acting = [s.split(":", 1)[1] for s in scopes or [] if s.startswith("coworker:")]
    coworker = acting[0] if kind == "coworker" and acting else None
    return Key(kid, user_id, kind, workspace_id, org_id, coworker)


def _id(value: Any) -> str:
    return str(uuid.UUID(value)) if isinstance(value, str) else str(value)


def _price(total: int, fee: int) -> dict[str, Any]:
    return {"credits": _display(total), "includedFee": _display(fee)}


JOB_COLUMNS = """id, created_at, updated_at, name, status, agent_id, user_id, organization_id,
 agent_job_id, agent_job_status, on_chain_status, input_data, result, error, started_at,
 completed_at, job_type, price, fee, refund, refund_fee, settled, project_id, task_id,
 share_token"""


def _job(row: Sequence[Any]) -> dict[str, Any]:
    data = row[11]
    return {
        "id": _id(row[0]),
        "createdAt": _iso(row[1]),
        "updatedAt": _iso(row[2]),
        "name": row[3],
        "status": row[4],
        "agentId": _id(row[5]),
        "userId": _id(row[6]),
        "organizationId": _id(row[7]) if row[7] else None,
        "agentJobId": row[8],
        "agentJobStatus": row[9],
        "onChainStatus": row[10],
        # asyncpg and sqlite hand JSON back as text; re-encode it compactly like Agora
        "input": json.dumps(json.loads(data) if isinstance(data, str) else data),
        "result": row[12],
        "error": row[13],
        "startedAt": _iso(row[14]),
        "completedAt": _iso(row[15]),
        "jobType": row[16],
        "price": _price(row[17], row[18]),
        "refund": _price(row[19], row[20]),
        "share": None,  # the seeded jobs are not shared
        "jobStatusSettled": bool(row[21]),
        "projectId": _id(row[22]) if row[22] else None,
        "taskId": _id(row[23]) if row[23] else None,
    }


def _marks(count: int, start: int = 1) -> str:
    return ", ".join(f"${i + start}" for i in range(count))


async def _spend(db: Backend, task_ids: list[Any]) -> dict[Any, int]:
    """Each task's net spend: its jobs' price - refund and its coworker usage (one statement)."""
    marks = _marks(len(task_ids))
    rows = await db.fetch(
        "SELECT task_id, SUM(amount) FROM ("
        f" SELECT task_id, price - refund AS amount FROM jobs WHERE task_id IN ({marks})"
        " UNION ALL"
        f" SELECT task_id, credits FROM coworker_usage WHERE task_id IN ({marks})"
        ") AS spent GROUP BY task_id",
        *task_ids,
    )
    return {task_id: int(total or 0) for task_id, total in rows}


def _meta_b(pagination: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": _now_iso(), "requestId": "", "pagination": pagination}


def _named(row: Sequence[Any] | None) -> dict[str, Any] | None:
    return {"id": _id(row[0]), "name": row[1]} if row is not None else None


def _coworker_ref(row: Sequence[Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"id": _id(row[0]), "name": row[1], "slug": row[2], "image": row[3]}


TASK_COLUMNS = """id, created_at, updated_at, name, description, status, project_id, archived_at,
 workspace_id, creator_id, coworker_id, origin, channel, metadata"""
EVENT_COLUMNS = """id, task_id, created_at, updated_at, status, comment, credits,
 authentication_url, metadata, actor_type, actor_user_id, actor_coworker_id, channel, origin"""


def create_app() -> FastAPI:
    url = os.environ["AGORA_REF_DATABASE_URL"]
    secret = os.environ.get("AGORA_REF_SECRET_KEY", "")
    state: dict[str, Backend] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if url.startswith("sqlite"):
            state["db"] = await Sqlite.open(url.split(":///", 1)[1])
        else:
            state["db"] = Postgres(await asyncpg.create_pool(url, min_size=10, max_size=10))
        yield
        await state["db"].close()

    app = FastAPI(lifespan=lifespan, openapi_url=None, docs_url=None, redoc_url=None)
    signer = URLSafeTimedSerializer(
        secret, salt="agora.cursor.history", signer_kwargs={"digest_method": hashlib.sha256}
    )

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/v1/users/me")
    async def me(request: Request) -> Response:
        db = state["db"]
        key = await authenticate(db, request)
        if key is None:
            return _error_a(401, "Authentication required")
        rows = await db.fetch(
            "SELECT id, created_at, updated_at, name, email, terms_accepted, marketing_opt_in,"
            " job_status_notifications_opt_in, payment_customer_id FROM users WHERE id = $1",
            key.user_id,
        )
        u = rows[0]
        user = {
            "id": _id(u[0]),
            "createdAt": _iso(u[1]),
            "updatedAt": _iso(u[2]),
            "name": u[3],
            "email": u[4],
            "termsAccepted": bool(u[5]),
            "marketingOptIn": bool(u[6]),
            "jobStatusNotificationsOptIn": bool(u[7]),
            "paymentCustomerId": u[8],
        }
        return _json({"success": True, "data": user, "timestamp": _now_iso()})

    @app.get("/v1/jobs/{job_id}")
    async def job(job_id: str, request: Request) -> Response:
        db = state["db"]
        key = await authenticate(db, request)
        if key is None:
            return _error_a(401, "Authentication required")
        try:
            parsed = uuid.UUID(job_id)
        except ValueError:
            return _error_a(404, f"Job {job_id} not found")
        rows = await db.fetch(
            f"SELECT {JOB_COLUMNS} FROM jobs WHERE id = $1 AND user_id = $2 AND workspace_id = $3",
            db.uuid(parsed),
            key.user_id,
            key.workspace_id,
        )
        if not rows:
            return _error_a(404, f"Job {job_id} not found")
        return _json({"success": True, "data": _job(rows[0]), "timestamp": _now_iso()})

    @app.get("/v1/history")
    async def history(request: Request, limit: int = 20) -> Response:
        db = state["db"]
        key = await authenticate(db, request)
        if key is None:
            return _json({"error": "Unauthorized"}, 401)
        if not 1 <= limit <= 100:
            return _json({"error": "Bad Request"}, 400)
        # One statement: the three kinds' newest rows, merged by the database.
        rows = await db.fetch(
            """
            SELECT * FROM (
              SELECT 'task' AS kind, id, name, status, project_id, NULL AS net, created_at,
                     updated_at FROM tasks
              WHERE workspace_id = $1 AND creator_id = $2 AND archived_at IS NULL
              UNION ALL
              SELECT 'job', id, name, status, project_id, price - refund, created_at, updated_at
              FROM jobs WHERE workspace_id = $1 AND user_id = $2
              UNION ALL
              SELECT 'conversation', id, title, NULL, NULL, NULL, created_at, updated_at
              FROM conversations
              WHERE workspace_id = $1 AND user_id = $2 AND archived_at IS NULL
            ) AS feed ORDER BY updated_at DESC, id DESC LIMIT $3
            """,
            key.workspace_id,
            key.user_id,
            limit + 1,
        )
        page, more = rows[:limit], len(rows) > limit
        task_ids = [r[1] for r in page if r[0] == "task"]
        spend: dict[Any, int] = {}
        if task_ids:
            spend = await _spend(db, task_ids)
        items: list[dict[str, Any]] = []
        for kind, rid, title, status, project, net, created, updated in page:
            item: dict[str, Any] = {"kind": kind, "id": _id(rid), "title": title}
            if kind != "conversation":
                item["status"] = status
                item["credits"] = _display(int(net if kind == "job" else spend.get(rid, 0)))
                item["projectId"] = _id(project) if project else None
            item["createdAt"], item["updatedAt"] = _iso(created), _iso(updated)
            items.append(item)
        cursor = None
        if more and page:
            binding = hashlib.sha256(
                json.dumps([str(key.user_id), str(key.workspace_id)]).encode()
            ).hexdigest()[:32]
            cursor = signer.dumps({"p": [items[-1]["updatedAt"], items[-1]["id"]], "b": binding})
        pagination = {"cursor": cursor, "hasMore": more, "limit": limit}
        return _json({"items": items, "pagination": pagination})

    @app.get("/v1/agents")
    async def agents(
        request: Request, limit: int = 20, cursor: str | None = None, sort: str | None = None
    ) -> Response:
        db = state["db"]
        key = await authenticate(db, request)
        if key is None:
            return _json({"error": "Unauthorized"}, 401)
        if not 1 <= limit <= 100:
            return _json({"error": "Bad Request"}, 400)
        after = None
        if cursor:
            try:
                after = db.uuid(uuid.UUID(cursor))
            except ValueError:
                return _json({"error": "Bad Request"}, 400)
        shown = "is_shown = true AND status = 'VERIFIED'"
        if db.sqlite:
            shown = "is_shown = 1 AND status = 'VERIFIED'"
        where = shown + (" AND id > $2" if after is not None else "")
        args: list[Any] = [limit + 1] + ([after] if after is not None else [])
        order = "id"
        if sort == "rating":  # the Bayesian average: 5 ratings of 3 to start with
            order = (
                "(CAST(rating_sum AS FLOAT) + 15.0) / (CAST(rating_count AS FLOAT) + 5) DESC,"
                " rating_count DESC, id"
            )
        elif sort == "popularity":  # completed jobs over the last 30 days (today included)
            since = (datetime.now(UTC) - timedelta(days=29)).date()
            args.append(since.isoformat() if db.sqlite else since)
            order = (
                "(SELECT coalesce(sum(d.count), 0) FROM agent_daily_completions d"
                f" WHERE d.agent_id = agents.id AND d.day >= ${len(args)}) DESC, id"
            )
        elif sort is not None:
            return _json({"error": "Bad Request"}, 400)
        rows = await db.fetch(
            "SELECT id, created_at, updated_at, name, description, status, is_shown,"
            " pricing_type, price, fee, tags, job_count, count(*) OVER ()"
            f" FROM agents WHERE {where} ORDER BY {order} LIMIT $1",
            *args,
        )
        page, more = rows[:limit], len(rows) > limit
        total = int(rows[0][12]) if rows else 0
        categories: dict[Any, list[dict[str, str]]] = {}
        if page:
            marks = ", ".join(f"${i + 1}" for i in range(len(page)))
            for agent_id, slug, name in await db.fetch(
                "SELECT ac.agent_id, c.slug, c.name FROM agent_categories ac"
                f" JOIN categories c ON c.id = ac.category_id WHERE ac.agent_id IN ({marks})",
                *[r[0] for r in page],
            ):
                categories.setdefault(agent_id, []).append({"slug": slug, "name": name})
        data = []
        for r in page:
            tags = json.loads(r[10]) if isinstance(r[10], str) else r[10]
            data.append(
                {
                    "id": _id(r[0]),
                    "createdAt": _iso(r[1]),
                    "updatedAt": _iso(r[2]),
                    "name": r[3],
                    "description": r[4],
                    "status": r[5],
                    "isShown": bool(r[6]),
                    "pricingType": r[7],
                    "price": _price(r[8] + r[9], r[9]),
                    "tags": [{"name": str(t.get("name", ""))} for t in tags if isinstance(t, dict)],
                    "categories": categories.get(r[0], []),
                    "jobCount": r[11],
                }
            )
        next_cursor = data[-1]["id"] if more and data else None
        meta = {
            "timestamp": _now_iso(),
            "requestId": "",
            "pagination": {
                "cursor": cursor,
                "limit": limit,
                "total": total,
                "nextCursor": next_cursor,
            },
        }
        return _json({"data": data, "meta": meta})

    @app.get("/v1/notifications")
    async def notifications(request: Request, limit: int = 20) -> Response:
        db = state["db"]
        key = await authenticate(db, request)
        if key is None:
            return _error_a(401, "Authentication required")
        if not 1 <= limit <= 100:
            return _error_a(400, "limit")
        rows = await db.fetch(
            "SELECT id, kind, subject_ref, title, data, read_at, created_at,"
            " (SELECT count(*) FROM notifications u WHERE u.user_id = $1 AND u.read_at IS NULL)"
            " FROM notifications WHERE user_id = $1 ORDER BY id DESC LIMIT $2",
            key.user_id,
            limit + 1,
        )
        page, more = rows[:limit], len(rows) > limit
        items = []
        for r in page:
            data = json.loads(r[4]) if isinstance(r[4], str) else r[4]
            link = f"/jobs/{data.get('jobId', '')}" if r[1].startswith("job.") else None
            if r[1] == "job.input_required":
                link = f"{link}#input-form"
            items.append(
                {
                    "id": _id(r[0]),
                    "kind": r[1],
                    "subjectRef": r[2],
                    "title": r[3],
                    "data": data,
                    "link": link,
                    "read": r[5] is not None,
                    "readAt": _iso(r[5]),
                    "createdAt": _iso(r[6]),
                }
            )
        payload = {
            "items": items,
            "nextCursor": signer.dumps({"p": [items[-1]["id"]]}) if more and items else None,
            "unreadCount": int(rows[0][7]) if rows else 0,
        }
        return _json({"success": True, "data": payload, "timestamp": _now_iso()})

    @app.get("/v1/files")
    async def files(request: Request, limit: int = 20) -> Response:
        db = state["db"]
        key = await authenticate(db, request)
        if key is None:
            return _error_a(401, "Authentication required")
        if not 1 <= limit <= 100:
            return _error_a(400, "limit")
        rows = await db.fetch(
            "SELECT id, name, mime_type, size, sha256, state, origin, job_id, source_url,"
            " created_at FROM stored_files WHERE workspace_id = $1"
            " ORDER BY created_at DESC, id DESC LIMIT $2",
            key.workspace_id,
            limit + 1,
        )
        page, more = rows[:limit], len(rows) > limit
        data = [
            {
                "id": _id(r[0]),
                "name": r[1],
                "mimeType": r[2],
                "size": r[3],
                "sha256": r[4],
                "state": r[5],
                "origin": r[6],
                "jobId": _id(r[7]) if r[7] else None,
                "sourceUrl": r[8],
                "createdAt": _iso(r[9]),
            }
            for r in page
        ]
        cursor = None
        if more and page:
            raw = f"{_iso(page[-1][9])}|{_id(page[-1][0])}".encode()
            cursor = base64.urlsafe_b64encode(raw).decode().rstrip("=")
        return _json({"success": True, "data": data, "nextCursor": cursor})

    @app.get("/v1/coworkers/me/events")
    async def coworker_events(request: Request, limit: int = 20) -> Response:
        db = state["db"]
        key = await authenticate(db, request)
        if key is None or key.coworker_id is None:
            return _json({"error": "Unauthorized"}, 401)
        if not 1 <= limit <= 100:
            return _json({"error": "Bad Request"}, 400)
        coworker_id = db.uuid(uuid.UUID(key.coworker_id))
        found = await db.fetch("SELECT archived_at FROM coworkers WHERE id = $1", coworker_id)
        if not found or found[0][0] is not None:
            return _json({"error": "Forbidden"}, 403)
        rows = await db.fetch(
            f"SELECT {', '.join('e.' + c.strip() for c in EVENT_COLUMNS.split(','))},"
            " e.kind, e.change FROM task_events e JOIN tasks t ON t.id = e.task_id"
            " WHERE t.coworker_id = $1 AND t.workspace_id = $2"
            " AND (e.actor_coworker_id IS NULL OR e.actor_coworker_id != $1)"
            " ORDER BY e.id LIMIT $3",
            coworker_id,
            key.workspace_id,
            limit + 1,
        )
        page, more = rows[:limit], len(rows) > limit
        user_ids = list(dict.fromkeys(r[10] for r in page if r[10] is not None))
        coworker_ids = list(dict.fromkeys(r[11] for r in page if r[11] is not None))
        users: dict[Any, Any] = {}
        if user_ids:
            users = {
                u[0]: u
                for u in await db.fetch(
                    f"SELECT id, name FROM users WHERE id IN ({_marks(len(user_ids))})",
                    *user_ids,
                )
            }
        coworkers: dict[Any, Any] = {}
        if coworker_ids:
            coworkers = {
                c[0]: c
                for c in await db.fetch(
                    "SELECT id, name, slug, image FROM coworkers"
                    f" WHERE id IN ({_marks(len(coworker_ids))})",
                    *coworker_ids,
                )
            }
        data = []
        for e in page:
            kind, user_id, actor_coworker = e[9], e[10], e[11]
            actor: dict[str, Any] | None = None
            if kind == "coworker":
                actor = {
                    "type": kind,
                    "id": _id(actor_coworker),
                    "user": None,
                    "coworker": _coworker_ref(coworkers.get(actor_coworker)),
                }
            elif kind == "user":
                actor = {
                    "type": kind,
                    "id": _id(user_id),
                    "user": _named(users.get(user_id)),
                    "coworker": None,
                }
            elif kind:
                actor = {"type": kind, "id": None, "user": None, "coworker": None}
            change = json.loads(e[15]) if isinstance(e[15], str) else e[15]
            data.append(
                {
                    "id": _id(e[0]),
                    "taskId": _id(e[1]),
                    "createdAt": _iso(e[2]),
                    "updatedAt": _iso(e[3]),
                    "status": e[4],
                    "comment": e[5],
                    "credits": _display(e[6]) if e[6] is not None else None,
                    "authenticationUrl": e[7],
                    "metadata": json.loads(e[8]) if isinstance(e[8], str) else e[8],
                    "actor": actor,
                    "channel": e[12],
                    "origin": e[13],
                    "kind": e[14],
                    "change": change,
                }
            )
        pagination = {
            "cursor": None,
            "limit": limit,
            "nextCursor": data[-1]["id"] if data else None,
            "previousCursor": None,
            "hasMore": more,
        }
        return _json({"data": data, "meta": _meta_b(pagination)})

    @app.get("/v1/tasks")
    async def tasks(
        request: Request, limit: int = 20, page: int = 1, projectId: str | None = None
    ) -> Response:
        """The task listing: each task's full snapshot (spend, events with their actors, jobs
        with their demo flag, creator, coworker, workspace and organization), one statement
        per kind of data."""
        db = state["db"]
        key = await authenticate(db, request)
        if key is None:
            return _json({"error": "Unauthorized"}, 401)
        if not 1 <= limit <= 100 or page < 1:
            return _json({"error": "Bad Request"}, 400)
        where = "workspace_id = $1 AND creator_id = $2 AND archived_at IS NULL"
        args: list[Any] = [key.workspace_id, key.user_id]
        if projectId:
            try:
                args.append(db.uuid(uuid.UUID(projectId)))
            except ValueError:
                return _json({"error": "Bad Request"}, 400)
            where += " AND project_id = $3"
        total = int((await db.fetch(f"SELECT count(*) FROM tasks WHERE {where}", *args))[0][0])
        n = len(args)
        rows = await db.fetch(
            f"SELECT {TASK_COLUMNS} FROM tasks WHERE {where}"
            f" ORDER BY updated_at DESC, id DESC LIMIT ${n + 1} OFFSET ${n + 2}",
            *args,
            limit,
            (page - 1) * limit,
        )
        ids = [r[0] for r in rows]
        spend: dict[Any, int] = {}
        events: list[Sequence[Any]] = []
        jobs: list[Sequence[Any]] = []
        if ids:
            spend = await _spend(db, ids)
            marks = _marks(len(ids))
            events = await db.fetch(
                f"SELECT {EVENT_COLUMNS} FROM task_events WHERE task_id IN ({marks})"
                f" ORDER BY created_at, id LIMIT {200 * len(ids)}",
                *ids,
            )
            jobs = await db.fetch(
                f"SELECT {', '.join('j.' + c.strip() for c in JOB_COLUMNS.split(','))},"
                " a.base_url LIKE '%/demo-agents/%' FROM jobs j"
                f" LEFT JOIN agents a ON a.id = j.agent_id WHERE j.task_id IN ({marks})"
                f" ORDER BY j.id LIMIT {100 * len(ids)}",
                *ids,
            )
        user_ids = {r[9] for r in rows} | {e[10] for e in events if e[10] is not None}
        coworker_ids = {r[10] for r in rows if r[10] is not None}
        coworker_ids |= {e[11] for e in events if e[11] is not None}
        users = {}
        if user_ids:
            users = {
                u[0]: u
                for u in await db.fetch(
                    f"SELECT id, name FROM users WHERE id IN ({_marks(len(user_ids))})",
                    *user_ids,
                )
            }
        coworkers = {}
        if coworker_ids:
            coworkers = {
                c[0]: c
                for c in await db.fetch(
                    "SELECT id, name, slug, image FROM coworkers"
                    f" WHERE id IN ({_marks(len(coworker_ids))})",
                    *coworker_ids,
                )
            }
        workspace = None
        if rows:
            found = await db.fetch(
                "SELECT w.id, w.name, o.id, o.name, o.slug FROM workspaces w"
                " LEFT JOIN organizations o ON o.id = w.organization_id WHERE w.id = $1",
                key.workspace_id,
            )
            workspace = found[0]

        def actor(kind: Any, user_id: Any, coworker_id: Any) -> dict[str, Any] | None:
            if kind == "coworker":
                return {
                    "type": kind,
                    "id": _id(coworker_id),
                    "user": None,
                    "coworker": _coworker_ref(coworkers.get(coworker_id)),
                }
            if kind == "user":
                return {
                    "type": kind,
                    "id": _id(user_id),
                    "user": _named(users.get(user_id)),
                    "coworker": None,
                }
            return {"type": kind, "id": None, "user": None, "coworker": None} if kind else None

        data = []
        for r in rows:
            creator = _named(users.get(r[9]))
            coworker = _coworker_ref(coworkers.get(r[10])) if r[10] is not None else None
            org = (
                {"id": _id(workspace[2]), "name": workspace[3], "slug": workspace[4]}
                if workspace is not None and workspace[2] is not None
                else None
            )
            meta = json.loads(r[13]) if isinstance(r[13], str) else r[13]
            task_events = [
                {
                    "id": _id(e[0]),
                    "taskId": _id(e[1]),
                    "createdAt": _iso(e[2]),
                    "updatedAt": _iso(e[3]),
                    "status": e[4],
                    "comment": e[5],
                    "credits": _display(e[6]) if e[6] is not None else None,
                    "authenticationUrl": e[7],
                    "metadata": json.loads(e[8]) if isinstance(e[8], str) else e[8],
                    "actor": actor(e[9], e[10], e[11]),
                    "channel": e[12],
                    "origin": e[13],
                }
                for e in events
                if e[1] == r[0]
            ][:200]
            task_jobs = [_job(j) for j in jobs if j[23] == r[0]][:100]
            data.append(
                {
                    "id": _id(r[0]),
                    "createdAt": _iso(r[1]),
                    "updatedAt": _iso(r[2]),
                    "name": r[3],
                    "title": r[3],
                    "description": r[4],
                    "status": r[5],
                    "projectId": _id(r[6]) if r[6] else None,
                    "archived": r[7] is not None,
                    "archivedAt": _iso(r[7]),
                    "workspaceId": _id(r[8]),
                    "workspace": _named(workspace),
                    "creatorId": _id(r[9]),
                    "creator": actor("user", r[9], None),
                    "userId": _id(r[9]),
                    "user": creator,
                    "ownerId": _id(r[9]),
                    "owner": creator,
                    "organizationId": org["id"] if org else None,
                    "organization": org,
                    "coworkerId": _id(r[10]) if r[10] else None,
                    "coworker": coworker,
                    "assigneeId": _id(r[10]) if r[10] else None,
                    "assignee": coworker,
                    "origin": r[11],
                    "channel": r[12],
                    "metadata": meta,
                    "credits": _display(spend.get(r[0], 0)),
                    "jobs": task_jobs,
                    "events": task_events,
                    "links": [],
                    "files": [],
                }
            )
        end = (page - 1) * limit + limit
        pagination = {
            "page": page,
            "limit": limit,
            "total": total,
            "hasMore": end < total,
            "cursor": None,
            "nextCursor": None,  # Agora signs one; the reference answers the same page
        }
        return _json({"data": data, "meta": _meta_b(pagination)})

    @app.get("/v1/projects")
    async def projects(request: Request, limit: int = 20, page: int = 1) -> Response:
        db = state["db"]
        key = await authenticate(db, request)
        if key is None:
            return _json({"error": "Unauthorized"}, 401)
        if not 1 <= limit <= 100 or page < 1:
            return _json({"error": "Bad Request"}, 400)
        total = int(
            (
                await db.fetch(
                    "SELECT count(*) FROM projects WHERE workspace_id = $1", key.workspace_id
                )
            )[0][0]
        )
        rows = await db.fetch(
            "SELECT id, name, description, workspace_id, created_at, updated_at FROM projects"
            " WHERE workspace_id = $1 ORDER BY updated_at DESC, id DESC LIMIT $2 OFFSET $3",
            key.workspace_id,
            limit,
            (page - 1) * limit,
        )
        data = [
            {
                "id": _id(r[0]),
                "name": r[1],
                "description": r[2],
                "workspaceId": _id(r[3]),
                "createdAt": _iso(r[4]),
                "updatedAt": _iso(r[5]),
            }
            for r in rows
        ]
        pagination = {"page": page, "limit": limit, "total": total, "hasMore": page * limit < total}
        return _json({"data": data, "meta": _meta_b(pagination)})

    @app.get("/v1/jobs")
    async def jobs_listing(request: Request, limit: int = 20) -> Response:
        db = state["db"]
        key = await authenticate(db, request)
        if key is None:
            return _error_a(401, "Authentication required")
        if not 1 <= limit <= 100:
            return _error_a(400, "limit")
        rows = await db.fetch(
            f"SELECT {', '.join('j.' + c.strip() for c in JOB_COLUMNS.split(','))},"
            " a.base_url LIKE '%/demo-agents/%' FROM jobs j"
            " LEFT JOIN agents a ON a.id = j.agent_id"
            " WHERE j.workspace_id = $1 AND j.user_id = $2 ORDER BY j.id DESC LIMIT $3",
            key.workspace_id,
            key.user_id,
            limit + 1,
        )
        page, more = rows[:limit], len(rows) > limit
        data = [_job(r) for r in page]
        pagination = {
            "limit": limit,
            "cursor": None,
            "nextCursor": data[-1]["id"] if more and data else None,
            "hasMore": more,
        }
        return _json(
            {"success": True, "data": data, "pagination": pagination, "timestamp": _now_iso()}
        )

    @app.post("/v1/agents/{agent_id}/jobs")
    async def create_job(agent_id: str, request: Request) -> Response:
        db = state["db"]
        key = await authenticate(db, request)
        if key is None:
            return _error_a(401, "Authentication required")
        body = orjson.loads(await request.body())
        data = body.get("inputData") or {} if isinstance(body, dict) else None
        if not isinstance(data, dict):
            return _error_a(400, "inputData must be an object")
        try:
            parsed = db.uuid(uuid.UUID(agent_id))
        except ValueError:
            return _error_a(404, f"Agent {agent_id} not found")
        from agora.kit.ids import uuid7

        now = datetime.now(UTC)
        job_id, event_id, entry_id = uuid7(), uuid7(), uuid7()
        async with db.transaction() as tx:
            found = await tx.fetch(
                "SELECT id, name, status, price, fee FROM agents WHERE id = $1", parsed
            )
            if not found or found[0][2] != "VERIFIED":
                return _error_a(404, f"Agent {agent_id} not found")
            _, agent_name, _, base, fee = found[0]
            price = base + fee
            if price > 0:
                balance = await tx.fetch(
                    "UPDATE workspaces SET balance = balance - $1, held = held + $1,"
                    " updated_at = $3 WHERE id = $2 AND balance >= $1 RETURNING balance",
                    price,
                    key.workspace_id,
                    db.ts(now),
                )
                if not balance:
                    raise_payment = _error_a(402, "Not enough credits")
                    return raise_payment
                await tx.fetch(
                    "INSERT INTO ledger_entries (id, workspace_id, job_id, user_id, kind, amount,"
                    " held_change, balance_after, memo, created_at) VALUES"
                    " ($1, $2, NULL, $3, 'hold', $4, $5, $6, 'held for job', $7)",
                    db.uuid(entry_id),
                    key.workspace_id,
                    key.user_id,
                    -price,
                    price,
                    balance[0][0],
                    db.ts(now),
                )
            name = f"{agent_name} · {now:%Y-%m-%d %H:%M} UTC"
            input_json = json.dumps(data)
            await tx.fetch(
                "INSERT INTO jobs (id, workspace_id, user_id, organization_id, agent_id, name,"
                " status, job_type, input_data, identifier_from_purchaser, on_chain_status, price,"
                " fee, refund, refund_fee, settled, share_public, dispatch_state, next_attempt_at,"
                " attempts, deadline_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6,"
                " 'PENDING', $7, $8, $9, $10, $11, $12, 0, 0, false, false, 'queued', $13, 0, $14,"
                " $13, $13)",
                db.uuid(job_id),
                key.workspace_id,
                key.user_id,
                key.organization_id,
                parsed,
                name,
                "PAID" if price else "FREE",
                input_json,
                uuid.uuid4().hex,
                "FUNDS_LOCKED" if price else None,
                price,
                fee,
                db.ts(now),
                db.ts(now + timedelta(hours=1)),
            )
            await tx.fetch(
                "INSERT INTO job_events (id, job_id, type, from_status, to_status, detail,"
                " created_at) VALUES ($1, $2, 'created', NULL, 'PENDING', $3, $4)",
                db.uuid(event_id),
                db.uuid(job_id),
                json.dumps({"price": _display(price)}),
                db.ts(now),
            )
            await tx.fetch("UPDATE agents SET job_count = job_count + 1 WHERE id = $1", parsed)
        job_row = (
            job_id, now, now, name, "PENDING", parsed, key.user_id, key.organization_id,
            None, None, "FUNDS_LOCKED" if price else None, input_json, None, None, None, None,
            "PAID" if price else "FREE", price, fee, 0, 0, False, None, None, None,
        )  # fmt: skip
        return _json({"success": True, "data": _job(job_row), "timestamp": _now_iso()}, 201)

    return app
