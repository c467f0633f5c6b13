"""Job creation rules: input validation, price ceiling, credits, idempotency, concurrency,
visibility, paging, tasks and shares."""

from __future__ import annotations

import asyncio
import uuid

import httpx2
from fastapi import FastAPI
from sqlalchemy import func, select

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.models import Agent, Job, LedgerEntry, Task, Workspace
from tests.conftest import MakeUser
from tests.jobs.helpers import create, echo, register, reviewer
from tests.support.agents import LoopbackAgents


async def test_input_is_validated_against_the_agent_schema(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    missing = await create(client, user.key_headers, agent_id, {"inputData": {}})
    assert missing.status_code == 400
    body = missing.json()
    assert body["code"] == "400"
    assert body["details"] == [{"field": "inputData.text", "reason": "is required"}]
    wrong = await create(
        client,
        user.key_headers,
        agent_id,
        {"inputData": {"text": "x", "mode": "sideways", "extra": 1}},
    )
    assert wrong.status_code == 400
    assert {d["field"] for d in wrong.json()["details"]} == {"inputData.mode", "inputData.extra"}
    assert "is not one of upper, lower, reverse, words" in str(wrong.json()["details"])
    too_long = await create(client, user.key_headers, agent_id, {"inputData": {"text": "x" * 5001}})
    assert too_long.json()["details"][0]["reason"] == (
        "must be at most 5000 characters long (validation max)"
    )
    # The body's inputSchema must be the agent's current one; unknown body fields are refused.
    schema = (await client.get(f"/v1/agents/{agent_id}/input-schema")).json()["data"]
    for sent in (schema, schema["input_data"]):
        current = await create(
            client,
            user.key_headers,
            agent_id,
            {"inputData": {"text": "x"}, "inputSchema": sent, "name": None},
        )
        assert current.status_code == 201, current.text
    outdated = await create(
        client,
        user.key_headers,
        agent_id,
        {"inputData": {"text": "x"}, "inputSchema": {"input_data": []}},
    )
    assert outdated.status_code == 409, outdated.text
    assert "input schema has changed" in outdated.json()["message"]
    garbage = await create(
        client, user.key_headers, agent_id, {"inputData": {"text": "x"}, "inputSchema": "nope"}
    )
    assert garbage.status_code == 400
    assert garbage.json()["details"][0]["field"] == "inputSchema"
    unknown = await create(client, user.key_headers, agent_id, {"inputData": {}, "bogus": 1})
    assert unknown.status_code == 400
    assert unknown.json()["details"] == [{"field": "bogus", "reason": "is not a known field"}]


async def test_price_ceiling_and_alias(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo(), price=2)
    user = await make_user(credits=to_base(10))
    body = {"inputData": {"text": "x"}}
    above = await create(client, user.key_headers, agent_id, {**body, "maxAcceptedCredits": 2})
    assert above.status_code == 400
    assert above.json()["details"][0]["field"] == "maxAcceptedCredits"
    assert "the agent's price is 2.1 credits, above the 2 you accept" in above.json()["message"]
    alias = await create(client, user.key_headers, agent_id, {**body, "maxCredits": 2})
    assert alias.status_code == 400
    both = await create(
        client, user.key_headers, agent_id, {**body, "maxCredits": 3, "maxAcceptedCredits": 4}
    )
    assert both.status_code == 400
    ok = await create(client, user.key_headers, agent_id, {**body, "maxCredits": 2.1})
    assert ok.status_code == 201


async def test_short_credits_is_402_and_nothing_is_written(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=2)
    user = await make_user(credits=to_base(1))
    response = await create(client, user.key_headers, agent_id)
    assert response.status_code == 402
    assert response.json()["code"] == "402"
    assert "costs 2.1" in response.json()["message"]
    async with db.transaction(write=False) as session:
        assert await session.scalar(select(func.count()).select_from(Job)) == 0


async def _jobs_and_holds(db: Database) -> tuple[int, int]:
    """How many jobs and how many credit holds the database has."""
    async with db.transaction(write=False) as session:
        jobs = await session.scalar(select(func.count()).select_from(Job))
        holds = await session.scalar(
            select(func.count()).select_from(LedgerEntry).where(LedgerEntry.kind == "hold")
        )
    return int(jobs or 0), int(holds or 0)


async def test_idempotency_key_replays_and_refuses_another_body(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=1)
    user = await make_user(credits=to_base(10))
    headers = {**user.key_headers, "Idempotency-Key": "order-42"}
    first = await client.post(
        f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "a"}}, headers=headers
    )
    assert first.status_code == 201
    # Concurrent replays: one job, one hold.
    replays = await asyncio.gather(
        *(
            client.post(
                f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "a"}}, headers=headers
            )
            for _ in range(5)
        )
    )
    for replay in replays:
        assert replay.status_code == 201
        assert replay.headers["Idempotent-Replayed"] == "true"
        assert replay.json()["data"]["id"] == first.json()["data"]["id"]
    other = await client.post(
        f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "b"}}, headers=headers
    )
    assert other.status_code == 400
    assert other.json()["details"][0]["field"] == "Idempotency-Key"
    assert await _jobs_and_holds(db) == (1, 1)


async def test_concurrent_first_requests_with_one_key_create_one_job(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    """Requests with the same new key at once: none has committed when the others look for the
    key, so on PostgreSQL they all insert and the unique index decides — the losers wait for the
    winner, then answer its job as a replay (never a 500, never a second hold)."""
    agent_id = await register(app, agents_server, echo(), price=1)
    user = await make_user(credits=to_base(10))
    headers = {**user.key_headers, "Idempotency-Key": "race-7"}
    responses = await asyncio.gather(
        *(
            client.post(
                f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "a"}}, headers=headers
            )
            for _ in range(6)
        )
    )
    assert [r.status_code for r in responses] == [201] * 6, [r.text for r in responses]
    assert len({r.json()["data"]["id"] for r in responses}) == 1
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in responses) == 5
    assert await _jobs_and_holds(db) == (1, 1)


async def test_concurrent_creation_never_overdraws(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=2)
    k = 7
    user = await make_user(credits=to_base("2.1") * k)
    responses = await asyncio.gather(
        *(create(client, user.key_headers, agent_id) for _ in range(50))
    )
    codes = sorted(r.status_code for r in responses)
    assert codes.count(201) == k, codes
    assert codes.count(402) == 50 - k, codes
    async with db.transaction(write=False) as session:
        ws = await session.get(Workspace, user.workspace_id)
        assert ws is not None
        assert (ws.balance, ws.held) == (0, to_base("2.1") * k)
        assert await session.scalar(select(func.count()).select_from(Job)) == k


async def test_jobs_are_visible_only_to_their_owner_in_their_workspace(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo())
    other_agent = await register(app, agents_server, echo())
    me, other = await make_user(), await make_user()
    ids = [(await create(client, me.key_headers, agent_id)).json()["data"]["id"] for _ in range(5)]
    await create(client, me.key_headers, other_agent)
    theirs = (await create(client, other.key_headers, agent_id)).json()["data"]["id"]

    assert (await client.get(f"/v1/jobs/{theirs}", headers=me.key_headers)).status_code == 404
    assert (await client.get("/v1/jobs/not-a-uuid", headers=me.key_headers)).status_code == 404
    listed = (await client.get("/v1/jobs", headers=me.key_headers)).json()
    assert len(listed["data"]) == 6
    assert theirs not in {j["id"] for j in listed["data"]}
    assert listed["pagination"] == {
        "limit": 20,
        "cursor": None,
        "nextCursor": None,
        "hasMore": False,
    }

    # Paging: newest first, bounded pages, cursor in `pagination`.
    seen: list[str] = []
    cursor = None
    for _ in range(5):
        params = {"agentId": agent_id, "limit": "2", **({"cursor": cursor} if cursor else {})}
        page = (await client.get("/v1/jobs", params=params, headers=me.key_headers)).json()
        seen += [j["id"] for j in page["data"]]
        cursor = page["pagination"]["nextCursor"]
        if not page["pagination"]["hasMore"]:
            break
    assert seen == list(reversed(ids))
    by_agent = await client.get(f"/v1/agents/{agent_id}/jobs", headers=me.key_headers)
    assert [j["id"] for j in by_agent.json()["data"]] == list(reversed(ids))
    running = await client.get("/v1/jobs", params={"status": "running"}, headers=me.key_headers)
    assert running.json()["data"] == []
    pending = await client.get("/v1/jobs?status=PENDING,RUNNING", headers=me.key_headers)
    assert len(pending.json()["data"]) == 6
    bad = await client.get("/v1/jobs", params={"status": "DONE"}, headers=me.key_headers)
    assert bad.status_code == 400
    assert bad.json()["details"][0]["field"] == "status"
    missing = await client.get(f"/v1/agents/{uuid.uuid4()}/jobs", headers=me.key_headers)
    assert missing.status_code == 404

    # Another workspace of the same user (an organization) sees none of the personal jobs.
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, me.user_id)
        assert owner is not None
        _, org_ws = await identity.create_organization(
            session, slug="acme", name="Acme", owner=owner
        )
    in_org = {**me.key_headers, "X-Workspace-Id": str(org_ws.id)}
    assert (await client.get("/v1/jobs", headers=in_org)).json()["data"] == []
    assert (await client.get(f"/v1/jobs/{ids[0]}", headers=in_org)).status_code == 404


async def test_organization_workspace_pays_for_its_jobs(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=1)
    me = await make_user(credits=to_base(10))
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, me.user_id)
        assert owner is not None
        org, org_ws = await identity.create_organization(
            session, slug="paycorp", name="P", owner=owner
        )
    headers = {**me.key_headers, "X-Organization-Slug": "paycorp"}
    short = await create(client, headers, agent_id)
    assert short.status_code == 402  # the organization's account is empty
    from agora.credits import ledger

    async with db.transaction() as session:
        await ledger.grant(session, workspace_id=org_ws.id, amount=to_base(5))
    created = await create(client, headers, agent_id)
    assert created.status_code == 201
    assert created.json()["data"]["organizationId"] == str(org.id)
    org_credits = (await client.get("/v1/credits", headers=headers)).json()["data"]
    assert (org_credits["balance"], org_credits["held"]) == (3.95, 1.05)
    mine = (await client.get("/v1/credits", headers=me.key_headers)).json()["data"]
    assert (mine["balance"], mine["held"]) == (10, 0)


async def test_task_id_must_be_a_live_task_of_the_workspace(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    from agora.kit.timeutil import utcnow

    agent_id = await register(app, agents_server, echo())
    me, other = await make_user(), await make_user()
    async with db.transaction() as session:
        mine = Task(workspace_id=me.workspace_id, creator_id=me.user_id, name="t")
        archived = Task(
            workspace_id=me.workspace_id, creator_id=me.user_id, name="a", archived_at=utcnow()
        )
        theirs = Task(workspace_id=other.workspace_id, creator_id=other.user_id, name="o")
        session.add_all([mine, archived, theirs])
    body = {"inputData": {"text": "x"}}
    ok = await create(client, me.key_headers, agent_id, {**body, "taskId": str(mine.id)})
    assert ok.status_code == 201
    assert ok.json()["data"]["taskId"] == str(mine.id)
    gone = await create(client, me.key_headers, agent_id, {**body, "taskId": str(archived.id)})
    assert gone.status_code == 400
    assert gone.json()["details"][0]["field"] == "taskId"
    foreign = await create(client, me.key_headers, agent_id, {**body, "taskId": str(theirs.id)})
    assert foreign.status_code == 404


async def test_public_and_organization_shares(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, reviewer())
    me, member, stranger = await make_user(), await make_user(), await make_user()
    public = await create(
        client, me.key_headers, agent_id, {"inputData": {"text": "x"}, "jobShareRequest": {}}
    )
    assert public.status_code == 201
    share = public.json()["data"]["share"]
    assert share["public"] is True
    assert share["user"]["id"] == str(me.user_id)
    assert share["recipientOrganization"] is None
    assert share["url"].startswith("http://testserver/v1/shares/")
    view = await client.get(share["url"])  # no credentials
    assert view.status_code == 200
    shown = view.json()["data"]
    assert shown["id"] == public.json()["data"]["id"]
    assert shown["agentName"] == "Reviewer"
    assert "meta" in view.json()

    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, member.user_id)
        assert owner is not None
        org, _ = await identity.create_organization(
            session, slug="clients", name="Clients", owner=owner
        )
        sharer = await identity_repo.user_by_id(session, me.user_id)
        assert sharer is not None
        await identity.add_member(session, org=org, user=sharer)  # one shares with one's own orgs
        await identity.create_organization(session, slug="others", name="Others", owner=owner)
    private = await create(
        client,
        me.key_headers,
        agent_id,
        {
            "inputData": {"text": "x"},
            "jobShareRequest": {"public": False, "recipientOrganizationSlug": "clients"},
        },
    )
    assert private.status_code == 201, private.text
    pshare = private.json()["data"]["share"]
    assert pshare["recipientOrganization"] == {
        "id": str(org.id),
        "name": "Clients",
        "slug": "clients",
        "logo": None,
    }
    assert (await client.get(pshare["url"])).status_code == 404
    assert (await client.get(pshare["url"], headers=stranger.key_headers)).status_code == 404
    assert (await client.get(pshare["url"], headers=member.bearer_headers)).status_code == 200
    assert (await client.get(pshare["url"], headers=me.key_headers)).status_code == 200
    nobody = await create(
        client,
        me.key_headers,
        agent_id,
        {"inputData": {"text": "x"}, "jobShareRequest": {"public": False}},
    )
    assert nobody.status_code == 400
    unknown = await create(
        client,
        me.key_headers,
        agent_id,
        {"inputData": {"text": "x"}, "jobShareRequest": {"recipientOrganizationSlug": "nope"}},
    )
    assert unknown.status_code == 400
    # Another tenant's organization: the very same answer as an unknown one, no details of it.
    not_mine = await create(
        client,
        me.key_headers,
        agent_id,
        {"inputData": {"text": "x"}, "jobShareRequest": {"recipientOrganizationSlug": "others"}},
    )
    assert not_mine.status_code == 400
    assert not_mine.json() == unknown.json()
    assert "Others" not in not_mine.text
    assert (await client.get("/v1/shares/not-a-token")).status_code == 404


async def test_unavailable_agents_and_permissions(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    pending = await register(app, agents_server, echo(), verify=False)
    user = await make_user()
    refused = await create(client, user.key_headers, pending)
    assert refused.status_code == 400
    assert "only VERIFIED agents take jobs" in refused.json()["message"]
    assert (await create(client, user.key_headers, str(uuid.uuid4()))).status_code == 404
    assert (await create(client, {}, pending)).status_code == 401
    verified = await register(app, agents_server, echo())
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, user.user_id)
        assert owner is not None
        bot = await identity.create_key(session, user=owner, kind="coworker")
    bot_headers = {"x-api-key": bot.plaintext}
    assert (await create(client, bot_headers, verified)).status_code == 403
    assert (await client.get("/v1/jobs", headers=bot_headers)).status_code == 200


async def test_is_demo_is_the_same_on_creation_job_by_id_and_listing(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    # Job by id reads the flag with the job (one statement) and creation from the loaded agent;
    # the listing still asks the catalogue: all three must agree, for demo agents and others.
    db: Database = app.state.db
    plain_id = await register(app, agents_server, echo())
    demo_id = await register(app, agents_server, echo())
    async with db.transaction() as session:
        demo = await session.get(Agent, uuid.UUID(demo_id))
        assert demo is not None
        demo.base_url = demo.base_url.rstrip("/") + "/demo-agents/echo"  # served as the demo is
    user = await make_user()
    for agent_id, want in ((plain_id, False), (demo_id, True)):
        created = await create(client, user.key_headers, agent_id)
        assert created.status_code == 201, created.text
        assert created.json()["data"]["isDemo"] is want
        job_id = created.json()["data"]["id"]
        read = await client.get(f"/v1/jobs/{job_id}", headers=user.key_headers)
        assert read.json()["data"]["isDemo"] is want
        listed = await client.get(f"/v1/jobs?agentId={agent_id}", headers=user.key_headers)
        assert [j["isDemo"] for j in listed.json()["data"]] == [want]
