"""Edits, review round trips, overrides, withdrawal and validation of developer listings."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from agora.kit.db import Database
from tests.conftest import MakeUser, TestUser
from tests.developer.conftest import make_categories, submission
from tests.jobs.helpers import echo
from tests.support.agents import LoopbackAgents


async def _listed(client: httpx2.AsyncClient) -> dict[str, dict[str, Any]]:
    response = await client.get("/v1/agents")
    return {a["id"]: a for a in response.json()["data"]}


async def _approved_agent(
    client: httpx2.AsyncClient, url: str, developer: TestUser, admin: TestUser
) -> str:
    created = await client.post(
        "/v1/developer/agents", json=submission(url), headers=developer.bearer_headers
    )
    assert created.status_code == 201, created.text
    agent_id: str = created.json()["data"]["id"]
    approved = await client.post(
        f"/v1/admin/agents/{agent_id}/approve", headers=admin.bearer_headers
    )
    assert approved.status_code == 200, approved.text
    return agent_id


async def test_text_edits_stay_listed_price_and_url_go_back_to_review(
    client: httpx2.AsyncClient, agents_server: LoopbackAgents, make_user: MakeUser, admin: TestUser
) -> None:
    developer = await make_user()
    agent_id = await _approved_agent(client, agents_server.serve(echo()), developer, admin)
    h = developer.bearer_headers

    text = await client.patch(
        f"/v1/developer/agents/{agent_id}",
        json={"name": "Better name", "description": "Clearer", "tags": ["a"]},
        headers=h,
    )
    assert text.status_code == 200, text.text
    assert text.json()["data"]["status"] == "VERIFIED"
    assert (await _listed(client))[agent_id]["name"] == "Better name"

    price = await client.patch(f"/v1/developer/agents/{agent_id}", json={"price": 5}, headers=h)
    data = price.json()["data"]
    assert (data["status"], data["review"]["state"]) == ("PENDING", "pending")
    assert "price" in data["review"]["note"]
    assert agent_id not in await _listed(client)

    await client.post(f"/v1/admin/agents/{agent_id}/approve", headers=admin.bearer_headers)
    assert (await _listed(client))[agent_id]["price"]["credits"] == 5.25

    moved = await client.patch(
        f"/v1/developer/agents/{agent_id}",
        json={"baseUrl": agents_server.serve(echo())},
        headers=h,
    )
    assert moved.json()["data"]["status"] == "PENDING"
    assert "base URL" in moved.json()["data"]["review"]["note"]
    assert agent_id not in await _listed(client)

    # A base URL that does not speak MIP-003 is a 400 naming baseUrl; nothing changes.
    broken = await client.patch(
        f"/v1/developer/agents/{agent_id}",
        json={"baseUrl": f"{agents_server.base_url}/nothing-here"},
        headers=h,
    )
    assert broken.status_code == 400
    assert broken.json()["details"][0]["field"] == "baseUrl"


async def test_reject_with_reason_then_resubmit_by_editing(
    client: httpx2.AsyncClient, agents_server: LoopbackAgents, make_user: MakeUser, admin: TestUser
) -> None:
    developer = await make_user()
    created = await client.post(
        "/v1/developer/agents",
        json=submission(agents_server.serve(echo())),
        headers=developer.bearer_headers,
    )
    agent_id = created.json()["data"]["id"]
    missing_reason = await client.post(
        f"/v1/admin/agents/{agent_id}/reject", json={}, headers=admin.bearer_headers
    )
    assert missing_reason.status_code == 400
    rejected = await client.post(
        f"/v1/admin/agents/{agent_id}/reject",
        json={"reason": "Add a privacy policy link"},
        headers=admin.bearer_headers,
    )
    assert rejected.status_code == 200
    seen = await client.get(f"/v1/developer/agents/{agent_id}", headers=developer.bearer_headers)
    review = seen.json()["data"]["review"]
    assert (review["state"], review["note"]) == ("rejected", "Add a privacy policy link")

    fixed = await client.patch(
        f"/v1/developer/agents/{agent_id}",
        json={"legal": {"privacyPolicy": "https://example.com/privacy"}},
        headers=developer.bearer_headers,
    )
    assert fixed.json()["data"]["review"]["state"] == "pending"
    assert fixed.json()["data"]["legal"]["privacyPolicy"] == "https://example.com/privacy"
    queue = await client.get(
        "/v1/admin/agents", params={"review": "pending"}, headers=admin.bearer_headers
    )
    assert [a["id"] for a in queue.json()["data"]] == [agent_id]


async def test_admin_override_survives_developer_edits_and_hides(
    client: httpx2.AsyncClient, agents_server: LoopbackAgents, make_user: MakeUser, admin: TestUser
) -> None:
    developer = await make_user()
    agent_id = await _approved_agent(client, agents_server.serve(echo()), developer, admin)
    override = await client.patch(
        f"/v1/admin/agents/{agent_id}/override",
        json={"name": "Curated", "image": "https://example.com/logo.png"},
        headers=admin.bearer_headers,
    )
    assert override.status_code == 200, override.text
    await client.patch(
        f"/v1/developer/agents/{agent_id}", json={"name": "Mine"}, headers=developer.bearer_headers
    )
    mine = await client.get(f"/v1/developer/agents/{agent_id}", headers=developer.bearer_headers)
    data = mine.json()["data"]
    assert data["name"] == "Mine"  # what the developer submitted …
    assert data["published"]["name"] == "Curated"  # … and what the catalogue shows
    assert data["published"]["overridden"] == ["image", "name"]
    assert (await _listed(client))[agent_id]["name"] == "Curated"

    await client.patch(
        f"/v1/admin/agents/{agent_id}/override",
        json={"hidden": True, "name": None},
        headers=admin.bearer_headers,
    )
    assert agent_id not in await _listed(client)
    await client.patch(
        f"/v1/admin/agents/{agent_id}/override", json={"hidden": None}, headers=admin.bearer_headers
    )
    assert (await _listed(client))[agent_id]["name"] == "Mine"


async def test_withdraw(
    client: httpx2.AsyncClient, agents_server: LoopbackAgents, make_user: MakeUser, admin: TestUser
) -> None:
    developer = await make_user()
    agent_id = await _approved_agent(client, agents_server.serve(echo()), developer, admin)
    gone = await client.delete(f"/v1/developer/agents/{agent_id}", headers=developer.bearer_headers)
    assert gone.status_code == 200
    assert gone.json()["data"]["status"] == "REVOKED"
    assert gone.json()["data"]["withdrawnAt"] is not None
    assert agent_id not in await _listed(client)
    edit = await client.patch(
        f"/v1/developer/agents/{agent_id}", json={"name": "x"}, headers=developer.bearer_headers
    )
    assert edit.status_code == 409
    stats = await client.get(
        f"/v1/developer/agents/{agent_id}/stats", headers=developer.bearer_headers
    )
    assert stats.json()["data"]["review"]["state"] == "withdrawn"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"baseUrl": "file:///etc/passwd"}, "baseUrl"),
        ({"baseUrl": "ftp://example.com/agent"}, "baseUrl"),
        ({"categories": ["no-such-category"]}, "categories"),
        (
            {"exampleOutputs": [{"name": "x", "mimeType": "text/plain", "url": "javascript:1"}]},
            "exampleOutputs.0.url",
        ),
        ({"exampleOutputs": [{"name": "x", "mimeType": "nope", "url": "https://e.com"}]}, None),
        ({"price": -1}, "price"),
        ({"tags": ["x" * 51]}, None),
        ({"name": "   "}, "name"),
        ({"legal": {"terms": "not a url"}}, "legal.terms"),
    ],
)
async def test_invalid_submissions_are_400_naming_the_field(
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    db: Database,
    change: dict[str, Any],
    field: str | None,
) -> None:
    await make_categories(db, "text")
    developer = await make_user()
    body = submission(agents_server.serve(echo()), **{"categories": ["text"], **change})
    response = await client.post(
        "/v1/developer/agents", json=body, headers=developer.bearer_headers
    )
    assert response.status_code == 400, response.text
    details = response.json()["details"]
    if field is not None:
        assert details[0]["field"] == field
    mine = await client.get("/v1/developer/agents", headers=developer.bearer_headers)
    assert mine.json()["data"] == []


async def test_valid_categories_and_admin_only_review(
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    db: Database,
) -> None:
    await make_categories(db, "text", "code")
    developer = await make_user()
    created = await client.post(
        "/v1/developer/agents",
        json=submission(agents_server.serve(echo()), categories=["code", "text"]),
        headers=developer.bearer_headers,
    )
    assert created.json()["data"]["categories"] == ["code", "text"]
    agent_id = created.json()["data"]["id"]
    for method, path in [
        ("GET", "/v1/admin/agents"),
        ("POST", f"/v1/admin/agents/{agent_id}/approve"),
    ]:
        response = await client.request(method, path, headers=developer.bearer_headers)
        assert response.status_code == 404, (method, path)
    assert (await client.get("/v1/developer/agents")).status_code == 401
