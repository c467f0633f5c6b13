"""All SQL for passkeys and recovery codes (accounts/passkeys.py)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Passkey, RecoveryCode


async def passkeys_of(session: AsyncSession, user_id: uuid.UUID) -> list[Passkey]:
    found = await session.scalars(
        select(Passkey).where(Passkey.user_id == user_id).order_by(Passkey.created_at, Passkey.id)
    )
    return list(found)


async def passkey_count(session: AsyncSession, user_id: uuid.UUID) -> int:
    count = await session.scalar(
        select(func.count()).select_from(Passkey).where(Passkey.user_id == user_id)
    )
    return int(count or 0)


async def passkey_by_id(session: AsyncSession, passkey_id: uuid.UUID) -> Passkey | None:
    return await session.get(Passkey, passkey_id)


async def passkey_by_credential(session: AsyncSession, credential_id: str) -> Passkey | None:
    return await session.scalar(select(Passkey).where(Passkey.credential_id == credential_id))


async def advance_counter(
    session: AsyncSession, passkey_id: uuid.UUID, seen: int, new: int, now: datetime
) -> bool:
    """Compare-and-set of the signature counter: only from the value the check was made
    against (two concurrent uses of one assertion: one wins)."""
    result = await session.execute(
        update(Passkey)
        .where(Passkey.id == passkey_id, Passkey.sign_count == seen)
        .values(sign_count=new, last_used_at=now)
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0))


async def delete_passkey(session: AsyncSession, passkey_id: uuid.UUID) -> None:
    await session.execute(delete(Passkey).where(Passkey.id == passkey_id))


async def replace_recovery_codes(
    session: AsyncSession, user_id: uuid.UUID, hashes: list[str]
) -> None:
    """The user's recovery codes become ``hashes`` (older ones, used or not, are gone)."""
    await session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user_id))
    session.add_all(RecoveryCode(user_id=user_id, code_hash=h) for h in hashes)
    await session.flush()


async def unused_recovery_codes(session: AsyncSession, user_id: uuid.UUID) -> int:
    count = await session.scalar(
        select(func.count())
        .select_from(RecoveryCode)
        .where(RecoveryCode.user_id == user_id, RecoveryCode.used_at.is_(None))
    )
    return int(count or 0)


async def use_recovery_code(
    session: AsyncSession, user_id: uuid.UUID, code_hash: str, now: datetime
) -> bool:
    """Compare-and-set: the user's unused code with this hash is used now (once)."""
    result = await session.execute(
        update(RecoveryCode)
        .where(
            RecoveryCode.user_id == user_id,
            RecoveryCode.code_hash == code_hash,
            RecoveryCode.used_at.is_(None),
        )
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0))
