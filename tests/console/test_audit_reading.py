"""Who reads the audit log: operators all of it; an organization's owners and admins their
organization's part, nothing of another's (404); and never a secret in it."""

from __future__ import annotations

import csv
import io
from typing import Any

import httpx2
from fastapi import FastAPI

from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, sign_up_verified
from tests.conftest import MakeUser, TestUser


async def _org(client: httpx2.AsyncClient, owner: dict[str, str], name: str) -> dict[str, Any]:
    made = await client.post("/v1/organizations", json={"name": name}, headers=owner)
    assert made.status_code == 201, made.text
    data: dict[str, Any] = made.json()["data"]
    return data


async def _join(
    client: httpx2.AsyncClient, owner: dict[str, str], org_id: str, person: TestUser
) -> None:
    invited = await client.post(
        f"/v1/organizations/{org_id}/invitations", json={"role": "member"}, headers=owner
    )
    assert invited.status_code == 201, invited.text
    accepted = await client.post(
        "/v1/invitations/accept",
        json={"token": invited.json()["data"]["token"]},
        headers=person.key_headers,
    )
    assert accepted.status_code == 200, accepted.text


async def test_an_owner_sees_their_members_keys_and_roles_and_nothing_else(
    client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser
) -> None:
    owner, member, other_owner, other_member = (
        await make_user(),
        await make_user(),
        await make_user(),
        await make_user(),
    )
    ours = await _org(client, owner.key_headers, "Ours")
    theirs = await _org(client, other_owner.key_headers, "Theirs")
    await _join(client, owner.key_headers, ours["id"], member)
    await _join(client, other_owner.key_headers, theirs["id"], other_member)

    for person, org in ((member, ours), (other_member, theirs)):
        key = await client.post(
            "/v1/api-keys",
            json={"name": "team key", "workspaceId": org["workspaceId"]},
            headers=person.key_headers,
        )
        assert key.status_code == 201, key.text
    for boss, person, org in ((owner, member, ours), (other_owner, other_member, theirs)):
        role = await client.patch(
            f"/v1/organizations/{org['id']}/members/{person.user_id}",
            json={"role": "admin"},
            headers=boss.key_headers,
        )
        assert role.status_code == 200, role.text

    seen = await client.get(
        f"/v1/organizations/{ours['id']}/audit-events", headers=owner.key_headers
    )
    assert seen.status_code == 200, seen.text
    rows = seen.json()["data"]
    assert {r["organizationId"] for r in rows} == {ours["id"]}
    by_action = {r["action"]: r for r in rows}
    assert by_action["key.created"]["actorId"] == str(member.user_id)
    assert by_action["key.created"]["actorKind"] == "key"
    assert by_action["org.role_changed"]["targetId"] == str(member.user_id)
    assert by_action["org.role_changed"]["details"] == {"from": "member", "to": "admin"}
    assert {"org.invitation_sent", "org.invitation_accepted", "org.member_added"} <= set(by_action)
    assert str(other_member.user_id) not in seen.text

    # Another organization's log: 404 for its outsiders, and for a plain member of it.
    for path in ("audit-events", "audit-events/export"):
        other = await client.get(
            f"/v1/organizations/{theirs['id']}/{path}", headers=owner.key_headers
        )
        assert other.status_code == 404, path
    plain = await make_user()
    await _join(client, owner.key_headers, ours["id"], plain)
    as_member = await client.get(
        f"/v1/organizations/{ours['id']}/audit-events", headers=plain.key_headers
    )
    assert as_member.status_code == 404
    # The member made admin reads it now (owners and admins).
    as_admin = await client.get(
        f"/v1/organizations/{ours['id']}/audit-events", headers=member.key_headers
    )
    assert as_admin.status_code == 200

    exported = await client.get(
        f"/v1/organizations/{ours['id']}/audit-events/export",
        params={"action": "key.created"},
        headers=owner.key_headers,
    )
    assert exported.status_code == 200
    assert exported.headers["content-type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(exported.text)))
    assert [r["action"] for r in table] == ["key.created"]
    assert table[0]["actor_id"] == str(member.user_id)

    everything = await client.get(
        "/v1/admin/audit-events", params={"limit": 100}, headers=admin.bearer_headers
    )
    orgs = {r["organizationId"] for r in everything.json()["data"]}
    assert {ours["id"], theirs["id"]} <= orgs


async def test_no_secret_ever_appears(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    """Passwords, API keys, webhook secrets, invitation and session tokens pass through audited
    actions; none of them is in any row (API and CSV)."""
    secrets: list[str] = [STRONG_PASSWORD]
    headers = await sign_up_verified(client, settings, "secret.keeper@example.com")
    secrets.append(client.cookies.get(settings.accounts.session_cookie) or "missing-cookie")
    key = await client.post("/v1/api-keys", json={"name": "mine"}, headers=headers)
    assert key.status_code == 201, key.text
    plaintext = key.json()["data"]["key"]
    secrets.append(plaintext)
    keyed = {"x-api-key": plaintext}
    client.cookies.clear()
    hook = await client.put(
        "/v1/notifications/webhook", json={"url": "https://hooks.example.com/x"}, headers=keyed
    )
    assert hook.status_code == 200, hook.text
    secrets.append(hook.json()["data"]["secret"])
    org = await _org(client, keyed, "Secretive")
    invited = await client.post(
        f"/v1/organizations/{org['id']}/invitations", json={"role": "member"}, headers=keyed
    )
    secrets.append(invited.json()["data"]["token"])
    revoked = await client.delete(f"/v1/api-keys/{key.json()['data']['id']}", headers=keyed)
    assert revoked.status_code == 200, revoked.text
    person = await make_user()
    secrets.append(person.api_key)
    granted = await client.post(
        f"/v1/admin/users/{person.user_id}/credits",
        json={"amount": 1, "reason": "welcome"},
        headers=admin.bearer_headers,
    )
    assert granted.status_code == 200

    listed = await client.get(
        "/v1/admin/audit-events", params={"limit": 100}, headers=admin.bearer_headers
    )
    exported = await client.get("/v1/admin/audit-events/export", headers=admin.bearer_headers)
    actions = {r["action"] for r in listed.json()["data"]}
    assert {
        "auth.sign_in",
        "key.created",
        "key.revoked",
        "webhook.changed",
        "org.invitation_sent",
        "credits.granted",
    } <= actions
    for secret in secrets:
        assert len(secret) >= 16
        assert secret not in listed.text
        assert secret not in exported.text


async def test_retention_prunes_old_rows_only(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser
) -> None:
    from datetime import timedelta

    from sqlalchemy import update

    from agora.audit import service as audit
    from agora.kit.timeutil import utcnow
    from agora.models import AuditEvent

    person = await make_user()
    for reason in ("old", "new"):
        granted = await client.post(
            f"/v1/admin/users/{person.user_id}/credits",
            json={"amount": 1, "reason": reason},
            headers=admin.bearer_headers,
        )
        assert granted.status_code == 200
    async with app.state.db.transaction() as session:
        await session.execute(
            update(AuditEvent)
            .where(AuditEvent.details["reason"].as_string() == "old")
            .values(created_at=utcnow() - timedelta(days=40))
        )
    async with app.state.db.transaction() as session:
        assert await audit.prune(session, 0, limit=100) == 0  # 0 keeps everything
        assert await audit.prune(session, 30, limit=100) == 1
    left = await client.get("/v1/admin/audit-events", headers=admin.bearer_headers)
    assert [r["details"]["reason"] for r in left.json()["data"]] == ["new"]
