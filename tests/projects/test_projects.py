"""/v1/projects: CRUD, paging and order (rule 7), workspace scoping, permissions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx2
import pytest
from sqlalchemy import select

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from agora.models import Project
from tests.conftest import MakeUser
from tests.conftest import TestUser as Caller
from tests.projects.factories import project_row, set_updated_at


async def create(client: httpx2.AsyncClient, user: Caller, name: str, **extra: Any) -> Any:
    response = await client.post(
        "/v1/projects", json={"name": name, **extra}, headers=user.bearer_headers
    )
    assert response.status_code == 201, response.text
    return response.json()["data"]


async def test_create_get_update_in_envelope_b(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    response = await client.post(
        "/v1/projects",
        json={"name": "  Q3 launch  ", "description": "All launch work"},
        headers=user.key_headers,
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert set(body) == {"data", "meta"}
    assert body["meta"]["requestId"] == response.headers["x-request-id"]
    assert body["meta"].get("pagination") is None
    project = body["data"]
    assert set(project) == {"id", "name", "description", "workspaceId", "createdAt", "updatedAt"}
    assert project["name"] == "Q3 launch"  # trimmed
    assert project["workspaceId"] == str(user.workspace_id)

    fetched = await client.get(f"/api/v1/projects/{project['id']}", headers=user.bearer_headers)
    assert fetched.status_code == 200
    assert fetched.json()["data"] == project

    patched = await client.patch(
        f"/v1/projects/{project['id']}", json={"name": "Q4"}, headers=user.bearer_headers
    )
    assert patched.status_code == 200
    data = patched.json()["data"]
    assert (data["name"], data["description"]) == ("Q4", "All launch work")
    assert data["updatedAt"] > project["updatedAt"]

    no_description = await create(client, user, "Bare")
    assert no_description["description"] == ""


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": ""},
        {"name": "   "},
        {"name": "x" * 201},
        {"name": "ok", "description": "x" * 10_001},
        {"name": "ok", "color": "red"},
        {"name": None},
    ],
)
async def test_create_rejects_bad_bodies_with_400(
    client: httpx2.AsyncClient, make_user: MakeUser, body: dict[str, Any]
) -> None:
    user = await make_user()
    response = await client.post("/v1/projects", json=body, headers=user.bearer_headers)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["error"] == "Invalid request parameters"
    assert error["details"][0]["field"] in ("name", "description", "color")
    assert set(error["meta"]) == {"timestamp", "requestId", "path", "method"}


async def test_patch_needs_a_field_and_refuses_null(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    project = await create(client, user, "P")
    url = f"/v1/projects/{project['id']}"
    for body in ({}, {"name": None}, {"description": None}, {"name": "  "}):
        response = await client.patch(url, json=body, headers=user.bearer_headers)
        assert response.status_code == 400, (body, response.text)
    ok = await client.patch(url, json={"description": ""}, headers=user.bearer_headers)
    assert ok.status_code == 200


async def test_list_pages_and_limits(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    user = await make_user()
    for i in range(25):
        await create(client, user, f"P{i}")
    first = await client.get("/v1/projects", headers=user.bearer_headers)
    assert first.status_code == 200
    body = first.json()
    assert len(body["data"]) == 20  # default limit
    assert body["meta"]["pagination"] == {"page": 1, "limit": 20, "total": 25, "hasMore": True}
    second = await client.get("/v1/projects?page=2", headers=user.bearer_headers)
    assert len(second.json()["data"]) == 5
    assert second.json()["meta"]["pagination"]["hasMore"] is False
    ids = [p["id"] for p in body["data"] + second.json()["data"]]
    assert len(set(ids)) == 25
    big = await client.get("/v1/projects?limit=100", headers=user.bearer_headers)
    assert len(big.json()["data"]) == 25
    for query in ("limit=0", "limit=101", "page=0", "page=-1", "limit=abc"):
        bad = await client.get(f"/v1/projects?{query}", headers=user.bearer_headers)
        assert bad.status_code == 400, query
        assert bad.json()["details"][0]["field"].startswith("query.")


async def test_rule7_order_is_updated_at_desc_then_id(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    projects = [await create(client, user, f"P{i}") for i in range(5)]
    base = datetime(2026, 1, 1, tzinfo=UTC)
    # P0 newest; P1, P2, P3 tie (order by id, descending); P4 oldest.
    await set_updated_at(db, projects[0]["id"], base + timedelta(hours=2))
    for p in projects[1:4]:
        await set_updated_at(db, p["id"], base + timedelta(hours=1))
    await set_updated_at(db, projects[4]["id"], base)
    listed = await client.get("/v1/projects", headers=user.bearer_headers)
    ties = sorted((p["id"] for p in projects[1:4]), reverse=True)
    expected = [projects[0]["id"], *ties, projects[4]["id"]]
    assert [p["id"] for p in listed.json()["data"]] == expected
    # Paging keeps that order across pages.
    pages = []
    for number in (1, 2, 3):
        page = await client.get(f"/v1/projects?limit=2&page={number}", headers=user.bearer_headers)
        pages += [p["id"] for p in page.json()["data"]]
    assert pages == expected
    # Touching a project (PATCH) moves it to the front.
    await client.patch(
        f"/v1/projects/{projects[4]['id']}", json={"name": "new"}, headers=user.bearer_headers
    )
    relisted = await client.get("/v1/projects", headers=user.bearer_headers)
    assert relisted.json()["data"][0]["id"] == projects[4]["id"]


async def test_other_workspace_project_is_404_everywhere(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    owner, stranger = await make_user(), await make_user()
    project = await create(client, owner, "Secret")
    url = f"/v1/projects/{project['id']}"
    h = stranger.bearer_headers
    assert (await client.get(url, headers=h)).status_code == 404
    assert (await client.patch(url, json={"name": "x"}, headers=h)).status_code == 404
    assert (await client.delete(url, headers=h)).status_code == 404
    assert (
        await client.post(f"{url}/jobs", json={"jobId": project["id"]}, headers=h)
    ).status_code == 404
    assert (await client.get("/v1/projects", headers=h)).json()["data"] == []
    missing = await client.get("/v1/projects/not-a-uuid", headers=owner.bearer_headers)
    assert missing.status_code == 404
    assert missing.json()["error"] == "Not Found"
    assert (await client.get(url, headers=owner.bearer_headers)).status_code == 200


async def test_requires_credentials_and_write_permission(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    project = await create(client, user, "P")
    unauth = await client.get("/v1/projects")
    assert unauth.status_code == 401
    assert unauth.json()["message"] == "Authentication required"
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, user.user_id)
        assert owner is not None
        coworker = await identity.create_key(session, user=owner, kind="coworker")
        granted = await identity.create_key(
            session, user=owner, kind="coworker", scopes=["projects:write"]
        )
    bot = {"Authorization": f"Bearer {coworker.plaintext}"}
    assert (await client.get("/v1/projects", headers=bot)).status_code == 200
    denied = await client.post("/v1/projects", json={"name": "x"}, headers=bot)
    assert denied.status_code == 403
    assert (await client.delete(f"/v1/projects/{project['id']}", headers=bot)).status_code == 403
    allowed = {"x-api-key": granted.plaintext}
    assert (
        await client.post("/v1/projects", json={"name": "x"}, headers=allowed)
    ).status_code == 201


async def test_delete_answers_id_and_deleted(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    project = await create(client, user, "Gone")
    response = await client.delete(f"/v1/projects/{project['id']}", headers=user.bearer_headers)
    assert response.status_code == 200
    assert response.json()["data"] == {"id": project["id"], "deleted": True}
    assert await project_row(db, project["id"]) is None
    again = await client.delete(f"/v1/projects/{project['id']}", headers=user.bearer_headers)
    assert again.status_code == 404
    async with db.transaction(write=False) as session:
        assert list(await session.scalars(select(Project))) == []
