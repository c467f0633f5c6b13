"""Spending caps: an organization's owners cap what each member, and each project, may spend in
a calendar month (UTC), in credits (docs/billing.md, "Caps cover every spend"). Every spend
charges the caps in the transaction that takes the credits (``charge``); a spend that would pass
a cap is refused with 402 naming it.

What counts: the price held when a paid job is created in the organization's workspace (its
creator's cap), and a coworker's usage charge (the cap of the member it charges); each also
counts against the project's cap when it is for a task of a project. Refunds of failed jobs do
not give cap room back (this version); a job assigned to a project later does not count."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.auth.principal import Principal
from agora.auth.roles import OrgAction, role_allows
from agora.billing import repository as repo
from agora.billing.service import credits_field
from agora.kit.errors import BadRequest, Forbidden, NotFound, PaymentRequired
from agora.kit.ids import parse_uuid, uuid7
from agora.kit.money import to_display
from agora.kit.timeutil import utcnow
from agora.models import SpendingCap
from agora.notifications import notify


def period_of(moment: datetime) -> str:
    return f"{moment:%Y-%m}"


@dataclass(frozen=True)
class Spend:
    """One spend in an organization's workspace: who spends (the member whose cap counts), the
    task it is for (its project's cap counts too) and what it is, for the refusal (``the job``,
    ``the usage``)."""

    workspace_id: uuid.UUID
    organization_id: uuid.UUID | None
    user_id: uuid.UUID
    amount: int
    task_id: uuid.UUID | None
    what: str = "the job"


def job_spend(principal: Principal, amount: int, task_id: uuid.UUID | None) -> Spend:
    """A job: its creator's cap (and its task's project's)."""
    return Spend(principal.workspace_id, principal.organization_id, principal.user_id, amount,
                 task_id)  # fmt: skip


async def charge(session: AsyncSession, spend: Spend, *, now: datetime) -> None:
    """Charge the member's and the project's caps (organizations only) or raise 402. Every
    spend calls it in the transaction that takes the credits (jobs/admission.py before the hold,
    coworkers/service.py before a usage charge), so a refused spend takes nothing."""
    if spend.organization_id is None or spend.amount <= 0:
        return
    period = period_of(now)
    ws, amount = spend.workspace_id, spend.amount
    member = spend.user_id
    if not await repo.charge_cap(session, ws, user_id=member, amount=amount, period=period):
        cap = await repo.cap_of(session, ws, user_id=member)
        raise PaymentRequired(_refusal(spend, "your monthly spending cap", cap, period))
    mine = "your monthly spending cap"
    await _reached(session, spend, await repo.cap_of(session, ws, user_id=member), mine)
    project = await repo.task_project(session, ws, spend.task_id) if spend.task_id else None
    if project is None:
        return
    theirs = "the project's monthly spending cap"
    if not await repo.charge_cap(session, ws, project_id=project, amount=amount, period=period):
        cap = await repo.cap_of(session, ws, project_id=project)
        raise PaymentRequired(_refusal(spend, theirs, cap, period))
    await _reached(session, spend, await repo.cap_of(session, ws, project_id=project), theirs)


async def _reached(session: AsyncSession, spend: Spend, cap: SpendingCap | None, name: str) -> None:
    """The charge left less room than this job's price: the member hears that the next such job
    would be refused (``credits.cap_reached``), in the job's transaction. A refused job rolls
    back and tells nobody (its 402 says it)."""
    amount = spend.amount
    if cap is None or cap.monthly_limit - cap.spent >= amount:
        return
    left = max(cap.monthly_limit - cap.spent, 0)
    await notify(
        session,
        user_id=spend.user_id,
        kind="credits.cap_reached",
        subject_ref=f"cap:{cap.id}",
        data={
            "capId": str(cap.id),
            "cap": name,
            "limit": to_display(cap.monthly_limit),
            "left": to_display(left),
            "message": f"{name.capitalize()} of {to_display(cap.monthly_limit)} credits has "
            f"{to_display(left)} left this month: the next spend like the last one "
            f"({to_display(amount)} credits) would be refused.",
        },
    )


def _refusal(spend: Spend, name: str, cap: SpendingCap | None, period: str) -> str:
    limit = cap.monthly_limit if cap else 0
    spent = cap.spent if cap and cap.period == period else 0
    return (
        f"Spending cap reached: {spend.what} costs {to_display(spend.amount)} credits and "
        f"{name} of "
        f"{to_display(limit)} credits has {to_display(max(limit - spent, 0))} left this month"
    )


@dataclass(frozen=True)
class CapView:
    id: uuid.UUID
    user_id: uuid.UUID | None
    project_id: uuid.UUID | None
    monthly_limit: int
    spent_this_month: int


def _view(cap: SpendingCap, period: str) -> CapView:
    spent = cap.spent if cap.period == period else 0
    return CapView(cap.id, cap.user_id, cap.project_id, cap.monthly_limit, spent)


def _require_owner(principal: Principal) -> uuid.UUID:
    if principal.organization_id is None:
        raise BadRequest.field(
            "X-Organization-Slug", "spending caps belong to an organization's workspace"
        )
    if not role_allows(principal.org_role, OrgAction.SET_CAPS) and principal.key_kind != "admin":
        raise Forbidden("Only the organization's owners set spending caps")
    return principal.organization_id


async def list_caps(session: AsyncSession, principal: Principal) -> list[CapView]:
    if principal.organization_id is None:
        return []
    period = period_of(utcnow())
    return [_view(c, period) for c in await repo.caps(session, principal.workspace_id)]


async def set_cap(
    session: AsyncSession,
    principal: Principal,
    *,
    user_id: str | None,
    project_id: str | None,
    monthly_limit: Any,
) -> CapView:
    """Create or change the cap of one member or one project of the organization."""
    org = _require_owner(principal)
    if (user_id is None) == (project_id is None):
        raise BadRequest.field("userId", "give exactly one of userId and projectId")
    limit = credits_field(monthly_limit, "monthlyLimit")
    ws = principal.workspace_id
    member = parse_uuid(user_id) if user_id is not None else None
    project = parse_uuid(project_id) if project_id is not None else None
    if user_id is not None and (member is None or not await repo.is_member(session, org, member)):
        raise BadRequest.field("userId", "not a member of this organization")
    if project_id is not None and (
        project is None or not await repo.project_in_workspace(session, ws, project)
    ):
        raise BadRequest.field("projectId", "not a project of this organization")
    now = utcnow()
    cap = await repo.cap_of(session, ws, user_id=member, project_id=project)
    if cap is None:
        cap = repo.add_cap(
            session, id=uuid7(), workspace_id=ws, user_id=member, project_id=project,
            monthly_limit=limit, period=period_of(now), spent=0,
        )  # fmt: skip
    else:
        cap.monthly_limit = limit
    await session.flush()
    changed = {"userId": user_id, "projectId": project_id, "monthlyLimit": limit}
    await _audit_change(session, principal, org, cap.id, changed)
    return _view(cap, period_of(now))


async def remove_cap(session: AsyncSession, principal: Principal, cap_id: str) -> None:
    org = _require_owner(principal)
    parsed = parse_uuid(cap_id)
    if parsed is None or not await repo.delete_cap(session, principal.workspace_id, parsed):
        raise NotFound(f"Spending cap {cap_id} not found")
    await session.flush()
    await _audit_change(session, principal, org, parsed, {"removed": True})


async def _audit_change(
    session: AsyncSession,
    principal: Principal,
    organization_id: uuid.UUID,
    cap_id: uuid.UUID,
    details: dict[str, Any],
) -> None:
    await audit.record(
        session,
        "cap.changed",
        actor=principal,
        target_kind="cap",
        target_id=cap_id,
        workspace_id=principal.workspace_id,
        organization_id=organization_id,
        details=details,
    )
