"""Issue 43.6: OAuth writes the audit log — client registration, consent (allow and deny), device
approval (and refusal), grant revocation by the person, by the client (RFC 7009) and by reuse
detection — read back through the audit API as operators and organization owners read it."""

from __future__ import annotations

from typing import Any

import httpx2

from agora.settings import Settings
from tests.accounts.helpers import sign_up_verified
from tests.conftest import MakeUser, TestUser
from tests.oauth.helpers import (
    answer_device,
    authorize_params,
    consent,
    csrf_of,
    member_of_new_organization,
    pkce,
    register,
    tokens_for,
)

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


async def rows(client: httpx2.AsyncClient, admin: TestUser, action: str) -> list[dict[str, Any]]:
    answer = await client.get(
        "/v1/admin/audit-events", params={"action": action}, headers=admin.bearer_headers
    )
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["data"]
    return found


async def _device_answer(client: httpx2.AsyncClient, client_id: str, decision: str) -> None:
    started = await client.post("/oauth/device_authorization", data={"client_id": client_id})
    answered = await answer_device(client, started.json()["user_code"], decision)
    assert answered.status_code == 200, answered.text


async def test_oauth_actions_are_in_the_audit_log(
    client: httpx2.AsyncClient, settings: Settings, admin: TestUser
) -> None:
    await sign_up_verified(client, settings, "audited@example.com")
    me = (await client.get("/v1/users/me")).json()["data"]
    registered = await register(client, client_name="Audited app")
    client_id = registered["client_id"]

    [made] = await rows(client, admin, "oauth.client_registered")
    assert made["actorKind"] == "system" and made["targetId"] == client_id
    assert made["clientAddress"] == "127.0.0.1"
    assert made["details"]["redirect_uris"] == ["http://127.0.0.1:33418/callback"]
    assert "client_secret" not in str(made)

    denied = {**authorize_params(client_id, pkce()[1])}
    page = await client.get("/oauth/authorize", params=denied)
    refused = await client.post(
        "/oauth/authorize", data={**denied, "csrf": csrf_of(page.text), "decision": "deny"}
    )
    assert refused.status_code == 303 and "error=access_denied" in refused.headers["location"]
    [no] = await rows(client, admin, "oauth.denied")
    assert (no["actorKind"], no["actorId"]) == ("user", me["id"])
    assert no["details"]["flow"] == "authorization_code"
    assert no["details"]["client_name"] == "Audited app"

    tokens = await tokens_for(client, client_id, scope="read")
    [yes] = await rows(client, admin, "oauth.consented")
    assert (yes["actorKind"], yes["actorId"], yes["targetKind"]) == (
        "user",
        me["id"],
        "oauth_grant",
    )
    assert yes["details"]["scopes"] == ["read"] and yes["workspaceId"]

    cli = await register(client, redirect_uris=[], grant_types=[DEVICE_GRANT], client_name="CLI")
    await _device_answer(client, cli["client_id"], "allow")
    await _device_answer(client, cli["client_id"], "deny")
    [approved] = await rows(client, admin, "oauth.device_approved")
    assert approved["actorId"] == me["id"] and approved["details"]["client_id"] == cli["client_id"]
    flows = sorted(r["details"]["flow"] for r in await rows(client, admin, "oauth.denied"))
    assert flows == ["authorization_code", "device"]

    # Revoked by the client (RFC 7009, a refresh token), by reuse detection, by the person.
    revoked = await client.post(
        "/oauth/revoke", data={"token": tokens["refresh_token"], "client_id": client_id}
    )
    assert revoked.status_code == 200
    second = await tokens_for(client, client_id)
    form = {"grant_type": "refresh_token", "client_id": client_id}
    rotated = await client.post(
        "/oauth/token", data={**form, "refresh_token": second["refresh_token"]}
    )
    assert rotated.status_code == 200
    reused = await client.post(
        "/oauth/token", data={**form, "refresh_token": second["refresh_token"]}
    )
    assert reused.status_code == 400
    await tokens_for(client, client_id)
    apps = await client.get("/authorized-apps")
    grant_id = apps.text.split('action="/authorized-apps/')[1].split("/revoke")[0]
    done = await client.post(
        f"/authorized-apps/{grant_id}/revoke", data={"csrf": csrf_of(apps.text)}
    )
    assert done.status_code == 303
    again = await client.post(
        f"/authorized-apps/{grant_id}/revoke", data={"csrf": csrf_of(apps.text)}
    )
    assert again.status_code == 303  # revoked already: no second row

    gone = await rows(client, admin, "oauth.grant_revoked")  # newest first
    assert [(r["details"]["by"], r["details"]["reason"], r["actorKind"]) for r in gone] == [
        ("person", "revoked", "user"),
        ("reuse", "refresh_reuse", "system"),
        ("client", "revoked", "system"),
    ]
    assert gone[0]["targetId"] == grant_id and gone[0]["actorId"] == me["id"]


async def test_an_organization_owner_reads_grants_given_in_its_workspace(
    client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser
) -> None:
    owner = await make_user(name="Owner")
    org = await member_of_new_organization(client, settings, owner, "member@example.com")
    client_id = (await register(client))["client_id"]
    answered = await consent(
        client, authorize_params(client_id, pkce()[1]), workspace=org["workspaceId"]
    )
    assert answered.status_code == 303
    read = await client.get(
        f"/v1/organizations/{org['id']}/audit-events",
        params={"action": "oauth.consented"},
        headers=owner.key_headers,
    )
    assert read.status_code == 200, read.text
    [row] = read.json()["data"]
    assert row["workspaceId"] == org["workspaceId"] and row["organizationId"] == org["id"]
