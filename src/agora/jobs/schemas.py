"""API models of the job domain (key family: Envelope A)."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from pydantic import BaseModel, Field, computed_field, field_validator

from agora.agents.schemas import Price, price_json
from agora.kit.envelopes import ApiModel, now_iso
from agora.kit.schemas import Schema, UtcDateTime, wire_credits
from agora.kit.wire import model_json
from agora.models.statuses import JobStatus, JobType


class ShareUser(Schema):
    """Read from a ``User`` row (the sharer)."""

    id: UUID
    name: str
    image: str | None


class ShareOrganization(Schema):
    """Read from an ``Organization`` row."""

    id: UUID
    name: str
    slug: str
    logo: str | None


class ShareOut(Schema):
    """Read from ``jobs.service.ShareView``."""

    created_at: UtcDateTime
    updated: UtcDateTime
    url: str
    public: bool = Field(description="Anyone with the URL may view the job (no credentials).")
    user: ShareUser
    recipient_organization: ShareOrganization | None


def _input_text(input_data: Any) -> str:
    return json.dumps(input_data or {}, ensure_ascii=False)


class JobOut(Schema):
    """Read from ``jobs.service.ShownJob`` (a ``Job`` row and its share)."""

    id: UUID
    created_at: UtcDateTime
    updated_at: UtcDateTime
    name: str
    status: JobStatus
    agent_id: UUID
    user_id: UUID
    organization_id: UUID | None
    agent_job_id: str | None
    agent_job_status: str | None
    on_chain_status: str | None
    input: str = Field(
        validation_alias="input_data", description="The job's inputData as a JSON string."
    )
    result: str | None = Field(
        description="The agent's result. In listings, at most the first 2000 characters "
        "(see resultTruncated); GET /v1/jobs/{id} returns it whole."
    )
    result_truncated: bool = Field(
        default=False, description="True when result is a listing's preview of a longer result."
    )
    error: str | None = Field(description="Why the job failed, when it did.")
    started_at: UtcDateTime | None
    completed_at: UtcDateTime | None
    job_type: JobType = Field(description="FREE or PAID.")
    charged: int = Field(validation_alias="price", exclude=True)
    fee: int = Field(exclude=True)
    refunded: int = Field(validation_alias="refund", exclude=True)
    refund_fee: int = Field(exclude=True)
    share: ShareOut | None
    job_status_settled: bool = Field(validation_alias="settled")
    project_id: UUID | None
    task_id: UUID | None
    output: str | None = Field(
        validation_alias="result",
        description="The result, as in result (Sokosumi clients read output).",
    )
    result_hash: str | None = Field(
        description="MIP-004 hash of the whole result (sha256 of identifierFromPurchaser;result), "
        "also when result is a listing's preview; for jobs paid through a payment node, the hash "
        "Agora computed and compared with the one the agent submitted on chain (see verified)."
    )
    result_submitted_at: UtcDateTime | None
    is_demo: bool = Field(description="Run by a built-in demo agent.")
    input_hash: str | None = Field(
        default=None,
        description="MIP-004 hash of the input (sha256 of identifierFromPurchaser;JCS(input)), "
        "as the agent reported it; checked against Agora's own for jobs paid through a node.",
    )
    verified: bool | None = Field(
        default=None,
        description="True when resultHash equals the hash the agent submitted on chain, false "
        "when they differ (the job's events say so); null when there is nothing to compare.",
    )
    agent_version: int | None = Field(
        default=None,
        description="The agent's version that runs the job (GET /v1/agents/{id}/versions); "
        "null for jobs made before versions.",
    )

    @field_validator("input", mode="before")
    @classmethod
    def _input(cls, input_data: Any) -> str:
        return _input_text(input_data)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def price(self) -> Price:
        return Price(credits=self.charged, included_fee=self.fee)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def refund(self) -> Price:
        return Price(credits=self.refunded, included_fee=self.refund_fee)

    @computed_field(description="Net spend: price minus refund, in credits.")  # type: ignore[prop-decorator]
    @property
    def credits(self) -> float:
        return wire_credits(self.charged - self.refunded)


def job_item(job: Any) -> dict[str, Any]:
    """``JobOut``'s JSON for a ``jobs.service.ShownJob``, written without the model
    (kit/wire.py): the view's own attributes, the rest from its row (read directly: a view's
    ``__getattr__`` costs a failed lookup first)."""
    row = job.row
    charged, fee, refunded = row.price, row.fee, row.refund
    result = job.result
    share = job.share
    return {
        "id": row.id,
        "createdAt": row.created_at,
        "updatedAt": row.updated_at,
        "name": row.name,
        "status": row.status,
        "agentId": row.agent_id,
        "userId": row.user_id,
        "organizationId": row.organization_id,
        "agentJobId": row.agent_job_id,
        "agentJobStatus": row.agent_job_status,
        "onChainStatus": row.on_chain_status,
        "input": _input_text(row.input_data),
        "result": result,
        "resultTruncated": job.result_truncated,
        "error": row.error,
        "startedAt": row.started_at,
        "completedAt": row.completed_at,
        "jobType": row.job_type,
        "share": None if share is None else model_json(ShareOut, share),
        "jobStatusSettled": row.settled,
        "projectId": row.project_id,
        "taskId": row.task_id,
        "output": result,
        "resultHash": job.result_hash,
        "resultSubmittedAt": job.result_submitted_at,
        "isDemo": job.is_demo,
        "inputHash": row.input_hash,
        "verified": row.verified,
        "agentVersion": row.agent_version,
        "price": price_json(charged, fee),
        "refund": price_json(refunded, row.refund_fee),
        "credits": wire_credits(charged - refunded),
    }


def link_item(link: Any) -> dict[str, Any]:
    """``JobLinkOut``'s JSON for a ``files.attachments.JobLink``."""
    return {
        "id": link.id,
        "jobId": link.job_id,
        "title": link.title,
        "url": link.url,
        "description": link.description,
        "createdAt": link.created_at,
    }


def file_item(file: Any) -> dict[str, Any]:
    """``JobFileOut``'s JSON for a ``files.attachments.JobFile``."""
    return {
        "id": file.id,
        "jobId": file.job_id,
        "name": file.name,
        "fileUrl": file.file_url,
        "sourceUrl": file.source_url,
        "source": file.source,
        "size": file.size,
        "mimeType": file.mime_type,
        "status": file.status,
        "sha256": file.sha256,
        "createdAt": file.created_at,
        "updatedAt": file.updated_at,
    }


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
    timestamp: str = Field(default_factory=now_iso)


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
    inputSchema: Any = Field(
        default=None,
        description="The input schema the input was built for (optional): it must be the "
        "agent's current one (409 otherwise).",
    )
    name: str | None = Field(default=None, max_length=500)
    jobShareRequest: JobShareRequest | None = None
    taskId: str | None = Field(default=None, max_length=100)
    webhook: str | None = Field(
        default=None,
        max_length=2000,
        description="An http(s) URL told about this job's status changes (Standard Webhooks "
        "signature; docs/notifications.md).",
    )
    webhookEventsFilter: list[str] | None = Field(
        default=None,
        max_length=6,
        description="Only these events (pending, running, input_required, completed, failed, "
        "cancelled); all when left out.",
    )


class JobInputs(ApiModel):
    inputData: dict[str, Any]
    statusId: str | None = Field(
        default=None, max_length=500, description="The input request answered (optional guard)."
    )
    eventId: str | None = Field(
        default=None,
        max_length=100,
        description="The job event that asked for input (optional guard, as statusId).",
    )


class JobEventOut(Schema):
    """Read from a ``JobEvent`` row."""

    id: UUID
    job_id: UUID
    type: str
    from_status: str | None
    to_status: str | None
    detail: dict[str, Any]
    created_at: UtcDateTime

    @field_validator("detail", mode="before")
    @classmethod
    def _detail(cls, detail: dict[str, Any] | None) -> dict[str, Any]:
        return detail or {}

    @computed_field(description="What happened, in words.")  # type: ignore[prop-decorator]
    @property
    def message(self) -> str:
        reason = self.detail.get("reason") or self.detail.get("error")
        if self.type == "created":
            text = f"Job created ({self.to_status})"
        elif self.from_status or self.to_status:
            text = f"{self.from_status or '-'} → {self.to_status or '-'}"
        else:
            text = self.type.replace("_", " ")
        return f"{text}: {reason}" if isinstance(reason, str) and reason else text

    @computed_field(description="Same as detail.")  # type: ignore[prop-decorator]
    @property
    def data(self) -> dict[str, Any]:
        return self.detail


class InputRequestOut(BaseModel):
    jobId: str
    eventId: str | None = Field(description="The job event that moved the job to INPUT_REQUIRED.")
    statusId: str | None
    inputSchema: dict[str, Any]
    message: str | None = Field(
        default=None,
        description="What the agent said with its request (MIP-003 /status `message`): "
        "untrusted text, Markdown at most.",
    )
    requestedAt: str | None


class SharedJobOut(Schema):
    """Read from ``jobs.service.ShownJob`` (with the agent's name and the share)."""

    id: UUID
    name: str
    status: JobStatus
    agent_id: UUID
    agent_name: str
    input: str = Field(validation_alias="input_data")
    result: str | None
    created_at: UtcDateTime
    updated_at: UtcDateTime
    completed_at: UtcDateTime | None
    share: ShareOut

    @field_validator("input", mode="before")
    @classmethod
    def _input(cls, input_data: Any) -> str:
        return _input_text(input_data)


class JobLinkOut(Schema):
    """Read from ``jobs.attachments.JobLink``."""

    id: UUID
    job_id: UUID
    title: str | None
    url: str
    description: str | None
    created_at: UtcDateTime


class JobFileOut(Schema):
    """Read from ``jobs.attachments.JobFile``."""

    id: UUID
    job_id: UUID
    name: str
    file_url: str
    source_url: str | None = Field(description="The URL as the input or result gave it.")
    source: str = Field(description="Where it was found: input or result.")
    size: int | None = Field(description="Null until the file is stored by Agora.")
    mime_type: str | None
    status: str = Field(
        description="AVAILABLE (found, not fetched), STORED (kept by Agora: fileUrl is Agora's), "
        "TOO_LARGE, REFUSED (by policy), UNREACHABLE."
    )
    sha256: str | None = Field(default=None, description="Of a stored file's bytes.")
    created_at: UtcDateTime
    updated_at: UtcDateTime
