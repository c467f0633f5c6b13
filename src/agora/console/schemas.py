"""The console's API bodies and responses (read from rows; amounts in display credits)."""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import Field, field_validator

from agora.kit.envelopes import ApiModel
from agora.kit.money import to_display
from agora.kit.schemas import Schema, UtcDateTime


class AdminUserOut(Schema):
    id: uuid.UUID
    email: str
    name: str
    email_verified_at: UtcDateTime | None
    suspended_at: UtcDateTime | None
    created_at: UtcDateTime


class AdminWorkspaceOut(Schema):
    id: uuid.UUID
    name: str
    kind: str
    organization_id: uuid.UUID | None
    balance: float
    held: float

    @field_validator("balance", "held", mode="before")
    @classmethod
    def _credits(cls, value: Any) -> Any:
        return to_display(value) if isinstance(value, int) else value


class AdminKeyOut(Schema):
    """A key without its secret (the prefix is what the owner sees too)."""

    id: uuid.UUID
    name: str
    kind: str
    prefix: str
    default_workspace_id: uuid.UUID
    created_at: UtcDateTime
    last_used_at: UtcDateTime | None
    expires_at: UtcDateTime | None
    revoked_at: UtcDateTime | None


class AdminSessionOut(Schema):
    id: uuid.UUID
    method: str
    user_agent: str
    client_address: str
    created_at: UtcDateTime
    last_seen_at: UtcDateTime | None
    expires_at: UtcDateTime
    revoked_at: UtcDateTime | None


class AdminJobOut(Schema):
    id: uuid.UUID
    agent_id: uuid.UUID
    workspace_id: uuid.UUID
    name: str
    status: str
    price: float
    created_at: UtcDateTime

    @field_validator("price", mode="before")
    @classmethod
    def _credits(cls, value: Any) -> Any:
        return to_display(value) if isinstance(value, int) else value


class AdminLedgerOut(Schema):
    workspace_id: uuid.UUID
    kind: str
    amount: float
    balance_after: float
    memo: str
    created_at: UtcDateTime

    @field_validator("amount", "balance_after", mode="before")
    @classmethod
    def _credits(cls, value: Any) -> Any:
        return to_display(value) if isinstance(value, int) else value


class AdminUserDetailOut(Schema):
    user: AdminUserOut
    workspaces: list[AdminWorkspaceOut]
    keys: list[AdminKeyOut]
    sessions: list[AdminSessionOut]
    jobs: list[AdminJobOut]
    ledger: list[AdminLedgerOut]


class SuspendIn(ApiModel):
    reason: str = Field(min_length=1, max_length=500, description="Why (kept in the audit log)")


class SuspensionOut(Schema):
    user: AdminUserOut
    sessions: int = Field(description="Sessions revoked")
    keys: int = Field(description="API keys revoked")
    jobs_cancelled: int = Field(description="Unfinished jobs cancelled and refunded")
    jobs_left: int = Field(description="Jobs running on a payment node, left to its refund flow")


class GrantIn(ApiModel):
    amount: float | int | str = Field(description="Credits, in display units")
    reason: str = Field(min_length=1, max_length=400, description="Why (e.g. a ticket)")
    workspace_id: str | None = Field(
        default=None, alias="workspaceId", description="Default: the user's personal workspace"
    )


class GrantOut(Schema):
    user_id: uuid.UUID
    workspace_id: uuid.UUID
    amount: float
    balance: float


class AgentFailuresOut(Schema):
    agent_id: str
    name: str
    jobs: int
    failed: int
    failure_rate: float


class DashboardOut(Schema):
    since: UtcDateTime
    jobs_per_status: dict[str, int]
    agents: list[AgentFailuresOut]
    dispatch_lag_seconds: float
    open_refunds: int
    open_disputes: int
    pending_reviews: int
    quarantined: int
    failed_deliveries: dict[str, int]
