"""Typed, normalised MIP-003 responses (liberal in what they accept)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agora.kit.timeutil import isoformat, utcnow

MAX_MESSAGE_CHARS = 20_000  # an agent's message kept with its input request

# The payment request a paid agent's /start_job answer carries (MIP-003 with MIP-004 payments;
# docs/payments.md): who sells, and the contract's times in Unix milliseconds. Checked by the
# dispatcher before it buys (payments/start.py) and by the conformance suite.
PAYMENT_IDENTITY_FIELDS = ("agentIdentifier", "sellerVKey")
PAYMENT_TIME_FIELDS = ("payByTime", "submitResultTime")


def unix_ms(value: Any) -> int | None:
    """A time of the payment request in Unix milliseconds (an integer or its digits), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


@dataclass(frozen=True)
class StartedJob:
    job_id: str
    blockchain_identifier: str | None = None
    input_hash: str | None = None
    agent_identifier: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class JobStatus:
    # awaiting_payment | awaiting_input | running | completed | failed (unknown values are kept
    # as given, lower-cased)
    status: str
    status_id: str | None = None
    result: str | None = None
    input_schema: dict[str, Any] | None = None
    message: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)

    def input_request(self) -> dict[str, Any]:
        """What a job stores while the agent awaits input (``Job.input_request``)."""
        stored: dict[str, Any] = {
            "statusId": self.status_id,
            "inputSchema": self.input_schema,
            "requestedAt": isoformat(utcnow()),
        }
        if self.message:  # what the agent says with its request (shown with the form)
            stored["message"] = self.message[:MAX_MESSAGE_CHARS]
        return stored


@dataclass(frozen=True)
class Availability:
    available: bool
    type: str | None = None
    message: str | None = None


@dataclass(frozen=True)
class InputSchema:
    """Exactly one of ``input_data`` (a list of fields) or ``input_groups``; ``fields`` flattens."""

    input_data: list[dict[str, Any]] | None = None
    input_groups: list[dict[str, Any]] | None = None

    @property
    def fields(self) -> list[dict[str, Any]]:
        if self.input_data is not None:
            return self.input_data
        out: list[dict[str, Any]] = []
        for group in self.input_groups or []:
            out.extend(group.get("input_data") or [])
        return out

    def as_dict(self) -> dict[str, Any]:
        if self.input_groups is not None:
            return {"input_groups": self.input_groups}
        return {"input_data": self.input_data or []}
