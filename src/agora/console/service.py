"""The operator's rules: who is an operator, suspending people, granting credits, the
dashboard. The admin API (admin keys) and the console's pages (an operator's browser session)
call these same functions.

- An operator is a user holding a live admin key; from a browser an action (not a read) also
  needs a password or magic-link proof within ``AGORA_ADMIN_REAUTH_MINUTES`` (an admin key is
  its own proof).
- An operator never acts on their own account's money or suspension (403).
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import service as accounts
from agora.audit import service as audit
from agora.auth import service as auth
from agora.auth.service import forget_cached_principals
from agora.console import repository as repo
from agora.credits import ledger
from agora.developer import service as developer
from agora.jobs import lifecycle, signals
from agora.kit.db import on_commit
from agora.kit.errors import AgoraError, BadRequest, Conflict, FieldError, Forbidden, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.money import to_base
from agora.kit.timeutil import as_utc, utcnow
from agora.models import (
    Agent,
    ApiKey,
    AuditEvent,
    BrowserSession,
    Job,
    JobEvent,
    LedgerEntry,
    Organization,
    SpendingCap,
    StoredFile,
    User,
    Workspace,
)
from agora.models.statuses import JobStatus

# ---- who may operate ----------------------------------------------------------------------


def _not_yourself(actor: audit.Actor, user_id: uuid.UUID, what: str) -> None:
    if actor.user_id == user_id:
        raise Forbidden(
            f"An operator may not {what} their own account; ask another operator",
            details=[FieldError("userId", "is your own account")],
        )


# ---- users --------------------------------------------------------------------------------


async def search_users(
    session: AsyncSession, q: str | None, *, limit: int, offset: int = 0
) -> tuple[list[User], int]:
    return await repo.search_users(session, (q or "")[:320], limit=limit, offset=offset)


async def get_user(session: AsyncSession, raw_user_id: str) -> User:
    user_id = parse_uuid(raw_user_id)
    user = await accounts.user_by_id(session, user_id) if user_id else None
    if user is None:
        raise NotFound(f"User {raw_user_id} not found")
    return user


@dataclass
class UserDetail:
    user: User
    workspaces: list[Workspace]
    keys: list[ApiKey]
    sessions: list[BrowserSession]
    jobs: list[Job]
    ledger: list[LedgerEntry] = field(default_factory=list)


async def user_detail(session: AsyncSession, raw_user_id: str) -> UserDetail:
    user = await get_user(session, raw_user_id)
    workspaces = await repo.workspaces_of(session, user.id)
    personal = [w.id for w in workspaces if w.kind == "personal"]
    return UserDetail(
        user=user,
        workspaces=workspaces,
        keys=await repo.keys_of(session, user.id),
        sessions=await repo.sessions_of(session, user.id),
        jobs=await repo.jobs_of(session, user.id),
        ledger=await repo.ledger_of(session, personal),
    )


@dataclass(frozen=True)
class Suspension:
    user: User
    sessions: int
    keys: int
    jobs_cancelled: int
    jobs_left: int


async def suspend(
    session: AsyncSession, actor: audit.Actor, raw_user_id: str, reason: str
) -> Suspension:
    """Suspend: no sign-in; every session and key revoked in this transaction (401 at once in
    this process, within a second elsewhere); the user's unfinished jobs cancelled and their
    held credits refunded (a job paid on a payment node and already running is left to the
    node's refund flow, counted in ``jobs_left``)."""
    reason = reason.strip()
    if not reason:
        raise BadRequest.field("reason", "say why the account is suspended")
    user = await get_user(session, raw_user_id)
    _not_yourself(actor, user.id, "suspend")
    user = await repo.user_for_update(session, user.id) or user
    if user.suspended_at is not None:
        raise Conflict(f"User {user.id} is already suspended")
    now = utcnow()
    user.suspended_at = now
    sessions = await accounts.revoke_sessions(session, user.id, now)
    keys = await repo.revoke_all_keys(session, user.id, now)
    on_commit(session, forget_cached_principals)
    cancelled, left = await _cancel_jobs(
        session,
        await repo.unfinished_jobs(session, user_id=user.id),
        "the account was suspended by an operator",
    )
    await session.flush()
    await audit.record(
        session,
        "user.suspended",
        actor=actor,
        target_kind="user",
        target_id=user.id,
        details={
            "email": user.email,
            "reason": reason[:500],
            "sessions": sessions,
            "keys": keys,
            "jobsCancelled": cancelled,
            "jobsLeft": left,
        },
    )
    return Suspension(user, sessions, keys, cancelled, left)


async def _cancel_jobs(session: AsyncSession, jobs: list[Job], reason: str) -> tuple[int, int]:
    """Cancel a suspended account's or organization's unfinished jobs and refund their held
    credits: (cancelled, left to a payment node's refund flow)."""
    cancelled = left = 0
    woke = False
    for job in jobs:
        paid_on_node: dict[str, Any] = {}
        if job.payment_backend is not None:
            if job.status != lifecycle.INPUT_REQUIRED:
                left += 1
                continue
            # As jobs.service.cancel_job: parked, the dispatcher gets the funds back.
            paid_on_node = {
                "settle": False,
                "payment": {**(job.payment or {}), "autoRefund": True},
                "dispatch_state": "queued",
                "next_attempt_at": utcnow(),
                "attempts": 0,
            }
            woke = True
        if await lifecycle.transition(
            session,
            job,
            lifecycle.CANCELLED,
            detail={"reason": reason},
            **paid_on_node,
        ):
            cancelled += 1
        else:
            left += 1
    if woke:
        await signals.job_ready(session)
    return cancelled, left


async def unsuspend(session: AsyncSession, actor: audit.Actor, raw_user_id: str) -> User:
    """Lift a suspension: the user may sign in again (revoked keys stay revoked)."""
    user = await get_user(session, raw_user_id)
    _not_yourself(actor, user.id, "unsuspend")
    if user.suspended_at is None:
        raise Conflict(f"User {user.id} is not suspended")
    user.suspended_at = None
    await session.flush()
    await audit.record(
        session,
        "user.unsuspended",
        actor=actor,
        target_kind="user",
        target_id=user.id,
        details={"email": user.email},
    )
    return user


# ---- organizations ------------------------------------------------------------------------


async def search_organizations(
    session: AsyncSession, q: str | None, *, limit: int, offset: int = 0
) -> tuple[list[Organization], int]:
    return await repo.search_organizations(session, (q or "")[:200], limit=limit, offset=offset)


async def get_organization(
    session: AsyncSession, raw_org_id: str, *, for_update: bool = False
) -> Organization:
    org_id = parse_uuid(raw_org_id)
    org = await repo.organization(session, org_id, for_update=for_update) if org_id else None
    if org is None:
        raise NotFound(f"Organization {raw_org_id} not found")
    return org


@dataclass(frozen=True)
class Member:
    user: User
    role: str
    joined_at: datetime


@dataclass
class OrganizationDetail:
    organization: Organization
    workspace: Workspace | None
    members: list[Member]
    caps: list[SpendingCap]
    jobs: list[Job]
    events: list[AuditEvent]


async def organization_detail(session: AsyncSession, raw_org_id: str) -> OrganizationDetail:
    """Members with roles, the workspace's balance and caps, recent jobs, its audit rows."""
    org = await get_organization(session, raw_org_id)
    workspace = await auth.organization_workspace(session, org.id)
    events, _ = await audit.search_all(
        session, audit.Filters(organization_id=str(org.id)), limit=20
    )
    return OrganizationDetail(
        organization=org,
        workspace=workspace,
        members=[
            Member(u, m.role, m.created_at) for m, u in await repo.members_of(session, org.id)
        ],
        caps=await repo.caps_of(session, workspace.id) if workspace else [],
        jobs=await repo.jobs_in(session, workspace.id) if workspace else [],
        events=events,
    )


@dataclass(frozen=True)
class OrgSuspension:
    organization: Organization
    jobs_cancelled: int
    jobs_left: int


async def _not_a_member(session: AsyncSession, actor: audit.Actor, org: Organization) -> None:
    if actor.user_id is not None and await auth.is_org_member(session, actor.user_id, org.id):
        raise Forbidden(
            "An operator may not suspend an organization they belong to; ask another operator",
            details=[FieldError("organizationId", "is one of your own organizations")],
        )


async def suspend_organization(
    session: AsyncSession, actor: audit.Actor, raw_org_id: str, reason: str
) -> OrgSuspension:
    """Suspend an organization: every key, session and token acting in its workspace is refused
    (403) from this commit on (cached keys forgotten in this process, within a second
    elsewhere); its unfinished jobs are cancelled and refunded as a suspended user's are; its
    members keep their personal workspaces and their other organizations."""
    reason = (reason or "").strip()
    if not reason:
        raise BadRequest.field("reason", "say why the organization is suspended")
    org = await get_organization(session, raw_org_id, for_update=True)
    await _not_a_member(session, actor, org)
    if org.suspended_at is not None:
        raise Conflict(f"Organization {org.id} is already suspended")
    org.suspended_at = utcnow()
    org.suspension_reason = reason[:500]
    on_commit(session, forget_cached_principals)
    workspace = await auth.organization_workspace(session, org.id)
    cancelled, left = (
        await _cancel_jobs(
            session,
            await repo.unfinished_jobs(session, workspace_id=workspace.id),
            "the organization was suspended by an operator",
        )
        if workspace is not None
        else (0, 0)
    )
    await session.flush()
    await audit.record(
        session,
        "org.suspended",
        actor=actor,
        target_kind="organization",
        target_id=org.id,
        organization_id=org.id,
        details={
            "slug": org.slug,
            "reason": reason[:500],
            "jobsCancelled": cancelled,
            "jobsLeft": left,
        },
    )
    return OrgSuspension(org, cancelled, left)


async def unsuspend_organization(
    session: AsyncSession, actor: audit.Actor, raw_org_id: str
) -> Organization:
    """Lift an organization's suspension: its members' keys and sessions work there again."""
    org = await get_organization(session, raw_org_id, for_update=True)
    await _not_a_member(session, actor, org)
    if org.suspended_at is None:
        raise Conflict(f"Organization {org.id} is not suspended")
    org.suspended_at = None
    org.suspension_reason = None
    on_commit(session, forget_cached_principals)
    await session.flush()
    await audit.record(
        session,
        "org.unsuspended",
        actor=actor,
        target_kind="organization",
        target_id=org.id,
        organization_id=org.id,
        details={"slug": org.slug},
    )
    return org


# ---- jobs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class JobFilters:
    q: str | None = None  # a job id
    agent: str | None = None  # an agent id, registry identifier or part of its name
    status: str | None = None
    workspace: str | None = None  # a workspace id


@dataclass(frozen=True)
class ListedJob:
    job: Job
    agent_name: str


async def search_jobs(
    session: AsyncSession, filters: JobFilters, *, limit: int, offset: int = 0
) -> tuple[list[ListedJob], int]:
    """Jobs of every workspace, newest first. A filter that is not what it names: 400."""
    job_id = workspace_id = None
    if filters.q and filters.q.strip():
        job_id = parse_uuid(filters.q.strip())
        if job_id is None:
            raise BadRequest.field("q", "must be a job id (UUID)")
    if filters.workspace and filters.workspace.strip():
        workspace_id = parse_uuid(filters.workspace.strip())
        if workspace_id is None:
            raise BadRequest.field("workspace", "must be a workspace id (UUID)")
    status = (filters.status or "").strip().upper()
    if status and status not in set(JobStatus):
        raise BadRequest.field("status", f"must be one of {', '.join(JobStatus)}")
    rows, total = await repo.search_jobs(
        session,
        job_id=job_id,
        agent=(filters.agent or "").strip()[:100],
        status=status,
        workspace_id=workspace_id,
        limit=limit,
        offset=offset,
    )
    return [ListedJob(job, name) for job, name in rows], total


@dataclass(frozen=True)
class Delivery:
    """A webhook or mail delivery about the job (the target without its query string)."""

    channel: str
    event: str
    target: str
    state: str
    attempts: int
    last_status_code: int | None
    last_error: str | None
    delivered_at: datetime | None
    created_at: datetime


@dataclass
class JobDetail:
    job: Job
    agent: Agent
    events: list[JobEvent]
    ledger: list[LedgerEntry]
    deliveries: list[Delivery]
    files: list[StoredFile]

    @property
    def payment(self) -> dict[str, Any]:
        """The payment state the Masumi backend keeps (blockchain identifier, on-chain state,
        refundStuck …) with the job's own money columns."""
        job = self.job
        return {
            "backend": job.payment_backend,
            "blockchainIdentifier": job.blockchain_identifier,
            "onChainStatus": job.on_chain_status,
            "refundRequestedAt": job.refund_requested_at,
            "settled": job.settled,
            "state": audit.without_secrets(job.payment),
        }


async def job_detail(session: AsyncSession, raw_job_id: str) -> JobDetail:
    """A job of any workspace with its events in order, its credits ledger entries (hold,
    capture, refund), its webhook/mail deliveries and its files (fetched inputs, outputs).
    Calls to the agent are recorded as the job's events (dispatch, status polls, errors)."""
    job_id = parse_uuid(raw_job_id)
    found = await repo.job_with_agent(session, job_id) if job_id else None
    if found is None:
        raise NotFound(f"Job {raw_job_id} not found")
    job, agent = found
    deliveries = [
        Delivery(
            d.channel,
            d.event,
            d.target.split("?", 1)[0],
            d.state,
            d.attempts,
            d.last_status_code,
            d.last_error,
            d.delivered_at,
            d.created_at,
        )
        for d in await repo.job_deliveries(session, job.id)
    ]
    return JobDetail(
        job=job,
        agent=agent,
        events=await repo.events_of(session, job.id),
        ledger=await repo.job_ledger(session, job.id),
        deliveries=deliveries,
        files=await repo.job_files(session, job.id),
    )


# ---- money --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grant:
    user: User
    workspace_id: uuid.UUID
    amount: int
    balance: int


async def grant_credits(
    session: AsyncSession,
    actor: audit.Actor,
    raw_user_id: str,
    *,
    amount: Any,
    reason: str,
    workspace_id: str | None = None,
) -> Grant:
    """Credits into one of the user's workspaces (default: the personal one), with a reason
    kept in the ledger entry and the audit log. Never to the operator's own account."""
    reason = (reason or "").strip()
    if not reason:
        raise BadRequest.field("reason", "say why the credits are granted (e.g. a ticket)")
    try:
        base = to_base(str(amount))
    except ValueError as exc:
        raise BadRequest.field("amount", str(exc)) from exc
    if base <= 0:
        raise BadRequest.field("amount", "must be positive")
    user = await get_user(session, raw_user_id)
    _not_yourself(actor, user.id, "grant credits to")
    if workspace_id:
        chosen = parse_uuid(workspace_id.strip())
        if chosen is None or not await auth.is_member(session, user.id, chosen):
            raise NotFound(f"workspaceId: the user has no workspace {workspace_id}")
    else:
        personal = await auth.personal_workspace(session, user.id)
        if personal is None:
            raise NotFound(f"User {user.id} has no workspace")
        chosen = personal.id
    if actor.user_id is not None and await auth.is_member(session, actor.user_id, chosen):
        raise Forbidden(
            "An operator may not grant credits to a workspace they belong to",
            details=[FieldError("workspaceId", "is one of your own workspaces")],
        )
    balance = await ledger.grant(
        session, workspace_id=chosen, amount=base, user_id=user.id, memo=f"grant: {reason}"
    )
    await audit.record(
        session,
        "credits.granted",
        actor=actor,
        target_kind="user",
        target_id=user.id,
        workspace_id=chosen,
        details={"amount": base, "reason": reason[:500], "balanceAfter": balance},
    )
    return Grant(user, chosen, base, balance)


# ---- the dashboard ------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentFailures:
    agent_id: str
    name: str
    jobs: int
    failed: int

    @property
    def failure_rate(self) -> float:
        return round(self.failed / self.jobs, 4) if self.jobs else 0.0


@dataclass(frozen=True)
class Dashboard:
    since: datetime
    jobs_per_status: dict[str, int]
    agents: list[AgentFailures]
    dispatch_lag_seconds: float
    open_refunds: int
    open_disputes: int
    pending_reviews: int
    quarantined: int
    failed_deliveries: dict[str, int]


async def dashboard(session: AsyncSession) -> Dashboard:
    now = utcnow()
    since = now - timedelta(hours=24)
    oldest = await repo.oldest_waiting(session, now)
    return Dashboard(
        since=since,
        jobs_per_status=await repo.jobs_per_status(session, since),
        agents=[AgentFailures(*row) for row in await repo.failures_per_agent(session, since)],
        dispatch_lag_seconds=max(0.0, (now - as_utc(oldest)).total_seconds()) if oldest else 0.0,
        open_refunds=await repo.count_refund_requests(session)
        + await repo.count_purchases(session, ("partially_refunded",)),
        open_disputes=await repo.count_purchases(session, ("disputed",)),
        pending_reviews=await repo.count_pending_reviews(session),
        quarantined=await repo.count_quarantine(session),
        failed_deliveries=await repo.count_failed_deliveries(session, since),
    )


# ---- the review queue ---------------------------------------------------------------------


@dataclass(frozen=True)
class QueuedAgent:
    id: uuid.UUID
    name: str
    base_url: str
    status: str
    description: str
    input_schema: dict[str, Any]
    submitted_at: datetime


async def review_queue(session: AsyncSession, agents: list[Any]) -> list[QueuedAgent]:
    """The pending agents with the input schema they showed when checked (a deferred column,
    loaded here)."""
    out = []
    for agent in agents:
        await session.refresh(agent, attribute_names=["input_schema"])
        out.append(
            QueuedAgent(
                agent.id,
                agent.name,
                agent.base_url,
                agent.status,
                agent.description or "",
                agent.input_schema or {},
                agent.created_at,
            )
        )
    return out


@dataclass(frozen=True)
class LiveCheck:
    """An agent's live check for the review queue: /availability and /input_schema now."""

    available: bool
    message: str | None
    input_schema: dict[str, Any] | None
    error: str | None  # the check failed (unreachable, bad answer): why


async def live_checks(
    client: Any, agents: list[QueuedAgent], *, concurrency: int = 10
) -> dict[uuid.UUID, LiveCheck]:
    """Check every queued agent live, at most ``concurrency`` at once, each bounded by the
    client's timeouts. Call it with no transaction open (the route's ``unit.call_out``)."""
    gate = asyncio.Semaphore(concurrency)

    async def one(agent: QueuedAgent) -> tuple[uuid.UUID, LiveCheck]:
        async with gate:
            try:
                found = await developer.probe(client, agent.base_url)
            except AgoraError as exc:
                return agent.id, LiveCheck(False, None, None, exc.message)
        return agent.id, LiveCheck(found.available, found.message, found.input_schema, None)

    return dict(await asyncio.gather(*(one(agent) for agent in agents)))
