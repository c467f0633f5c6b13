"""The header's workspace switcher (every signed-in page, ``api.LAYOUT``) and the workspace choice
of the OAuth consent and device pages: the person's personal workspace, then their
organizations'."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth import service as auth
from agora.auth.principal import Principal


@dataclass(frozen=True)
class WorkspaceChoice:
    id: uuid.UUID
    label: str
    current: bool


async def workspaces(session: AsyncSession, principal: Principal) -> list[WorkspaceChoice]:
    """The signed-in person's workspaces: the personal one, then their organizations'."""
    out = []
    personal = await auth.personal_workspace(session, principal.user_id)
    if personal is not None:
        out.append(WorkspaceChoice(personal.id, "Personal", personal.id == principal.workspace_id))
    for org in await auth.memberships_of(session, principal.user_id):
        wid = org["workspace_id"]
        out.append(WorkspaceChoice(wid, str(org["name"]), wid == principal.workspace_id))
    return out
