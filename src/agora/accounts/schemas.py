"""Accounts API models. Responses read rows (``from_attributes``), camelCase on the wire."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pydantic import Field

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Schema, UtcDateTime

# Bodies


class SignUpIn(ApiModel):
    email: str = Field(max_length=320)
    password: str = Field(max_length=1024)
    name: str = Field(max_length=200)


class SignInIn(ApiModel):
    email: str = Field(max_length=320)
    password: str = Field(max_length=1024)


class EmailIn(ApiModel):
    email: str = Field(max_length=320)


class TokenIn(ApiModel):
    token: str = Field(max_length=200)


class PasswordResetIn(ApiModel):
    token: str = Field(max_length=200)
    password: str = Field(max_length=1024)


class PasswordIn(ApiModel):
    password: str = Field(max_length=1024)


class PasswordChangeIn(ApiModel):
    currentPassword: str = Field(max_length=1024)
    newPassword: str = Field(max_length=1024)


class WorkspaceSwitchIn(ApiModel):
    workspaceId: str = Field(max_length=100)


class ApiKeyIn(ApiModel):
    name: str = Field(max_length=200)
    expiresAt: datetime | None = None
    scopes: list[str] | None = Field(default=None, max_length=10)
    workspaceId: str | None = Field(default=None, max_length=100)


# Responses


class AccountOut(Schema):
    id: uuid.UUID
    email: str
    name: str
    email_verified_at: UtcDateTime | None
    created_at: UtcDateTime


class SessionOut(Schema):
    id: uuid.UUID
    method: str
    user_agent: str
    client_address: str
    workspace_id: uuid.UUID | None
    created_at: UtcDateTime
    last_seen_at: UtcDateTime | None
    expires_at: UtcDateTime
    current: bool = False


class IdentityOut(Schema):
    """A provider linked to the account (docs/accounts.md, "Identity providers")."""

    id: uuid.UUID
    provider: str
    issuer: str
    subject: str
    email: str | None
    email_verified: bool
    created_at: UtcDateTime
    last_used_at: UtcDateTime | None


class SignedInOut(Schema):
    user: AccountOut
    session: SessionOut
    csrf_token: str


class MessageOut(Schema):
    message: str


class PasswordRulesOut(Schema):
    min_length: int
    max_length: int
    rules: list[str]


class ApiKeyOut(Schema):
    id: uuid.UUID
    name: str
    kind: str
    prefix: str
    scopes: list[str]
    default_workspace_id: uuid.UUID
    created_at: UtcDateTime
    last_used_at: UtcDateTime | None
    expires_at: UtcDateTime | None
    revoked_at: UtcDateTime | None


class CreatedApiKeyOut(ApiKeyOut):
    key: str = Field(description="The secret, shown only in this response")


# Passkeys (accounts/passkeys.py). ``credential``: the browser's PublicKeyCredential as JSON
# (``id``, ``rawId``, ``type``, ``response`` with base64url fields), checked by the webauthn
# library.


class PasskeyIn(ApiModel):
    name: str = Field(default="", max_length=100)
    credential: dict[str, Any] = Field(max_length=20)


class PasskeyNameIn(ApiModel):
    name: str = Field(max_length=100)


class PasskeyAssertionIn(ApiModel):
    credential: dict[str, Any] = Field(max_length=20)


class SecondStepIn(ApiModel):
    enabled: bool


class PasskeyOut(Schema):
    id: uuid.UUID
    name: str
    aaguid: str
    backed_up: bool
    created_at: UtcDateTime
    last_used_at: UtcDateTime | None


class WebAuthnOptionsOut(Schema):
    public_key: dict[str, Any] = Field(
        description="The options of navigator.credentials.create / get, binary fields base64url"
    )


class SecondStepOut(Schema):
    enabled: bool
    passkeys: int
    unused_recovery_codes: int
    recovery_codes: list[str] = Field(
        default_factory=list, description="A new set of codes, shown only in this response"
    )


class RecoveryCodesOut(Schema):
    recovery_codes: list[str] = Field(description="Shown only in this response; each works once")
