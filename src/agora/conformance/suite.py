"""Run the checks against a live agent, on Agora's own MIP-003 client (``mip003.client``).

Every check has a time limit (``SuiteOptions``): a call that hangs fails its check, naming the
limit, and the suite goes on. A check that needs an earlier one (a job to ask about) is skipped
with the reason when that one failed. Paid checks use Agora's MIP-004 hash functions
(``mip003.hashes``), the ones the dispatcher applies before it buys.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from agora.conformance import checks as c
from agora.conformance.checks import Check, CheckResult, Outcome
from agora.conformance.schema_rules import (
    required_ids,
    sample_input,
    sample_problems,
    schema_problems,
)
from agora.kit.outbound import OutboundPolicy
from agora.mip003 import hashes
from agora.mip003.client import Mip003Client, new_identifier_from_purchaser
from agora.mip003.errors import AgentError, AgentJobNotFound, AgentRejectedInput
from agora.mip003.types import (
    PAYMENT_IDENTITY_FIELDS,
    PAYMENT_TIME_FIELDS,
    JobStatus,
    StartedJob,
    unix_ms,
)

KNOWN_STATUSES = frozenset({"awaiting_payment", "awaiting_input", "running", "completed", "failed"})
ENDED = frozenset({"completed", "failed"})
MAX_POLLS = 1_000  # with the time limit: a status loop ends on whichever comes first
MAX_INPUT_ROUNDS = 5
# What a paid /start_job answer must carry (docs/developer.md, "Selling a paid agent"; the
# dispatcher's payments.start.REQUIRED plus the identifiers it buys with)
PAYMENT_TEXT_FIELDS = ("blockchainIdentifier", *PAYMENT_IDENTITY_FIELDS)
# Where a completed /status may report the result hash it submits (MIP-003 names none: the
# SDK's spelling, the payment node's, and the reference's ``output_hash``)
RESULT_HASH_FIELDS = ("result_hash", "resultHash", "output_hash")
# The whole network is allowed: a builder checks their own agent, usually on loopback.
OPEN_POLICY = OutboundPolicy.from_setting("0.0.0.0/0,::/0")


class Failed(Exception):
    pass


class Skipped(Exception):
    pass


@dataclass(frozen=True)
class SuiteOptions:
    paid: bool = False
    call_seconds: float = 10.0  # one call to the agent
    job_seconds: float = 30.0  # a job from start to its end


@dataclass
class _Run:
    """What the checks learn from one another while the suite runs."""

    client: Mip003Client
    base_url: str
    options: SuiteOptions
    purchaser: str = field(default_factory=new_identifier_from_purchaser)
    schema: dict[str, Any] | None = None
    sample: dict[str, Any] | None = None
    started: StartedJob | None = None
    final: JobStatus | None = None
    input_rounds: int = 0
    input_problem: str | None = None

    async def availability(self) -> str:
        answer = await self.client.availability(self.base_url)
        if not answer.available:
            raise Failed(f"status is not 'available' (message: {answer.message or 'none'})")
        return ""

    async def input_schema(self) -> str:
        schema = (await self.client.input_schema(self.base_url)).as_dict()
        problems = schema_problems(schema)
        if problems:
            raise Failed("; ".join(problems))
        sample = sample_input(schema)
        problems = sample_problems(schema, sample)
        if problems:
            raise Failed("no input satisfies the schema's validations: " + "; ".join(problems))
        self.schema, self.sample = schema, sample
        return f"{len(sample)} required field(s)"

    async def start_job(self) -> str:
        if self.sample is None:
            raise Skipped("needs input-schema to pass")
        self.started = await self.client.start_job(
            self.base_url, identifier_from_purchaser=self.purchaser, input_data=self.sample
        )
        return f"job {self.started.job_id}"

    def _started(self) -> StartedJob:
        if self.started is None:
            raise Skipped("needs start-job to pass")
        return self.started

    async def payment_fields(self) -> str:
        raw = self._started().raw
        missing = [k for k in PAYMENT_TEXT_FIELDS if not isinstance(raw.get(k), str) or not raw[k]]
        bad_times = [k for k in PAYMENT_TIME_FIELDS if unix_ms(raw.get(k)) is None]
        problems = [f"lacks {k}" for k in missing] + [
            f"{k} must be Unix milliseconds, not {raw.get(k)!r}" for k in bad_times
        ]
        if not bad_times and int(raw["payByTime"]) > int(raw["submitResultTime"]):
            problems.append("payByTime is after submitResultTime")
        echo = raw.get("identifierFromPurchaser")
        if echo is not None and echo != self.purchaser:
            problems.append(f"identifierFromPurchaser {echo!r} is not the one sent")
        if problems:
            raise Failed("; ".join(problems))
        return ""

    async def input_hash(self) -> str:
        started = self._started()
        data = self.sample or {}
        rule = hashes.match_input_hash(self.purchaser, data, started.input_hash)
        if rule is None:
            expected = sorted(set(hashes.input_hashes(self.purchaser, data).values()))
            given = repr(started.input_hash) if started.input_hash else "no input_hash"
            raise Failed(f"{given}: MIP-004 gives {' or '.join(expected)} for the input sent")
        return f"rule {rule}"

    async def job_completes(self) -> str:
        job_id = self._started().job_id
        deadline = time.monotonic() + self.options.job_seconds
        answered, delay, seen = False, 0.05, ""
        for _ in range(MAX_POLLS):
            status = await self.client.status(self.base_url, job_id)
            seen = status.status
            if seen not in KNOWN_STATUSES:
                raise Failed(
                    f"unknown status {seen!r} (one of {', '.join(sorted(KNOWN_STATUSES))})"
                )
            if seen == "completed":
                if status.result is None:
                    raise Failed("completed without a result")
                self.final = status
                return f"after {self.input_rounds} input request(s)"
            if seen == "failed":
                raise Failed(f"the job failed: {status.message or 'no message'}")
            if seen == "awaiting_input" and not answered:
                await self._answer(job_id, status)
            answered = seen == "awaiting_input"  # a fresh request comes after another status
            if time.monotonic() >= deadline:
                break
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)
        if seen == "awaiting_payment" and self.options.paid:
            raise Skipped("still awaiting_payment: running the job needs a buyer's payment")
        raise Failed(f"the status never ended within {self.options.job_seconds:g} s (last: {seen})")

    async def _answer(self, job_id: str, status: JobStatus) -> None:
        self.input_rounds += 1
        if self.input_rounds > MAX_INPUT_ROUNDS:
            raise Failed(f"asked for input more than {MAX_INPUT_ROUNDS} times")
        schema = status.input_schema or {}
        problems = schema_problems(schema) if schema else ["awaiting_input without input_schema"]
        data = sample_input(schema) if not problems else {}
        problems += sample_problems(schema, data) if not problems else []
        if problems:
            self.input_problem = "; ".join(problems)
            raise Failed(f"the input request cannot be answered: {self.input_problem}")
        try:
            await self.client.provide_input(
                self.base_url, job_id=job_id, status_id=status.status_id, input_data=data
            )
        except AgentError as exc:
            self.input_problem = f"/provide_input refused a valid input: {exc.message}"
            raise Failed(self.input_problem) from exc

    async def provide_input(self) -> str:
        if self.input_problem is not None:
            raise Failed(self.input_problem)
        if self.input_rounds == 0:
            raise Skipped("the agent never asked for input (awaiting_input)")
        if self.final is None:
            raise Skipped("needs job-completes to pass")
        return f"{self.input_rounds} request(s) answered"

    async def status_idempotent(self) -> str:
        if self.final is None:
            raise Skipped("needs job-completes to pass")
        job_id = self._started().job_id
        first = await self.client.status(self.base_url, job_id)
        second = await self.client.status(self.base_url, job_id)
        for answer in (first, second):
            if answer.status != self.final.status:
                raise Failed(f"asked again, /status answered {answer.status!r}, not completed")
            if answer.result != self.final.result:
                raise Failed("asked again, /status answered another result")
        return ""

    async def rejects_bad_input(self) -> str:
        if self.schema is None or self.sample is None:
            raise Skipped("needs input-schema to pass")
        left_out = next((k for k in required_ids(self.schema) if k in self.sample), None)
        if left_out is None:
            raise Skipped("the schema has no required field to leave out")
        bad = {k: v for k, v in self.sample.items() if k != left_out}
        try:
            started = await self.client.start_job(
                self.base_url, identifier_from_purchaser=new_identifier_from_purchaser(),
                input_data=bad,
            )  # fmt: skip
        except AgentRejectedInput as exc:
            return f"answered {exc.status_code} without {left_out!r}"
        raise Failed(f"accepted an input without the required field {left_out!r}: {started.job_id}")

    async def unknown_job(self) -> str:
        unknown = f"agora-conformance-{uuid.uuid4().hex}"
        try:
            answer = await self.client.status(self.base_url, unknown)
        except AgentJobNotFound:
            return ""
        raise Failed(f"answered status {answer.status!r} for a job id it never issued")

    async def result_hash(self) -> str:
        """The hash a completed job's /status reports must be MIP-004's hash of its result
        for this purchaser (either rule Agora accepts, ``hashes.match_result_hash``). An agent
        that reports none submits it only to its payment node, which this suite does not run."""
        if self.final is None or self.final.result is None:
            raise Skipped("needs job-completes to pass")
        key = next((k for k in RESULT_HASH_FIELDS if self.final.raw.get(k) is not None), None)
        if key is None:
            raise Skipped(
                "the completed /status gives no result_hash: the hash then goes only to the "
                "seller's payment node, and checking it needs a payment node"
            )
        given = self.final.raw[key]
        if not isinstance(given, str) or not hashes.valid_hash(given.lower()):
            raise Failed(f"{key} {given!r} is not 64 hex characters")
        rule = hashes.match_result_hash(self.purchaser, self.final.result, given)
        if rule is None:
            expected = sorted(set(hashes.result_hashes(self.purchaser, self.final.result).values()))
            raise Failed(f"{key} {given!r}: MIP-004 gives {' or '.join(expected)} for the result")
        return f"rule {rule} ({key})"


def _steps(run: _Run) -> list[tuple[Check, Callable[[], Awaitable[str]], float]]:
    call, job = run.options.call_seconds, run.options.job_seconds
    steps: list[tuple[Check, Callable[[], Awaitable[str]], float]] = [
        (c.AVAILABILITY, run.availability, call + 1),
        (c.INPUT_SCHEMA, run.input_schema, call + 1),
        (c.START_JOB, run.start_job, call + 1),
    ]
    if run.options.paid:
        steps += [(c.PAYMENT_FIELDS, run.payment_fields, 1.0), (c.INPUT_HASH, run.input_hash, 1.0)]
    steps += [
        (c.JOB_COMPLETES, run.job_completes, job + 2 * call + 1),
        (c.PROVIDE_INPUT, run.provide_input, 1.0),
        (c.STATUS_IDEMPOTENT, run.status_idempotent, 2 * call + 1),
        (c.REJECTS_BAD_INPUT, run.rejects_bad_input, call + 1),
        (c.UNKNOWN_JOB, run.unknown_job, call + 1),
    ]
    if run.options.paid:
        steps.append((c.RESULT_HASH, run.result_hash, 1.0))
    return steps


async def _one(check: Check, work: Callable[[], Awaitable[str]], limit: float) -> CheckResult:
    began = time.monotonic()
    try:
        async with asyncio.timeout(limit):
            note = await work()
        outcome, reason = Outcome.PASSED, note
    except Skipped as exc:
        outcome, reason = Outcome.SKIPPED, str(exc)
    except Failed as exc:
        outcome, reason = Outcome.FAILED, str(exc)
    except AgentError as exc:
        outcome, reason = Outcome.FAILED, exc.message
    except TimeoutError:
        outcome, reason = Outcome.FAILED, f"no answer within the check's limit of {limit:g} s"
    return CheckResult(check, outcome, reason, round(time.monotonic() - began, 3))


async def run_suite(
    base_url: str, options: SuiteOptions | None = None, *, client: Mip003Client | None = None
) -> list[CheckResult]:
    """Every check against ``base_url``, in order. ``client`` defaults to one with the
    options' call limit that may reach any address (the builder's own agent)."""
    options = options or SuiteOptions()
    own = client is None
    agent_client = client or Mip003Client(timeout=options.call_seconds, policy=OPEN_POLICY)
    run = _Run(agent_client, base_url.rstrip("/"), options)
    try:
        return [await _one(check, work, limit) for check, work, limit in _steps(run)]
    finally:
        if own:
            await agent_client.aclose()
