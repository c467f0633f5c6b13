"""Who is calling, and in which workspace."""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass, field

from agora.kit.errors import Forbidden
from agora.models.statuses import KeyKind


class Permission(enum.StrEnum):
    READ = "read"  # catalogue, history, projects, jobs of the workspace
    JOBS_WRITE = "jobs:write"  # create, answer, cancel jobs (spends credits)
    PROJECTS_WRITE = "projects:write"  # projects, tasks, conversations
    PROFILE_WRITE = "profile:write"  # change the user profile
    ADMIN = "admin"  # operate the catalogue


# User keys may do everything a user does; coworker keys read, plus what they were granted;
# admin keys do everything, including operating the catalogue.
_USER_PERMISSIONS = frozenset(
    {Permission.READ, Permission.JOBS_WRITE, Permission.PROJECTS_WRITE, Permission.PROFILE_WRITE}
)


@dataclass(frozen=True)
class Principal:
    user_id: uuid.UUID
    key_id: uuid.UUID
    key_kind: str
    workspace_id: uuid.UUID
    organization_id: uuid.UUID | None
    scopes: frozenset[str] = field(default_factory=frozenset)
    # A browser session (then ``key_id`` is the session's id and ``key_kind`` is "user").
    session_id: uuid.UUID | None = None
    # The caller's role in the workspace's organization, and what that role allows there
    # (auth/roles.py); None in a personal workspace.
    org_role: str | None = None
    role_limit: frozenset[str] | None = None
    # An OAuth access token's grant (then ``key_id`` is the grant's id too; oauth/).
    oauth_grant_id: uuid.UUID | None = None

    @property
    def permissions(self) -> frozenset[str]:
        if self.key_kind == KeyKind.ADMIN:
            return frozenset(Permission) | self.scopes
        # Never admin through a scope (keys stored before scopes were validated included).
        granted = self.scopes - {Permission.ADMIN}
        if self.key_kind == KeyKind.USER:
            # A user key that lists user permissions is limited to them (POST /v1/api-keys
            # with scopes); one that lists none may do everything a user does.
            permissions = (granted & _USER_PERMISSIONS) or _USER_PERMISSIONS
            permissions = permissions | granted
        else:
            permissions = frozenset({Permission.READ}) | granted
        if self.role_limit is not None:
            permissions = permissions & self.role_limit
        elif self.organization_id is not None:
            # An organization's workspace without a role there: nothing (never "no limit").
            return frozenset()
        return permissions

    def can(self, permission: Permission) -> bool:
        return permission in self.permissions

    def require(self, permission: Permission) -> None:
        if not self.can(permission):
            raise Forbidden(f"This {self.key_kind} key lacks the '{permission}' permission")


COWORKER_SCOPE_PREFIX = "coworker:"


def coworker_scope(coworker_id: uuid.UUID) -> str:
    """The scope that binds a coworker key to its coworker (docs/coworkers.md)."""
    return f"{COWORKER_SCOPE_PREFIX}{coworker_id}"


def coworker_of(principal: Principal) -> uuid.UUID | None:
    """The coworker a coworker key acts as, or None for any other key."""
    if principal.key_kind != KeyKind.COWORKER:
        return None
    for scope in principal.scopes:
        if scope.startswith(COWORKER_SCOPE_PREFIX):
            try:
                return uuid.UUID(scope[len(COWORKER_SCOPE_PREFIX) :])
            except ValueError:
                return None
    return None
