"""All SQL of billing: packs, purchases, applied Stripe events, spending caps, the workspace's
billing columns."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.db import add_unless_taken
from agora.kit.timeutil import utcnow
from agora.models import (
    CreditPack,
    CreditPurchase,
    OrganizationMember,
    Project,
    PromotionCode,
    PromotionRedemption,
    SpendingCap,
    StripeEvent,
    Task,
    User,
    Workspace,
)

# ---- packs -------------------------------------------------------------------------------


async def packs(session: AsyncSession, *, active_only: bool) -> list[CreditPack]:
    query = select(CreditPack).order_by(CreditPack.price, CreditPack.id)
    if active_only:
        query = query.where(CreditPack.active.is_(True))
    return list(await session.scalars(query))


async def pack(session: AsyncSession, pack_id: uuid.UUID) -> CreditPack | None:
    return await session.get(CreditPack, pack_id)


def add_pack(session: AsyncSession, **values: Any) -> CreditPack:
    row = CreditPack(**values)
    session.add(row)
    return row


# ---- workspaces ----------------------------------------------------------------------------


async def workspace_billing(session: AsyncSession, workspace_id: uuid.UUID) -> Workspace | None:
    return await session.get(Workspace, workspace_id)


async def user_email(session: AsyncSession, user_id: uuid.UUID) -> str | None:
    found: str | None = await session.scalar(select(User.email).where(User.id == user_id))
    return found


async def keep_customer(session: AsyncSession, workspace_id: uuid.UUID, customer: str) -> None:
    """Remember the workspace's Stripe customer, unless one is remembered already."""
    await session.execute(
        update(Workspace)
        .where(Workspace.id == workspace_id, Workspace.stripe_customer_id.is_(None))
        .values(stripe_customer_id=customer, updated_at=utcnow())
    )


# ---- purchases -------------------------------------------------------------------------------


def add_purchase(session: AsyncSession, **values: Any) -> CreditPurchase:
    row = CreditPurchase(**values)
    session.add(row)
    return row


async def purchase(
    session: AsyncSession, purchase_id: uuid.UUID, workspace_id: uuid.UUID
) -> CreditPurchase | None:
    return await session.scalar(
        select(CreditPurchase).where(
            CreditPurchase.id == purchase_id, CreditPurchase.workspace_id == workspace_id
        )
    )


async def purchases(
    session: AsyncSession, workspace_id: uuid.UUID, limit: int
) -> list[CreditPurchase]:
    return list(
        await session.scalars(
            select(CreditPurchase)
            .where(CreditPurchase.workspace_id == workspace_id)
            .order_by(CreditPurchase.created_at.desc(), CreditPurchase.id.desc())
            .limit(limit)
        )
    )


async def purchase_by_intent_for_update(
    session: AsyncSession, intent_id: str
) -> CreditPurchase | None:
    return await session.scalar(
        select(CreditPurchase)
        .where(CreditPurchase.stripe_payment_intent_id == intent_id)
        .with_for_update()
    )


async def purchase_by_charge_for_update(
    session: AsyncSession, charge_id: str
) -> CreditPurchase | None:
    return await session.scalar(
        select(CreditPurchase).where(CreditPurchase.stripe_charge_id == charge_id).with_for_update()
    )


async def paid_purchases(session: AsyncSession) -> list[CreditPurchase]:
    """Every purchase that was paid (for reconciliation with Stripe)."""
    return list(
        await session.scalars(
            select(CreditPurchase)
            .where(CreditPurchase.paid_at.is_not(None))
            .order_by(CreditPurchase.created_at, CreditPurchase.id)
        )
    )


# ---- Stripe events -------------------------------------------------------------------------


async def record_event(session: AsyncSession, event_id: str, event_type: str) -> bool:
    """Store the event's id; False when it is stored already (a replay, or a concurrent delivery
    that committed first: PostgreSQL makes this insert wait for it)."""
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    statement = (
        insert(StripeEvent)
        .values(id=event_id, type=event_type, created_at=utcnow())
        .on_conflict_do_nothing(index_elements=["id"])
        .returning(StripeEvent.id)
    )
    return (await session.execute(statement)).first() is not None


# ---- spending caps ---------------------------------------------------------------------------


def _room(amount: Any, period: Any) -> Any:
    """What the cap has spent in ``period`` (a cap last used in an earlier month starts at 0)."""
    return case((SpendingCap.period == period, SpendingCap.spent), else_=0)


async def charge_cap(
    session: AsyncSession,
    workspace_id: uuid.UUID,
    *,
    user_id: uuid.UUID | None = None,
    project_id: uuid.UUID | None = None,
    amount: int,
    period: str,
) -> bool:
    """Add ``amount`` to the subject's cap for ``period`` if it stays within the limit: one
    conditional UPDATE (PostgreSQL re-checks it on the locked row, SQLite runs one writer), so
    concurrent jobs never pass the cap together. True when charged or when there is no cap."""
    subject = (
        SpendingCap.user_id == user_id
        if user_id is not None
        else SpendingCap.project_id == project_id
    )
    spent = _room(amount, period)
    charged = await session.execute(
        update(SpendingCap)
        .where(
            SpendingCap.workspace_id == workspace_id,
            subject,
            spent + amount <= SpendingCap.monthly_limit,
        )
        .values(spent=spent + amount, period=period, updated_at=utcnow())
        .returning(SpendingCap.id)
    )
    if charged.first() is not None:
        return True
    exists = await session.scalar(
        select(SpendingCap.id).where(SpendingCap.workspace_id == workspace_id, subject)
    )
    return exists is None


async def cap_of(
    session: AsyncSession,
    workspace_id: uuid.UUID,
    *,
    user_id: uuid.UUID | None = None,
    project_id: uuid.UUID | None = None,
) -> SpendingCap | None:
    subject = (
        SpendingCap.user_id == user_id
        if user_id is not None
        else SpendingCap.project_id == project_id
    )
    return await session.scalar(
        select(SpendingCap).where(SpendingCap.workspace_id == workspace_id, subject)
    )


async def caps(session: AsyncSession, workspace_id: uuid.UUID) -> list[SpendingCap]:
    return list(
        await session.scalars(
            select(SpendingCap)
            .where(SpendingCap.workspace_id == workspace_id)
            .order_by(SpendingCap.created_at, SpendingCap.id)
        )
    )


def add_cap(session: AsyncSession, **values: Any) -> SpendingCap:
    row = SpendingCap(**values)
    session.add(row)
    return row


async def delete_cap(session: AsyncSession, workspace_id: uuid.UUID, cap_id: uuid.UUID) -> bool:
    found = await session.scalar(
        select(SpendingCap).where(
            SpendingCap.id == cap_id, SpendingCap.workspace_id == workspace_id
        )
    )
    if found is None:
        return False
    await session.delete(found)
    return True


async def task_project(
    session: AsyncSession, workspace_id: uuid.UUID, task_id: uuid.UUID
) -> uuid.UUID | None:
    found: uuid.UUID | None = await session.scalar(
        select(Task.project_id).where(Task.id == task_id, Task.workspace_id == workspace_id)
    )
    return found


async def is_member(session: AsyncSession, organization_id: uuid.UUID, user_id: uuid.UUID) -> bool:
    found = await session.scalar(
        select(OrganizationMember.user_id).where(
            OrganizationMember.organization_id == organization_id,
            OrganizationMember.user_id == user_id,
        )
    )
    return found is not None


async def project_in_workspace(
    session: AsyncSession, workspace_id: uuid.UUID, project_id: uuid.UUID
) -> bool:
    found = await session.scalar(
        select(Project.id).where(Project.id == project_id, Project.workspace_id == workspace_id)
    )
    return found is not None


async def payers(session: AsyncSession, workspace_id: uuid.UUID) -> list[uuid.UUID]:
    """Who pays for the workspace: its owner, or the organization's owners (their user ids)."""
    workspace = await session.get(Workspace, workspace_id)
    if workspace is None:
        return []
    if workspace.owner_user_id is not None:
        query = select(User.id).where(User.id == workspace.owner_user_id)
    else:
        query = (
            select(User.id)
            .join(OrganizationMember, OrganizationMember.user_id == User.id)
            .where(
                OrganizationMember.organization_id == workspace.organization_id,
                OrganizationMember.role == "owner",
            )
        )
    return list(await session.scalars(query))


# ---- promotion codes (docs/billing.md, "Promotion codes") ----------------------------------


def add_code(session: AsyncSession, **values: Any) -> PromotionCode:
    row = PromotionCode(**values)
    session.add(row)
    return row


async def code_by_text(session: AsyncSession, code: str) -> PromotionCode | None:
    return await session.scalar(select(PromotionCode).where(PromotionCode.code == code))


async def code_by_id(session: AsyncSession, code_id: uuid.UUID) -> PromotionCode | None:
    return await session.get(PromotionCode, code_id)


async def codes(session: AsyncSession, limit: int) -> list[PromotionCode]:
    rows = await session.scalars(
        select(PromotionCode).order_by(PromotionCode.created_at.desc()).limit(limit)
    )
    return list(rows)


async def take_code_use(session: AsyncSession, code_id: uuid.UUID, now: datetime) -> bool:
    """One more use of a code, if it is on, unexpired and below its limit in total: one
    conditional UPDATE (compare-and-set on the counter), so concurrent checkouts never pass the
    limit (PostgreSQL re-checks the condition on the locked row; SQLite has one writer)."""
    result = await session.execute(
        update(PromotionCode)
        .where(
            PromotionCode.id == code_id,
            PromotionCode.active.is_(True),
            or_(PromotionCode.max_uses.is_(None), PromotionCode.uses < PromotionCode.max_uses),
            or_(PromotionCode.expires_at.is_(None), PromotionCode.expires_at > now),
        )
        .values(uses=PromotionCode.uses + 1)
        .returning(PromotionCode.id)
        .execution_options(synchronize_session=False)
    )
    return result.first() is not None


async def uses_by(session: AsyncSession, code_id: uuid.UUID, user_id: uuid.UUID) -> int:
    count = await session.scalar(
        select(func.count())
        .select_from(PromotionRedemption)
        .where(PromotionRedemption.code_id == code_id, PromotionRedemption.user_id == user_id)
    )
    return int(count or 0)


async def add_redemption(session: AsyncSession, **values: Any) -> bool:
    """Insert a person's nth use of a code; False when a concurrent checkout took that n
    (the unique (code, user, seq))."""
    return await add_unless_taken(session, PromotionRedemption(**values))
