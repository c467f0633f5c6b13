"""The operator's organizations: search, an organization's detail (members, caps, jobs, its
audit rows), suspension and lifting it. An operator never suspends an organization they belong
to (403). Called by the admin API and the console's pages alike."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.auth import service as auth
from agora.auth.service import forget_cached_principals
from agora.console import repository as repo
from agora.console.jobs import cancel_unfinished
from agora.kit.db import on_commit
from agora.kit.errors import BadRequest, Conflict, FieldError, Forbidden, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.timeutil import utcnow
from agora.models import AuditEvent, Job, Organization, SpendingCap, User, Workspace


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
        await cancel_unfinished(
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
