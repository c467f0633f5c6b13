from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from agora.accounts.schemas import ApiKeyOut
from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Schema, UtcDateTime

Role = Literal["owner", "admin", "member"]


class OrganizationIn(ApiModel):
    name: str = Field(max_length=200)
    slug: str | None = Field(default=None, max_length=100)


class RoleIn(ApiModel):
    role: Role


class InvitationIn(ApiModel):
    email: str | None = Field(default=None, max_length=320)
    role: Role = "member"
    maxUses: int | None = Field(default=None, ge=1, le=1000)
    expiresInDays: float | None = Field(default=None, gt=0, le=30)


class InvitationTokenIn(ApiModel):
    token: str = Field(max_length=200)


class OrganizationOut(Schema):
    id: uuid.UUID
    slug: str
    name: str
    workspace_id: uuid.UUID
    role: str
    created_at: UtcDateTime


class MemberOut(Schema):
    user_id: uuid.UUID
    name: str
    email: str
    role: str
    joined_at: UtcDateTime


class InvitationOut(Schema):
    id: uuid.UUID
    organization_id: uuid.UUID
    email: str | None
    role: str
    max_uses: int
    uses: int
    created_at: UtcDateTime
    expires_at: UtcDateTime
    revoked_at: UtcDateTime | None


class CreatedInvitationOut(InvitationOut):
    token: str = Field(description="The invitation secret, shown only in this response")
    url: str = Field(description="The shareable link (contains the token)")


class OrganizationKeyOut(ApiKeyOut):
    """A key bound to the organization's workspace, with the member who owns it."""

    user_id: uuid.UUID
    user_email: str
    user_name: str
