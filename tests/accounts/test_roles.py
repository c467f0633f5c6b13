"""The role table binds the existing routes in an organization's workspace; leave, delete,
emailed invitations and decline — through HTTP only."""

from __future__ import annotations

import httpx2
from fastapi import FastAPI

from agora.settings import Settings
from tests.accounts.helpers import last_link, sign_in, sign_up_verified
from tests.jobs.helpers import create, echo, register
from tests.support.agents import LoopbackAgents


async def test_member_spends_but_cannot_invite_until_promoted_then_leaves_and_owner_deletes(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())  # free: no credits needed
    owner = await sign_up_verified(client, settings, "own@example.com")
    org = (
        await client.post(
            "/v1/organizations", json={"name": "Jobs Inc", "slug": "jobs"}, headers=owner
        )
    ).json()["data"]
    invited = await client.post(
        f"/v1/organizations/{org['id']}/invitations",
        json={"email": "mem@example.com"},
        headers=owner,
    )
    assert invited.status_code == 201, invited.text
    assert invited.json()["data"]["maxUses"] == 1

    member = await sign_up_verified(client, settings, "mem@example.com")
    _, token = last_link(settings, "mem@example.com", "Join Jobs Inc")
    joined = await client.post("/v1/invitations/accept", json={"token": token}, headers=member)
    assert joined.status_code == 200, joined.text
    in_org = {**member, "X-Organization-Slug": "jobs"}

    assert (await create(client, in_org, agent_id)).status_code == 201  # members spend
    refused = await client.post(
        f"/v1/organizations/{org['id']}/invitations",
        json={"email": "x@example.com"},
        headers=in_org,
    )
    assert refused.status_code == 403, refused.text  # but only admins and owners invite
    assert (await create(client, member, agent_id)).status_code == 201  # personal workspace
    assert (
        await client.post("/v1/projects", json={"name": "ok"}, headers=in_org)
    ).status_code == 201

    owner = await sign_in(client, "own@example.com")
    members = (await client.get(f"/v1/organizations/{org['id']}/members")).json()["data"]
    mem = next(m for m in members if m["email"] == "mem@example.com")
    promoted = await client.patch(
        f"/v1/organizations/{org['id']}/members/{mem['userId']}",
        json={"role": "admin"},
        headers=owner,
    )
    assert promoted.status_code == 200
    bad_role = await client.patch(
        f"/v1/organizations/{org['id']}/members/{mem['userId']}",
        json={"role": "emperor"},
        headers=owner,
    )
    assert bad_role.status_code == 400
    assert bad_role.json()["details"][0]["field"] == "role"

    member = await sign_in(client, "mem@example.com")
    in_org = {**member, "X-Organization-Slug": "jobs"}
    invited_by_admin = await client.post(
        f"/v1/organizations/{org['id']}/invitations",
        json={"email": "y@example.com"},
        headers=in_org,
    )
    assert invited_by_admin.status_code == 201, invited_by_admin.text  # admins invite
    deleting = await client.delete(f"/v1/organizations/{org['id']}", headers=member)
    assert deleting.status_code == 403
    left = await client.delete(
        f"/v1/organizations/{org['id']}/members/{mem['userId']}", headers=member
    )
    assert left.status_code == 200, left.text
    assert (await client.get(f"/v1/organizations/{org['id']}/members")).status_code == 404
    assert (
        await client.get("/v1/users/me", headers={"X-Organization-Slug": "jobs"})
    ).status_code == 403

    owner = await sign_in(client, "own@example.com")
    gone = await client.delete(f"/v1/organizations/{org['id']}", headers=owner)
    assert gone.status_code == 200, gone.text
    assert (await client.get("/v1/organizations")).json()["data"] == []


async def test_declined_email_invitation_cannot_be_accepted(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    owner = await sign_up_verified(client, settings, "o2@example.com")
    org = (
        await client.post("/v1/organizations", json={"name": "Decliners"}, headers=owner)
    ).json()["data"]
    sent = await client.post(
        f"/v1/organizations/{org['id']}/invitations",
        json={"email": "no@example.com", "maxUses": 4},
        headers=owner,
    )
    assert sent.status_code == 400  # an emailed invitation is single-use
    assert sent.json()["details"][0]["field"] == "maxUses"
    sent = await client.post(
        f"/v1/organizations/{org['id']}/invitations",
        json={"email": "no@example.com"},
        headers=owner,
    )
    token = sent.json()["data"]["token"]
    invitee = await sign_up_verified(client, settings, "no@example.com")
    declined = await client.post("/v1/invitations/decline", json={"token": token}, headers=invitee)
    assert declined.status_code == 200
    accepted = await client.post("/v1/invitations/accept", json={"token": token}, headers=invitee)
    assert accepted.status_code == 400
    assert accepted.json()["details"][0]["field"] == "token"
