"""The kinds other domains raise (docs/notifications.md): each appears in the right person's
``GET /v1/notifications`` after the event's own request, and a refused request (rolled back)
writes none. Through HTTP only, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx2
from fastapi import FastAPI

from agora.kit.db import Database
from agora.kit.money import to_base
from agora.notifications.worker import NotificationSender
from tests.accounts.helpers import mails_to
from tests.billing.test_caps import SLUG, organization, set_cap
from tests.conftest import MakeUser, TestUser
from tests.developer.conftest import submission
from tests.jobs.helpers import create, echo, register
from tests.support.agents import LoopbackAgents


async def inbox(client: httpx2.AsyncClient, who: TestUser) -> list[dict[str, Any]]:
    found = await client.get("/v1/notifications", headers=who.key_headers)
    assert found.status_code == 200, found.text
    items: list[dict[str, Any]] = found.json()["data"]["items"]
    return items


async def kinds_of(client: httpx2.AsyncClient, who: TestUser) -> list[str]:
    return [n["kind"] for n in await inbox(client, who)]


async def test_invitation_to_an_existing_account_and_a_role_change(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    owner, admin, member, _ws = await organization(db, make_user, "1")
    orgs = await client.get("/v1/organizations", headers=owner.bearer_headers)
    assert orgs.status_code == 200, orgs.text
    org_id = next(o["id"] for o in orgs.json()["data"] if o["slug"] == "capped")
    invitee = await make_user()
    invited = await client.post(
        f"/v1/organizations/{org_id}/invitations",
        json={"email": invitee.email, "role": "member"},
        headers=owner.bearer_headers,
    )
    assert invited.status_code == 201, invited.text
    [note] = await inbox(client, invitee)
    assert note["kind"] == "org.invitation"
    assert "Capped" in note["title"]
    assert await kinds_of(client, owner) == []  # the inviter is told nothing

    promoted = await client.patch(
        f"/v1/organizations/{org_id}/members/{member.user_id}",
        json={"role": "admin"},
        headers=owner.bearer_headers,
    )
    assert promoted.status_code == 200, promoted.text
    [note] = await inbox(client, member)
    assert note["kind"] == "org.role_changed"
    assert note["title"] == "You are now admin in Capped"
    assert note["link"] == f"/organizations/{org_id}"
    assert await kinds_of(client, admin) == []


async def test_review_decided_tells_the_submitting_developer(
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    admin: TestUser,
    agents_server: LoopbackAgents,
) -> None:
    developer = await make_user(name="Dev")
    ids = []
    for _ in range(2):
        created = await client.post(
            "/v1/developer/agents",
            json=submission(agents_server.serve(echo())),
            headers=developer.bearer_headers,
        )
        assert created.status_code == 201, created.text
        ids.append(created.json()["data"]["id"])
    approved = await client.post(
        f"/v1/admin/agents/{ids[0]}/approve",
        json={"reason": "Looks good"},
        headers=admin.bearer_headers,
    )
    assert approved.status_code == 200, approved.text
    rejected = await client.post(
        f"/v1/admin/agents/{ids[1]}/reject",
        json={"reason": "No terms of use"},
        headers=admin.bearer_headers,
    )
    assert rejected.status_code == 200, rejected.text
    notes = await inbox(client, developer)
    assert [(n["kind"], n["subjectRef"]) for n in notes] == [
        ("agent.review_decided", f"agent:{ids[1]}"),
        ("agent.review_decided", f"agent:{ids[0]}"),
    ]
    assert notes[0]["title"] == "Your agent “Summariser” was rejected"
    assert notes[0]["data"]["message"] == "Reviewer's note: No terms of use"
    assert notes[1]["link"] == f"/developer/{ids[0]}"
    assert await kinds_of(client, admin) == []


async def test_low_balance_goes_to_the_inbox_and_by_mail(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo(), price=4)  # 4.2 a job
    user = await make_user(credits=to_base(5))
    assert (await create(client, user.key_headers, agent_id)).status_code == 201  # 0.8 left
    [note] = await inbox(client, user)
    assert note["kind"] == "credits.low_balance"
    assert note["data"]["balance"] == 0.8
    await NotificationSender(app.state.db, app.state.settings).run_once()
    [mail] = mails_to(app.state.settings, user.email)
    assert mail["Subject"] == "Your Agora credits are running low"
    assert "/credits/buy" in mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]


async def test_spending_cap_reached_and_a_refused_job_writes_none(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=2)  # 2.1 with the fee
    owner, _admin, member, _ws = await organization(db, make_user, "100")
    cap = await set_cap(client, owner, {"userId": str(member.user_id), "monthlyLimit": 5})
    assert cap.status_code == 200, cap.text
    headers = {**member.key_headers, **SLUG}
    assert (await create(client, headers, agent_id)).status_code == 201  # 2.9 left: room
    assert await kinds_of(client, member) == []
    assert (await create(client, headers, agent_id)).status_code == 201  # 0.8 left: reached
    [note] = await inbox(client, member)
    assert note["kind"] == "credits.cap_reached"
    assert note["data"]["left"] == 0.8
    refused = await create(client, headers, agent_id)
    assert refused.status_code == 402
    assert len(await inbox(client, member)) == 1  # the refused job rolled back: nothing new
    assert await kinds_of(client, owner) == []


async def test_a_job_refused_after_its_notification_was_written_tells_nobody(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    """The member's cap is reached (``credits.cap_reached`` written), then the project's cap
    refuses the same job: 402, the transaction rolls back, the inbox stays empty."""
    agent_id = await register(app, agents_server, echo(), price=2)  # 2.1 with the fee
    owner, _admin, member, _ws = await organization(db, make_user, "100")
    owner_headers = {**owner.bearer_headers, **SLUG}
    project = await client.post("/v1/projects", json={"name": "Work"}, headers=owner_headers)
    assert project.status_code == 201, project.text
    project_id = project.json()["data"]["id"]
    task = await client.post("/v1/tasks", json={"name": "A task"}, headers=owner_headers)
    assert task.status_code == 201, task.text
    task_id = task.json()["data"]["id"]
    assigned = await client.post(
        f"/v1/projects/{project_id}/tasks", json={"taskId": task_id}, headers=owner_headers
    )
    assert assigned.status_code == 200, assigned.text
    for body in ({"userId": str(member.user_id), "monthlyLimit": 4},
                 {"projectId": project_id, "monthlyLimit": 2}):  # fmt: skip
        assert (await set_cap(client, owner, body)).status_code == 200
    headers = {**member.key_headers, **SLUG}
    refused = await create(
        client, headers, agent_id, {"inputData": {"text": "x"}, "taskId": task_id}
    )
    assert refused.status_code == 402, refused.text
    assert "the project's monthly spending cap" in refused.json()["message"]
    assert await kinds_of(client, member) == []
    # Without the task, the member's cap alone: reached, and told.
    assert (await create(client, headers, agent_id)).status_code == 201
    assert await kinds_of(client, member) == ["credits.cap_reached"]
