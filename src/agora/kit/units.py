"""The request's unit of work, opened by its route (``UnitOfWorkRoute``), not by a dependency.

A route whose endpoint (or one of its dependencies) asks for the session runs inside
``Database.transaction``: reads (GET, HEAD, OPTIONS) in a read unit, everything else in a write
unit, committed when the endpoint has returned and its response is built — before it is sent —
and rolled back when anything raises. After-commit hooks run after the response has been sent
(its background tasks). ``request_session`` is the dependency that hands the unit's session to
the endpoint.

Why not a dependency with ``yield`` (as before): FastAPI runs each such dependency in an exit
stack with a cancellation scope entered and a shielded exit; on a read that was a tenth of the
request's CPU (job by id; docs/performance.md). The route's wrapper is one ``async with``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.background import BackgroundTask, BackgroundTasks
from starlette.requests import Request
from starlette.responses import Response

from agora.kit.db import Database

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SESSION_KEY = "agora.session"  # in the request's scope while its unit of work is open


async def request_session(request: Request) -> AsyncSession:
    """The request's session (the dependency behind ``SessionDep``)."""
    session: AsyncSession | None = request.scope.get(SESSION_KEY)
    if session is None:
        raise RuntimeError(
            f"{request.url.path}: the session is opened by the route; make the router with "
            "route_class=UnitOfWorkRoute (or a subclass, kit/families.py)"
        )
    return session


def _uses_session(dependant: Dependant) -> bool:
    return any(d.call is request_session or _uses_session(d) for d in dependant.dependencies)


class UnitOfWorkRoute(APIRoute):
    """An API route that opens the request's unit of work when its endpoint uses the session."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if not _uses_session(self.dependant):
            return handler

        async def in_unit_of_work(request: Request) -> Response:
            database: Database = request.app.state.db
            after: list[tuple[Callable[..., Any], Any]] = []
            async with database.transaction(
                write=request.method not in READ_METHODS,
                after=lambda hook, session: after.append((hook, session)),
            ) as session:
                request.scope[SESSION_KEY] = session
                try:
                    response = await handler(request)
                finally:
                    del request.scope[SESSION_KEY]
            for hook, session in after:
                _add_background(response, hook, session)
            return response

        return in_unit_of_work


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
