"""An agent submitted in an organization's workspace belongs to the organization: its members see
and edit it there; outsiders get 404."""

from __future__ import annotations

import httpx2

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from tests.conftest import MakeUser
from tests.developer.conftest import submission
from tests.jobs.helpers import echo
from tests.support.agents import LoopbackAgents


async def test_organization_members_share_their_agents(
    client: httpx2.AsyncClient, db: Database, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    owner, member, outsider = await make_user(), await make_user(), await make_user()
    async with db.transaction() as session:
        owner_row = await identity_repo.user_by_id(session, owner.user_id)
        member_row = await identity_repo.user_by_id(session, member.user_id)
        assert owner_row is not None and member_row is not None
        org, _ = await identity.create_organization(
            session, slug="agentsmiths", name="Agentsmiths", owner=owner_row
        )
        await identity.add_member(session, org=org, user=member_row)
    in_org = {"X-Organization-Slug": "agentsmiths"}

    created = await client.post(
        "/v1/developer/agents",
        json=submission(agents_server.serve(echo())),
        headers={**owner.bearer_headers, **in_org},
    )
    assert created.status_code == 201, created.text
    path = f"/v1/developer/agents/{created.json()['data']['id']}"

    # A member, acting in the organization's workspace, sees and edits it …
    seen = await client.get(path, headers={**member.bearer_headers, **in_org})
    assert seen.status_code == 200
    edited = await client.patch(
        path, json={"description": "Team edit"}, headers={**member.bearer_headers, **in_org}
    )
    assert edited.json()["data"]["description"] == "Team edit"
    # … but not from their personal workspace; the submitter always does.
    assert (await client.get(path, headers=member.bearer_headers)).status_code == 404
    assert (await client.get(path, headers=owner.bearer_headers)).status_code == 200
    # An outsider: 404 (and 403 when claiming the organization).
    assert (await client.get(path, headers=outsider.bearer_headers)).status_code == 404
    claimed = await client.get(path, headers={**outsider.bearer_headers, **in_org})
    assert claimed.status_code == 403
