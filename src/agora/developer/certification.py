"""Certified listings (docs/developer.md, "Certification"): the conformance suite
(``agora.conformance``) runs over an agent at submission, at approval and on a schedule for
listed agents (developer/worker.py); every run is kept (``conformance_runs``). A listing whose
latest run passed holds a dated "Conformant" badge with the suite's version; after failures it
keeps the badge for ``certification_grace_days`` from the first failure, then loses it, and its
developer and the operators are told.

The suite is run with no transaction open (``run``) on the server's MIP-003 client, so it goes
through the operator's outbound policy (``AGORA_OUTBOUND_ALLOW``, docs/security.md); its result
is written after, in a short transaction (``record``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import service as accounts
from agora.agents import service as agents
from agora.conformance.checks import SUITE_VERSION, CheckResult, Outcome
from agora.conformance.suite import SuiteOptions, run_suite
from agora.developer import certification_repository as repo
from agora.kit.timeutil import as_utc, utcnow
from agora.mip003.client import Mip003Client
from agora.models import ConformanceRun
from agora.models.statuses import AgentCheckKind
from agora.notifications import kinds, notify
from agora.settings import Settings

LOST = kinds.AGENT_CONFORMANCE_LOST.name


async def run(
    client: Mip003Client, settings: Settings, base_url: str, *, paid: bool
) -> list[CheckResult]:
    """The suite against ``base_url`` on the server's client (its outbound policy and call
    limit). Call it with no transaction open: a run can take the job limit and more."""
    options = SuiteOptions(
        paid=paid,
        call_seconds=client.timeout,
        job_seconds=settings.catalogue.certification_job_seconds,
    )
    return await run_suite(base_url, options, client=client)


def is_paid(agent_identifier: str | None) -> bool:
    """A Masumi agent (it has an agent identifier) is checked with the paid checks."""
    return agent_identifier is not None


def _stored(result: CheckResult) -> dict[str, Any]:
    check = result.check
    return {
        "name": check.name,
        "title": check.title,
        "outcome": str(result.outcome),
        "reason": result.reason,
        "rule": check.rule,
    }


async def record(
    session: AsyncSession,
    settings: Settings,
    agent_id: uuid.UUID,
    kind: AgentCheckKind,
    results: list[CheckResult],
    *,
    now: datetime | None = None,
) -> ConformanceRun:
    """Store a run and the badge the listing holds after it; tell the developer and the
    operators when this run takes the badge away. The agent's row is locked: one agent's runs
    are recorded one at a time."""
    agent = await agents.get_any(session, str(agent_id), for_update=True)
    now = now or utcnow()
    passed = not any(r.outcome is Outcome.FAILED for r in results)
    before = await repo.latest(session, agent.id)
    held = before.certified_on if before is not None else None
    certified_on = now if passed else await _kept(session, settings, agent.id, held, now)
    run_row = ConformanceRun(
        agent_id=agent.id,
        kind=kind,
        suite_version=SUITE_VERSION,
        passed=passed,
        checks=[_stored(r) for r in results],
        certified_on=certified_on,
        ran_at=now,
    )
    repo.add(session, run_row)
    await session.flush()
    if held is not None and certified_on is None:
        failed = [r.check.name for r in results if r.outcome is Outcome.FAILED]
        await _tell_lost(session, agent.id, agent.name, agent.owner_user_id, failed)
    return run_row


async def _kept(
    session: AsyncSession,
    settings: Settings,
    agent_id: uuid.UUID,
    held: datetime | None,
    now: datetime,
) -> datetime | None:
    """After a failed run: the badge's date while the failures are younger than the grace
    days, None once they are older (or when there was no badge)."""
    if held is None:
        return None
    first = await repo.first_failure_since(session, agent_id, held)
    began = as_utc(first) if first is not None else now
    grace = timedelta(days=settings.catalogue.certification_grace_days)
    return held if now - began < grace else None


async def _tell_lost(
    session: AsyncSession,
    agent_id: uuid.UUID,
    name: str,
    owner: uuid.UUID | None,
    failed: list[str],
) -> None:
    data = {"agentId": str(agent_id), "name": name, "failedChecks": failed}
    ref = f"agent:{agent_id}"
    if owner is not None:
        await notify(session, user_id=owner, kind=LOST, subject_ref=ref, data=data)
    for operator in await accounts.operators(session):
        if operator != owner:
            link = {"link": f"/agents/{agent_id}"}  # the listing as buyers see it
            await notify(session, user_id=operator, kind=LOST, subject_ref=ref, data=data | link)


# ---- what pages show --------------------------------------------------------------------------


@dataclass(frozen=True)
class ShownRun:
    """An agent's latest conformance run: every check by name, with its outcome and reason."""

    ran_at: datetime
    kind: str
    suite_version: str
    passed: bool
    checks: list[dict[str, Any]]
    certified_on: datetime | None

    @property
    def failed(self) -> list[dict[str, Any]]:
        return [c for c in self.checks if c.get("outcome") == Outcome.FAILED]


async def latest_run(session: AsyncSession, agent_id: uuid.UUID) -> ShownRun | None:
    found = await repo.latest(session, agent_id)
    if found is None:
        return None
    return ShownRun(
        found.ran_at, found.kind, found.suite_version, found.passed, list(found.checks),
        found.certified_on,
    )  # fmt: skip


async def latest_runs(
    session: AsyncSession, agent_ids: list[uuid.UUID]
) -> dict[uuid.UUID, ShownRun]:
    """The latest run of each agent of a page (the review queue: at most 50)."""
    found = {agent_id: await latest_run(session, agent_id) for agent_id in agent_ids}
    return {agent_id: run for agent_id, run in found.items() if run is not None}
