"""/v1/users/me: both credential forms, both prefixes, PUT vs PATCH, errors in the key family."""

from __future__ import annotations

import httpx2
from sqlalchemy import select

from agora.kit.db import Database
from agora.models import User
from tests.conftest import MakeUser


async def test_me_with_key_header_bearer_and_app_prefix(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user(name="Ada Lovelace")
    for path, headers in (
        ("/v1/users/me", user.key_headers),
        ("/v1/users/me", user.bearer_headers),
        ("/api/v1/users/me", user.key_headers),
    ):
        response = await client.get(path, headers=headers)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["success"] is True
        assert body["timestamp"].endswith("Z")
        data = body["data"]
        assert data["id"] == str(user.user_id)
        assert data["name"] == "Ada Lovelace"
        assert data["email"] == user.email
        assert set(data) == {
            "id",
            "createdAt",
            "updatedAt",
            "name",
            "email",
            "termsAccepted",
            "marketingOptIn",
            "jobStatusNotificationsOptIn",
            "paymentCustomerId",
            "stripeCustomerId",
        }


async def test_missing_and_wrong_key_get_401_simple_shape(client: httpx2.AsyncClient) -> None:
    missing = await client.get("/v1/users/me")
    assert missing.status_code == 401
    assert missing.json() == {
        "error": "Unauthorized",
        "code": "401",
        "message": "Authentication required",
    }
    wrong = await client.get("/v1/users/me", headers={"x-api-key": "agora_usr_not-a-real-key-000"})
    assert wrong.status_code == 401
    assert wrong.json()["code"] == "401"
    bad_scheme = await client.get("/v1/users/me", headers={"Authorization": "Basic abc"})
    assert bad_scheme.status_code == 401


async def test_foreign_workspace_header_is_403(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    me, other = await make_user(), await make_user()
    response = await client.get(
        "/v1/users/me", headers={**me.key_headers, "X-Workspace-Id": str(other.workspace_id)}
    )
    assert response.status_code == 403
    assert response.json()["code"] == "403"
    own = await client.get(
        "/v1/users/me", headers={**me.key_headers, "X-Workspace-Id": str(me.workspace_id)}
    )
    assert own.status_code == 200


async def test_malformed_body_names_the_field(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    response = await client.patch(
        "/v1/users/me", json={"marketingOptIn": "maybe"}, headers=user.key_headers
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "Invalid request parameters"
    assert body["code"] == "400"
    assert [d["field"] for d in body["details"]] == ["marketingOptIn"]

    unknown = await client.patch("/v1/users/me", json={"email": "x@y.z"}, headers=user.key_headers)
    assert unknown.status_code == 400
    assert unknown.json()["details"] == [{"field": "email", "reason": "is not a known field"}]

    broken = await client.patch(
        "/v1/users/me",
        content=b"{not json",
        headers={**user.key_headers, "content-type": "application/json"},
    )
    assert broken.status_code == 400
    assert broken.json()["details"][0]["field"] == "body"


async def test_patch_changes_only_given_fields(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user(name="Before")
    await client.patch(
        "/v1/users/me",
        json={"marketingOptIn": True, "jobStatusNotificationsOptIn": True},
        headers=user.key_headers,
    )
    response = await client.patch("/v1/users/me", json={"name": "After"}, headers=user.key_headers)
    assert response.status_code == 200
    data = response.json()["data"]
    assert (data["name"], data["marketingOptIn"], data["jobStatusNotificationsOptIn"]) == (
        "After",
        True,
        True,
    )
    async with db.transaction(write=False) as session:
        stored = await session.scalar(select(User).where(User.id == user.user_id))
    assert stored is not None
    assert stored.name == "After"
    assert stored.marketing_opt_in is True

    nulled = await client.patch("/v1/users/me", json={"name": None}, headers=user.key_headers)
    assert nulled.status_code == 400
    blank = await client.patch("/v1/users/me", json={"name": "   "}, headers=user.key_headers)
    assert blank.status_code == 400


async def test_put_replaces_opt_ins_and_keeps_omitted_name(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user(name="Grace")
    await client.patch(
        "/v1/users/me",
        json={"marketingOptIn": True, "jobStatusNotificationsOptIn": True},
        headers=user.key_headers,
    )
    response = await client.put(
        "/v1/users/me", json={"jobStatusNotificationsOptIn": True}, headers=user.key_headers
    )
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["name"] == "Grace"  # omitted name kept
    assert data["marketingOptIn"] is False  # omitted opt-in reverts to the default
    assert data["jobStatusNotificationsOptIn"] is True

    renamed = await client.put("/v1/users/me", json={"name": "Grace H."}, headers=user.key_headers)
    assert renamed.json()["data"]["name"] == "Grace H."
    assert renamed.json()["data"]["jobStatusNotificationsOptIn"] is False


async def test_coworker_key_cannot_change_profile(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    from agora.accounts import provisioning as service
    from agora.accounts import repository as repo

    user = await make_user()
    async with db.transaction() as session:
        owner = await repo.user_by_id(session, user.user_id)
        assert owner is not None
        coworker = await service.create_key(session, user=owner, kind="coworker")
    headers = {"x-api-key": coworker.plaintext}
    assert (await client.get("/v1/users/me", headers=headers)).status_code == 200
    denied = await client.patch("/v1/users/me", json={"name": "Bot"}, headers=headers)
    assert denied.status_code == 403
    assert denied.json()["code"] == "403"


async def test_revoked_key_is_refused(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    from agora.accounts import provisioning as service
    from agora.accounts import repository as repo
    from agora.kit.security import hash_key

    user = await make_user()
    async with db.transaction() as session:
        found = await repo.api_key_with_user(session, hash_key(user.api_key))
        assert found is not None
        await service.revoke_key(session, found[0].id)
    response = await client.get("/v1/users/me", headers=user.key_headers)
    assert response.status_code == 401
    assert "revoked" in response.json()["details"][0]["reason"]
