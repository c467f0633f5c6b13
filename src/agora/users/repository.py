"""The SQL of a person's rights to their data: the export's pages of rows and the erasure, both
driven by the declaration of ``models/personal_data.py`` (which rows of a table are about one
person, what becomes of each column), plus the ``data_exports`` and ``account_deletions`` rows."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    String,
    Text,
    and_,
    cast,
    delete,
    false,
    func,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy import Table as SqlTable
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import (
    AccountDeletion,
    Agent,
    Base,
    DataExport,
    Job,
    Organization,
    OrganizationMember,
    User,
    Workspace,
)
from agora.models.personal_data import BY_NAME, Fate, Reach, Table, Treat, anonymised_value

# A downloaded export's blob is kept this long (a download in progress finishes).
KEEP_DOWNLOADED = timedelta(hours=1)


@dataclass(frozen=True)
class Person:
    """What finds a person's rows: their id, their personal workspace's id, their address."""

    user_id: uuid.UUID
    workspace_id: uuid.UUID | None
    email: str


def _table(name: str) -> SqlTable:
    return Base.metadata.tables[name]


def _reach(table: SqlTable, reaches: Sequence[Reach], person: Person, erase: bool) -> Any:
    clauses: list[ColumnElement[bool]] = []
    for reach in reaches:
        column = table.c[reach.column]
        if reach.kind == "user":
            clauses.append(column == person.user_id)
        elif reach.kind == "workspace":
            if person.workspace_id is not None:
                clauses.append(column == person.workspace_id)
        elif reach.kind == "user_text":
            clauses.append(column == str(person.user_id))
        elif reach.kind == "mentions":
            if person.email:
                clauses.append(cast(column, Text).contains(person.email, autoescape=True))
        elif reach.kind == "parent":
            spec = BY_NAME[reach.parent]
            parent = _table(reach.parent)
            found = spec.erase_reach if erase else spec.reach
            ids = select(parent.c.id).where(_reach(parent, found, person, erase))
            clauses.append(column.in_(ids))
        else:  # pragma: no cover - the declaration's test lists the kinds
            raise ValueError(f"unknown reach {reach.kind!r}")
    return or_(*clauses) if clauses else false()


async def person(session: AsyncSession, user_id: uuid.UUID, email: str) -> Person:
    found = await session.scalar(
        select(Workspace.id).where(Workspace.owner_user_id == user_id, Workspace.kind == "personal")
    )
    return Person(user_id, found, email)


# ---- export ---------------------------------------------------------------------------------


async def export_page(
    session: AsyncSession, spec: Table, person: Person, after: tuple[Any, ...] | None, limit: int
) -> list[dict[str, Any]]:
    """One page of ``spec``'s rows about ``person``, in primary-key order after ``after``."""
    table = _table(spec.name)
    secret = {name for name, col in spec.columns.items() if col.secret}
    shown = [c for c in table.columns if c.name not in secret]
    keys = list(table.primary_key.columns)
    query = select(*shown).where(_reach(table, spec.reach, person, erase=False))
    if after is not None:
        query = query.where(tuple_(*keys) > tuple_(*after))
    rows = (await session.execute(query.order_by(*keys).limit(limit))).mappings().all()
    return [dict(row) for row in rows]


def page_key(spec: Table, row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(row[c.name] for c in _table(spec.name).primary_key.columns)


# ---- erasure --------------------------------------------------------------------------------


def _emptied(column: Any) -> Any:
    if column.nullable:
        return None
    if isinstance(column.type, String | Text):
        return ""
    default = column.default
    if default is not None and default.is_callable:
        return default.arg(None)
    if isinstance(column.type, JSON) or "JSON" in type(column.type).__name__:
        return {}
    raise ValueError(f"{column} cannot be emptied")  # pragma: no cover


async def blob_keys(session: AsyncSession, person: Person) -> list[str]:
    """The storage keys the erasure deletes: the personal workspace's files and the exports."""
    keys: list[str] = []
    for name in ("stored_files", "data_exports"):
        table = _table(name)
        spec = BY_NAME[name]
        found = await session.scalars(
            select(table.c.storage_key).where(
                _reach(table, spec.erase_reach, person, erase=True),
                table.c.storage_key.is_not(None),
            )
        )
        keys += [k for k in found if k]
    return keys


async def erase(session: AsyncSession, person: Person) -> dict[str, int]:
    """Apply every table's fate to its rows about ``person``; rows changed per table. Children
    first, so a reach through a parent still finds its rows."""
    counts: dict[str, int] = {}
    for table in reversed(Base.metadata.sorted_tables):
        spec = BY_NAME[table.name]
        if spec.fate is Fate.KEEP or not spec.erase_reach:
            continue
        where = _reach(table, spec.erase_reach, person, erase=True)
        if spec.fate is Fate.DELETE:
            result = await session.execute(delete(table).where(where))
        else:
            values = {
                name: (
                    _emptied(table.c[name])
                    if col.treat is Treat.ERASE
                    else anonymised_value(col, person.user_id)
                )
                for name, col in spec.columns.items()
                if col.treat in (Treat.ERASE, Treat.ANONYMISE)
            }
            result = await session.execute(update(table).where(where).values(**values))
        counts[table.name] = int(getattr(result, "rowcount", 0) or 0)
    return counts


async def withdraw_listings(session: AsyncSession, user_id: uuid.UUID, now: datetime) -> None:
    """A listing's owner is erased: the listing leaves the catalogue and the account."""
    await session.execute(
        update(Agent)
        .where(Agent.owner_user_id == user_id)
        .values(is_shown=False, withdrawn_at=now, owner_user_id=None)
    )


async def close_account(session: AsyncSession, user_id: uuid.UUID, now: datetime) -> None:
    """The tombstone signs in no more: suspended, no verified address, no consent kept."""
    await session.execute(
        update(User)
        .where(User.id == user_id)
        .values(
            suspended_at=now,
            email_verified_at=None,
            marketing_opt_in=False,
            job_status_notifications_opt_in=False,
            updated_at=now,
        )
    )


async def running_jobs(session: AsyncSession, workspace_id: uuid.UUID | None) -> int:
    """Jobs of the personal workspace the dispatcher has not finished with (an agent's answer
    would write their result again after the erasure)."""
    if workspace_id is None:
        return 0
    found = await session.scalar(
        select(func.count())
        .select_from(Job)
        .where(Job.workspace_id == workspace_id, Job.dispatch_state != "done")
    )
    return int(found or 0)


async def sole_owned_organizations(session: AsyncSession, user_id: uuid.UUID) -> list[str]:
    """The names of the organizations ``user_id`` is the only owner of."""
    mine = select(OrganizationMember.organization_id).where(
        OrganizationMember.user_id == user_id, OrganizationMember.role == "owner"
    )
    other_owner = (
        select(OrganizationMember.organization_id)
        .where(OrganizationMember.role == "owner", OrganizationMember.user_id != user_id)
        .scalar_subquery()
    )
    rows = await session.scalars(
        select(Organization.name)
        .where(Organization.id.in_(mine), Organization.id.not_in(other_owner))
        .order_by(Organization.name)
    )
    return list(rows)


# ---- data_exports ---------------------------------------------------------------------------


async def add(session: AsyncSession, row: DataExport | AccountDeletion) -> None:
    session.add(row)
    await session.flush()


async def open_export(session: AsyncSession, user_id: uuid.UUID) -> DataExport | None:
    """The person's export not yet built (pending), if any."""
    found = await session.scalars(
        select(DataExport)
        .where(DataExport.user_id == user_id, DataExport.state == "pending")
        .limit(1)
    )
    return found.first()


async def exports_of(session: AsyncSession, user_id: uuid.UUID, limit: int) -> list[DataExport]:
    found = await session.scalars(
        select(DataExport)
        .where(DataExport.user_id == user_id)
        .order_by(DataExport.created_at.desc(), DataExport.id.desc())
        .limit(limit)
    )
    return list(found)


async def claim_export(
    session: AsyncSession, now: datetime, until: datetime
) -> tuple[uuid.UUID, uuid.UUID, str] | None:
    """Lease the oldest pending export whose lease is free: (export id, user id, email)."""
    candidate = (
        await session.execute(
            select(DataExport.id, DataExport.user_id, User.email)
            .join(User, User.id == DataExport.user_id)
            .where(
                DataExport.state == "pending",
                or_(DataExport.lease_expires_at.is_(None), DataExport.lease_expires_at < now),
            )
            .order_by(DataExport.created_at)
            .limit(1)
        )
    ).first()
    if candidate is None:
        return None
    leased = await session.execute(
        update(DataExport)
        .where(
            DataExport.id == candidate.id,
            DataExport.state == "pending",
            or_(DataExport.lease_expires_at.is_(None), DataExport.lease_expires_at < now),
        )
        .values(lease_expires_at=until)
    )
    if not getattr(leased, "rowcount", 0):
        return None
    return candidate.id, candidate.user_id, candidate.email


async def finish_export(
    session: AsyncSession,
    export_id: uuid.UUID,
    *,
    key: str,
    size: int,
    token_hash: str,
    now: datetime,
    expires_at: datetime,
) -> bool:
    result = await session.execute(
        update(DataExport)
        .where(DataExport.id == export_id, DataExport.state == "pending")
        .values(
            state="ready",
            storage_key=key,
            size=size,
            token_hash=token_hash,
            ready_at=now,
            expires_at=expires_at,
            lease_expires_at=None,
        )
    )
    return bool(getattr(result, "rowcount", 0))


async def fail_export(session: AsyncSession, export_id: uuid.UUID, error: str) -> None:
    await session.execute(
        update(DataExport)
        .where(DataExport.id == export_id, DataExport.state == "pending")
        .values(state="failed", error=error[:500], lease_expires_at=None)
    )


async def export_by_token(session: AsyncSession, token_hash: str) -> DataExport | None:
    found = await session.scalars(select(DataExport).where(DataExport.token_hash == token_hash))
    return found.first()


async def mark_downloaded(session: AsyncSession, export_id: uuid.UUID, now: datetime) -> bool:
    """Use the one-time link, atomically (a second use finds no ready row)."""
    result = await session.execute(
        update(DataExport)
        .where(DataExport.id == export_id, DataExport.state == "ready")
        .values(state="downloaded", downloaded_at=now)
    )
    return bool(getattr(result, "rowcount", 0))


async def stale_exports(session: AsyncSession, now: datetime, limit: int) -> list[DataExport]:
    """Ready exports past their expiry, and downloaded ones, whose blob is still kept."""
    found = await session.scalars(
        select(DataExport)
        .where(
            DataExport.storage_key.is_not(None),
            or_(
                and_(
                    DataExport.state == "downloaded",
                    DataExport.downloaded_at < now - KEEP_DOWNLOADED,
                ),
                and_(DataExport.state == "ready", DataExport.expires_at < now),
            ),
        )
        .limit(limit)
    )
    return list(found)


async def forget_blob(session: AsyncSession, export_id: uuid.UUID, *, expired: bool) -> None:
    """The export's blob was deleted; an expired link becomes unusable too."""
    values: dict[str, Any] = {"storage_key": None}
    if expired:
        values |= {"state": "expired", "token_hash": None}
    await session.execute(update(DataExport).where(DataExport.id == export_id).values(**values))


# ---- account_deletions ------------------------------------------------------------------------


async def deletion_of(session: AsyncSession, user_id: uuid.UUID) -> AccountDeletion | None:
    return await session.get(AccountDeletion, user_id)


async def deletion_by_token(session: AsyncSession, token_hash: str) -> AccountDeletion | None:
    found = await session.scalars(
        select(AccountDeletion).where(AccountDeletion.token_hash == token_hash)
    )
    return found.first()


async def due_deletions(session: AsyncSession, now: datetime, limit: int) -> list[uuid.UUID]:
    found = await session.scalars(
        select(AccountDeletion.user_id)
        .where(AccountDeletion.state == "scheduled", AccountDeletion.erase_after <= now)
        .order_by(AccountDeletion.erase_after)
        .limit(limit)
    )
    return list(found)


async def claim_deletion(session: AsyncSession, user_id: uuid.UUID, now: datetime) -> bool:
    """Take a due deletion for erasure (one conditional UPDATE: one worker wins)."""
    result = await session.execute(
        update(AccountDeletion)
        .where(
            AccountDeletion.user_id == user_id,
            AccountDeletion.state == "scheduled",
            AccountDeletion.erase_after <= now,
        )
        .values(state="erased", erased_at=now, token_hash=None)
    )
    return bool(getattr(result, "rowcount", 0))
