"""Authentication and workspace resolution."""

from __future__ import annotations

from datetime import timedelta

import httpx2
from sqlalchemy import select, text

from agora.accounts import provisioning as service
from agora.accounts import repository as repo
from agora.auth import repository as auth_repo
from agora.auth import service as auth_service
from agora.kit.db import Database
from agora.kit.security import hash_key
from agora.kit.timeutil import utcnow
from agora.models import ApiKey
from tests.conftest import MakeUser


async def test_keys_are_stored_only_as_hashes(db: Database, make_user: MakeUser) -> None:
    user = await make_user()
    async with db.transaction(write=False) as session:
        key = await session.scalar(select(ApiKey).where(ApiKey.user_id == user.user_id))
        dump = (await session.execute(text("SELECT * FROM api_keys"))).all()
    assert key is not None
    assert key.key_hash == hash_key(user.api_key)
    assert user.api_key.startswith(key.prefix)
    assert all(user.api_key not in str(row) for row in dump)


async def test_organization_slug_selects_the_org_workspace(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    owner, member, outsider = await make_user(), await make_user(), await make_user()
    async with db.transaction() as session:
        owner_row = await repo.user_by_id(session, owner.user_id)
        member_row = await repo.user_by_id(session, member.user_id)
        assert owner_row is not None and member_row is not None
        org, workspace = await service.create_organization(
            session, slug="acme", name="Acme", owner=owner_row
        )
        await service.add_member(session, org=org, user=member_row)

    async def resolve(key: str, **headers: str) -> object:
        async with db.transaction(write=False) as session:
            principal = await auth_service.authenticate(
                session,
                key,
                workspace_header=headers.get("ws"),
                organization_slug=headers.get("org"),
            )
        return principal.workspace_id

    assert await resolve(member.api_key, org="acme") == workspace.id
    assert await resolve(member.api_key, ws=str(workspace.id)) == workspace.id
    assert await resolve(member.api_key) == member.workspace_id
    denied = await client.get(
        "/v1/users/me", headers={**outsider.key_headers, "X-Organization-Slug": "acme"}
    )
    assert denied.status_code == 403
    unknown = await client.get(
        "/v1/users/me", headers={**outsider.key_headers, "X-Organization-Slug": "nope"}
    )
    assert unknown.status_code == 403
    malformed = await client.get(
        "/v1/users/me", headers={**outsider.key_headers, "X-Workspace-Id": "not-a-uuid"}
    )
    assert malformed.status_code == 400
    assert malformed.json()["details"][0]["field"] == "X-Workspace-Id"


async def test_coworker_key_is_bound_to_its_workspace(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    owner = await make_user()
    async with db.transaction() as session:
        owner_row = await repo.user_by_id(session, owner.user_id)
        assert owner_row is not None
        _org, org_ws = await service.create_organization(
            session, slug="bots", name="Bots", owner=owner_row
        )
        coworker = await service.create_key(
            session, user=owner_row, kind="coworker", workspace=org_ws
        )
    headers = {"x-api-key": coworker.plaintext}
    assert (await client.get("/v1/users/me", headers=headers)).status_code == 200
    other = await client.get(
        "/v1/users/me", headers={**headers, "X-Workspace-Id": str(owner.workspace_id)}
    )
    assert other.status_code == 403


async def test_last_used_at_is_written_at_most_once_a_minute(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    user = await make_user()
    auth_service._last_touch.clear()
    await client.get("/v1/users/me", headers=user.key_headers)

    async def last_used() -> object:
        async with db.transaction(write=False) as session:
            return await session.scalar(
                select(ApiKey.last_used_at).where(ApiKey.user_id == user.user_id)
            )

    first = await last_used()
    assert first is not None
    await client.get("/v1/users/me", headers=user.key_headers)
    assert await last_used() == first  # within the minute: no second write
    # Pretend the last write was long ago, in memory and in the row: the next use writes again.
    auth_service._last_touch.clear()
    async with db.transaction() as session:
        await session.execute(
            ApiKey.__table__.update()
            .where(ApiKey.user_id == user.user_id)
            .values(last_used_at=utcnow() - timedelta(minutes=5))
        )
    stale = await last_used()
    await client.get("/v1/users/me", headers=user.key_headers)
    assert await last_used() != stale


async def test_expired_key_is_refused(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    user = await make_user()
    async with db.transaction() as session:
        await session.execute(
            ApiKey.__table__.update()
            .where(ApiKey.user_id == user.user_id)
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    response = await client.get("/v1/users/me", headers=user.bearer_headers)
    assert response.status_code == 401
    assert "expired" in response.json()["details"][0]["reason"]


async def test_a_key_revoked_in_this_process_is_refused_at_once_though_cached(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    user = await make_user()
    assert (await client.get("/v1/users/me", headers=user.key_headers)).status_code == 200
    assert hash_key(user.api_key) in auth_service._principal_cache  # warm
    async with db.transaction() as session:
        found = await auth_repo.key_principal(session, hash_key(user.api_key))
        assert found is not None
        await service.revoke_key(session, found.key_id)
    response = await client.get("/v1/users/me", headers=user.key_headers)
    assert response.status_code == 401
    assert "revoked" in response.json()["details"][0]["reason"]


async def test_the_rate_limiter_resolves_keys_from_the_same_cache(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    user = await make_user()
    resolve = auth_service.key_id_resolver(db)
    digest = hash_key(user.api_key)
    auth_service.forget_cached_principals()
    key_id = await resolve(user.api_key)
    assert key_id is not None
    assert auth_service._principal_cache[digest][1].key_id.hex == key_id.replace("-", "")
    assert await resolve("not-a-key") is None
    async with db.transaction() as session:
        await service.revoke_key(session, auth_service._principal_cache[digest][1].key_id)
    assert digest not in auth_service._principal_cache  # one cache: forgotten for both
    assert await resolve(user.api_key) is None
