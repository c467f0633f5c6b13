"""Issue 26, item 1: a member removed from an organization (or leaving it) loses every key bound
to its workspace at once, and authentication by key checks membership of the workspace actually
used (a missing membership row never means "no limit"). Owners and admins list and revoke the
organization's keys. Through HTTP, on both databases."""

from __future__ import annotations

import uuid
from typing import Any

import httpx2
from fastapi import FastAPI
from sqlalchemy import func, select

from agora.credits import ledger
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.models import ApiKey, Job
from agora.organizations import repository as org_repo
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import echo, register
from tests.support.agents import LoopbackAgents


def _key(secret: str) -> dict[str, str]:
    return {"x-api-key": secret}


async def _ok(response: httpx2.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()["data"]


async def _organization_with_member(
    client: httpx2.AsyncClient, owner: TestUser, member: TestUser
) -> dict[str, Any]:
    org = await _ok(
        await client.post(
            "/v1/organizations", json={"name": "Acme", "slug": "acme"}, headers=owner.key_headers
        ),
        201,
    )
    link = await _ok(
        await client.post(
            f"/v1/organizations/{org['id']}/invitations",
            json={"role": "member"},
            headers=owner.key_headers,
        ),
        201,
    )
    await _ok(
        await client.post(
            "/v1/invitations/accept", json={"token": link["token"]}, headers=member.key_headers
        )
    )
    return dict(org)


async def _org_key(
    client: httpx2.AsyncClient, member: TestUser, workspace_id: str, name: str = "org work"
) -> str:
    """A user key made with the organization's workspaceId (its default workspace)."""
    made = await _ok(
        await client.post(
            "/v1/api-keys",
            json={"name": name, "workspaceId": workspace_id},
            headers=member.key_headers,
        ),
        201,
    )
    return str(made["key"])


async def _coworker_key(
    client: httpx2.AsyncClient, member: TestUser, admin: TestUser, workspace_id: str
) -> str:
    """A coworker key issued by ``member`` in the organization's workspace."""
    in_org = {**member.bearer_headers, "X-Workspace-Id": workspace_id}
    coworker = await _ok(
        await client.post("/v1/coworkers", json={"name": "Scribe"}, headers=in_org), 201
    )
    await _ok(
        await client.post(
            f"/v1/admin/coworkers/{coworker['id']}/whitelist", headers=admin.bearer_headers
        )
    )
    issued = await _ok(
        await client.post(
            f"/v1/coworkers/{coworker['id']}/api-keys", json={"name": "runtime"}, headers=in_org
        ),
        201,
    )
    return str(issued["token"])


async def _org_access(client: httpx2.AsyncClient, secret: str, agent_id: str) -> list[int]:
    """Statuses of reading the org's projects, its ledger, and hiring an agent in it."""
    headers = _key(secret)
    return [
        (await client.get("/v1/projects", headers=headers)).status_code,
        (await client.get("/v1/credits", headers=headers)).status_code,
        (
            await client.post(
                f"/v1/agents/{agent_id}/jobs",
                json={"inputData": {"text": "hi"}},
                headers=headers,
            )
        ).status_code,
    ]


async def test_a_removed_member_loses_the_keys_bound_to_the_organization(
    app: FastAPI,
    client: httpx2.AsyncClient,
    db: Database,
    make_user: MakeUser,
    admin: TestUser,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=1)  # paid from the org's purse
    owner, member = await make_user(name="Owner"), await make_user(name="Member")
    org = await _organization_with_member(client, owner, member)
    org_workspace = uuid.UUID(org["workspaceId"])
    async with db.transaction() as session:
        await ledger.grant(session, workspace_id=org_workspace, amount=to_base(5))
    user_key = await _org_key(client, member, org["workspaceId"])
    coworker_key = await _coworker_key(client, member, admin, org["workspaceId"])

    assert await _org_access(client, user_key, agent_id) == [200, 200, 201]
    assert (await client.get("/v1/coworkers/me", headers=_key(coworker_key))).status_code == 200

    in_org_member = {**member.key_headers, "X-Workspace-Id": org["workspaceId"]}
    removed = await client.delete(
        f"/v1/organizations/{org['id']}/members/{member.user_id}", headers=owner.key_headers
    )
    assert removed.status_code == 200, removed.text

    assert await _org_access(client, user_key, agent_id) == [401, 401, 401]
    async with db.transaction(write=False) as session:  # one job charged to the org, not two
        org_jobs = await session.scalar(
            select(func.count()).select_from(Job).where(Job.workspace_id == org_workspace)
        )
    assert org_jobs == 1
    assert (await client.get("/v1/coworkers/me", headers=_key(coworker_key))).status_code == 401
    usage = await client.post(
        "/v1/coworkers/me/usage",
        json={"userId": str(member.user_id), "credits": 1, "idempotencyKey": "u1"},
        headers=_key(coworker_key),
    )
    assert usage.status_code == 401, usage.text
    # The member's own key still works in their personal workspace, not in the organization's.
    assert (await client.get("/v1/projects", headers=member.key_headers)).status_code == 200
    assert (await client.get("/v1/projects", headers=in_org_member)).status_code == 403
    async with db.transaction(write=False) as session:
        keys = list(
            await session.scalars(
                select(ApiKey).where(ApiKey.default_workspace_id == uuid.UUID(org["workspaceId"]))
            )
        )
    assert len(keys) == 2 and all(k.revoked_at is not None for k in keys)
    listed_after = await client.get(
        f"/v1/organizations/{org['id']}/api-keys", headers=owner.key_headers
    )
    assert (await _ok(listed_after)) == []


async def test_a_member_leaving_loses_them_and_owners_revoke_keys(
    client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser
) -> None:
    owner, member, stranger = await make_user(), await make_user(), await make_user()
    org = await _organization_with_member(client, owner, member)
    first = await _org_key(client, member, org["workspaceId"], "first")
    second = await _org_key(client, member, org["workspaceId"], "second")
    coworker_key = await _coworker_key(client, member, admin, org["workspaceId"])
    # Owners and admins see the organization's keys (never a member, never the secrets).
    listed = await _ok(
        await client.get(f"/v1/organizations/{org['id']}/api-keys", headers=owner.key_headers)
    )
    assert sorted((k["kind"], k["userEmail"]) for k in listed) == [
        ("coworker", member.email),
        ("user", member.email),
        ("user", member.email),
    ]
    assert all("key" not in k for k in listed)
    in_org_member = {**member.key_headers, "X-Workspace-Id": org["workspaceId"]}
    refused = await client.get(f"/v1/organizations/{org['id']}/api-keys", headers=in_org_member)
    assert refused.status_code == 403, refused.text

    first_id = next(k["id"] for k in listed if k["name"] == "first")

    # Another organization's key id, or a stranger, answers 404.
    nobody = await client.get(
        f"/v1/organizations/{org['id']}/api-keys", headers=stranger.key_headers
    )
    assert nobody.status_code == 404
    unknown = await client.delete(
        f"/v1/organizations/{org['id']}/api-keys/{uuid.uuid4()}", headers=owner.key_headers
    )
    assert unknown.status_code == 404
    revoked = await client.delete(
        f"/v1/organizations/{org['id']}/api-keys/{first_id}", headers=owner.key_headers
    )
    assert revoked.status_code == 200, revoked.text
    assert (await client.get("/v1/projects", headers=_key(first))).status_code == 401
    assert (await client.get("/v1/projects", headers=_key(second))).status_code == 200

    left = await client.delete(
        f"/v1/organizations/{org['id']}/members/{member.user_id}", headers=member.key_headers
    )
    assert left.status_code == 200, left.text
    assert (await client.get("/v1/projects", headers=_key(second))).status_code == 401
    assert (await client.get("/v1/coworkers/me", headers=_key(coworker_key))).status_code == 401


async def test_a_key_whose_membership_row_is_gone_is_refused(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser, admin: TestUser
) -> None:
    """A key left over from a removal made before keys were revoked with the membership (the row
    is deleted under it): refused, never "no role = no limit"."""
    owner, member = await make_user(), await make_user()
    org = await _organization_with_member(client, owner, member)
    user_key = await _org_key(client, member, org["workspaceId"])
    coworker_key = await _coworker_key(client, member, admin, org["workspaceId"])
    async with db.transaction() as session:
        await org_repo.remove_member(session, uuid.UUID(org["id"]), member.user_id)
    for secret in (user_key, coworker_key):
        for path in ("/v1/projects", "/v1/credits", "/v1/coworkers/me"):
            response = await client.get(path, headers=_key(secret))
            if secret == user_key and path == "/v1/coworkers/me":
                continue
            assert response.status_code == 403, (path, response.text)
    created = await client.post("/v1/projects", json={"name": "x"}, headers=_key(user_key))
    assert created.status_code == 403
