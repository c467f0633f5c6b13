"""After-commit bookkeeping of a read: opening a job (a GET, which never writes) marks its
notifications read in its own short transaction, after the page was answered."""

from __future__ import annotations

import uuid

from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.notifications import outbox
from agora.notifications import repository as repo


async def mark_read(
    db: Database, user_id: uuid.UUID, subject_ref: str, except_kinds: list[str]
) -> None:
    async with db.transaction() as session:
        changed = await repo.mark(
            session, user_id, utcnow(), subject_ref=subject_ref, except_kinds=except_kinds
        )
        if changed:
            await outbox.signal_inbox(session, user_id)
