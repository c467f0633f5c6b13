"""A streaming read replica (``AGORA_DATABASE_REPLICA_URL``): where read units of work read, and
when they read the primary instead (docs/operations.md, "Read replica").

- **Routing.** A read unit (a ``Mode.READ`` route, a read-only MCP tool: ``kit.units``) opens
  on the primary, where its caller is authenticated (a key created or revoked a moment ago counts
  at once). Once its reader is known — ``route_reads(session, reader)``, called by the
  authentication, or for a public route asked without credentials — its statements go to the
  replica: the ORM's (``RoutedSession.get_bind``) and the prepared lean reads
  (``session.info[READS_KEY]``, ``kit/reads.py``). Write units, the ``CALLS_OUT`` read phase,
  ``read_committed``, workers and the CLI always use the primary.
- **Read-your-writes.** A write unit that commits with a known reader marks that person as
  having written (``note_write``) before the answer is sent: in process and, when Redis is
  configured, in Redis (``SET … PX window``), so every API process sees it. Their read units then
  read the primary for ``read_your_writes_seconds``. While Redis cannot be asked, a reader's
  units read the primary (consistency first).
- **Lag and failure.** The replica's lag is measured at most every ``check_seconds`` per process
  (not per request), by the first read unit that finds the last measure stale, the others using
  the last one meanwhile: ``0`` when everything received is replayed, else the age of the last
  replayed transaction (``pg_last_xact_replay_timestamp()``). Above ``max_lag_seconds``, or when
  the replica cannot be reached, read units read the primary until a later measure is good. A
  lean read that fails to reach the replica marks it unavailable and runs on the primary; a
  route whose unit failed on the replica runs again on the primary (``kit.units``). Each
  decision is counted in ``agora_replica_routing_total{target=…}``; a change of state is logged.
"""

from __future__ import annotations

import asyncio
import math
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import structlog
from prometheus_client import Counter, Gauge
from redis.asyncio import Redis
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import Session

from agora.kit.metrics import REGISTRY
from agora.kit.reads import READS_KEY, Prepared, R, Reads
from agora.kit.unavailable import database_unavailable

log = structlog.get_logger(__name__)

READ_UNIT_KEY = "agora_read_unit"  # in a read unit's session.info (kit.units): it may be routed
REPLICA_KEY = "agora_replica"  # in every read session's info when a replica is configured
ON_REPLICA_KEY = "agora_on_replica"  # the replica's engine, once the unit reads it
READER_KEY = "agora_reader"  # the person the unit works for, once known

REPLICA = "replica"
OWN_WRITE = "own_write"  # the reader wrote within the window
REDIS_UNAVAILABLE = "redis_unavailable"  # whether the reader wrote cannot be asked
LAGGING = "lagging"
UNAVAILABLE = "unavailable"
UNCHECKED = "unchecked"  # no measure yet (the process has just started)

CHECK_TIMEOUT_SECONDS = 2.0
REDIS_TIMEOUT_SECONDS = 0.5
REDIS_RETRY_SECONDS = 5.0
MAX_MARKS = 100_000  # in-process write marks kept; expired ones are dropped past this
# Everything received replayed: no lag, however old the last transaction; else the age of the
# last replayed one (NULL before any: lagging). On a server not in recovery: 0.
LAG_SQL = (
    "SELECT CASE WHEN NOT pg_is_in_recovery() THEN 0"
    " WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0"
    " ELSE EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) END"
)

ROUTING = Counter(
    "agora_replica_routing_total",
    "Read units of work by where they read: the replica, or the primary and why "
    "(own_write, redis_unavailable, lagging, unavailable, unchecked).",
    ["target"],
    registry=REGISTRY,
)
LAG = Gauge(
    "agora_replica_lag_seconds",
    "The read replica's replay lag at its last measure (seconds).",
    registry=REGISTRY,
)


@dataclass(frozen=True)
class ReplicaOptions:
    url: str
    max_lag_seconds: float = 5.0
    check_seconds: float = 2.0
    read_your_writes_seconds: float = 5.0
    redis_url: str | None = None
    key_prefix: str = "agora"


class RoutedSession(Session):
    """A read session that runs its statements on the replica once routed there."""

    def get_bind(self, mapper: Any = None, **kw: Any) -> Any:
        replica: AsyncEngine | None = self.info.get(ON_REPLICA_KEY)
        if replica is not None:
            bind: Engine = replica.sync_engine
            return bind
        return super().get_bind(mapper, **kw)


class ReplicaReads(Reads):
    """The lean reads on the replica's connections; one that cannot reach it runs on the
    primary's instead (and marks the replica unavailable)."""

    def __init__(
        self, replica: Replica, url: str, primary: Reads, json_loads: Callable[[Any], Any]
    ) -> None:
        super().__init__(  # sized and cached like the primary's (AGORA_DATABASE_*)
            url,
            primary.dialect,
            json_loads,
            pool_size=primary.pool_size,
            statement_cache=primary.statement_cache,
        )
        self._replica = replica
        self._primary = primary

    async def all(self, prepared: Prepared[R], **params: Any) -> list[R]:
        try:
            return await super().all(prepared, **params)
        except Exception as exc:
            if not database_unavailable(exc):
                raise
            self._replica.failed(exc)
        return await self._primary.all(prepared, **params)


class Replica:
    """One per process (``Database.replica``): the replica's engine and lean reads, its last
    measured state, and who wrote recently."""

    def __init__(
        self,
        options: ReplicaOptions,
        engine: AsyncEngine,
        primary_reads: Reads,
        json_loads: Callable[[Any], Any],
    ) -> None:
        self.options = options
        self.engine = engine  # autocommit, SELECTs only (kit.db)
        self.reads = ReplicaReads(self, options.url, primary_reads, json_loads)
        self.state = UNCHECKED
        self._next_check = -math.inf
        self._checking = asyncio.Lock()
        self._marks: dict[str, float] = {}  # reader → monotonic time its window ends
        self._redis = (
            Redis.from_url(
                options.redis_url,
                socket_timeout=REDIS_TIMEOUT_SECONDS,
                socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
            )
            if options.redis_url
            else None
        )
        self._redis_down_until = 0.0

    # ---- where a read unit reads -------------------------------------------------------------

    async def target(self, reader: str | None) -> str:
        """``REPLICA``, or why the unit reads the primary."""
        if reader is not None:
            own = await self._wrote_recently(reader)
            if own is not None:
                return own
        await self._measure_if_stale()
        return self.state

    async def _measure_if_stale(self) -> None:
        if time.monotonic() < self._next_check or self._checking.locked():
            return  # measured lately, or being measured: the last measure holds meanwhile
        async with self._checking:
            if time.monotonic() < self._next_check:
                return
            try:
                async with asyncio.timeout(CHECK_TIMEOUT_SECONDS):
                    async with self.engine.connect() as conn:
                        lag = (await conn.exec_driver_sql(LAG_SQL)).scalar()
            except Exception as exc:
                self._set(UNAVAILABLE, error=type(exc).__name__)
            else:
                seconds = math.inf if lag is None else float(lag)
                LAG.set(seconds)
                fresh = seconds <= self.options.max_lag_seconds
                self._set(REPLICA if fresh else LAGGING, lag_seconds=seconds)
            finally:
                self._next_check = time.monotonic() + self.options.check_seconds

    async def readiness(self) -> tuple[bool, str]:
        """What ``/readyz`` says of the replica: healthy (``ok``) or degraded, saying why reads
        go to the primary (never a reason to refuse traffic: the primary serves them)."""
        await self._measure_if_stale()
        if self.state == REPLICA:
            return True, "ok"
        return False, f"degraded: reads go to the primary ({self.state})"

    def failed(self, exc: BaseException) -> None:
        """A read could not reach the replica: the primary until the next good measure."""
        self._set(UNAVAILABLE, error=type(exc).__name__)
        self._next_check = time.monotonic() + self.options.check_seconds

    def _set(self, state: str, **facts: Any) -> None:
        if state != self.state:
            if state == REPLICA:
                log.info("replica_in_use", **facts)
            else:
                log.warning("replica_fallback", reason=state, **facts)
        self.state = state

    # ---- read-your-writes ----------------------------------------------------------------------

    def _key(self, reader: str) -> str:
        return f"{self.options.key_prefix}-wrote:{reader}"

    async def note_write(self, reader: str) -> None:
        """``reader`` has just committed a write: their reads go to the primary for the window."""
        window = self.options.read_your_writes_seconds
        if window <= 0:
            return
        now = time.monotonic()
        if len(self._marks) >= MAX_MARKS:
            self._marks = {k: until for k, until in self._marks.items() if until > now}
        self._marks[reader] = now + window
        if self._redis is None or now < self._redis_down_until:
            return
        try:
            async with asyncio.timeout(REDIS_TIMEOUT_SECONDS * 2):
                await self._redis.set(self._key(reader), b"1", px=max(1, round(window * 1000)))
        except Exception as exc:  # the other processes read the primary meanwhile
            self._redis_failed(exc)

    async def _wrote_recently(self, reader: str) -> str | None:
        """``OWN_WRITE`` when ``reader`` wrote within the window, ``REDIS_UNAVAILABLE`` when
        that cannot be known, else None."""
        if self.options.read_your_writes_seconds <= 0:
            return None
        now = time.monotonic()
        until = self._marks.get(reader)
        if until is not None:
            if until > now:
                return OWN_WRITE
            del self._marks[reader]
        if self._redis is None:
            return None
        if now < self._redis_down_until:
            return REDIS_UNAVAILABLE
        try:
            async with asyncio.timeout(REDIS_TIMEOUT_SECONDS * 2):
                found = await self._redis.exists(self._key(reader))
        except Exception as exc:
            self._redis_failed(exc)
            return REDIS_UNAVAILABLE
        return OWN_WRITE if found else None

    def _redis_failed(self, exc: BaseException) -> None:
        if time.monotonic() >= self._redis_down_until:
            log.warning("redis_unavailable", use="replica", error=type(exc).__name__)
        self._redis_down_until = time.monotonic() + REDIS_RETRY_SECONDS

    async def close(self) -> None:
        await self.reads.close()
        await self.engine.dispose()
        if self._redis is not None:
            await self._redis.aclose()


def _reader_key(reader: uuid.UUID | str | None) -> str | None:
    return None if reader is None else str(reader)


async def route_reads(session: AsyncSession, reader: uuid.UUID | str | None) -> None:
    """The unit's reader is known (``None``: an anonymous request): remember them (a write unit
    marks them once it commits), and send a read unit's further reads to the replica unless they
    wrote lately or the replica lags or is down. A no-op without a replica, and for a unit that
    is not a read unit."""
    key = _reader_key(reader)
    if key is not None:
        session.info[READER_KEY] = key
    replica: Replica | None = session.info.get(REPLICA_KEY)
    if replica is None or not session.info.get(READ_UNIT_KEY) or ON_REPLICA_KEY in session.info:
        return
    target = await replica.target(key)
    ROUTING.labels(target).inc()
    if target == REPLICA:
        session.info[ON_REPLICA_KEY] = replica.engine
        session.info[READS_KEY] = replica.reads


def on_replica(session: AsyncSession) -> Replica | None:
    """The replica a unit's session reads, if it was routed there."""
    if ON_REPLICA_KEY not in session.info:
        return None
    replica: Replica = session.info[REPLICA_KEY]
    return replica
