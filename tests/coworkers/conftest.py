"""Coworker and workflow fixtures: an admin, and a team (two members of one organization's
workspace, each with a user key bound to it, credits on the shared account)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.credits import ledger
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import fast_settings


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return fast_settings(settings)


@dataclass(frozen=True)
class Team:
    alice: TestUser
    bob: TestUser
    organization_id: str


@pytest.fixture
async def team(db: Database, make_user: MakeUser) -> Team:
    """Alice owns organization "acme"; Bob is a member; both keys default to its workspace."""
    alice, bob = await make_user(name="Alice"), await make_user(name="Bob")
    members = []
    async with db.transaction() as session:
        alice_row = await identity_repo.user_by_id(session, alice.user_id)
        bob_row = await identity_repo.user_by_id(session, bob.user_id)
        assert alice_row is not None
        assert bob_row is not None
        org, workspace = await identity.create_organization(
            session, slug="acme", name="Acme", owner=alice_row
        )
        await identity.add_member(session, org=org, user=bob_row)
        await ledger.grant(session, workspace_id=workspace.id, amount=to_base(20))
        for who, row in ((alice, alice_row), (bob, bob_row)):
            key = await identity.create_key(session, user=row, workspace=workspace)
            members.append(TestUser(who.user_id, workspace.id, who.email, key.plaintext))
    return Team(members[0], members[1], str(org.id))
