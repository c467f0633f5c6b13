"""Every form of the operator's console refuses a post without its session's CSRF token (issue 43,
item 9): 403, and nothing in the database changed. The forms are found from the app's routes
(every non-GET /admin page), so a form added later is covered without editing this list. The
operator's cookie drives no write of the admin API either."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx2
from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from sqlalchemy import select

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from agora.models.base import Base
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, sign_up_verified
from tests.conftest import MakeUser
from tests.schedules.helpers import make_agent

# What a filled-in form of each console action sends besides its token: enough that the action
# would succeed were the token not checked (the password proves the operator again).
FIELDS = {
    "reason": "support ticket 9",
    "amount": "3",
    "note": "looks fine",
    "field": "name",
    "value": "Renamed by a forged post",
    "password": STRONG_PASSWORD,
    "next": "/admin",
}
_PARAMETER = re.compile(r"\{(\w+)\}")


def console_forms(app: FastAPI) -> list[str]:
    """The path of every state-changing console page (the /admin pages, not the admin API)."""
    found = []
    for context in iter_route_contexts(app.routes):
        path, methods = context.path_format or "", set(context.methods or ())
        if path.startswith("/admin/") and methods - {"GET", "HEAD"}:
            assert methods == {"POST"}, path  # the console's forms only post
            found.append(path)
    return sorted(found)


async def database_rows(db: Database) -> dict[str, list[str]]:
    """Every row of every table, as text (what a refused post must leave as it was)."""
    rows: dict[str, list[str]] = {}
    async with db.transaction(write=False) as session:
        for table in Base.metadata.sorted_tables:
            result = await session.execute(select(table))
            rows[table.name] = sorted(repr(tuple(row)) for row in result)
    return rows


async def operator_and_targets(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser, db: Database
) -> tuple[str, dict[str, str]]:
    """A freshly signed-in operator in ``client`` (a recent proof): its CSRF token, and real
    things to act on (a person, their organization, an agent; unknown ids for the rest)."""
    own = await sign_up_verified(client, settings, "op@example.com", "Olga Operator")
    async with db.transaction() as session:
        user = await identity_repo.user_by_email(session, "op@example.com")
        assert user is not None
        await identity.create_key(session, user=user, kind="admin")
    victim = await make_user(name="Victor", email="victor@example.com")
    made = await client.post(
        "/v1/organizations", json={"name": "Victim Works"}, headers=victim.key_headers
    )
    assert made.status_code == 201, made.text
    agent_id, org_id = await make_agent(db), made.json()["data"]["id"]
    targets = {"user_id": str(victim.user_id), "org_id": org_id, "agent_id": agent_id}
    targets |= {"userId": str(victim.user_id), "organizationId": org_id, "agentId": agent_id}
    return own["X-CSRF-Token"], targets


def filled(path: str, targets: dict[str, str]) -> str:
    return _PARAMETER.sub(lambda m: targets.get(m.group(1), str(uuid.uuid4())), path)


async def test_every_console_form_refuses_a_post_without_its_csrf_token(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser, db: Database
) -> None:
    own, targets = await operator_and_targets(app, client, settings, make_user, db)
    # Another person's valid token: a token, but not this session's.
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as other:
        foreign = (await sign_up_verified(other, settings, "eve@example.com"))["X-CSRF-Token"]
    assert foreign != own

    forms = console_forms(app)
    assert "/admin/users/{user_id}/credits" in forms and "/admin/reauthenticate" in forms
    before = await database_rows(db)
    for path in forms:
        for token in (None, "", "forged-token", foreign):
            data: dict[str, Any] = dict(FIELDS) if token is None else {**FIELDS, "csrf": token}
            refused = await client.post(filled(path, targets), data=data)
            assert refused.status_code == 403, (path, token, refused.status_code, refused.text)
    assert await database_rows(db) == before
    # The same post with the token is accepted: the refusals above were the token's.
    granted = await client.post(
        f"/admin/users/{targets['user_id']}/credits", data={**FIELDS, "csrf": own}
    )
    assert granted.status_code == 303, granted.text


async def test_the_admin_api_acts_on_no_cookie_without_its_csrf_header(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser, db: Database
) -> None:
    """A cross-site request rides the operator's cookie to the admin API: refused, nothing
    changed (whether the API answers such a session 403 or 404, it must not act)."""
    _, targets = await operator_and_targets(app, client, settings, make_user, db)
    writes = [
        (method, path)
        for context in iter_route_contexts(app.routes)
        if (path := context.path_format or "").startswith("/v1/admin/")
        for method in sorted(set(context.methods or ()) - {"GET", "HEAD"})
    ]
    assert ("POST", "/v1/admin/users/{userId}/credits") in writes
    before = await database_rows(db)
    for method, path in writes:
        body = {"amount": 3, "reason": "forged", "name": "Forged", "note": "forged"}
        refused = await client.request(method, filled(path, targets), json=body)
        assert refused.status_code in (403, 404), (method, path, refused.text)
    assert await database_rows(db) == before
