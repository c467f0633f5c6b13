"""/v1/conversations: owned by one user; rename, archive, messages; every write bumps updatedAt."""

from __future__ import annotations

from typing import Any

import httpx2

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from tests.conftest import MakeUser
from tests.conftest import TestUser as Caller


async def create(client: httpx2.AsyncClient, user: Caller, **body: Any) -> dict[str, Any]:
    response = await client.post("/v1/conversations", json=body, headers=user.bearer_headers)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def test_create_rename_archive(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    user = await make_user()
    h = user.bearer_headers
    conversation = await create(client, user, title="  Planning ")
    assert conversation["title"] == "Planning"
    assert conversation["userId"] == str(user.user_id)
    assert conversation["archived"] is False
    url = f"/v1/conversations/{conversation['id']}"
    renamed = await client.patch(url, json={"title": "Q3 planning"}, headers=h)
    assert renamed.status_code == 200
    assert renamed.json()["data"]["title"] == "Q3 planning"
    assert renamed.json()["data"]["updatedAt"] > conversation["updatedAt"]
    for body in ({}, {"title": None}, {"title": "  "}, {"owner": "x"}):
        assert (await client.patch(url, json=body, headers=h)).status_code == 400

    archived = (await client.post(f"{url}/archive", headers=h)).json()["data"]
    assert archived["archived"] is True
    assert (await client.post(f"{url}/archive", headers=h)).json()["data"] == archived
    assert [
        c["id"] for c in (await client.get("/v1/conversations", headers=h)).json()["data"]
    ] == []
    only = await client.get("/v1/conversations?archived=true", headers=h)
    assert [c["id"] for c in only.json()["data"]] == [conversation["id"]]
    refused = await client.post(
        f"{url}/messages", json={"role": "user", "content": "hi"}, headers=h
    )
    assert refused.status_code == 400
    back = (await client.post(f"{url}/unarchive", headers=h)).json()["data"]
    assert back["archived"] is False and back["archivedAt"] is None


async def test_messages_append_and_list_in_order(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    h = user.bearer_headers
    conversation = await create(client, user, title="Chat")
    url = f"/v1/conversations/{conversation['id']}"
    sent = []
    for i, role in enumerate(("system", "user", "assistant", "user")):
        response = await client.post(
            f"{url}/messages", json={"role": role, "content": f"m{i}"}, headers=h
        )
        assert response.status_code == 201, response.text
        sent.append(response.json()["data"])
    assert sent[1]["authorId"] == str(user.user_id)
    assert sent[2]["authorId"] is None
    listed = await client.get(f"{url}/messages", headers=h)
    assert [m["content"] for m in listed.json()["data"]] == ["m0", "m1", "m2", "m3"]
    assert listed.json()["meta"]["pagination"]["total"] == 4
    second = await client.get(f"{url}/messages?limit=3&page=2", headers=h)
    assert [m["content"] for m in second.json()["data"]] == ["m3"]
    # Appending bumps the conversation (the history feed orders by updatedAt).
    fetched = (await client.get(url, headers=h)).json()["data"]
    assert fetched["updatedAt"] == sent[-1]["createdAt"]
    assert fetched["updatedAt"] > conversation["updatedAt"]
    for body in (
        {"role": "robot", "content": "x"},
        {"role": "user", "content": ""},
        {"role": "user", "content": "x" * 100_001},
        {"content": "x"},
    ):
        assert (await client.post(f"{url}/messages", json=body, headers=h)).status_code == 400


async def test_only_the_owner_sees_a_conversation(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    owner, stranger = await make_user(), await make_user()
    conversation = await create(client, owner, title="Mine")
    # A second user who is a member of the owner's workspace still gets 404.
    from agora.models import Organization, OrganizationMember, Workspace

    async with db.transaction() as session:
        org = Organization(slug="acme", name="Acme")
        session.add(org)
        await session.flush()
        session.add(Workspace(name="Acme", kind="organization", organization_id=org.id))
        for member in (owner, stranger):
            session.add(OrganizationMember(organization_id=org.id, user_id=member.user_id))
    org_headers = {"X-Organization-Slug": "acme"}
    shared = await client.post(
        "/v1/conversations",
        json={"title": "Org chat"},
        headers={**owner.bearer_headers, **org_headers},
    )
    assert shared.status_code == 201
    shared_id = shared.json()["data"]["id"]
    colleague = {**stranger.bearer_headers, **org_headers}
    for cid in (conversation["id"], shared_id):
        url = f"/v1/conversations/{cid}"
        assert (await client.get(url, headers=colleague)).status_code == 404
        assert (await client.patch(url, json={"title": "x"}, headers=colleague)).status_code == 404
        assert (await client.get(f"{url}/messages", headers=colleague)).status_code == 404
        assert (
            await client.post(
                f"{url}/messages", json={"role": "user", "content": "x"}, headers=colleague
            )
        ).status_code == 404
    assert (await client.get("/v1/conversations", headers=colleague)).json()["data"] == []
    # The owner sees the org conversation only in the org workspace.
    personal = await client.get("/v1/conversations", headers=owner.bearer_headers)
    assert [c["id"] for c in personal.json()["data"]] == [conversation["id"]]

    async with db.transaction() as session:
        user = await identity_repo.user_by_id(session, owner.user_id)
        assert user is not None
        reader = await identity.create_key(session, user=user, kind="coworker")
    bot = {"Authorization": f"Bearer {reader.plaintext}"}
    assert (
        await client.get(f"/v1/conversations/{conversation['id']}", headers=bot)
    ).status_code == 200
    assert (
        await client.post("/v1/conversations", json={"title": "x"}, headers=bot)
    ).status_code == 403
