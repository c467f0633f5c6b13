"""Units of work: reads on PostgreSQL autocommit (no BEGIN/COMMIT), so they refuse writes."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from agora.kit.db import Database, WriteInReadOnlyUnit
from agora.models import User
from tests.conftest import MakeUser


@pytest.mark.postgres_only
async def test_a_read_unit_of_work_refuses_to_write(db: Database, make_user: MakeUser) -> None:
    user = await make_user()
    with pytest.raises(WriteInReadOnlyUnit):
        async with db.transaction(write=False) as session:
            await session.execute(update(User).where(User.id == user.user_id).values(name="X"))
    async with db.transaction(write=False) as session:
        assert await session.scalar(select(User.name).where(User.id == user.user_id)) != "X"


async def test_a_write_unit_of_work_still_rolls_back(db: Database, make_user: MakeUser) -> None:
    user = await make_user()

    async def rename_then_fail() -> None:
        async with db.transaction() as session:
            await session.execute(update(User).where(User.id == user.user_id).values(name="X"))
            raise RuntimeError("undo")

    with pytest.raises(RuntimeError):
        await rename_then_fail()
    async with db.transaction(write=False) as session:
        assert await session.scalar(select(User.name).where(User.id == user.user_id)) != "X"
