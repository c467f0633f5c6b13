"""The issue's journey, through HTTP only: sign up → verify from the sender's folder → sign in →
create a key → use it → revoke it → 401 → create an organization → invite by link → the second
person joins as member → the member's rights follow the role table."""

from __future__ import annotations

import httpx2

from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link, sign_in, sign_up_verified


async def test_sign_up_verify_sign_in_key_lifecycle(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    email = "ada@example.com"
    signed_up = await client.post(
        "/v1/auth/sign-up",
        json={"email": "Ada@Example.com ", "password": STRONG_PASSWORD, "name": "Ada"},
    )
    assert signed_up.status_code == 201, signed_up.text
    assert signed_up.json()["data"]["email"] == email
    assert signed_up.json()["data"]["emailVerifiedAt"] is None

    # Not verified yet: the right password is refused with 403 naming the email.
    early = await client.post(
        "/v1/auth/sign-in", json={"email": email, "password": STRONG_PASSWORD}
    )
    assert early.status_code == 403
    assert early.json()["details"][0]["field"] == "email"

    url, token = last_link(settings, email, "Confirm")
    # The mail links to the web app's landing page; the JSON route still takes the token.
    assert url.startswith("http://testserver/verify-email?token=")
    verified = await client.get(f"/v1/auth/verify-email?token={token}")
    assert verified.status_code == 200, verified.text
    assert verified.json()["data"]["emailVerifiedAt"] is not None

    csrf = await sign_in(client, email)
    me = await client.get("/v1/users/me")  # every existing route works with the session
    assert me.status_code == 200
    assert me.json()["data"]["email"] == email
    credits = await client.get("/v1/credits")
    assert credits.status_code == 200

    created = await client.post(
        "/v1/api-keys", json={"name": "laptop", "scopes": ["read"]}, headers=csrf
    )
    assert created.status_code == 201, created.text
    key = created.json()["data"]
    assert key["key"].startswith(key["prefix"])
    assert key["scopes"] == ["read"]
    listed = await client.get("/v1/api-keys")
    assert [k["id"] for k in listed.json()["data"]] == [key["id"]]
    assert "key" not in listed.json()["data"][0]

    client.cookies.clear()  # now as a program with the key, like curl
    headers = {"x-api-key": key["key"]}
    assert (await client.get("/v1/users/me", headers=headers)).status_code == 200
    # The read scope limits it: no profile changes.
    assert (
        await client.patch("/v1/users/me", json={"name": "X"}, headers=headers)
    ).status_code == 403
    used = await client.get("/v1/api-keys", headers=await sign_in(client, email))
    assert used.json()["data"][0]["lastUsedAt"] is not None

    revoked = await client.delete(f"/v1/api-keys/{key['id']}", headers=await sign_in(client, email))
    assert revoked.status_code == 200, revoked.text
    assert revoked.json()["data"]["revokedAt"] is not None
    client.cookies.clear()
    after = await client.get("/v1/users/me", headers=headers)
    assert after.status_code == 401


async def test_organization_invite_by_link_and_member_rights(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    owner = await sign_up_verified(client, settings, "owner@example.com", "Olive Owner")
    made = await client.post(
        "/v1/organizations", json={"name": "Acme Robots", "slug": "acme"}, headers=owner
    )
    assert made.status_code == 201, made.text
    org = made.json()["data"]
    assert org["role"] == "owner"
    invite = await client.post(
        f"/v1/organizations/{org['id']}/invitations",
        json={"role": "member", "maxUses": 5},
        headers=owner,
    )
    assert invite.status_code == 201, invite.text
    link = invite.json()["data"]
    assert link["email"] is None and link["maxUses"] == 5
    token = link["token"]

    member = await sign_up_verified(client, settings, "mia@example.com", "Mia Member")
    joined = await client.post("/v1/invitations/accept", json={"token": token}, headers=member)
    assert joined.status_code == 200, joined.text
    assert joined.json()["data"]["role"] == "member"

    members = await client.get(f"/v1/organizations/{org['id']}/members")
    assert members.status_code == 200
    assert {m["email"]: m["role"] for m in members.json()["data"]} == {
        "owner@example.com": "owner",
        "mia@example.com": "member",
    }
    # The table: a member manages projects in the organization's workspace …
    switched = await client.put(
        "/v1/auth/session/workspace", json={"workspaceId": org["workspaceId"]}, headers=member
    )
    assert switched.status_code == 200, switched.text
    project = await client.post("/v1/projects", json={"name": "Q3"}, headers=member)
    assert project.status_code == 201, project.text
    assert project.json()["data"]["workspaceId"] == org["workspaceId"]
    # … but may not invite, change roles or delete it (403).
    for method, path, body in (
        ("POST", f"/v1/organizations/{org['id']}/invitations", {"role": "member"}),
        (
            "PATCH",
            f"/v1/organizations/{org['id']}/members/{members.json()['data'][0]['userId']}",
            {"role": "member"},
        ),
        ("DELETE", f"/v1/organizations/{org['id']}", None),
    ):
        denied = await client.request(method, path, json=body, headers=member)
        assert denied.status_code == 403, (method, path, denied.text)
        assert denied.json()["code"] == "403"
    # The owner may.
    await sign_in(client, "owner@example.com")
    owner = await sign_in(client, "owner@example.com")
    mia = next(m for m in members.json()["data"] if m["email"] == "mia@example.com")
    promoted = await client.patch(
        f"/v1/organizations/{org['id']}/members/{mia['userId']}",
        json={"role": "admin"},
        headers=owner,
    )
    assert promoted.status_code == 200, promoted.text
    assert promoted.json()["data"]["role"] == "admin"


async def test_welcome_grant_and_workspace_switch(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    # 5 credits in base units
    settings.accounts = settings.with_changes(welcome_credits=5_000_000).accounts
    csrf = await sign_up_verified(client, settings, "grant@example.com")
    credits = await client.get("/v1/credits")
    assert credits.status_code == 200
    assert credits.json()["data"]["balance"] == 5
    other = await client.put(
        "/v1/auth/session/workspace",
        json={"workspaceId": "01890000-0000-7000-8000-000000000000"},
        headers=csrf,
    )
    assert other.status_code == 404
    no_csrf = await client.put("/v1/auth/session/workspace", json={"workspaceId": "not-a-uuid"})
    assert no_csrf.status_code == 403
