"""The admin API of the console: users, suspension, credit grants, the dashboard (admin keys)."""

from __future__ import annotations

import httpx2
from fastapi import FastAPI

from agora.jobs.lifecycle import CANCELLED, RUNNING
from agora.sandbox.protocol import Step
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import create, dispatcher, echo, job, register


async def _credits(client: httpx2.AsyncClient, user: TestUser) -> dict[str, object]:
    response = await client.get("/v1/credits", headers=user.key_headers)
    assert response.status_code == 200, response.text
    data: dict[str, object] = response.json()["data"]
    return data


async def test_search_and_detail_show_no_secret(
    client: httpx2.AsyncClient, admin: TestUser, make_user: MakeUser
) -> None:
    person = await make_user(name="Ada Finder", email="ada.finder@example.com")
    found = await client.get(
        "/v1/admin/users", params={"q": "ADA.FINDER"}, headers=admin.bearer_headers
    )
    assert found.status_code == 200, found.text
    assert [u["id"] for u in found.json()["data"]] == [str(person.user_id)]
    by_id = await client.get(
        "/v1/admin/users", params={"q": str(person.user_id)}, headers=admin.bearer_headers
    )
    assert [u["email"] for u in by_id.json()["data"]] == ["ada.finder@example.com"]

    detail = await client.get(f"/v1/admin/users/{person.user_id}", headers=admin.bearer_headers)
    assert detail.status_code == 200, detail.text
    body = detail.json()["data"]
    assert body["user"]["email"] == "ada.finder@example.com"
    assert [w["kind"] for w in body["workspaces"]] == ["personal"]
    assert len(body["keys"]) == 1 and person.api_key not in detail.text
    missing = await client.get("/v1/admin/users/nope", headers=admin.bearer_headers)
    assert missing.status_code == 404


async def test_only_admin_keys(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    person = await make_user()
    for method, path in [
        ("GET", "/v1/admin/users"),
        ("GET", "/v1/admin/dashboard"),
        ("GET", "/v1/admin/audit-events"),
        ("POST", f"/v1/admin/users/{person.user_id}/suspend"),
    ]:
        response = await client.request(
            method, path, headers=person.bearer_headers, json={"reason": "x"}
        )
        assert response.status_code == 404, (path, response.text)


async def test_suspend_stops_keys_at_once_and_refunds_the_running_job(
    app: FastAPI,
    client: httpx2.AsyncClient,
    admin: TestUser,
    make_user: MakeUser,
    agents_server: object,
) -> None:
    person = await make_user(credits=20_000_000)
    agent_id = await register(
        app,
        agents_server,
        echo(step=lambda _job: Step("running")),
        price=5,  # type: ignore[arg-type]
    )
    created = await create(client, person.key_headers, agent_id)
    assert created.status_code in (200, 201), created.text
    job_id = created.json()["data"]["id"]
    await dispatcher(app).run_once()
    assert (await job(client, person.key_headers, job_id))["status"] == RUNNING
    before = await _credits(client, person)

    response = await client.post(
        f"/v1/admin/users/{person.user_id}/suspend",
        json={"reason": "fraud ticket 42"},
        headers=admin.bearer_headers,
    )
    assert response.status_code == 200, response.text
    done = response.json()["data"]
    assert done["keys"] == 1 and done["jobsCancelled"] == 1 and done["jobsLeft"] == 0
    assert done["user"]["suspendedAt"] is not None

    refused = await client.get("/v1/credits", headers=person.key_headers)
    assert refused.status_code == 401

    detail = await client.get(f"/v1/admin/users/{person.user_id}", headers=admin.bearer_headers)
    data = detail.json()["data"]
    assert [(j["id"], j["status"]) for j in data["jobs"]] == [(job_id, CANCELLED)]
    assert data["workspaces"][0]["balance"] == 20 and data["workspaces"][0]["held"] == 0
    assert all(k["revokedAt"] for k in data["keys"])
    assert "refund" in [e["kind"] for e in data["ledger"]]
    assert isinstance(before["balance"], float | int) and before["balance"] < 15  # held

    again = await client.post(
        f"/v1/admin/users/{person.user_id}/suspend",
        json={"reason": "twice"},
        headers=admin.bearer_headers,
    )
    assert again.status_code == 409
    lifted = await client.post(
        f"/v1/admin/users/{person.user_id}/unsuspend", headers=admin.bearer_headers
    )
    assert lifted.status_code == 200 and lifted.json()["data"]["suspendedAt"] is None
    still = await client.get("/v1/credits", headers=person.key_headers)
    assert still.status_code == 401  # revoked keys stay revoked


async def test_grant_needs_a_reason_and_not_your_own_account(
    client: httpx2.AsyncClient, admin: TestUser, make_user: MakeUser
) -> None:
    person = await make_user()
    url = f"/v1/admin/users/{person.user_id}/credits"
    no_reason = await client.post(
        url, json={"amount": 3, "reason": "  "}, headers=admin.bearer_headers
    )
    assert no_reason.status_code == 400 and "reason" in no_reason.text
    bad_amount = await client.post(
        url, json={"amount": "-1", "reason": "x"}, headers=admin.bearer_headers
    )
    assert bad_amount.status_code == 400 and "amount" in bad_amount.text
    granted = await client.post(
        url, json={"amount": "2.5", "reason": "goodwill, ticket 7"}, headers=admin.bearer_headers
    )
    assert granted.status_code == 200, granted.text
    assert granted.json()["data"]["balance"] == 2.5
    ledger = await _credits(client, person)
    assert ledger["balance"] == 2.5

    mine = await client.post(
        f"/v1/admin/users/{admin.user_id}/credits",
        json={"amount": 1, "reason": "me"},
        headers=admin.bearer_headers,
    )
    assert mine.status_code == 403
    myself = await client.post(
        f"/v1/admin/users/{admin.user_id}/suspend",
        json={"reason": "me"},
        headers=admin.bearer_headers,
    )
    assert myself.status_code == 403


async def test_dashboard_counts(
    app: FastAPI,
    client: httpx2.AsyncClient,
    admin: TestUser,
    make_user: MakeUser,
    agents_server: object,
) -> None:
    person = await make_user(credits=20_000_000)
    agent_id = await register(
        app,
        agents_server,
        echo(step=lambda _job: Step("failed")),
        price=1,  # type: ignore[arg-type]
    )
    created = await create(client, person.key_headers, agent_id)
    assert created.status_code in (200, 201), created.text
    await dispatcher(app).run_until_idle(max_seconds=5)
    response = await client.get("/v1/admin/dashboard", headers=admin.bearer_headers)
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data["jobsPerStatus"] == {"FAILED": 1}
    assert data["agents"][0]["agentId"] == agent_id
    assert data["agents"][0]["failureRate"] == 1.0
    assert data["pendingReviews"] == 0 and data["quarantined"] == 0
