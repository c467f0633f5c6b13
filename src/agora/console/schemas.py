"""The console's API bodies and responses (read from rows; amounts in display credits)."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Self

from pydantic import BeforeValidator, Field, field_validator

from agora.audit.schemas import AuditEventOut
from agora.console.jobs import JobDetail
from agora.kit.envelopes import ApiModel
from agora.kit.money import to_display
from agora.kit.schemas import Schema, UtcDateTime
from agora.models import Job


def _display(value: Any) -> Any:
    return to_display(value) if isinstance(value, int) else value


# An amount read in base units (a row's integer column), shown in display credits (a float).
DisplayCredits = Annotated[float, BeforeValidator(_display)]


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
    balance: DisplayCredits
    held: DisplayCredits


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
    price: DisplayCredits
    created_at: UtcDateTime


class AdminLedgerOut(Schema):
    workspace_id: uuid.UUID
    kind: str
    amount: DisplayCredits
    balance_after: DisplayCredits
    memo: str
    created_at: UtcDateTime


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


class RefundIn(ApiModel):
    reason: str = Field(min_length=1, max_length=400, description="Why (e.g. a ticket)")


class GrantOut(Schema):
    user_id: uuid.UUID
    workspace_id: uuid.UUID
    amount: DisplayCredits
    balance: DisplayCredits


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


class AdminOrganizationOut(Schema):
    id: uuid.UUID
    slug: str
    name: str
    suspended_at: UtcDateTime | None
    suspension_reason: str | None
    created_at: UtcDateTime


class AdminMemberOut(Schema):
    user: AdminUserOut
    role: str
    joined_at: UtcDateTime


class AdminCapOut(Schema):
    """A monthly spending cap of the workspace: per member (``userId``) or per project."""

    id: uuid.UUID
    user_id: uuid.UUID | None
    project_id: uuid.UUID | None
    monthly_limit: DisplayCredits
    period: str
    spent: DisplayCredits


class AdminOrganizationDetailOut(Schema):
    organization: AdminOrganizationOut
    workspace: AdminWorkspaceOut | None
    members: list[AdminMemberOut]
    caps: list[AdminCapOut]
    jobs: list[AdminJobOut]
    events: list[AuditEventOut] = Field(description="Its latest audit rows")


class OrgSuspensionOut(Schema):
    organization: AdminOrganizationOut
    jobs_cancelled: int = Field(description="Unfinished jobs cancelled and refunded")
    jobs_left: int = Field(description="Jobs running on a payment node, left to its refund flow")


class AdminListedJobOut(AdminJobOut):
    user_id: uuid.UUID
    agent_name: str
    dispatch_state: str

    @classmethod
    def of(cls, job: Job, agent_name: str) -> Self:
        """The job row's fields with its agent's name."""
        fields = {name: getattr(job, name) for name in cls.model_fields if name != "agent_name"}
        return cls.model_validate({**fields, "agent_name": agent_name})


class AdminJobFullOut(AdminListedJobOut):
    organization_id: uuid.UUID | None
    job_type: str
    error: str | None
    agent_job_id: str | None
    agent_job_status: str | None
    attempts: int
    next_attempt_at: UtcDateTime | None
    deadline_at: UtcDateTime | None
    started_at: UtcDateTime | None
    completed_at: UtcDateTime | None
    fee: DisplayCredits
    refund: DisplayCredits


class AdminJobEventOut(Schema):
    type: str
    from_status: str | None
    to_status: str | None
    detail: dict[str, Any]
    created_at: UtcDateTime


class AdminDeliveryOut(Schema):
    channel: str
    event: str
    target: str = Field(description="Where to (a URL without its query string, or an address)")
    state: str
    attempts: int
    last_status_code: int | None
    last_error: str | None
    delivered_at: UtcDateTime | None
    created_at: UtcDateTime


class AdminFileOut(Schema):
    id: uuid.UUID
    origin: str
    name: str
    mime_type: str | None
    size: int | None
    state: str
    source_url: str | None = Field(description="Fetched from (without its query string)")
    created_at: UtcDateTime

    @field_validator("source_url", mode="before")
    @classmethod
    def _no_query(cls, value: Any) -> Any:
        return value.split("?", 1)[0] if isinstance(value, str) else value


class AdminJobDetailOut(Schema):
    job: AdminJobFullOut
    events: list[AdminJobEventOut] = Field(
        description="In order; calls to the agent (dispatch, status polls) are recorded here"
    )
    payment: dict[str, Any] = Field(description="backend, blockchainIdentifier, state …")
    ledger: list[AdminLedgerOut] = Field(description="The credits hold, capture, refund")
    deliveries: list[AdminDeliveryOut]
    files: list[AdminFileOut]

    @classmethod
    def of(cls, detail: JobDetail) -> AdminJobDetailOut:
        return cls.model_validate(
            {
                "job": AdminJobFullOut.of(detail.job, detail.agent.name),
                "events": detail.events,
                "payment": detail.payment,
                "ledger": detail.ledger,
                "deliveries": detail.deliveries,
                "files": detail.files,
            }
        )
