"""Developer listing bodies (camelCase, unknown fields rejected) and responses (read from rows)."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import Path
from pydantic import Field

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Credits, Schema, UtcDateTime

MAX_TAGS = 15
MAX_CATEGORIES = 10
MAX_EXAMPLE_OUTPUTS = 25

# The developer routes' path parameter. Ids stay ``str`` in the path: a malformed id answers the
# same 404 as an unknown one (ids are opaque), which a ``UUID`` path type would turn into a 400.
AgentId = Annotated[str, Path(alias="agentId")]


# ---- bodies ---------------------------------------------------------------------------------


class ExampleOutputIn(ApiModel):
    name: str = Field(min_length=1, max_length=200)
    mimeType: str = Field(min_length=3, max_length=200, pattern=r"^[\w.+-]+/[\w.+-]+$")
    url: str = Field(min_length=1, max_length=2000)


class AuthorIn(ApiModel):
    name: str = Field(min_length=1, max_length=200)
    contactEmail: str | None = Field(default=None, max_length=320)
    organization: str | None = Field(default=None, max_length=200)
    website: str | None = Field(default=None, max_length=2000)


class LegalIn(ApiModel):
    privacyPolicy: str | None = Field(default=None, max_length=2000)
    terms: str | None = Field(default=None, max_length=2000)
    other: str | None = Field(default=None, max_length=2000)


class AgentSubmission(ApiModel):
    baseUrl: str = Field(min_length=1, max_length=2000)
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=10_000)
    tags: list[Annotated[str, Field(max_length=50)]] = Field(
        default_factory=list, max_length=MAX_TAGS
    )
    categories: list[str] = Field(default_factory=list, max_length=MAX_CATEGORIES)
    exampleOutputs: list[ExampleOutputIn] = Field(
        default_factory=list, max_length=MAX_EXAMPLE_OUTPUTS
    )
    author: AuthorIn | None = None
    legal: LegalIn | None = None
    image: str | None = Field(default=None, max_length=2000)
    price: float | int | str = Field(
        default=0,
        description="Base price in credits per job (the marketplace fee is added); 0 = free",
    )
    changelog: str | None = Field(
        default=None, max_length=2000, description="What version 1 is (shown in its changelog)"
    )


class A2aAgentSubmission(ApiModel):
    """An A2A agent submitted by its Agent Card (docs/a2a.md): name and description default to
    the card's; ``credential`` (optional) is what Agora sends the agent (an API key in the
    card's API-key header, else a bearer token), sealed at rest and never shown."""

    agentCardUrl: str = Field(min_length=1, max_length=2000)
    credential: str | None = Field(default=None, min_length=1, max_length=4000)
    name: str | None = Field(default=None, min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=10_000)
    tags: list[Annotated[str, Field(max_length=50)]] = Field(
        default_factory=list, max_length=MAX_TAGS
    )
    categories: list[str] = Field(default_factory=list, max_length=MAX_CATEGORIES)
    author: AuthorIn | None = None
    legal: LegalIn | None = None
    image: str | None = Field(default=None, max_length=2000)
    price: float | int | str = Field(
        default=0,
        description="Base price in credits per job (the marketplace fee is added); 0 = free",
    )


class AgentUpdate(ApiModel):
    """PATCH: only the fields sent change. A new baseUrl or price of a verified agent sends it
    back to review; text edits do not."""

    baseUrl: str | None = Field(default=None, min_length=1, max_length=2000)
    name: str | None = Field(default=None, min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=10_000)
    tags: list[Annotated[str, Field(max_length=50)]] | None = Field(
        default=None, max_length=MAX_TAGS
    )
    categories: list[str] | None = Field(default=None, max_length=MAX_CATEGORIES)
    exampleOutputs: list[ExampleOutputIn] | None = Field(
        default=None, max_length=MAX_EXAMPLE_OUTPUTS
    )
    author: AuthorIn | None = None
    legal: LegalIn | None = None
    image: str | None = Field(default=None, max_length=2000)
    price: float | int | str | None = None
    changelog: str | None = Field(
        default=None,
        max_length=2000,
        description="What the change of baseUrl, schema or price brings: the next version's "
        "changelog once approved",
    )


class ReviewDecision(ApiModel):
    reason: str = Field(default="", max_length=2000, description="Shown to the developer")


class RejectDecision(ApiModel):
    reason: str = Field(min_length=1, max_length=2000, description="Shown to the developer")


class AdminOverride(ApiModel):
    """Fields an admin fixes on the published listing. ``null`` removes that override."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=10_000)
    tags: list[Annotated[str, Field(max_length=50)]] | None = Field(
        default=None, max_length=MAX_TAGS
    )
    image: str | None = Field(default=None, max_length=2000)
    hidden: bool | None = None


# ---- responses ------------------------------------------------------------------------------


class PriceOut(Schema):
    credits: Credits
    included_fee: Credits


class ExampleOutputOut(Schema):
    name: str
    mime_type: str
    url: str


class AuthorOut(Schema):
    name: str
    contact_email: str | None = None
    organization: str | None = None
    website: str | None = None


class LegalOut(Schema):
    privacy_policy: str | None = None
    terms: str | None = None
    other: str | None = None


class ReviewOut(Schema):
    state: str | None
    note: str | None
    reviewed_at: UtcDateTime | None


class PublishedOut(Schema):
    """What the catalogue shows: the submission with the admin's overrides applied."""

    name: str
    description: str
    tags: list[str]
    image: str | None
    is_shown: bool
    overridden: list[str]


class DeveloperAgentOut(Schema):
    id: uuid.UUID
    created_at: UtcDateTime
    updated_at: UtcDateTime
    status: str
    source: str
    review: ReviewOut
    base_url: str
    name: str
    description: str
    tags: list[str]
    categories: list[str]
    example_outputs: list[ExampleOutputOut]
    author: AuthorOut | None
    legal: LegalOut | None
    image: str | None
    pricing_type: str
    price: PriceOut
    agent_identifier: str | None
    withdrawn_at: UtcDateTime | None
    published: PublishedOut


class AdminAgentOut(DeveloperAgentOut):
    owner_user_id: uuid.UUID | None
    owner_organization_id: uuid.UUID | None
    admin_override: dict[str, Any]


class CheckOut(Schema):
    checked_at: UtcDateTime
    kind: str
    available: bool
    message: str | None


class AvailabilityOut(Schema):
    checks: list[CheckOut]
    uptime: float | None = Field(description="Share of the listed checks that found it available")


class JobCountsOut(Schema):
    total: int
    completed: int
    failed: int
    cancelled: int
    active: int


class ErrorSeenOut(Schema):
    job_id: uuid.UUID
    at: UtcDateTime
    agent_job_status: str | None
    error: str


class DeveloperStatsOut(Schema):
    agent_id: uuid.UUID
    status: str
    review: ReviewOut
    availability: AvailabilityOut
    jobs: JobCountsOut
    failure_rate: float | None = Field(description="failed / (completed + failed)")
    p50_duration_seconds: float | None
    credits_earned: Credits = Field(description="Net of the marketplace fee and refunds")
    last_errors: list[ErrorSeenOut]


# ---- earnings (docs/billing.md, "Paying sellers") -----------------------------------------


class EarningsBalanceOut(Schema):
    currency: str
    pending: int = Field(description="Held back (minor units): not yet past the holdback")
    payable: int = Field(
        description="Past the holdback, less what was paid out (minor units); negative after a "
        "refund of earnings already paid out"
    )
    total: int = Field(description="pending + payable (minor units)")
    display_pending: str
    display_payable: str
    credits: Credits = Field(description="The same earnings in credits (net of refunds)")
    pending_credits: Credits
    paid_out: int = Field(description="Minor units paid out (pending or paid payouts)")


class EarningsAgentOut(Schema):
    agent_id: uuid.UUID | None
    name: str
    currency: str
    pending: int
    payable: int
    total: int
    credits: Credits
    pending_credits: Credits


class PayoutOut(Schema):
    id: uuid.UUID
    period: str = Field(description="The month (UTC, YYYY-MM) of the run that made it")
    currency: str
    amount: int = Field(description="Minor units transferred")
    amount_reversed: int = Field(description="Minor units Stripe reversed (back in the balance)")
    status: str = Field(description="pending | paid | failed | reversed")
    attempt: int = Field(description="The period's try (a failed one is tried again)")
    stripe_transfer_id: str | None
    failure: str | None = Field(description="Why Stripe refused it")
    created_at: UtcDateTime


class PayoutAccountOut(Schema):
    connected: bool
    stripe_account_id: str | None
    details_submitted: bool
    payouts_enabled: bool
    requirements_due: list[str] = Field(description="Stripe's requirements currently due")
    disabled_reason: str | None = Field(description="Stripe's requirements.disabled_reason")
    state: str = Field(description="not_connected | onboarding | restricted | ready")
    words: str = Field(description="The state in words, with why it cannot be paid")


class EarningsOut(Schema):
    currency: str = Field(description="The payout currency now in force")
    credit_value: int = Field(description="Minor units of the currency one credit is worth now")
    holdback_days: float
    balances: list[EarningsBalanceOut] = Field(description="Per currency")
    agents: list[EarningsAgentOut]
    payouts: list[PayoutOut] = Field(description="Payouts made, newest first (at most 24)")
    payout_account: PayoutAccountOut = Field(description="The Stripe account paid, if any")


class StatementLineOut(Schema):
    agent_id: uuid.UUID | None
    name: str
    currency: str
    jobs: int = Field(description="Captured jobs earned on")
    refunded_jobs: int
    earned: int = Field(description="Minor units")
    refunded: int = Field(description="Minor units, zero or negative")
    fees: Credits = Field(description="The marketplace fees kept on these jobs, in credits")
    earned_credits: Credits
    refunded_credits: Credits
    net: int = Field(description="earned + refunded (minor units)")
    payouts: int | None = Field(
        description="Payouts are per account, not per agent: always empty (see `payouts`)"
    )


class StatementOut(Schema):
    period: str
    lines: list[StatementLineOut]
    payouts: list[PayoutOut] = Field(description="The payouts made this month, oldest first")
    truncated: bool = Field(description="More entries than one statement shows (10,000)")
