"""One PostgreSQL LISTEN connection per process, turning notifications into in-process wake-ups.

``Listener(url, channels)`` keeps one asyncpg connection LISTENing on ``channels``; each
notification becomes ``background.wake(channel, payload)`` (the payload is the wake-up's key,
e.g. a job id, so only that key's subscribers wake). It runs as a ``kit.background.Loop``:
a round connects when there is no live connection, and otherwise checks the connection with a
``SELECT 1`` every ``check_seconds`` (a connection dropped by the server — a restart,
``pg_terminate_backend`` — is noticed at once through asyncpg's termination callback). A failed
connect is retried with exponential backoff (``min_backoff`` doubling up to ``max_backoff``).
After every (re)connect all subscribers of the channels are woken (``wake_all``): notifications
sent while no connection listened are lost, so subscribers read again. ``listening`` tells
subscribers whether to trust notifications or to poll (their fallback).

Started lazily (``ensure_started``) by the first subscriber, so a process that never needs it
opens no connection; its ``application_name`` is ``agora-listen`` (pg_stat_activity). Not used
on SQLite (one process; in-process wake-ups carry everything).
"""

from __future__ import annotations

import contextlib
from typing import Any

import structlog
from sqlalchemy import make_url

from agora.kit import background

log = structlog.get_logger(__name__)

APPLICATION_NAME = "agora-listen"  # how the connection shows in pg_stat_activity


class Receiver:
    """One connection that turns another process's messages into in-process wake-ups, kept up
    by a ``kit.background.Loop``: a round connects when it is down (exponential backoff from
    ``min_backoff`` to ``max_backoff`` on failure; after each connect every subscriber of
    ``channels`` is woken, since what was sent meanwhile is lost) and otherwise checks it
    (``check``) every ``check_seconds``. A subclass connects, checks and closes; ``Listener``
    (PostgreSQL LISTEN) and ``kit.fanout.RedisReceiver`` (Redis SUBSCRIBE) are the two."""

    event = "listen"  # the log events' prefix: <event>_connect_failed, <event>_connection_lost

    def __init__(
        self,
        name: str,
        channels: tuple[str, ...],
        *,
        check_seconds: float = 30.0,
        min_backoff: float = 0.5,
        max_backoff: float = 30.0,
        connect_timeout: float = 5.0,
    ) -> None:
        self.channels = channels
        self.check_seconds = check_seconds
        self.min_backoff, self.max_backoff = min_backoff, max_backoff
        self.connect_timeout = connect_timeout
        self.connects = 0  # successful connects (the first one included)
        self.failures = 0  # failed connects
        self._backoff = min_backoff
        self.loop = background.Loop(name, self.round, max_delay=max(check_seconds, max_backoff))

    @property
    def listening(self) -> bool:
        raise NotImplementedError

    async def _connect(self) -> None:
        raise NotImplementedError

    async def _close(self) -> None:
        raise NotImplementedError

    async def check(self) -> None:
        """Raise if the live connection is gone (noticed otherwise by default)."""

    async def ensure_started(self) -> None:
        await self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()
        await self._close()

    def readiness(self) -> tuple[bool, str]:
        return self.loop.readiness()

    async def round(self) -> float:
        """Connect if needed (backoff on failure), else check the connection."""
        if not self.listening:
            await self._close()
            try:
                await self._connect()
            except Exception as exc:  # the subscribers poll meanwhile
                self.failures += 1
                await self._close()
                delay, self._backoff = self._backoff, min(self._backoff * 2, self.max_backoff)
                log.warning(f"{self.event}_connect_failed", error=str(exc), retry_in=delay)
                return delay
            self._backoff = self.min_backoff
            self.connects += 1
            for channel in self.channels:  # messages may have been missed meanwhile
                background.wake_all(channel)
            return self.check_seconds
        try:
            await self.check()
        except Exception as exc:
            log.warning(f"{self.event}_connection_lost", error=str(exc))
            await self._close()
            return 0.0
        return self.check_seconds


class Listener(Receiver):
    def __init__(
        self,
        url: str,
        channels: tuple[str, ...],
        *,
        check_seconds: float = 30.0,
        min_backoff: float = 0.5,
        max_backoff: float = 30.0,
        connect_timeout: float = 5.0,
    ) -> None:
        super().__init__(
            f"listen-{'-'.join(channels)}",
            channels,
            check_seconds=check_seconds,
            min_backoff=min_backoff,
            max_backoff=max_backoff,
            connect_timeout=connect_timeout,
        )
        self.dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._connection: Any = None  # asyncpg.Connection

    @property
    def listening(self) -> bool:
        return self._connection is not None and not self._connection.is_closed()

    async def check(self) -> None:
        await self._connection.fetchval("SELECT 1", timeout=self.connect_timeout)

    async def _connect(self) -> None:
        import asyncpg

        connection = await asyncpg.connect(
            self.dsn,
            timeout=self.connect_timeout,
            server_settings={"application_name": APPLICATION_NAME},
        )
        try:
            for channel in self.channels:
                await connection.add_listener(channel, _deliver)
            connection.add_termination_listener(lambda *_: self.loop.wake())
        except BaseException:
            with contextlib.suppress(Exception):
                await connection.close(timeout=self.connect_timeout)
            raise
        self._connection = connection

    async def _close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None and not connection.is_closed():
            with contextlib.suppress(Exception):
                await connection.close(timeout=self.connect_timeout)


def _deliver(_connection: Any, _pid: int, channel: str, payload: str) -> None:
    background.wake(channel, payload or None)
