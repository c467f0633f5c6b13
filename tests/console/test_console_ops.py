"""The console's registry quarantine (inspect, retry with the current rules, dismiss — and a
dismissal the next sync keeps), stuck payment states (list, refund retry), the review queue's
live checks and override form, and an organization's audit page. Through HTTP on both
databases; operators only (403 for other keys on the API, the 404 page in the browser)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import Agent, Job
from agora.registry.worker import sync
from agora.settings import Settings
from tests.accounts.helpers import sign_in, sign_up_verified
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import echo, register
from tests.support.agents import LoopbackAgents
from tests.support.masumi_registry import MasumiRegistry, masumi_registry, registry_row

NOWHERE = "http://127.0.0.1:9"


@pytest.fixture
def registry() -> Iterator[MasumiRegistry]:
    with masumi_registry() as served:
        yield served


@pytest.fixture
async def keys(app: FastAPI) -> AsyncIterator[httpx2.AsyncClient]:
    """A second client without cookies, for key-authenticated calls."""
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
        yield c


async def _operator(app: FastAPI, client: httpx2.AsyncClient, settings: Settings) -> str:
    headers = await sign_up_verified(client, settings, "op@example.com", "Olga Operator")
    async with app.state.db.transaction() as session:
        user = await identity_repo.user_by_email(session, "op@example.com")
        assert user is not None
        await identity.create_key(session, user=user, kind="admin")
    return headers["X-CSRF-Token"]


async def _audit(keys: httpx2.AsyncClient, admin: TestUser, action: str) -> list[dict[str, Any]]:
    response = await keys.get(
        "/v1/admin/audit-events", params={"action": action}, headers=admin.bearer_headers
    )
    assert response.status_code == 200, response.text
    rows: list[dict[str, Any]] = response.json()["data"]
    return rows


async def _quarantine(keys: httpx2.AsyncClient, admin: TestUser) -> dict[str, dict[str, Any]]:
    listed = await keys.get("/v1/admin/registry/quarantine", headers=admin.bearer_headers)
    assert listed.status_code == 200, listed.text
    return {row["entryKey"].split(":", 1)[1]: row for row in listed.json()["data"]}


# ---- the registry quarantine --------------------------------------------------------------


async def test_quarantine_retry_and_a_dismissal_the_next_sync_keeps(
    app: FastAPI,
    keys: httpx2.AsyncClient,
    settings: Settings,
    db: Database,
    registry: MasumiRegistry,
    admin: TestUser,
    make_user: MakeUser,
) -> None:
    configured = settings.with_changes(registry_token=registry.token)
    [priced, broken] = registry.add(
        [
            registry_row(0, NOWHERE, amounts=[(5_000_000, "usdx")]),
            registry_row(1, NOWHERE, api_base_url="ftp://x", description="<script>x</script>"),
        ]
    )
    await sync(db, configured, registry.base_url)
    rows = await _quarantine(keys, admin)
    assert set(rows) == {priced.asset_identifier, broken.asset_identifier}
    bad, unpriced = rows[broken.asset_identifier], rows[priced.asset_identifier]
    assert "unknown unit 'usdx'" in unpriced["reason"]

    one = await keys.get(f"/v1/admin/registry/quarantine/{bad['id']}", headers=admin.bearer_headers)
    assert one.status_code == 200 and one.json()["data"]["entry"]["description"].startswith("<")
    plain = await make_user()
    for method, path in [
        ("GET", "/v1/admin/registry/quarantine"),
        ("GET", f"/v1/admin/registry/quarantine/{bad['id']}"),
        ("POST", f"/v1/admin/registry/quarantine/{bad['id']}/retry"),
        ("POST", f"/v1/admin/registry/quarantine/{bad['id']}/dismiss"),
    ]:
        refused = await keys.request(
            method, path, headers=plain.bearer_headers, json={"reason": "x"}
        )
        assert refused.status_code == 404, (path, refused.text)
    missing = await keys.get(
        f"/v1/admin/registry/quarantine/{uuid.uuid4()}", headers=admin.bearer_headers
    )
    assert missing.status_code == 404

    # Still broken under the current rules: kept, with the reason.
    still = await keys.post(
        f"/v1/admin/registry/quarantine/{bad['id']}/retry", headers=admin.bearer_headers
    )
    assert still.status_code == 200, still.text
    assert still.json()["data"]["imported"] is False
    assert still.json()["data"]["reason"].startswith("apiBaseUrl:")
    # A credit rate for the unit is configured: the entry passes now and is imported (PENDING).
    app.state.settings = settings.with_changes(
        registry_unit_credits={**settings.registry.unit_credits, "usdx": 0.000001}
    )
    configured = app.state.settings.with_changes(registry_token=registry.token)
    imported = await keys.post(
        f"/v1/admin/registry/quarantine/{unpriced['id']}/retry", headers=admin.bearer_headers
    )
    assert imported.status_code == 200, imported.text
    done = imported.json()["data"]
    assert done["imported"] is True and done["agentId"]
    async with db.transaction(write=False) as session:
        agent = await session.get(Agent, uuid.UUID(done["agentId"]))
        assert agent is not None and agent.review_state == "pending" and agent.price == 5_000_000
    retried = await _audit(keys, admin, "registry.retried")
    assert [r["details"]["imported"] for r in retried] == [True, False]

    no_reason = await keys.post(
        f"/v1/admin/registry/quarantine/{bad['id']}/dismiss",
        json={"reason": " "},
        headers=admin.bearer_headers,
    )
    assert no_reason.status_code == 400 and "reason" in no_reason.text
    dismissed = await keys.post(
        f"/v1/admin/registry/quarantine/{bad['id']}/dismiss",
        json={"reason": "a test entry of the registry's operator"},
        headers=admin.bearer_headers,
    )
    assert dismissed.status_code == 200, dismissed.text
    assert await _quarantine(keys, admin) == {}
    [row] = await _audit(keys, admin, "registry.dismissed")
    assert row["details"]["reason"] == "a test entry of the registry's operator"

    await sync(db, configured, registry.base_url, full=True)  # the same entry: left dismissed
    assert await _quarantine(keys, admin) == {}
    registry.update(broken.asset_identifier, description="changed upstream")
    await sync(db, configured, registry.base_url, full=True)  # changed: quarantined again
    assert set(await _quarantine(keys, admin)) == {broken.asset_identifier}


async def test_quarantine_pages(
    app: FastAPI,
    client: httpx2.AsyncClient,
    keys: httpx2.AsyncClient,
    settings: Settings,
    db: Database,
    registry: MasumiRegistry,
    admin: TestUser,
) -> None:
    configured = settings.with_changes(registry_token=registry.token)
    [broken] = registry.add(
        [registry_row(1, NOWHERE, api_base_url="ftp://x", description="<script>x</script>")]
    )
    await sync(db, configured, registry.base_url)
    [row] = (await _quarantine(keys, admin)).values()

    await sign_up_verified(client, settings, "plain@example.com")
    for path in ("/admin/registry", f"/admin/registry/{row['id']}", "/admin/payments"):
        assert (await client.get(path)).status_code == 404, path

    csrf = await _operator(app, client, settings)
    listed = await client.get("/admin/registry")
    assert listed.status_code == 200 and broken.asset_identifier in listed.text
    assert 'href="/admin/registry"' in listed.text  # in the console's navigation
    shown = await client.get(f"/admin/registry/{row['id']}")
    assert shown.status_code == 200
    assert "<script>x</script>" not in shown.text and "\\u003cscript\\u003e" in shown.text
    retried = await client.post(f"/admin/registry/{row['id']}/retry", data={"csrf": csrf})
    assert retried.status_code == 303 and retried.headers["location"].endswith("done=still")
    refused = await client.post(
        f"/admin/registry/{row['id']}/dismiss", data={"csrf": csrf, "reason": ""}
    )
    assert refused.status_code == 400 and "say why" in refused.text
    dismissed = await client.post(
        f"/admin/registry/{row['id']}/dismiss", data={"csrf": csrf, "reason": "noise"}
    )
    assert dismissed.status_code == 303, dismissed.text
    assert "quarantine-empty" in (await client.get(dismissed.headers["location"])).text
    assert [r["actorKind"] for r in await _audit(keys, admin, "registry.dismissed")] == ["admin"]


# ---- stuck payment states -----------------------------------------------------------------


async def _paid_job(db: Database, user: TestUser, agent_id: str, **values: Any) -> uuid.UUID:
    """A job bought on a payment node (the prepared state the dispatcher would leave)."""
    now = utcnow()
    fields: dict[str, Any] = {
        "status": "RUNNING",
        "on_chain_status": "FundsLocked",
        "started_at": now,
        **values,
    }
    job = Job(
        workspace_id=user.workspace_id,
        user_id=user.user_id,
        agent_id=uuid.UUID(agent_id),
        name="paid",
        job_type="PAID",
        identifier_from_purchaser=uuid.uuid4().hex[:16],
        payment_backend="masumi",
        blockchain_identifier="bc-" + uuid.uuid4().hex,
        dispatch_state="queued",
        next_attempt_at=now + timedelta(hours=1),
        **fields,
    )
    async with db.transaction() as session:
        session.add(job)
    return job.id


async def test_stuck_payments_listed_and_a_refused_refund_retried(
    app: FastAPI,
    client: httpx2.AsyncClient,
    keys: httpx2.AsyncClient,
    settings: Settings,
    db: Database,
    admin: TestUser,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    buyer = await make_user()
    agent_id = await register(app, agents_server, echo())
    refused = {"status": 400, "error": "Refund not allowed now", "attempts": 1}
    stuck_refund = await _paid_job(
        db,
        buyer,
        agent_id,
        status="FAILED",
        payment={"purchased": True, "refundStuck": refused, "unlockTime": 1},
    )
    manual = await _paid_job(
        db, buyer, agent_id, payment={"purchased": True, "manualAction": {"note": "tx failed"}}
    )
    old = await _paid_job(
        db,
        buyer,
        agent_id,
        payment={"purchased": True},
        started_at=utcnow() - timedelta(hours=3),
        on_chain_status=None,
    )
    fresh = await _paid_job(db, buyer, agent_id, payment={"purchased": True})

    listed = await keys.get("/v1/admin/payments/stuck", headers=admin.bearer_headers)
    assert listed.status_code == 200, listed.text
    rows = {r["jobId"]: r for r in listed.json()["data"]}
    assert set(rows) == {str(stuck_refund), str(manual), str(old)}
    assert str(fresh) not in rows
    assert rows[str(stuck_refund)]["why"] == "refund_stuck"
    assert rows[str(stuck_refund)]["lastError"] == "Refund not allowed now"
    assert rows[str(stuck_refund)]["canRetry"] is True
    assert rows[str(manual)]["lastError"] == "tx failed" and not rows[str(manual)]["canRetry"]
    assert rows[str(old)]["why"] == "no_progress" and rows[str(old)]["paymentState"] is None
    assert rows[str(old)]["ageSeconds"] > 3 * 3600 - 60
    longer = await keys.get(
        "/v1/admin/payments/stuck",
        params={"olderThanMinutes": 600},
        headers=admin.bearer_headers,
    )
    assert str(old) not in {r["jobId"] for r in longer.json()["data"]}
    bad = await keys.get(
        "/v1/admin/payments/stuck", params={"olderThanMinutes": 0}, headers=admin.bearer_headers
    )
    assert bad.status_code == 400 and "olderThanMinutes" in bad.text
    for method, path in [
        ("GET", "/v1/admin/payments/stuck"),
        ("POST", f"/v1/admin/payments/stuck/{stuck_refund}/retry"),
    ]:
        response = await keys.request(method, path, headers=buyer.bearer_headers)
        assert response.status_code == 404, path

    nothing = await keys.post(
        f"/v1/admin/payments/stuck/{manual}/retry", headers=admin.bearer_headers
    )
    assert nothing.status_code == 409, nothing.text
    unknown = await keys.post(
        f"/v1/admin/payments/stuck/{uuid.uuid4()}/retry", headers=admin.bearer_headers
    )
    assert unknown.status_code == 404
    retried = await keys.post(
        f"/v1/admin/payments/stuck/{stuck_refund}/retry", headers=admin.bearer_headers
    )
    assert retried.status_code == 200, retried.text
    async with db.transaction(write=False) as session:
        job = await session.get(Job, stuck_refund)
        assert job is not None and job.refund_requested_at is not None
        assert "refundStuck" not in (job.payment or {}) and job.next_attempt_at is not None
        assert job.next_attempt_at.replace(tzinfo=None) <= utcnow().replace(tzinfo=None)
    [row] = await _audit(keys, admin, "payment.retried")
    assert row["targetId"] == str(stuck_refund) and row["details"]["step"] == "request-refund"
    again = await keys.post(
        f"/v1/admin/payments/stuck/{stuck_refund}/retry", headers=admin.bearer_headers
    )
    assert again.status_code == 409

    # The page: the same list, a retry button only where a retry step exists.
    csrf = await _operator(app, client, settings)
    async with db.transaction() as session:  # refused for good again (the prepared state)
        await session.execute(
            update(Job)
            .where(Job.id == stuck_refund)
            .values(payment={"purchased": True, "refundStuck": refused}, refund_requested_at=None)
        )
    page = await client.get("/admin/payments")
    assert page.status_code == 200
    assert f'id="stuck-{stuck_refund}"' in page.text and f'id="stuck-{manual}"' in page.text
    assert f"/admin/payments/{stuck_refund}/retry" in page.text
    assert f"/admin/payments/{manual}/retry" not in page.text
    assert f'href="/admin/jobs/{manual}"' in page.text
    done = await client.post(f"/admin/payments/{stuck_refund}/retry", data={"csrf": csrf})
    assert done.status_code == 303, done.text
    again_page = await client.post(f"/admin/payments/{manual}/retry", data={"csrf": csrf})
    assert again_page.status_code == 409 and "not stuck" in again_page.text
    assert len(await _audit(keys, admin, "payment.retried")) == 2


# ---- the review queue: live checks and the override form ----------------------------------


async def test_review_queue_checks_live_and_overrides_with_a_reason(
    app: FastAPI,
    client: httpx2.AsyncClient,
    keys: httpx2.AsyncClient,
    settings: Settings,
    db: Database,
    admin: TestUser,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    developer = await make_user()
    ids = []
    for name in ("Lively", "Gone"):
        submitted = await keys.post(
            "/v1/developer/agents",
            json={"baseUrl": agents_server.serve(echo(name=name.lower())), "name": name},
            headers=developer.bearer_headers,
        )
        assert submitted.status_code == 201, submitted.text
        ids.append(submitted.json()["data"]["id"])
    async with db.transaction() as session:  # the second agent went away after submitting
        await session.execute(
            update(Agent).where(Agent.id == uuid.UUID(ids[1])).values(base_url=NOWHERE)
        )
    csrf = await _operator(app, client, settings)
    queue = await client.get("/admin/reviews")
    assert queue.status_code == 200, queue.text
    lively = queue.text.split(f'id="live-{ids[0]}"')[1].split("</section>")[0]
    assert "available" in lively and "lively is up" in lively and "Input schema (live)" in lively
    gone = queue.text.split(f'id="live-{ids[1]}"')[1].split("</section>")[0]
    assert "Live check failed" in gone
    quick = await client.get("/admin/reviews", params={"live": "0"})
    assert quick.status_code == 200 and f'id="live-{ids[0]}"' not in quick.text

    no_reason = await client.post(
        f"/admin/reviews/{ids[0]}/override",
        data={"csrf": csrf, "field": "name", "value": "Curated", "reason": " "},
    )
    assert no_reason.status_code == 400 and "say why" in no_reason.text
    bad_field = await client.post(
        f"/admin/reviews/{ids[0]}/override",
        data={"csrf": csrf, "field": "price", "value": "0", "reason": "x"},
    )
    assert bad_field.status_code == 400
    assert await _audit(keys, admin, "agent.overridden") == []  # refused: rolled back, no row
    done = await client.post(
        f"/admin/reviews/{ids[0]}/override",
        data={"csrf": csrf, "field": "name", "value": "Curated", "reason": "trademark"},
    )
    assert done.status_code == 303, done.text
    async with db.transaction(write=False) as session:
        name = await session.scalar(select(Agent.name).where(Agent.id == uuid.UUID(ids[0])))
    assert name == "Curated"
    [row] = await _audit(keys, admin, "agent.overridden")
    assert row["details"] == {"fields": ["name"], "reason": "trademark"}
    assert row["actorKind"] == "admin"

    await sign_up_verified(client, settings, "plain2@example.com")
    assert (await client.get("/admin/reviews")).status_code == 404
    override = await client.post(
        f"/admin/reviews/{ids[0]}/override",
        data={"csrf": csrf, "field": "name", "value": "X", "reason": "y"},
    )
    assert override.status_code in (403, 404)


# ---- an organization's audit page ---------------------------------------------------------


async def test_organization_audit_page_for_owners_and_admins_only(
    client: httpx2.AsyncClient,
    keys: httpx2.AsyncClient,
    settings: Settings,
    make_user: MakeUser,
) -> None:
    owner = await sign_up_verified(client, settings, "owner@example.com")
    made = await client.post("/v1/organizations", json={"name": "Ours"}, headers=owner)
    assert made.status_code == 201, made.text
    ours = made.json()["data"]
    member = await make_user()
    invited = await client.post(
        f"/v1/organizations/{ours['id']}/invitations", json={"role": "member"}, headers=owner
    )
    accepted = await keys.post(
        "/v1/invitations/accept",
        json={"token": invited.json()["data"]["token"]},
        headers=member.key_headers,
    )
    assert accepted.status_code == 200, accepted.text
    key = await keys.post(
        "/v1/api-keys",
        json={"name": "team key", "workspaceId": ours["workspaceId"]},
        headers=member.key_headers,
    )
    assert key.status_code == 201, key.text
    role = await client.patch(
        f"/v1/organizations/{ours['id']}/members/{member.user_id}",
        json={"role": "admin"},
        headers=owner,
    )
    assert role.status_code == 200, role.text
    for_plain = await client.post(
        f"/v1/organizations/{ours['id']}/invitations", json={"role": "member"}, headers=owner
    )

    other_owner, other_member = await make_user(), await make_user()
    theirs = await keys.post(
        "/v1/organizations", json={"name": "Theirs"}, headers=other_owner.key_headers
    )
    theirs_id = theirs.json()["data"]["id"]
    invited = await keys.post(
        f"/v1/organizations/{theirs_id}/invitations",
        json={"role": "member"},
        headers=other_owner.key_headers,
    )
    await keys.post(
        "/v1/invitations/accept",
        json={"token": invited.json()["data"]["token"]},
        headers=other_member.key_headers,
    )
    await keys.post(
        "/v1/api-keys",
        json={"name": "their key", "workspaceId": theirs.json()["data"]["workspaceId"]},
        headers=other_member.key_headers,
    )

    org_page = await client.get(f"/organizations/{ours['id']}")
    assert 'id="org-audit"' in org_page.text
    page = await client.get(f"/organizations/{ours['id']}/audit")
    assert page.status_code == 200, page.text
    assert (
        'data-action="key.created"' in page.text and 'data-action="org.role_changed"' in page.text
    )
    assert str(member.user_id) in page.text
    assert str(other_member.user_id) not in page.text and str(other_owner.user_id) not in page.text
    assert member.api_key not in page.text
    filtered = await client.get(
        f"/organizations/{ours['id']}/audit", params={"action": "org.role_changed"}
    )
    assert 'data-action="key.created"' not in filtered.text
    export = await client.get(f"/organizations/{ours['id']}/audit/export")
    assert export.status_code == 200 and export.headers["content-type"].startswith("text/csv")
    assert "key.created" in export.text and str(other_member.user_id) not in export.text
    for path in (f"/organizations/{theirs_id}/audit", f"/organizations/{theirs_id}/audit/export"):
        assert (await client.get(path)).status_code == 404, path
    assert (await client.get("/organizations/nope/audit")).status_code == 404

    plain = await sign_up_verified(client, settings, "plain3@example.com")
    joined = await client.post(
        "/v1/invitations/accept", json={"token": for_plain.json()["data"]["token"]}, headers=plain
    )
    assert joined.status_code == 200, joined.text
    assert 'id="org-audit"' not in (await client.get(f"/organizations/{ours['id']}")).text
    for path in (f"/organizations/{ours['id']}/audit", f"/organizations/{ours['id']}/audit/export"):
        assert (await client.get(path)).status_code == 404, path
    await sign_in(client, "owner@example.com")
    assert (await client.get(f"/organizations/{ours['id']}/audit")).status_code == 200
