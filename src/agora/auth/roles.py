"""Organization roles: the ONE permission table (docs/accounts.md shows the same table).

| action                          | owner | admin | member |
|---------------------------------|-------|-------|--------|
| see the organization, members   |  yes  |  yes  |  yes   |
| manage its projects and tasks   |  yes  |  yes  |  yes   |
| spend its credits (create jobs) |  yes  |  yes  |  yes   |
| buy credits (Stripe)            |  yes  |  yes  |  no    |
| set spending caps               |  yes  |  no   |  no    |
| invite people, revoke invites   |  yes  |  yes  |  no    |
| remove members (not owners)     |  yes  |  yes  |  no    |
| list and revoke its API keys    |  yes  |  yes  |  no    |
| change roles, remove owners     |  yes  |  no   |  no    |
| delete the organization         |  yes  |  no   |  no    |

Anyone may leave, except the last owner. In an organization's workspace the role also bounds
what a credential may do on the existing routes (``ROLE_PERMISSIONS``). Members hire agents with
the organization's credits (the team's shared purse; the Sokosumi clients expect it); managing
people and the organization itself is for admins and owners.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from agora.auth.principal import Permission


class OrgAction(enum.StrEnum):
    VIEW = "view"
    MANAGE_PROJECTS = "manage_projects"
    SPEND_CREDITS = "spend_credits"
    BUY_CREDITS = "buy_credits"
    SET_CAPS = "set_caps"
    INVITE = "invite"
    REMOVE_MEMBERS = "remove_members"
    MANAGE_KEYS = "manage_keys"
    CHANGE_ROLES = "change_roles"
    DELETE = "delete"
    SET_SIGN_IN = "set_sign_in"  # require the domain's members to sign in through one provider


ROLES = ("owner", "admin", "member")

ROLE_ACTIONS: dict[str, frozenset[OrgAction]] = {
    "owner": frozenset(OrgAction),
    "admin": frozenset(
        {
            OrgAction.VIEW,
            OrgAction.MANAGE_PROJECTS,
            OrgAction.SPEND_CREDITS,
            OrgAction.BUY_CREDITS,
            OrgAction.INVITE,
            OrgAction.REMOVE_MEMBERS,
            OrgAction.MANAGE_KEYS,
        }
    ),
    "member": frozenset({OrgAction.VIEW, OrgAction.MANAGE_PROJECTS, OrgAction.SPEND_CREDITS}),
}

# Which API permissions each action stands for in the organization's workspace.
_ACTION_PERMISSIONS: dict[OrgAction, frozenset[Permission]] = {
    OrgAction.VIEW: frozenset({Permission.READ, Permission.PROFILE_WRITE}),
    OrgAction.MANAGE_PROJECTS: frozenset({Permission.PROJECTS_WRITE}),
    OrgAction.SPEND_CREDITS: frozenset({Permission.JOBS_WRITE}),
}

ROLE_PERMISSIONS: dict[str, frozenset[str]] = {
    role: frozenset(p for action in actions for p in _ACTION_PERMISSIONS.get(action, ()))
    for role, actions in ROLE_ACTIONS.items()
}


def role_allows(role: str | None, action: OrgAction) -> bool:
    return role is not None and action in ROLE_ACTIONS.get(role, frozenset())


def may_remove(role: str | None, target_role: str) -> bool:
    """Remove another member: admins and owners; an owner only by an owner."""
    if not role_allows(role, OrgAction.REMOVE_MEMBERS):
        return False
    return target_role != "owner" or role_allows(role, OrgAction.CHANGE_ROLES)


def may_invite_as(role: str | None, invited_role: str) -> bool:
    """Invite someone as ``invited_role``: admins and owners; as an owner only owners."""
    if not role_allows(role, OrgAction.INVITE):
        return False
    return invited_role != "owner" or role_allows(role, OrgAction.CHANGE_ROLES)


@dataclass(frozen=True)
class Allowed:
    """What one member may do, read from the table above: the web pages show an action only
    when ``Allowed`` says so, and the services refuse with the same functions
    (``role_allows``, ``may_remove``, ``may_invite_as``), so a page and the API never disagree."""

    role: str | None

    def to(self, action: OrgAction | str) -> bool:
        return role_allows(self.role, OrgAction(action))

    def remove(self, target_role: str) -> bool:
        return may_remove(self.role, target_role)

    @property
    def invite_roles(self) -> tuple[str, ...]:
        """The roles this member may invite people as (least first)."""
        return tuple(r for r in reversed(ROLES) if may_invite_as(self.role, r))
