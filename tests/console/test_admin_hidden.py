"""The admin API is not there for non-admins (issue 43.8): every /v1/admin route answers a
non-admin key (user, scoped, coworker) exactly what a path no route matches answers — 404 in the
route's own error shape — as the /admin pages do; never 403. The OpenAPI document says so."""

from __future__ import annotations

import re
import uuid

import httpx2
from fastapi import FastAPI
from fastapi.routing import APIRoute, iter_route_contexts

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from tests.conftest import MakeUser


def _admin_routes(app: FastAPI) -> list[tuple[str, str]]:
    found = []
    for context in iter_route_contexts(app.routes):
        path = context.path_format or ""
        if isinstance(context.original_route, APIRoute) and path.startswith("/v1/admin"):
            concrete = re.sub(r"\{[^}]+\}", str(uuid.uuid4()), path)
            found += [(method, concrete) for method in sorted(context.methods or ())]
    return found


async def test_every_admin_route_answers_a_non_admin_as_an_unknown_path(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    person = await make_user()
    async with db.transaction() as session:
        row = await identity_repo.user_by_id(session, person.user_id)
        assert row is not None
        scoped = await identity.create_key(session, user=row, scopes=["read", "jobs:write"])
    routes = _admin_routes(app)
    assert len(routes) > 30
    unknown = await client.get("/v1/admin/no-such-thing", headers=person.bearer_headers)
    assert unknown.status_code == 404
    expected = {k: unknown.json()[k] for k in ("error", "message")}
    assert expected == {"error": "Not Found", "message": "No route matches this path"}
    for headers in (
        person.bearer_headers,
        person.key_headers,
        {"Authorization": f"Bearer {scoped.plaintext}"},
    ):
        for method, path in routes:
            answer = await client.request(method, path, headers=headers, json={})
            assert answer.status_code == 404, (method, path, answer.text)
            assert {k: answer.json()[k] for k in expected} == expected, (method, path)
    # Without credentials: 401, as every protected route.
    assert (await client.get("/v1/admin/users")).status_code == 401


async def test_the_openapi_document_declares_404_not_403_on_admin_routes(
    client: httpx2.AsyncClient,
) -> None:
    document = (await client.get("/v1/openapi")).json()
    admin_ops = [
        (path, op)
        for path, item in document["paths"].items()
        if path.startswith("/v1/admin")
        for op in item.values()
        if isinstance(op, dict) and "responses" in op
    ]
    assert admin_ops
    for path, op in admin_ops:
        assert "403" not in op["responses"], path
        assert "404" in op["responses"], path
