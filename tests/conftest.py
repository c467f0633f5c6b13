"""Test harness: every database test runs on SQLite and on PostgreSQL.

- ``--backend=sqlite|postgres|all`` (default all) picks the backends.
- PostgreSQL: ``AGORA_TEST_POSTGRES_URL`` (default the local server, database ``test`` is only used
  to create a throwaway database per session, so parallel sessions never collide).
- A missing server fails the run when ``CI`` is set; on a laptop it skips those tests and says so.
- Each test starts from empty tables (truncated after each test), so tests may commit freely and
  use many connections (concurrency tests need real commits).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.app import create_app
from agora.kit import wire
from agora.kit.db import Database
from agora.kit.logging import configure_logging
from agora.kit.migrate import upgrade
from agora.models import Base
from agora.settings import Settings
from tests.support.agents import LoopbackAgents, loopback_agents

POSTGRES_ADMIN_URL = os.environ.get(
    "AGORA_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("AGORA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
ON_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
BACKENDS = ("sqlite", "postgres")
LOOPBACK_ALLOW = "127.0.0.0/8,::1/128"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--backend", choices=["all", *BACKENDS], default="all")


def pytest_configure(config: pytest.Config) -> None:
    configure_logging("WARNING")
    wire.CHECK = True  # every list written without its schema is compared with it (kit/wire.py)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    chosen = config.getoption("--backend")
    keep, drop = [], []
    for item in items:
        backend = getattr(getattr(item, "callspec", None), "params", {}).get("database")
        wrong_backend = chosen != "all" and backend is not None and backend != chosen
        marker_mismatch = (item.get_closest_marker("postgres_only") and backend == "sqlite") or (
            item.get_closest_marker("sqlite_only") and backend == "postgres"
        )
        (drop if wrong_backend or marker_mismatch else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def unavailable(what: str, detail: str) -> None:
    """A server the suite needs is missing: fail loudly on CI, skip (and say so) elsewhere."""
    message = f"{what} is not reachable ({detail})"
    if ON_CI:
        pytest.fail(f"{message}; CI must run against it", pytrace=False)
    pytest.skip(f"{message}: skipping its tests on this machine (CI would fail here)")


def _postgres_url(database: str) -> str:
    base, _, _ = POSTGRES_ADMIN_URL.rpartition("/")
    return f"{base}/{database}"


async def _admin_execute(statement: str) -> None:
    admin = Database(POSTGRES_ADMIN_URL)
    try:
        async with admin.engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text(statement))
    finally:
        await admin.dispose()


@pytest.fixture(scope="session", params=BACKENDS)
async def database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Database]:
    """One migrated database per backend per test session."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("sqlite") / "agora.db"
        db = Database(f"sqlite+aiosqlite:///{path}")
        await upgrade(db.engine)
        yield db
        await db.dispose()
        return
    name = f"agora_test_{uuid.uuid4().hex[:12]}"
    try:
        await _admin_execute(f'CREATE DATABASE "{name}"')
    except Exception as exc:
        unavailable("PostgreSQL", f"{POSTGRES_ADMIN_URL}: {type(exc).__name__}: {exc}")
    db = Database(_postgres_url(name), pool_size=20)
    try:
        await upgrade(db.engine)
        yield db
    finally:
        await db.dispose()
        await _admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# Children first, so each DELETE leaves no row pointing at a deleted one.
_TABLES = [t.name for t in reversed(Base.metadata.sorted_tables)]


async def truncate_all(db: Database) -> None:
    """Empty every table. On PostgreSQL one DELETE per table in one simple-query round trip: for
    a test's few rows that is a few milliseconds, where TRUNCATE (new files for every table and
    index) took a quarter to three quarters of a second after every test; TRUNCATE remains the
    fallback. No table has a sequence to restart (ids are UUIDs)."""
    if db.is_sqlite:
        async with db.transaction() as session:
            for table in _TABLES:
                await session.execute(text(f'DELETE FROM "{table}"'))
        return
    deletes = "; ".join(f'DELETE FROM "{table}"' for table in _TABLES)
    async with db.engine.connect() as conn:
        raw = await conn.get_raw_connection()
        try:
            await raw.driver_connection.execute(f"BEGIN; {deletes}; COMMIT")  # type: ignore[union-attr]
        except Exception:
            await raw.driver_connection.execute("ROLLBACK")  # type: ignore[union-attr]
            quoted = ", ".join(f'"{t}"' for t in _TABLES)
            await conn.execute(text(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE"))
            await conn.commit()


@pytest.fixture
async def db(database: Database) -> AsyncIterator[Database]:
    """The session's database, emptied after each test."""
    try:
        yield database
    finally:
        await truncate_all(database)


@pytest.fixture
def backend(db: Database) -> str:
    return "sqlite" if db.is_sqlite else "postgres"


@pytest.fixture
def settings(db: Database, tmp_path: Path) -> Settings:
    return Settings(
        database_url=db.url,
        data_dir=tmp_path,
        secret_key="test-secret-key",
        public_url="http://testserver",
        rate_limit_public="off",
        rate_limit_authenticated="off",
        rate_limit_failed_auth="off",
        run_dispatcher=False,
        demo=False,
        password_hash_profile="test",  # cheap Argon2 (kit/passwords.py); refused in production
        # Agents and webhook receivers in tests are loopback servers: the one exemption from the
        # outbound policy. Tests of the policy itself clear it (tests/kit/test_outbound.py).
        outbound_allow=LOOPBACK_ALLOW,
    )


@pytest.fixture
async def app(settings: Settings, db: Database) -> AsyncIterator[FastAPI]:
    application = create_app(settings, db=db, migrate=False, background=False)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx2.AsyncClient]:
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
        yield c


@dataclass(frozen=True)
class TestUser:
    __test__ = False  # not a test class, despite the name

    user_id: uuid.UUID
    workspace_id: uuid.UUID
    email: str
    api_key: str

    @property
    def key_headers(self) -> dict[str, str]:
        return {"x-api-key": self.api_key}

    @property
    def bearer_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"}


MakeUser = Callable[..., Awaitable[TestUser]]


@pytest.fixture
def make_user(db: Database) -> MakeUser:
    """``await make_user(credits=base_units)`` → a user with a personal workspace and a key."""
    counter = {"n": 0}

    async def _make(name: str | None = None, credits: int = 0, **kwargs: Any) -> TestUser:
        counter["n"] += 1
        email = (
            kwargs.pop("email", None) or f"user{counter['n']}-{uuid.uuid4().hex[:6]}@example.com"
        )
        async with db.transaction() as session:
            created = await identity.create_user(
                session, email=email, name=name or f"User {counter['n']}", credits=credits
            )
        return TestUser(created.user.id, created.workspace.id, email, created.api_key)

    return _make


@pytest.fixture
async def admin(db: Database, make_user: MakeUser) -> TestUser:
    """A user holding an admin key."""
    user = await make_user(name="Operator")
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, user.user_id)
        assert owner is not None
        key = await identity.create_key(session, user=owner, kind="admin")
    return TestUser(user.user_id, user.workspace_id, user.email, key.plaintext)


@pytest.fixture
def redis_url() -> str:
    """The Redis server (fails loudly on CI when it is down)."""
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        client.ping()
        client.close()
    except Exception as exc:
        unavailable("Redis", f"{REDIS_URL}: {type(exc).__name__}")
    return REDIS_URL


@pytest.fixture(scope="session")
def agents_server() -> Iterator[LoopbackAgents]:
    """Real MIP-003 agents on a loopback port: ``agents_server.serve(behaviour)`` → base URL."""
    with loopback_agents() as served:
        yield served


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Chromium for the browser tests (tests/support/browser.py), one per module."""
    from tests.support.browser import launched_chromium

    with launched_chromium() as instance:
        yield instance
