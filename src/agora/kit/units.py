"""The one request lifecycle: a route declares its mode, and its unit of work is opened by the
route (``UnitOfWorkRoute``), never by an endpoint, a dependency or a service.

Modes (``Mode``; a route without ``@mode(...)`` is READ for GET/HEAD/OPTIONS, WRITE otherwise):

- READ: one read unit (on PostgreSQL no BEGIN at all; a write in it is refused).
- WRITE: one write unit (SQLite takes its write lock at the first statement).
- WRITE_ON_GET: a write unit for a GET (a mailed one-time link that spends its token).
- CALLS_OUT: a read phase (authentication, the reads the call needs), then work with no
  transaction and no pooled connection held (``await unit.call_out(...)``: a call to another
  service, or a password hash), then a write phase (``await unit.write()``).

Whatever the mode, the unit commits only when the answer is a success (1xx to 3xx): an exception,
an exception handler's answer, or a rendered 4xx/5xx page (a web form that refuses) rolls back,
and its after-commit hooks never run. Hooks of a committed unit run after the response has been
sent (its background work). ``after_rollback(session, work)`` is the one way a refused unit
writes: ``work`` runs in its own short transaction right after the rollback (the
``signin.failures`` audit row and an OAuth refresh-token family's revocation use it). Before any
database work the route reads the request body, bounded in size (``kit.bodylimit``) and in time
(``settings.http.body_timeout_seconds``; 408 past it), so a client that drips its body holds no
connection.

Why the route and not a ``yield`` dependency: FastAPI runs such a dependency in an exit stack
with a cancellation scope and a shielded exit, a tenth of a read's CPU (docs/performance.md); and
a dependency cannot see the response's status, which decides commit or rollback.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

import structlog
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.background import BackgroundTask, BackgroundTasks
from starlette.requests import Request
from starlette.responses import Response

from agora.kit.db import Database
from agora.kit.errors import RequestTimeout
from agora.kit.replica import READ_UNIT_KEY, READER_KEY, on_replica, route_reads
from agora.kit.unavailable import database_unavailable

log = structlog.get_logger(__name__)
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
UNIT_KEY = "agora.unit"  # in the request's scope while its route runs
MODE_ATTRIBUTE = "agora_mode"
STREAMS_BODY = "agora_streams_body"
# On a route's endpoint: it takes no credential, so a request that carries none has a known
# (anonymous) reader from the start and may read the replica (kit/replica.py).
ANONYMOUS = "agora_anonymous"
CREDENTIAL_HEADERS = ("authorization", "x-api-key", "cookie")
T = TypeVar("T")
Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])


class Mode(enum.StrEnum):
    READ = "read"
    WRITE = "write"
    WRITE_ON_GET = "write_on_get"
    CALLS_OUT = "calls_out"


def mode(declared: Mode) -> Callable[[Endpoint], Endpoint]:
    """Declare a route's mode on its endpoint (put it under the router's decorator)."""

    def mark(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, MODE_ATTRIBUTE, declared)
        return endpoint

    return mark


def streams_body(endpoint: Endpoint) -> Endpoint:
    """Declare a route that reads its own body as a stream (an upload: ``files/``): the route
    does not read it first, the endpoint bounds it in size and time itself, and the request's
    layer applies the route's own size limit (``ObserveMiddleware(body_limits=...)``)."""
    setattr(endpoint, STREAMS_BODY, True)
    return endpoint


def mode_of(endpoint: Callable[..., Any], methods: set[str]) -> Mode:
    declared: Mode | None = getattr(endpoint, MODE_ATTRIBUTE, None)
    reads = methods <= READ_METHODS
    if declared is None:
        return Mode.READ if reads else Mode.WRITE
    if declared is Mode.WRITE_ON_GET and not reads:
        raise ValueError(f"{endpoint.__name__}: write_on_get is for GET routes")
    if declared is Mode.READ and not reads:
        raise ValueError(f"{endpoint.__name__}: a {sorted(methods)} route cannot be read-only")
    return declared


class _Refused(Exception):
    """Handed to the unit's transaction to roll it back when the answer is not a success."""


class PhaseError(RuntimeError):
    """A route used its unit against its mode (a programming error, caught by the tests)."""


Hook = tuple[Callable[..., Any], Any]
RollbackWork = Callable[[AsyncSession], Awaitable[None]]
SESSION_UNIT_KEY = "agora.unit"  # in a unit's session.info: the unit (``after_rollback``)


def after_rollback(session: AsyncSession, work: RollbackWork) -> None:
    """Run ``work(session)`` in its own short write transaction once the request's unit has
    rolled back (never if it commits): a record that must survive the refusal it belongs to
    (the audit row of sign-in failures over the threshold). ``session`` is a unit's session."""
    unit: Unit | None = session.info.get(SESSION_UNIT_KEY)
    if unit is None:
        raise PhaseError("after_rollback needs a request's unit (a route's or a tool call's)")
    unit.after_rollback(work)


class Unit:
    """The database work of one request (or one MCP tool call), in its declared mode.

    Opened lazily: a route whose endpoint reads nothing opens nothing. ``session()`` is the
    current phase's session; CALLS_OUT routes move through ``call_out`` and ``write``.
    """

    def __init__(
        self, database: Database, declared: Mode, *, anonymous: bool = False, replica: bool = True
    ) -> None:
        self.database = database
        self.mode = declared
        # A read unit may read the replica once its reader is known (kit/replica.py);
        # ``anonymous``: known from the start (a public route, no credential presented).
        self._routed = declared is Mode.READ and replica and database.replica is not None
        self._anonymous = anonymous
        self._reader: str | None = None  # carried from phase to phase (a CALLS_OUT write phase)
        self.failed_on_replica = False  # it rolled back after reading the replica
        self._context: AbstractAsyncContextManager[AsyncSession] | None = None
        self._session: AsyncSession | None = None
        self._outside = False  # CALLS_OUT: the read phase is over
        self._writing = declared in (Mode.WRITE, Mode.WRITE_ON_GET)
        self.after: list[Hook] = []  # hooks of committed phases, run after the response
        self.rolled_back: list[RollbackWork] = []  # writes of a refused unit (after_rollback)

    async def session(self) -> AsyncSession:
        if self._session is not None:
            return self._session
        if self._outside and not self._writing:
            raise PhaseError(
                "this calls_out route's read phase has ended: take the write phase's session "
                "from `await unit.write()`"
            )
        self._context = self.database.transaction(
            write=self._writing, after=lambda hook, session: self.after.append((hook, session))
        )
        session = self._session = await self._context.__aenter__()
        session.info[SESSION_UNIT_KEY] = self
        if self._reader is not None:
            session.info[READER_KEY] = self._reader
        if self._routed:
            session.info[READ_UNIT_KEY] = True
            if self._anonymous:
                await route_reads(session, None)
        return session

    async def call_out(self, work: Awaitable[T]) -> T:
        """End the read phase (releasing its connection), then await ``work`` — a call to another
        service, or CPU-heavy work such as a password hash — with no transaction open."""
        if self.mode is not Mode.CALLS_OUT:
            raise PhaseError(f"call_out in a {self.mode} route: declare @mode(Mode.CALLS_OUT)")
        if self._writing:
            raise PhaseError("call_out after the write phase began: call first, then write")
        await self._end(None)
        self._outside = True
        return await work

    async def write(self) -> AsyncSession:
        """The write phase's session (CALLS_OUT routes; it ends the read phase if still open)."""
        if self.mode is not Mode.CALLS_OUT:
            raise PhaseError(f"write() in a {self.mode} route: use the session it was given")
        if not self._writing:
            await self._end(None)
            self._outside = self._writing = True
        return await self.session()

    def after_rollback(self, work: RollbackWork) -> None:
        """If this unit rolls back, run ``work(session)`` right after, in its own short write
        transaction, before the answer is sent (dropped when the unit commits)."""
        self.rolled_back.append(work)

    async def finish(self, failure: BaseException | None) -> None:
        """Commit when ``failure`` is None, else roll back (and drop every after-commit hook),
        then run the ``after_rollback`` work, each in its own transaction."""
        await self._end(failure)
        works, self.rolled_back = self.rolled_back, []
        if failure is None:
            return
        self.after.clear()
        for work in works:
            try:
                async with self.database.transaction() as session:
                    await work(session)
            except Exception:  # the refusal stands; the record is lost, loudly
                log.exception("after_rollback_work_failed")

    async def _end(self, failure: BaseException | None) -> None:
        if self._session is not None:
            self._reader = self._session.info.get(READER_KEY, self._reader)
            if failure is not None and on_replica(self._session) is not None:
                self.failed_on_replica = True
        context, self._context, self._session = self._context, None, None
        if context is None:
            return
        if failure is None:
            await context.__aexit__(None, None, None)
        else:
            await context.__aexit__(type(failure), failure, failure.__traceback__)


def _unit_of(request: Request) -> Unit:
    unit: Unit | None = request.scope.get(UNIT_KEY)
    if unit is None:
        raise RuntimeError(
            f"{request.url.path}: the unit of work is opened by the route; make the router with "
            "route_class=UnitOfWorkRoute (or a subclass, kit/families.py)"
        )
    return unit


async def request_unit(request: Request) -> Unit:
    """The request's unit (the dependency behind ``UnitDep``; ``async``: FastAPI runs a plain
    ``def`` dependency in its thread pool)."""
    return _unit_of(request)


async def request_session(request: Request) -> AsyncSession:
    """The current phase's session (the dependency behind ``SessionDep``)."""
    return await _unit_of(request).session()


def _uses_unit(dependant: Dependant) -> bool:
    return any(
        d.call in (request_session, request_unit) or _uses_unit(d) for d in dependant.dependencies
    )


async def read_body(request: Request, seconds: float) -> None:
    """Read (and keep) the whole body before any database work: its size is bounded where it is
    received (``kit.bodylimit``), its time here. FastAPI and ``request.form()`` then parse the
    kept bytes."""
    if request.method in READ_METHODS:
        return
    try:
        async with asyncio.timeout(seconds):
            await request.body()
    except TimeoutError:
        raise RequestTimeout(
            f"The request body did not arrive within {seconds:g} seconds"
        ) from None


class UnitOfWorkRoute(APIRoute):
    """An API route that runs its endpoint in the request lifecycle of its declared mode."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        declared = mode_of(self.endpoint, self.methods or set())
        uses_unit = _uses_unit(self.dependant)
        streams = getattr(self.endpoint, STREAMS_BODY, False)
        public = getattr(self.endpoint, ANONYMOUS, False)

        async def in_lifecycle(request: Request) -> Response:
            if not streams:
                await read_body(request, request.app.state.settings.http.body_timeout_seconds)
            if not uses_unit:
                return await handler(request)
            anonymous = public and not any(h in request.headers for h in CREDENTIAL_HEADERS)
            unit = Unit(request.app.state.db, declared, anonymous=anonymous)
            request.scope[UNIT_KEY] = unit
            try:
                response = await handler(request)
            except BaseException as exc:
                await unit.finish(exc)
                if not (isinstance(exc, Exception) and _replica_failed(unit, exc)):
                    raise
                # The replica failed under this read: the same read, once, on the primary.
                unit = Unit(request.app.state.db, declared, replica=False)
                request.scope[UNIT_KEY] = unit
                try:
                    response = await handler(request)
                except BaseException as again:
                    await unit.finish(again)
                    raise
            finally:
                request.scope.pop(UNIT_KEY, None)
            await unit.finish(None if response.status_code < 400 else _Refused())
            for hook, session in unit.after:
                _add_background(response, hook, session)
            return response

        return in_lifecycle


def _replica_failed(unit: Unit, exc: Exception) -> bool:
    """Whether ``exc`` is the replica failing a read unit that read it (then marked down)."""
    replica = unit.database.replica
    if replica is None or not unit.failed_on_replica or not database_unavailable(exc):
        return False
    replica.failed(exc)
    return True


def _add_background(response: Response, hook: Callable[..., Any], *args: Any) -> None:
    """Run ``hook(*args)`` after ``response`` has been sent, after its own background work."""
    current = response.background
    if isinstance(current, BackgroundTasks):
        current.add_task(hook, *args)
    elif current is None:
        response.background = BackgroundTask(hook, *args)
    else:
        tasks = BackgroundTasks()
        tasks.tasks.append(current)
        tasks.add_task(hook, *args)
        response.background = tasks
