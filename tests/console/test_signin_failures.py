"""Sign-in failures over the threshold leave one ``signin.failures`` audit row, written after the
refused (429) request's unit rolled back (``kit.units.after_rollback``): through the API and
the web form, with the address and the account, never the password; below the threshold none.
And the hook itself: it runs only when a unit rolls back, in its own transaction."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx2
import pytest
from fastapi import FastAPI

from agora.app import create_app
from agora.audit import service as audit
from agora.kit.db import Database
from agora.kit.units import Mode, PhaseError, Unit, after_rollback
from agora.settings import Settings
from tests.accounts.helpers import sign_up_verified
from tests.conftest import TestUser

THRESHOLD = 3
WRONG = "Wrong-Password-Never-Logged-42"


@pytest.fixture
async def strict(settings: Settings, db: Database) -> AsyncIterator[FastAPI]:
    """The app with a small per-account budget (3 wrong passwords)."""
    tight = settings.with_changes(auth_attempts_per_account=f"{THRESHOLD}/15minutes")
    application = create_app(tight, db=db, migrate=False, background=False)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def strict_client(strict: FastAPI) -> AsyncIterator[httpx2.AsyncClient]:
    transport = httpx2.ASGITransport(app=strict)
    async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
        yield c


async def _rows(client: httpx2.AsyncClient, admin: TestUser) -> list[dict[str, object]]:
    response = await client.get(
        "/v1/admin/audit-events", params={"action": "signin.failures"}, headers=admin.bearer_headers
    )
    assert response.status_code == 200, response.text
    assert WRONG not in response.text
    rows: list[dict[str, object]] = response.json()["data"]
    return rows


async def _user_id(client: httpx2.AsyncClient, admin: TestUser, email: str) -> str:
    found = await client.get("/v1/admin/users", params={"q": email}, headers=admin.bearer_headers)
    [user] = found.json()["data"]
    return str(user["id"])


async def test_api_failures_over_the_threshold_leave_one_row(
    strict_client: httpx2.AsyncClient, settings: Settings, admin: TestUser
) -> None:
    client = strict_client
    await sign_up_verified(client, settings, "target@example.com")
    client.cookies.clear()
    statuses = []
    for _ in range(THRESHOLD + 2):  # bounded: the threshold, then two more refused
        response = await client.post(
            "/v1/auth/sign-in", json={"email": "target@example.com", "password": WRONG}
        )
        statuses.append(response.status_code)
    assert statuses == [401] * (THRESHOLD - 1) + [429] * 3
    [row] = await _rows(client, admin)
    assert row["targetId"] == await _user_id(client, admin, "target@example.com")
    details = row["details"]
    assert isinstance(details, dict)
    assert details["email"] == "target@example.com" and details["crossed"] == ["account"]
    assert details["address"] and row["clientAddress"] == details["address"]
    assert row["actorKind"] == "system"
    export = await client.get(
        "/v1/admin/audit-events/export",
        params={"action": "signin.failures"},
        headers=admin.bearer_headers,
    )
    assert "target@example.com" in export.text and WRONG not in export.text


async def test_web_failures_over_the_threshold_leave_one_row(
    strict_client: httpx2.AsyncClient, settings: Settings, admin: TestUser
) -> None:
    client = strict_client
    await sign_up_verified(client, settings, "webtarget@example.com")
    client.cookies.clear()
    statuses = []
    for _ in range(THRESHOLD + 1):
        response = await client.post(
            "/sign-in", data={"csrf": "", "email": "webtarget@example.com", "password": WRONG}
        )
        statuses.append(response.status_code)
    assert statuses == [401] * (THRESHOLD - 1) + [429] * 2
    [row] = await _rows(client, admin)
    assert row["targetId"] == await _user_id(client, admin, "webtarget@example.com")


async def test_below_the_threshold_no_row(
    strict_client: httpx2.AsyncClient, settings: Settings, admin: TestUser
) -> None:
    client = strict_client
    await sign_up_verified(client, settings, "careful@example.com")
    client.cookies.clear()
    for _ in range(THRESHOLD - 1):
        response = await client.post(
            "/v1/auth/sign-in", json={"email": "careful@example.com", "password": WRONG}
        )
        assert response.status_code == 401
    assert await _rows(client, admin) == []


async def _count(db: Database) -> int:
    async with db.transaction(write=False) as session:
        _rows, total = await audit.search_all(
            session, audit.Filters(action="signin.failures"), limit=1
        )
    return total


async def _work(session: object) -> None:
    await audit.record(session, "signin.failures", actor=audit.SYSTEM)  # type: ignore[arg-type]


async def test_after_rollback_runs_only_when_the_unit_rolls_back(db: Database) -> None:
    committed = Unit(db, Mode.WRITE)
    after_rollback(await committed.session(), _work)
    await committed.finish(None)
    assert await _count(db) == 0  # the unit committed: the work is dropped

    refused = Unit(db, Mode.WRITE)
    session = await refused.session()
    await audit.record(session, "signin.failures", actor=audit.SYSTEM)  # rolled back with it
    after_rollback(session, _work)
    await refused.finish(RuntimeError("refused"))
    assert await _count(db) == 1  # only the after-rollback work, in its own transaction

    async with db.transaction() as outside:  # not a request's unit: refused loudly
        with pytest.raises(PhaseError):
            after_rollback(outside, _work)
