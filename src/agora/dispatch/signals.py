"""Wake-ups for the dispatcher when a job becomes ready (created, answered, retried).

Call ``await job_ready(session)`` inside the transaction that made the job ready. After that
transaction commits, every dispatcher in this process is woken at once (an in-process signal);
on PostgreSQL the transaction also sends ``NOTIFY agora_jobs``, which PostgreSQL delivers to the
listening workers of other processes only if the transaction commits. Nothing fires on rollback.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.db import on_commit

CHANNEL = "agora_jobs"
_FLAG = "agora_job_ready"
_subscribers: list[Callable[[], None]] = []


def subscribe(callback: Callable[[], None]) -> Callable[[], None]:
    """Call ``callback`` on every local wake-up; returns the function that unsubscribes."""
    _subscribers.append(callback)

    def unsubscribe() -> None:
        with contextlib.suppress(ValueError):
            _subscribers.remove(callback)

    return unsubscribe


def wake_local() -> None:
    for callback in list(_subscribers):
        callback()


async def job_ready(session: AsyncSession) -> None:
    """Wake the dispatchers once this transaction commits (once per transaction)."""
    if session.info.get(_FLAG):
        return
    session.info[_FLAG] = True
    if session.get_bind().dialect.name == "postgresql":
        await session.execute(text(f"NOTIFY {CHANNEL}"))

    def fire() -> None:
        session.info.pop(_FLAG, None)
        wake_local()

    on_commit(session, fire)
