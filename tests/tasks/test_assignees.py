"""People on tasks (docs/tasks.md): a member or a coworker as the one assignee, participants,
assignment changes as task events, "my tasks" — through HTTP, on both databases."""

from __future__ import annotations

from typing import Any

import httpx2

from agora.accounts import provisioning
from agora.accounts import repository as accounts_repo
from agora.kit.db import Database
from tests.conftest import MakeUser
from tests.conftest import TestUser as Caller


async def _team(db: Database, make_user: MakeUser) -> tuple[Caller, Caller, Caller, str]:
    """An organization ``team`` with Ann (owner) and Bob (member); Eve is outside it."""
    ann, bob = await make_user(name="Ann"), await make_user(name="Bob")
    eve = await make_user(name="Eve")
    async with db.transaction() as session:
        owner = await accounts_repo.user_by_id(session, ann.user_id)
        member = await accounts_repo.user_by_id(session, bob.user_id)
        assert owner is not None and member is not None
        org, _ = await provisioning.create_organization(
            session, slug="team", name="Team", owner=owner
        )
        await provisioning.add_member(session, org=org, user=member)
    return ann, bob, eve, "team"


def _in(user: Caller, slug: str) -> dict[str, str]:
    return {**user.bearer_headers, "X-Organization-Slug": slug}


async def _task(client: httpx2.AsyncClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    created = await client.post("/v1/tasks", json={"name": "Minutes", **body}, headers=headers)
    assert created.status_code == 201, created.text
    data: dict[str, Any] = created.json()["data"]
    return data


async def test_assign_reassign_unassign_a_member_with_events(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    ann, bob, eve, team = await _team(db, make_user)
    task = await _task(client, _in(ann, team))
    assert task["assignee"] is None and task["assigneeId"] is None and task["participants"] == []

    put = await client.put(
        f"/v1/tasks/{task['id']}/assignee",
        json={"assigneeId": str(bob.user_id)},
        headers=_in(ann, team),
    )
    assert put.status_code == 200, put.text
    data = put.json()["data"]
    assert data["assigneeId"] == str(bob.user_id)
    assert data["assignee"] == {"type": "user", "id": str(bob.user_id), "name": "Bob", "slug": None}
    assert data["coworkerId"] is None
    again = await client.put(
        f"/v1/tasks/{task['id']}/assignee",
        json={"assigneeId": str(bob.user_id)},
        headers=_in(ann, team),
    )
    assert again.status_code == 200  # the same assignee: no new event

    # Eve is not a member of the team: 400 naming the field; nothing changes.
    outsider = await client.put(
        f"/v1/tasks/{task['id']}/assignee",
        json={"assigneeId": str(eve.user_id)},
        headers=_in(ann, team),
    )
    assert outsider.status_code == 400
    assert outsider.json()["details"][0]["field"] == "assigneeId"

    # Reassigned to Ann through PATCH, then unassigned.
    patched = await client.patch(
        f"/v1/tasks/{task['id']}", json={"assigneeId": str(ann.user_id)}, headers=_in(bob, team)
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["data"]["assignee"]["name"] == "Ann"
    gone = await client.delete(f"/v1/tasks/{task['id']}/assignee", headers=_in(ann, team))
    assert gone.status_code == 200
    assert gone.json()["data"]["assignee"] is None

    events = (await client.get(f"/v1/tasks/{task['id']}/events", headers=_in(ann, team))).json()[
        "data"
    ]
    changes = [(e["kind"], e["change"]) for e in events if e["kind"]]
    assert changes == [
        (
            "assignment",
            {"assignee": {"type": "user", "id": str(bob.user_id), "name": "Bob"}, "previous": None},
        ),
        (
            "assignment",
            {
                "assignee": {"type": "user", "id": str(ann.user_id), "name": "Ann"},
                "previous": {"type": "user", "id": str(bob.user_id), "name": "Bob"},
            },
        ),
        (
            "assignment",
            {"assignee": None, "previous": {"type": "user", "id": str(ann.user_id), "name": "Ann"}},
        ),
    ]
    assert events[1]["actor"]["user"]["name"] == "Ann"


async def test_my_tasks_filter_and_participants(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    ann, bob, eve, team = await _team(db, make_user)
    mine = await _task(client, _in(ann, team), name="For Bob", assigneeId=str(bob.user_id))
    await _task(client, _in(ann, team), name="Nobody's")
    assert mine["assignee"]["id"] == str(bob.user_id)

    listed = await client.get(
        "/v1/tasks", params={"assigneeId": "me"}, headers=_in(bob, team)
    )  # Bob did not create it: "my tasks" ignores the owned scope
    assert listed.status_code == 200, listed.text
    assert [t["name"] for t in listed.json()["data"]] == ["For Bob"]
    by_id = await client.get(
        "/v1/tasks", params={"assigneeId": str(bob.user_id)}, headers=_in(ann, team)
    )
    assert [t["name"] for t in by_id.json()["data"]] == ["For Bob"]
    bad = await client.get("/v1/tasks", params={"assigneeId": "bob"}, headers=_in(ann, team))
    assert bad.status_code == 400
    assert bad.json()["details"][0]["field"] == "query.assigneeId"

    added = await client.post(
        f"/v1/tasks/{mine['id']}/participants",
        json={"userId": str(ann.user_id)},
        headers=_in(bob, team),
    )
    assert added.status_code == 200, added.text
    assert added.json()["data"]["participants"] == [{"id": str(ann.user_id), "name": "Ann"}]
    twice = await client.post(
        f"/v1/tasks/{mine['id']}/participants",
        json={"userId": str(ann.user_id)},
        headers=_in(bob, team),
    )
    assert len(twice.json()["data"]["participants"]) == 1
    refused = await client.post(
        f"/v1/tasks/{mine['id']}/participants",
        json={"userId": str(eve.user_id)},
        headers=_in(bob, team),
    )
    assert refused.status_code == 400
    assert refused.json()["details"][0]["field"] == "userId"
    removed = await client.delete(
        f"/v1/tasks/{mine['id']}/participants/{ann.user_id}", headers=_in(bob, team)
    )
    assert removed.status_code == 200
    assert removed.json()["data"]["participants"] == []
    kinds = [
        (e["kind"], sorted(e["change"]))
        for e in (
            await client.get(f"/v1/tasks/{mine['id']}/events", headers=_in(bob, team))
        ).json()["data"]
        if e["kind"] == "participants"
    ]
    assert kinds == [("participants", ["added"]), ("participants", ["removed"])]

    # Another workspace's task answers 404 to every people route.
    for method, path, body in (
        ("PUT", "assignee", {"assigneeId": str(eve.user_id)}),
        ("DELETE", "assignee", None),
        ("POST", "participants", {"userId": str(eve.user_id)}),
    ):
        answer = await client.request(
            method, f"/v1/tasks/{mine['id']}/{path}", json=body, headers=eve.bearer_headers
        )
        assert answer.status_code == 404, (method, path, answer.text)


async def test_personal_workspace_owner_is_its_one_member(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    ann, eve = await make_user(name="Ann"), await make_user(name="Eve")
    task = await _task(client, ann.bearer_headers, assigneeId=str(ann.user_id))
    assert task["assignee"]["type"] == "user"
    refused = await client.post(
        "/v1/tasks",
        json={"name": "x", "assigneeId": str(eve.user_id)},
        headers=ann.bearer_headers,
    )
    assert refused.status_code == 400
    both = await client.post(
        "/v1/tasks",
        json={"name": "x", "assigneeId": str(ann.user_id), "coworkerId": str(ann.user_id)},
        headers=ann.bearer_headers,
    )
    assert both.status_code == 400
