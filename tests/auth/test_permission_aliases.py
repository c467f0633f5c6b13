"""Each permission alias guards exactly its permission: `profile:write` and `projects:write` are
different names now (the old `Writer` meant one in three modules and the other in a fourth)."""

from __future__ import annotations

import httpx2

from agora.accounts import provisioning as service
from agora.accounts import repository as repo
from agora.kit.db import Database
from tests.conftest import MakeUser


async def _coworker(db: Database, make_user: MakeUser, scopes: list[str]) -> dict[str, str]:
    owner = await make_user()
    async with db.transaction() as session:
        row = await repo.user_by_id(session, owner.user_id)
        assert row is not None
        key = await service.create_key(session, user=row, kind="coworker", scopes=scopes)
    return {"x-api-key": key.plaintext}


async def test_profile_and_projects_writers_are_distinct(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    profile = await _coworker(db, make_user, ["profile:write"])
    projects = await _coworker(db, make_user, ["projects:write"])
    reader = await _coworker(db, make_user, [])

    def profile_writes(headers: dict[str, str]) -> list[httpx2.Request]:
        return [
            client.build_request("PATCH", "/v1/users/me", json={"name": "N"}, headers=headers),
            client.build_request("DELETE", "/v1/notifications/webhook", headers=headers),
        ]

    def projects_writes(headers: dict[str, str]) -> list[httpx2.Request]:
        return [
            client.build_request("POST", "/v1/projects", json={"name": "P"}, headers=headers),
            client.build_request("POST", "/v1/tasks", json={"name": "T"}, headers=headers),
            client.build_request("POST", "/v1/conversations", json={"title": "C"}, headers=headers),
        ]

    for request in profile_writes(profile) + projects_writes(projects):
        response = await client.send(request)
        assert response.status_code in (200, 201), (request.url, response.text)
    for request in profile_writes(projects) + projects_writes(profile) + projects_writes(reader):
        response = await client.send(request)
        assert response.status_code == 403, (request.url, response.text)
    for path in ("/v1/jobs", "/v1/projects", "/v1/tasks", "/v1/notifications/webhook"):
        assert (await client.get(path, headers=reader)).status_code == 200, path
