"""GET /v1/agents in its three shapes, the category and status filters, agent by id."""

from __future__ import annotations

import httpx2
from sqlalchemy import update

from agora.agents import repository as repo
from agora.kit.db import Database
from agora.kit.ids import uuid7
from agora.kit.timeutil import utcnow
from agora.models import Agent
from tests.agents.conftest import RegisterAgent, make_categories
from tests.conftest import MakeUser


async def test_public_listing_filters_by_status_and_pages(
    client: httpx2.AsyncClient, db: Database, register_agent: RegisterAgent
) -> None:
    verified = [await register_agent(name=f"V{i}") for i in range(3)]
    pending = await register_agent(name="P", verify=False)
    hidden = await register_agent(name="H", is_shown=False)

    first = await client.get("/v1/agents", params={"limit": 2})
    assert first.status_code == 200, first.text
    body = first.json()
    assert set(body) == {"data", "meta"}
    assert body["meta"]["pagination"] == {"page": 1, "limit": 2, "total": 3, "hasMore": True}
    second = (await client.get("/v1/agents", params={"limit": 2, "page": 2})).json()
    assert second["meta"]["pagination"]["hasMore"] is False
    ids = [a["id"] for a in body["data"] + second["data"]]
    assert ids == sorted(str(a.id) for a in verified)  # default VERIFIED, ordered by id
    assert str(hidden.id) not in ids

    only_pending = (await client.get("/v1/agents", params={"status": "PENDING"})).json()
    assert [a["id"] for a in only_pending["data"]] == [str(pending.id)]
    assert only_pending["data"][0]["status"] == "PENDING"

    bad = await client.get("/v1/agents", params={"status": "DONE"})
    assert bad.status_code == 400
    assert bad.json()["details"][0]["field"] == "status"
    assert "meta" in bad.json()  # the Detailed shape


async def test_agent_fields_and_price_include_the_fee(
    client: httpx2.AsyncClient, register_agent: RegisterAgent
) -> None:
    agent = await register_agent(name="Priced", price="2", tags=["b", "a", "a"])
    data = (await client.get(f"/v1/agents/{agent.id}")).json()["data"]
    assert data["price"] == {"credits": 2.1, "includedFee": 0.1}  # 5 % marketplace fee
    assert data["tags"] == [{"name": "a"}, {"name": "b"}]
    assert data["status"] == "VERIFIED"
    assert data["isShown"] is True
    for field in ("id", "createdAt", "updatedAt", "name", "description"):
        assert field in data


async def test_cursor_listing_with_bearer(
    client: httpx2.AsyncClient, make_user: MakeUser, register_agent: RegisterAgent
) -> None:
    user = await make_user()
    agents = sorted([await register_agent() for _ in range(5)], key=lambda a: a.id)
    await register_agent(verify=False)  # not available: not listed
    response = await client.get("/v1/agents", params={"limit": 2}, headers=user.bearer_headers)
    assert response.status_code == 200
    body = response.json()
    assert body["meta"]["pagination"] == {
        "cursor": None,
        "limit": 2,
        "total": 5,
        "nextCursor": str(agents[1].id),
    }
    assert body["meta"]["requestId"] == response.headers["x-request-id"]
    tail = await client.get(
        "/v1/agents", params={"cursor": str(agents[3].id)}, headers=user.bearer_headers
    )
    assert [a["id"] for a in tail.json()["data"]] == [str(agents[4].id)]
    assert tail.json()["meta"]["pagination"]["nextCursor"] is None

    for params in ({"limit": 0}, {"limit": 101}, {"cursor": "not-an-id"}, {"page": 2}):
        bad = await client.get("/v1/agents", params=params, headers=user.bearer_headers)
        assert bad.status_code == 400, params


async def test_key_listing_is_envelope_a_with_every_available_agent(
    client: httpx2.AsyncClient, make_user: MakeUser, register_agent: RegisterAgent
) -> None:
    user = await make_user()
    listed = {str((await register_agent()).id) for _ in range(3)}
    await register_agent(verify=False)
    response = await client.get("/v1/agents", headers=user.key_headers)
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True and "timestamp" in body
    assert {a["id"] for a in body["data"]} == listed


async def test_invalid_credentials_never_fall_back_to_the_public_shape(
    client: httpx2.AsyncClient,
) -> None:
    bearer = await client.get("/v1/agents", headers={"Authorization": "Bearer agora_usr_nope"})
    assert bearer.status_code == 401
    assert bearer.json()["error"] == "Unauthorized"
    assert bearer.json()["message"] == "Authentication required"
    assert set(bearer.json()["meta"]) == {"timestamp", "requestId", "path", "method"}
    key = await client.get("/v1/agents", headers={"x-api-key": "agora_usr_nope"})
    assert key.status_code == 401
    assert key.json()["code"] == "401"  # the key family's Simple shape
    assert key.json()["details"] == [{"field": "credentials", "reason": "the API key is not valid"}]


async def test_category_filter_repeated_comma_any_and_uncategorized(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser, register_agent: RegisterAgent
) -> None:
    user = await make_user()
    await make_categories(db, "text", "code", "image")
    text = await register_agent(categories=["text"])
    code = await register_agent(categories=["code", "text"])
    image = await register_agent(categories=["image"])
    plain = await register_agent()

    async def ids(*values: str) -> set[str]:
        params = [("category", v) for v in values]
        response = await client.get("/v1/agents", params=params, headers=user.bearer_headers)
        assert response.status_code == 200, response.text
        return {a["id"] for a in response.json()["data"]}

    assert await ids("text") == {str(text.id), str(code.id)}
    assert await ids("code", "image") == {str(code.id), str(image.id)}
    assert await ids("code,image") == {str(code.id), str(image.id)}
    assert await ids("uncategorized") == {str(plain.id)}
    assert await ids("image", "uncategorized") == {str(image.id), str(plain.id)}
    for bad in ("nope", "", "text,,code"):
        response = await client.get(
            "/v1/agents", params={"category": bad}, headers=user.bearer_headers
        )
        assert response.status_code == 400, bad
        assert response.json()["details"][0]["field"] == "category"
    categories = (await client.get("/v1/categories")).json()["data"]
    assert [c["slug"] for c in categories] == ["code", "image", "text"]


async def test_cursor_walk_over_1000_agents_visits_each_once(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    user = await make_user()
    now = utcnow()
    rows = [
        {
            "id": uuid7(),
            "name": f"Bulk {i}",
            "description": "",
            "base_url": "http://127.0.0.1:9/agent",
            "status": "VERIFIED",
            "is_shown": True,
            "pricing_type": "FREE",
            "price": 0,
            "fee": 0,
            "tags": [],
            "job_count": 0,
            "consecutive_failures": 0,
            "created_at": now,
            "updated_at": now,
        }
        for i in range(1000)
    ]
    async with db.transaction() as session:
        await repo.add_many(session, rows)
    seen: list[str] = []
    cursor: str | None = None
    for _ in range(20):  # 1000 / 100 pages, plus slack; bounded
        params: dict[str, str | int] = {"limit": 100}
        if cursor:
            params["cursor"] = cursor
        body = (await client.get("/v1/agents", params=params, headers=user.bearer_headers)).json()
        assert body["meta"]["pagination"]["total"] == 1000
        seen += [a["id"] for a in body["data"]]
        cursor = body["meta"]["pagination"]["nextCursor"]
        if cursor is None:
            break
    assert len(seen) == 1000
    assert len(set(seen)) == 1000
    assert seen == sorted(str(r["id"]) for r in rows)


async def test_agent_by_id_and_input_schema(
    client: httpx2.AsyncClient, db: Database, register_agent: RegisterAgent
) -> None:
    agent = await register_agent()
    hidden = await register_agent(is_shown=False)
    assert (await client.get(f"/v1/agents/{agent.id}")).status_code == 200
    assert (await client.get(f"/api/v1/agents/{agent.id}")).status_code == 200
    for missing in (hidden.id, uuid7(), "not-a-uuid"):
        assert (await client.get(f"/v1/agents/{missing}")).status_code == 404
    schema = (await client.get(f"/v1/agents/{agent.id}/input-schema")).json()["data"]
    assert schema["agentId"] == str(agent.id)
    assert [f["id"] for f in schema["input_data"]] == ["text", "mode"]

    # Revocation takes an agent out of the available listings at once.
    async with db.transaction() as session:
        await session.execute(update(Agent).where(Agent.id == agent.id).values(status="REVOKED"))
    public = (await client.get("/v1/agents")).json()["data"]
    assert str(agent.id) not in [a["id"] for a in public]
