"""GET /v1/credits: the current workspace's balance and recent ledger entries."""

from __future__ import annotations

import httpx2

from agora.credits import ledger
from agora.kit.db import Database
from agora.kit.money import to_base
from tests.conftest import MakeUser


async def test_balance_and_entries_newest_first(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user(credits=to_base("12.5"))
    async with db.transaction() as session:
        await ledger.grant(
            session, workspace_id=user.workspace_id, amount=to_base("0.25"), memo="bonus"
        )
    response = await client.get("/v1/credits", headers=user.key_headers)
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["workspaceId"] == str(user.workspace_id)
    assert (data["balance"], data["held"]) == (12.75, 0)
    assert [(e["kind"], e["amount"], e["balanceAfter"], e["memo"]) for e in data["entries"]] == [
        ("grant", 0.25, 12.75, "bonus"),
        ("grant", 12.5, 12.5, "grant"),
    ]
    one = await client.get("/v1/credits?limit=1", headers=user.bearer_headers)
    assert len(one.json()["data"]["entries"]) == 1
    bad = await client.get("/v1/credits?limit=0", headers=user.key_headers)
    assert bad.status_code == 400
    assert bad.json()["code"] == "400"
    assert (await client.get("/v1/credits")).status_code == 401


async def test_an_empty_account(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    user = await make_user()
    data = (await client.get("/v1/credits", headers=user.key_headers)).json()["data"]
    assert (data["balance"], data["held"], data["entries"]) == (0, 0, [])
