"""Background loops and in-process wake-ups: the one implementation every loop uses.

``Loop(name, step)`` runs ``step()`` over and over in a task: ``step`` does one round of work and
returns how many seconds to wait before the next one (0 = at once). ``wake()`` — or a wake-up on
one of the loop's topics — ends the wait early. A failing step is logged, marks the loop
unhealthy (``readiness()``), and is retried after ``error_delay``; it never ends the loop. Waits
are clamped to ``[0, max_delay]``, so every loop polls at least that often. ``stop()`` lets the
round in progress finish, cancels it only past a grace period, and never waits without bound
(``finish``); ``stop_all`` stops a process's services side by side.

Wake-ups: ``subscribe(topic, callback)`` / ``wake(topic)`` in this process;
``await signal(session, topic)`` inside a transaction wakes the topic once the transaction
commits (never on rollback), and with ``across_processes=True`` on PostgreSQL also sends
``NOTIFY topic`` (delivered to other processes' listeners only if the transaction commits).
A wake-up may carry a ``key`` (e.g. a job id): ``subscribe(topic, callback, key=k)`` is woken
only by ``wake(topic, k)`` (and by ``wake_all(topic)``), a plain subscriber by every wake-up of
the topic. ``signal(..., key=k, listened=True)`` is for topics a ``kit.listen.Listener`` carries:
on PostgreSQL it only sends ``NOTIFY topic, 'k'`` (this process's listener delivers it too, so
there is one path), on SQLite it wakes in-process. When the process's fan-out goes through Redis
(``kit.fanout``; ``Database.fanout``) both kinds wake this process after the commit and PUBLISH
to the others instead of NOTIFY.

Background work has one shape, ``LoopService`` (Prefect's ``LoopService``): a subclass in a
domain's ``worker.py`` writes ``round()``; the loop is the machinery. ``agora.workers`` lists
every service a process runs.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.db import DATABASE_KEY, Database, notify, on_commit

log = structlog.get_logger(__name__)

Step = Callable[[], Awaitable[float]]
Callback = Callable[[], None]

STOP_GRACE_SECONDS = 5.0
"""How long a stopping loop may take to finish its round in progress (a few short transactions,
or a call bounded by its own timeout) before the round is cancelled."""
CANCEL_WAIT_SECONDS = 5.0
"""How long a stop waits for cancelled work to unwind. Cancelled work can wait for ever: an
SQLite connection cancelled mid-statement is closed by SQLAlchemy's terminate and, with aiosqlite
0.22, that close can wait on a connection thread that has already ended (wapiti-scanner/wapiti#802;
here an ``agora worker`` that never exited on SIGTERM). Past this wait such work is left to the
event loop's own cancellation at exit, which ends it."""

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
    database: Database | None = session.info.get(DATABASE_KEY)
    fanout = database.fanout if database is not None else None
    if (across_processes or listened) and fanout is not None and fanout.publishes:
        # Redis carries it (kit/fanout.py): this process now, the others once published.
        def fire_and_publish() -> Awaitable[None]:
            flags.discard(flag)
            wake(topic, key)
            return fanout.publish(topic, key)

        on_commit(session, fire_and_publish)
        return
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


async def finish(tasks: Iterable[asyncio.Task[Any]], *, name: str, grace: float = 0.0) -> None:
    """End ``tasks``: they may end by themselves for ``grace`` seconds, then they are cancelled
    and awaited for at most ``CANCEL_WAIT_SECONDS``; any still running is logged and left."""
    tasks = list(tasks)
    pending = {task for task in tasks if not task.done()}
    if pending and grace > 0:
        _done, pending = await asyncio.wait(pending, timeout=grace)
    for task in pending:
        task.cancel()
    if pending:
        _done, pending = await asyncio.wait(pending, timeout=CANCEL_WAIT_SECONDS)
    if pending:
        log.warning("background_stop_abandoned", loop=name, tasks=len(pending))
    for task in tasks:  # retrieved, so a failure is not reported again when the task is freed
        if task.done() and not task.cancelled():
            task.exception()


class Service(Protocol):
    async def stop(self) -> None: ...


async def stop_all(services: Iterable[Service]) -> None:
    """Stop ``services`` side by side: each bounds its own wait, so the slowest sets the time."""
    services = list(services)
    results = await asyncio.gather(*(s.stop() for s in services), return_exceptions=True)
    for service, result in zip(services, results, strict=True):
        if isinstance(result, Exception):
            log.error("background_stop_failed", service=type(service).__name__, exc_info=result)


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
        self._stopping: asyncio.Event | None = None  # the running task's; a new one per start
        self._unsubscribe: list[Callback] = []

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        if self.running:
            return
        self._stopping = stopping = asyncio.Event()
        self._unsubscribe = [subscribe(topic, self.wake) for topic in self.topics]
        self._task = asyncio.create_task(self._run(stopping), name=self.name)

    def unsubscribe(self) -> None:
        """Stop listening to the loop's topics (``wake()`` still works)."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []

    async def stop(self, grace: float = STOP_GRACE_SECONDS) -> None:
        """End the loop once its round in progress is over; cancel the round after ``grace``
        seconds (a cut transaction rolls back; see ``CANCEL_WAIT_SECONDS`` for what else)."""
        self.unsubscribe()
        task, self._task = self._task, None
        if task is None or self._stopping is None:
            return
        self._stopping.set()
        self.wake()
        await finish([task], name=self.name, grace=grace)

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

    async def _run(self, stopping: asyncio.Event) -> None:
        await self._sleep(self.initial_delay)
        while not stopping.is_set():
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


class LoopService:
    """One background service: a named loop (``Loop``) of rounds that a subclass writes.

    ``round()`` does one round and returns the seconds until the next (0: at once; ``None``: the
    service's ``interval``). Wake-ups on ``topics`` (or ``wake()``) end a wait early; a failing
    round is logged, marks the service not ready and is retried after ``error_delay``; waits are
    clamped to ``max_delay``. A round opens its own short transactions
    (``async with self.db.transaction() as session``) and hands the session to its domain's
    services: only a ``worker.py`` (and the CLI and ``kit/``) opens a transaction. Subclasses
    that hold more (a client, tasks in flight) extend ``stop()``.
    """

    def __init__(
        self,
        name: str,
        *,
        interval: float,
        topics: Iterable[str] = (),
        initial_delay: float = 0.0,
        error_delay: float = 1.0,
        max_delay: float = 3600.0,
    ) -> None:
        self.interval = float(interval)
        self.loop = Loop(
            name,
            self._step,
            topics=topics,
            initial_delay=initial_delay,
            error_delay=error_delay,
            max_delay=max_delay,
        )

    @property
    def name(self) -> str:
        return self.loop.name

    async def round(self) -> float | None:
        """One round of work; the seconds until the next (``None``: ``interval``)."""
        raise NotImplementedError

    async def _step(self) -> float:
        delay = await self.round()
        return self.interval if delay is None else delay

    async def start(self) -> None:
        await self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()

    def wake(self) -> None:
        self.loop.wake()

    def readiness(self) -> tuple[bool, str]:
        return self.loop.readiness()
