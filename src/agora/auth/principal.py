"""Who is calling, and in which workspace."""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass, field

from agora.kit.errors import Forbidden


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

    @property
    def permissions(self) -> frozenset[str]:
        if self.key_kind == "admin":
            return frozenset(Permission) | self.scopes
        if self.key_kind == "user":
            return _USER_PERMISSIONS | self.scopes
        return frozenset({Permission.READ}) | self.scopes

    def can(self, permission: Permission) -> bool:
        return permission in self.permissions

    def require(self, permission: Permission) -> None:
        if not self.can(permission):
            raise Forbidden(f"This {self.key_kind} key lacks the '{permission}' permission")
