"""Background loops and in-process wake-ups: the one implementation every loop uses.

``Loop(name, step)`` runs ``step()`` over and over in a task: ``step`` does one round of work and
returns how many seconds to wait before the next one (0 = at once). ``wake()`` — or a wake-up on
one of the loop's topics — ends the wait early. A failing step is logged, marks the loop
unhealthy (``readiness()``), and is retried after ``error_delay``; it never ends the loop. Waits
are clamped to ``[0, max_delay]``, so every loop polls at least that often.

Wake-ups: ``subscribe(topic, callback)`` / ``wake(topic)`` in this process;
``await signal(session, topic)`` inside a transaction wakes the topic once the transaction
commits (never on rollback), and with ``across_processes=True`` on PostgreSQL also sends
``NOTIFY topic`` (delivered to other processes' listeners only if the transaction commits).
A wake-up may carry a ``key`` (e.g. a job id): ``subscribe(topic, callback, key=k)`` is woken
only by ``wake(topic, k)`` (and by ``wake_all(topic)``), a plain subscriber by every wake-up of
the topic. ``signal(..., key=k, listened=True)`` is for topics a ``kit.listen.Listener`` carries:
on PostgreSQL it only sends ``NOTIFY topic, 'k'`` (this process's listener delivers it too, so
there is one path), on SQLite it wakes in-process.
The domain keeps its rounds (``Dispatcher.round``); the machinery lives here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.db import notify, on_commit

log = structlog.get_logger(__name__)

Step = Callable[[], Awaitable[float]]
Callback = Callable[[], None]

# (topic, key) → callbacks; key None: every wake-up of the topic.
_subscribers: defaultdict[tuple[str, str | None], list[Callback]] = defaultdict(list)


def subscribe(topic: str, callback: Callback, *, key: str | None = None) -> Callback:
    """Call ``callback`` on every wake-up of ``topic`` (of ``topic`` and ``key`` when given);
    returns the function that unsubscribes."""
    _subscribers[(topic, key)].append(callback)

    def unsubscribe() -> None:
        callbacks = _subscribers.get((topic, key))
        if callbacks is None:
            return
        with contextlib.suppress(ValueError):
            callbacks.remove(callback)
        if not callbacks and key is not None:  # keyed entries come and go (no growth)
            _subscribers.pop((topic, key), None)

    return unsubscribe


def wake(topic: str, key: str | None = None) -> None:
    callbacks = list(_subscribers.get((topic, None), ()))
    if key is not None:
        callbacks += _subscribers.get((topic, key), ())
    for callback in callbacks:
        callback()


def wake_all(topic: str) -> None:
    """Wake every subscriber of ``topic``, whatever its key (e.g. after missed notifications)."""
    for (each, _key), callbacks in list(_subscribers.items()):
        if each == topic:
            for callback in list(callbacks):
                callback()


async def signal(
    session: AsyncSession,
    topic: str,
    *,
    key: str | None = None,
    across_processes: bool = False,
    listened: bool = False,
) -> None:
    """Wake ``topic`` (``key``) after this transaction commits (once per transaction, topic
    and key). ``listened``: on PostgreSQL only NOTIFY (see the module docstring)."""
    flags: set[tuple[str, str | None]] = session.info.setdefault("agora_signals", set())
    flag = (topic, key)
    if flag in flags:
        return
    flags.add(flag)
    postgres = session.get_bind().dialect.name == "postgresql"
    if (across_processes or listened) and postgres:
        await notify(session, topic, key)
    if listened and postgres:
        on_commit(session, lambda: flags.discard(flag))
        return

    def fire() -> None:
        flags.discard(flag)
        wake(topic, key)

    on_commit(session, fire)


class Loop:
    """A named background loop around ``step`` (see the module docstring)."""

    def __init__(
        self,
        name: str,
        step: Step,
        *,
        topics: Iterable[str] = (),
        initial_delay: float = 0.0,
        error_delay: float = 1.0,
        max_delay: float = 3600.0,
    ) -> None:
        self.name, self.step = name, step
        self.topics = tuple(topics)
        self.initial_delay, self.error_delay, self.max_delay = initial_delay, error_delay, max_delay
        self.healthy = True
        self.detail = "ok"
        self.rounds = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe: list[Callback] = []

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        if self.running:
            return
        self._unsubscribe = [subscribe(topic, self.wake) for topic in self.topics]
        self._task = asyncio.create_task(self._run(), name=self.name)

    def unsubscribe(self) -> None:
        """Stop listening to the loop's topics (``wake()`` still works)."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []

    async def stop(self) -> None:
        self.unsubscribe()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self) -> None:
        self._wake.set()

    def readiness(self) -> tuple[bool, str]:
        if not self.running:
            return False, "not running"
        return self.healthy, self.detail

    async def _sleep(self, delay: float) -> None:
        delay = min(max(delay, 0.0), self.max_delay)
        if delay > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

    async def _run(self) -> None:
        await self._sleep(self.initial_delay)
        while True:
            self._wake.clear()
            try:
                delay = await self.step()
                self.healthy, self.detail = True, "ok"
            except Exception as exc:  # report, back off, keep going
                with contextlib.suppress(Exception):  # a broken log sink must not end the loop
                    log.exception("background_step_failed", loop=self.name)
                self.healthy, self.detail = False, f"error: {type(exc).__name__}"
                delay = self.error_delay
            self.rounds += 1
            await self._sleep(delay)
