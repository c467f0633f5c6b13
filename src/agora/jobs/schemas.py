"""API models of the job domain (key family: Envelope A)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from agora.agents.schemas import Price
from agora.kit.envelopes import ApiModel


class ShareUser(BaseModel):
    id: str
    name: str
    image: str | None


class ShareOrganization(BaseModel):
    id: str
    name: str
    slug: str
    logo: str | None


class ShareOut(BaseModel):
    createdAt: str
    updated: str
    url: str
    public: bool = Field(description="Anyone with the URL may view the job (no credentials).")
    user: ShareUser
    recipientOrganization: ShareOrganization | None


class JobOut(BaseModel):
    id: str
    createdAt: str
    updatedAt: str
    name: str
    status: str
    agentId: str
    userId: str
    organizationId: str | None
    agentJobId: str | None
    agentJobStatus: str | None
    onChainStatus: str | None
    input: str = Field(description="The job's inputData as a JSON string.")
    result: str | None
    error: str | None = Field(description="Why the job failed, when it did.")
    startedAt: str | None
    completedAt: str | None
    jobType: str = Field(description="FREE or PAID.")
    price: Price
    refund: Price
    share: ShareOut | None
    jobStatusSettled: bool
    projectId: str | None
    taskId: str | None


class Pagination(BaseModel):
    limit: int
    cursor: str | None = Field(description="The cursor this page was read from.")
    nextCursor: str | None = Field(description="Send as `cursor` for the next page; null at end.")
    hasMore: bool


class JobPage(BaseModel):
    """Envelope A with paging: `pagination` rides beside `data`."""

    success: bool = True
    data: list[JobOut]
    pagination: Pagination
    timestamp: str


class JobShareRequest(ApiModel):
    """Share the job: a public link (default) and/or a recipient organization."""

    public: bool = Field(default=True, description="Anyone with the link may view the job.")
    recipientOrganizationId: str | None = Field(default=None, max_length=100)
    recipientOrganizationSlug: str | None = Field(default=None, max_length=100)


class JobCreate(ApiModel):
    maxAcceptedCredits: float | None = Field(
        default=None, ge=0, description="Refuse (400) if the agent's price is above this."
    )
    maxCredits: float | None = Field(default=None, ge=0, description="Alias of maxAcceptedCredits.")
    inputData: dict[str, Any] | None = None
    inputSchema: Any = Field(default=None, description="Tolerated and ignored.")
    name: str | None = Field(default=None, max_length=500)
    jobShareRequest: JobShareRequest | None = None
    taskId: str | None = Field(default=None, max_length=100)


class JobInputs(ApiModel):
    inputData: dict[str, Any]
    statusId: str | None = Field(
        default=None, max_length=500, description="The input request answered (optional guard)."
    )


class JobEventOut(BaseModel):
    id: str
    type: str
    fromStatus: str | None
    toStatus: str | None
    detail: dict[str, Any]
    createdAt: str


class InputRequestOut(BaseModel):
    jobId: str
    statusId: str | None
    inputSchema: dict[str, Any]
    requestedAt: str | None


class SharedJobOut(BaseModel):
    id: str
    name: str
    status: str
    agentId: str
    agentName: str
    input: str
    result: str | None
    createdAt: str
    updatedAt: str
    completedAt: str | None
    share: ShareOut
