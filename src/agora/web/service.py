"""What the pages need beyond the other domains' services: the workspace switcher, agent names."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import repository as agents_repo
from agora.auth.principal import Principal
from agora.identity import repository as identity_repo
from agora.organizations import repository as org_repo


@dataclass(frozen=True)
class WorkspaceChoice:
    id: uuid.UUID
    label: str
    current: bool


async def workspaces(session: AsyncSession, principal: Principal) -> list[WorkspaceChoice]:
    """The signed-in person's workspaces: the personal one, then their organizations'."""
    out = []
    personal = await identity_repo.personal_workspace(session, principal.user_id)
    if personal is not None:
        out.append(WorkspaceChoice(personal.id, "Personal", personal.id == principal.workspace_id))
    for org in await org_repo.memberships_of(session, principal.user_id):
        wid = org["workspace_id"]
        out.append(WorkspaceChoice(wid, str(org["name"]), wid == principal.workspace_id))
    return out


async def agent_names(session: AsyncSession, agent_ids: list[uuid.UUID]) -> dict[uuid.UUID, str]:
    """The names of the agents of a page of jobs (one query)."""
    return await agents_repo.names(session, sorted(set(agent_ids)))
