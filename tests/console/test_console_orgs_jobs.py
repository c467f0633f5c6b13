"""The admin API's organizations (search, detail, suspend) and jobs (search, detail), on both
databases: a suspended organization refuses its members' keys in its workspace at once, its
running job is cancelled and refunded, the members keep their personal workspaces."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx2
from fastapi import FastAPI

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.auth import repository as auth_repo
from agora.credits import ledger
from agora.jobs.lifecycle import CANCELLED, COMPLETED, RUNNING
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.sandbox.protocol import Step
from agora.settings import Settings
from tests.accounts.helpers import sign_up_verified
from tests.conftest import MakeUser, TestUser
from tests.console.test_console_pages import _operator
from tests.jobs.helpers import create, dispatcher, echo, job, register
from tests.schedules.helpers import Clock, at, job_count, make_agent, scheduler, use_clock
from tests.support.agents import LoopbackAgents

SLUG = {"X-Organization-Slug": "suspendable"}


async def _organization(db: Database, make_user: MakeUser) -> tuple[TestUser, TestUser, Any]:
    """An organization (owner, member) whose workspace holds 40 credits."""
    owner, member = await make_user(name="Olive Owner"), await make_user(name="Mo Member")
    async with db.transaction() as session:
        users = [await identity_repo.user_by_id(session, u.user_id) for u in (owner, member)]
        org, ws = await identity.create_organization(
            session,
            slug="suspendable",
            name="Suspendable Ltd",
            owner=users[0],  # type: ignore[arg-type]
        )
        await identity.add_member(session, org=org, user=users[1], role="member")  # type: ignore[arg-type]
        await ledger.grant(session, workspace_id=ws.id, amount=to_base("40"), memo="test")
    return owner, member, org


async def _ok(response: httpx2.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()["data"]


async def test_search_and_detail(
    client: httpx2.AsyncClient, admin: TestUser, make_user: MakeUser, db: Database
) -> None:
    owner, member, org = await _organization(db, make_user)
    cap = await client.put(
        "/v1/credits/caps",
        json={"userId": str(member.user_id), "monthlyLimit": 5},
        headers={**owner.key_headers, **SLUG},
    )
    assert cap.status_code == 200, cap.text
    for q in ("SUSPENDABLE", "ndable l", str(org.id)):
        found = await _ok(
            await client.get(
                "/v1/admin/organizations", params={"q": q}, headers=admin.bearer_headers
            )
        )
        assert [o["slug"] for o in found] == ["suspendable"], q
    none = await _ok(
        await client.get(
            "/v1/admin/organizations", params={"q": "zzz"}, headers=admin.bearer_headers
        )
    )
    assert none == []

    detail = await _ok(
        await client.get(f"/v1/admin/organizations/{org.id}", headers=admin.bearer_headers)
    )
    assert detail["organization"]["suspendedAt"] is None
    assert {(m["user"]["id"], m["role"]) for m in detail["members"]} == {
        (str(owner.user_id), "owner"),
        (str(member.user_id), "member"),
    }
    assert detail["workspace"]["balance"] == 40 and detail["workspace"]["held"] == 0
    assert [(c["userId"], c["monthlyLimit"]) for c in detail["caps"]] == [(str(member.user_id), 5)]
    assert "cap.changed" in [e["action"] for e in detail["events"]]
    for missing in ("nope", "00000000-0000-0000-0000-000000000000"):
        gone = await client.get(f"/v1/admin/organizations/{missing}", headers=admin.bearer_headers)
        assert gone.status_code == 404, gone.text


async def test_suspending_refuses_the_workspace_at_once_and_refunds_the_running_job(
    app: FastAPI,
    client: httpx2.AsyncClient,
    admin: TestUser,
    make_user: MakeUser,
    db: Database,
    agents_server: LoopbackAgents,
) -> None:
    owner, member, org = await _organization(db, make_user)
    agent_id = await register(
        app,
        agents_server,
        echo(step=lambda _job: Step("running")),
        price=5,  # type: ignore[arg-type]
    )
    in_org = {**member.key_headers, **SLUG}
    workspace_id = (await _ok(await client.get("/v1/credits", headers=in_org)))["workspaceId"]
    org_key = (
        await _ok(
            await client.post(
                "/v1/api-keys",
                json={"name": "org work", "workspaceId": workspace_id},
                headers=member.key_headers,
            ),
            201,
        )
    )["key"]
    job_id = (await _ok(await create(client, in_org, agent_id), 201))["id"]
    await dispatcher(app).run_once()
    assert (await job(client, in_org, job_id))["status"] == RUNNING
    # Warm the process's key cache: the suspension must not wait for it.
    assert (await client.get("/v1/credits", headers={"x-api-key": org_key})).status_code == 200

    no_reason = await client.post(
        f"/v1/admin/organizations/{org.id}/suspend",
        json={"reason": ""},
        headers=admin.bearer_headers,
    )
    assert no_reason.status_code in (400, 422) and "reason" in no_reason.text
    done = await _ok(
        await client.post(
            f"/v1/admin/organizations/{org.id}/suspend",
            json={"reason": "unpaid invoices, ticket 12"},
            headers=admin.bearer_headers,
        )
    )
    assert done["jobsCancelled"] == 1 and done["jobsLeft"] == 0
    assert done["organization"]["suspendedAt"] is not None

    for headers in (in_org, {**owner.key_headers, **SLUG}, {"x-api-key": org_key}):
        refused = await client.get("/v1/credits", headers=headers)
        assert refused.status_code == 403, refused.text
        assert "suspended" in refused.text
    personal = await client.get("/v1/credits", headers=member.key_headers)
    assert personal.status_code == 200, personal.text  # their own workspace still works

    detail = await _ok(
        await client.get(f"/v1/admin/organizations/{org.id}", headers=admin.bearer_headers)
    )
    assert [(j["id"], j["status"]) for j in detail["jobs"]] == [(job_id, CANCELLED)]
    assert detail["workspace"]["balance"] == 40 and detail["workspace"]["held"] == 0
    [row] = [e for e in detail["events"] if e["action"] == "org.suspended"]
    assert row["actorKind"] == "admin" and row["targetId"] == str(org.id)
    assert row["details"]["reason"] == "unpaid invoices, ticket 12"
    job_detail = await _ok(
        await client.get(f"/v1/admin/jobs/{job_id}", headers=admin.bearer_headers)
    )
    assert [e["kind"] for e in job_detail["ledger"]] == ["hold", "refund"]

    again = await client.post(
        f"/v1/admin/organizations/{org.id}/suspend",
        json={"reason": "twice"},
        headers=admin.bearer_headers,
    )
    assert again.status_code == 409
    lifted = await _ok(
        await client.post(
            f"/v1/admin/organizations/{org.id}/unsuspend", headers=admin.bearer_headers
        )
    )
    assert lifted["suspendedAt"] is None
    assert (await client.get("/v1/credits", headers=in_org)).status_code == 200
    assert (await client.get("/v1/credits", headers={"x-api-key": org_key})).status_code == 200


async def test_not_an_organization_you_belong_to_and_only_admin_keys(
    client: httpx2.AsyncClient, admin: TestUser, make_user: MakeUser, db: Database
) -> None:
    owner, _member, org = await _organization(db, make_user)
    async with db.transaction() as session:
        me = await identity_repo.user_by_id(session, admin.user_id)
        await identity.add_member(session, org=org, user=me, role="member")  # type: ignore[arg-type]
    mine = await client.post(
        f"/v1/admin/organizations/{org.id}/suspend",
        json={"reason": "mine"},
        headers=admin.bearer_headers,
    )
    assert mine.status_code == 403 and "belong to" in mine.text
    for method, path in [
        ("GET", "/v1/admin/organizations"),
        ("GET", f"/v1/admin/organizations/{org.id}"),
        ("POST", f"/v1/admin/organizations/{org.id}/suspend"),
        ("POST", f"/v1/admin/organizations/{org.id}/unsuspend"),
        ("GET", "/v1/admin/jobs"),
        ("GET", f"/v1/admin/jobs/{org.id}"),
    ]:
        response = await client.request(
            method, path, headers=owner.bearer_headers, json={"reason": "x"}
        )
        assert response.status_code == 404, (path, response.text)


async def test_job_search_and_detail(
    app: FastAPI,
    client: httpx2.AsyncClient,
    admin: TestUser,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    person, other = await make_user(credits=20_000_000), await make_user(credits=20_000_000)
    agent_id = await register(app, agents_server, echo(), price=2)  # type: ignore[arg-type]
    first = (await _ok(await create(client, person.key_headers, agent_id), 201))["id"]
    second = (await _ok(await create(client, other.key_headers, agent_id), 201))["id"]
    await dispatcher(app).run_until_idle(max_seconds=5)
    assert (await job(client, person.key_headers, first))["status"] == COMPLETED

    def search(**params: str) -> Any:
        return client.get("/v1/admin/jobs", params=params, headers=admin.bearer_headers)

    everything = await _ok(await search(agent=agent_id))
    assert [j["id"] for j in everything] == [second, first]  # newest first
    assert everything[0]["agentName"] and everything[0]["status"] == COMPLETED
    assert [j["id"] for j in await _ok(await search(q=first))] == [first]
    workspace = (await _ok(await client.get("/v1/credits", headers=person.key_headers)))[
        "workspaceId"
    ]
    assert [j["id"] for j in await _ok(await search(workspace=workspace))] == [first]
    assert await _ok(await search(status="failed")) == []
    paged = await search(agent=agent_id, limit="1", page="2")
    assert [j["id"] for j in paged.json()["data"]] == [first]
    assert paged.json()["meta"]["pagination"]["total"] == 2
    for field, value in (("status", "SLEEPING"), ("q", "not-an-id"), ("workspace", "x")):
        bad = await search(**{field: value})
        assert bad.status_code == 400, bad.text
        assert bad.json()["details"][0]["field"] == field

    detail = await _ok(await client.get(f"/v1/admin/jobs/{first}", headers=admin.bearer_headers))
    assert detail["job"]["id"] == first and detail["job"]["userId"] == str(person.user_id)
    statuses = [e["toStatus"] for e in detail["events"] if e["toStatus"]]
    assert statuses[-1] == COMPLETED and statuses.index(RUNNING) < statuses.index(COMPLETED)
    assert [e["kind"] for e in detail["ledger"]] == ["hold", "capture"]
    assert detail["payment"]["backend"] is None and detail["payment"]["settled"] is True
    assert detail["deliveries"] == [] and detail["files"] == []
    gone = await client.get(
        "/v1/admin/jobs/00000000-0000-0000-0000-000000000000", headers=admin.bearer_headers
    )
    assert gone.status_code == 404


# ---- the console's pages ------------------------------------------------------------------


async def test_pages_are_for_operators_only(
    client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser, db: Database
) -> None:
    _owner, _member, org = await _organization(db, make_user)
    await sign_up_verified(client, settings, "plain@example.com")
    for path in (
        "/admin/organizations",
        f"/admin/organizations/{org.id}",
        "/admin/jobs",
        f"/admin/jobs/{org.id}",
    ):
        assert (await client.get(path)).status_code == 404, path
    posted = await client.post(f"/admin/organizations/{org.id}/suspend", data={"reason": "x"})
    assert posted.status_code in (403, 404)
    async with db.transaction(write=False) as session:
        found = await identity_repo.organization_by_id(session, org.id)
        assert found is not None and found.suspended_at is None


async def test_operator_suspends_an_organization_from_its_page(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    make_user: MakeUser,
    db: Database,
    agents_server: LoopbackAgents,
) -> None:
    _owner, member, org = await _organization(db, make_user)
    # A member signed in with a browser, switched to the organization's workspace.
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as browser:
        member_csrf = await sign_up_verified(browser, settings, "member@example.com", "Mia")
        async with db.transaction() as session:
            mia = await identity_repo.user_by_email(session, "member@example.com")
            await identity.add_member(session, org=org, user=mia, role="member")  # type: ignore[arg-type]
            workspace = await auth_repo.organization_workspace(session, org.id)
            assert workspace is not None
        switched = await browser.post(
            "/workspace",
            data={"csrf": member_csrf["X-CSRF-Token"], "workspaceId": str(workspace.id)},
        )
        assert switched.status_code == 303, switched.text
        before = await _ok(await browser.get("/v1/credits"))
        assert before["workspaceId"] == str(workspace.id)

        csrf = await _operator(app, client, settings)
        agent_id = await register(app, agents_server, echo(), price=1)  # type: ignore[arg-type]
        job_id = (await _ok(await create(client, {**member.key_headers, **SLUG}, agent_id), 201))[
            "id"
        ]
        found = await client.get("/admin/organizations", params={"q": "suspendable"})
        assert found.status_code == 200 and f"/admin/organizations/{org.id}" in found.text
        page = await client.get(f"/admin/organizations/{org.id}")
        assert page.status_code == 200 and "Mo Member" in page.text and job_id in page.text
        no_reason = await client.post(
            f"/admin/organizations/{org.id}/suspend", data={"csrf": csrf, "reason": " "}
        )
        assert no_reason.status_code == 400 and "say why" in no_reason.text
        suspended = await client.post(
            f"/admin/organizations/{org.id}/suspend",
            data={"csrf": csrf, "reason": "chargebacks, ticket 77"},
        )
        assert suspended.status_code == 303, suspended.text
        shown = await client.get(suspended.headers["location"])
        assert "Suspended since" in shown.text and "org.suspended" in shown.text
        assert "ticket 77" in shown.text

        # The member's session: the organization refuses; it falls back to their own workspace.
        refused = await browser.get("/v1/credits", headers=SLUG)
        assert refused.status_code == 403 and "suspended" in refused.text
        after = await _ok(await browser.get("/v1/credits"))
        assert after["workspaceId"] != str(workspace.id)

        lifted = await client.post(f"/admin/organizations/{org.id}/unsuspend", data={"csrf": csrf})
        assert lifted.status_code == 303
        assert (await browser.get("/v1/credits", headers=SLUG)).status_code == 200

        # The jobs search finds the job; its page shows the events.
        listed = await client.get("/admin/jobs", params={"agent": agent_id})
        assert listed.status_code == 200 and f"/admin/jobs/{job_id}" in listed.text
        bad = await client.get("/admin/jobs", params={"status": "NAPPING"})
        assert bad.status_code == 400 and "must be one of" in bad.text
        detail = await client.get(f"/admin/jobs/{job_id}")
        assert detail.status_code == 200 and 'id="job-events"' in detail.text
        assert "CANCELLED" in detail.text  # cancelled by the suspension
        assert (await client.get("/admin/jobs/nope")).status_code == 404


async def test_a_suspended_organization_runs_no_schedule(
    app: FastAPI, client: httpx2.AsyncClient, admin: TestUser, make_user: MakeUser, db: Database
) -> None:
    start = at("2030-01-01T00:00:00+00:00")
    clock = Clock(start - timedelta(seconds=1))
    use_clock(app, clock)
    owner, _member, org = await _organization(db, make_user)
    agent = await make_agent(db, price=1)
    made = await client.post(
        "/v1/schedules",
        json={"agentId": agent, "intervalSeconds": 60, "startsAt": start.isoformat()},
        headers={**owner.key_headers, **SLUG},
    )
    assert made.status_code == 201, made.text
    worker = scheduler(app, clock, "w1")
    clock.now = start + timedelta(seconds=1)
    await worker.run_once()
    assert await job_count(db, agent) == 1  # runs while the organization is in good standing
    await _ok(
        await client.post(
            f"/v1/admin/organizations/{org.id}/suspend",
            json={"reason": "abuse"},
            headers=admin.bearer_headers,
        )
    )
    clock.now = start + timedelta(minutes=1, seconds=1)
    await worker.run_once()
    assert await job_count(db, agent) == 1
    await _ok(
        await client.post(
            f"/v1/admin/organizations/{org.id}/unsuspend", headers=admin.bearer_headers
        )
    )
    [schedule] = await _ok(await client.get("/v1/schedules", headers={**owner.key_headers, **SLUG}))
    listed = await client.get(
        f"/v1/schedules/{schedule['id']}/runs", headers={**owner.key_headers, **SLUG}
    )
    assert "organization is suspended" in listed.text
