"""What the console's doors take from a request: the acting operator.

- The admin API (console/endpoints.py): ``ActingAdmin``, the admin key's holder as the audit
  actor of an action (an admin key is its own proof).
- The pages (console/pages.py, console/ops_pages.py): ``OperatorPageDep``, an operator's session
  (anyone else gets the 404 page: ``OperatorDep``), the console's rendering, and an operator's
  action — the recent password or magic-link proof (``accounts.require_operator``), ONE use
  case, then the redirect; a refusal shows the page again with its reason (a 4xx page: the unit
  rolls back)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from agora.accounts import service as accounts
from agora.accounts.dependencies import OperatorDep
from agora.audit import service as audit
from agora.auth.dependencies import Admin, SessionDep, SettingsDep
from agora.auth.principal import Principal
from agora.kit.errors import AgoraError
from agora.settings import Settings
from agora.web.shell import field_errors, posted, render

# A use case given all but its session and actor: ``partial(users.suspend, raw_user_id=…)``
Work = Callable[[AsyncSession, audit.Actor], Awaitable[Any]]
Refused = Callable[[AgoraError], Awaitable[HTMLResponse]]


def refusal_errors(exc: AgoraError | None) -> dict[str, str]:
    """A refusal as a form's errors: its fields', and its message as the form's."""
    if exc is None:
        return {}
    return {**field_errors(exc), "form": exc.message}


@dataclass(frozen=True)
class OperatorPage:
    request: Request
    session: AsyncSession
    settings: Settings
    principal: Principal

    async def show(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """The template with the console's header (``operator``)."""
        return await render(
            self.request, self.session, self.principal, name, status, operator=True, **context
        )

    async def form(self) -> FormData:
        return await posted(self.request)

    async def act(self, work: Work, done: str | Callable[[Any], str], refused: Refused) -> Response:
        """Run ``work(session, actor)`` (one use case) for the operator, then redirect to
        ``done`` (or to ``done(what work returned)``); a refusal (the proof is missing, the use
        case says no) answers ``refused(exc)``."""
        try:
            actor = await accounts.require_operator(
                self.session, self.settings, self.principal, acting=True
            )
            result = await work(self.session, actor)
        except AgoraError as exc:
            return await refused(exc)
        location = done if isinstance(done, str) else done(result)
        return RedirectResponse(location, status_code=303)


async def _operator_page(
    request: Request, session: SessionDep, settings: SettingsDep, principal: OperatorDep
) -> OperatorPage:
    return OperatorPage(request, session, settings, principal)


OperatorPageDep = Annotated[OperatorPage, Depends(_operator_page)]


async def _acting_admin(session: SessionDep, settings: SettingsDep, admin: Admin) -> audit.Actor:
    return await accounts.require_operator(session, settings, admin, acting=True)


ActingAdmin = Annotated[audit.Actor, Depends(_acting_admin)]
