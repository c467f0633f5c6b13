"""The suite's checks: a stable name, what it asks of an agent, and the rule it enforces.

Names never change (CI configurations and the pytest plugin refer to them); each links to its
rule in docs/developer.md ("The conformance checks") and to the MIP that states it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MIP003 = "https://github.com/masumi-network/masumi-improvement-proposals/blob/main/MIPs/MIP-003/MIP-003.md"
MIP004 = "https://github.com/masumi-network/masumi-improvement-proposals/blob/main/MIPs/MIP-004/MIP-004.md"
DOC = "docs/developer.md#check-"
# Raised when a check is added, removed or made stricter: a certified listing shows the version
# it passed (docs/developer.md, "Certification").
SUITE_VERSION = "2"  # 2: result-hash checks the hash a completed /status reports


class Outcome(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"  # not applicable to this agent (the reason says why); never a failure


@dataclass(frozen=True)
class Check:
    name: str
    title: str
    spec: str  # the MIP that states the rule

    @property
    def rule(self) -> str:
        """Where the rule is explained: docs/developer.md's anchor, then the MIP."""
        return f"{DOC}{self.name} ({self.spec})"


@dataclass(frozen=True)
class CheckResult:
    check: Check
    outcome: Outcome
    reason: str = ""
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        return self.outcome is Outcome.FAILED


def _check(name: str, title: str, spec: str = MIP003) -> Check:
    return Check(name, title, spec)


AVAILABILITY = _check("availability", "GET /availability answers status available")
INPUT_SCHEMA = _check(
    "input-schema", "GET /input_schema is a schema Agora renders, and a valid input exists"
)
START_JOB = _check("start-job", "POST /start_job with a valid input answers a job id")
PAYMENT_FIELDS = _check(
    "payment-fields", "a paid /start_job answer carries the payment request", MIP004
)
INPUT_HASH = _check("input-hash", "a paid /start_job answer's input_hash follows MIP-004", MIP004)
JOB_COMPLETES = _check(
    "job-completes", "GET /status reaches completed with a result in the time limit"
)
PROVIDE_INPUT = _check(
    "provide-input", "awaiting_input carries a renderable schema; POST /provide_input is accepted"
)
STATUS_IDEMPOTENT = _check(
    "status-idempotent", "GET /status of an ended job answers the same each time"
)
REJECTS_BAD_INPUT = _check(
    "rejects-bad-input", "POST /start_job answers 400/422 to an invalid input"
)
UNKNOWN_JOB = _check("unknown-job", "GET /status of an unknown job id answers 404")
RESULT_HASH = _check("result-hash", "a completed /status's result_hash follows MIP-004", MIP004)
