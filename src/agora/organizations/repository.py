"""All SQL for organizations run by their members."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Organization, OrganizationMember, User


async def members(session: AsyncSession, org_id: uuid.UUID) -> list[dict[str, Any]]:
    rows = await session.execute(
        select(
            User.id, User.name, User.email, OrganizationMember.role, OrganizationMember.created_at
        )
        .join(OrganizationMember, OrganizationMember.user_id == User.id)
        .where(OrganizationMember.organization_id == org_id)
        .order_by(OrganizationMember.created_at, User.id)
        .limit(1000)
    )
    return [
        {"user_id": uid, "name": name, "email": email, "role": role, "joined_at": joined}
        for uid, name, email, role, joined in rows
    ]


async def owner_count(session: AsyncSession, org_id: uuid.UUID) -> int:
    query = (
        select(func.count())
        .select_from(OrganizationMember)
        .where(OrganizationMember.organization_id == org_id, OrganizationMember.role == "owner")
    )
    return int(await session.scalar(query) or 0)


async def set_role(session: AsyncSession, org_id: uuid.UUID, user_id: uuid.UUID, role: str) -> None:
    await session.execute(
        update(OrganizationMember)
        .where(OrganizationMember.organization_id == org_id, OrganizationMember.user_id == user_id)
        .values(role=role)
        .execution_options(synchronize_session=False)
    )


async def remove_member(session: AsyncSession, org_id: uuid.UUID, user_id: uuid.UUID) -> None:
    await session.execute(
        delete(OrganizationMember).where(
            OrganizationMember.organization_id == org_id, OrganizationMember.user_id == user_id
        )
    )


async def delete_organization(session: AsyncSession, org_id: uuid.UUID) -> None:
    await session.execute(delete(Organization).where(Organization.id == org_id))


async def lock_organization(session: AsyncSession, org_id: uuid.UUID) -> Organization | None:
    """The organization row, locked until commit (PostgreSQL; SQLite writers are serialised):
    owner counts and role changes stay consistent under concurrent requests."""
    return await session.scalar(
        select(Organization).where(Organization.id == org_id).with_for_update()
    )
