"""FastAPI dependencies: the request's session (the request owns the transaction), the caller.

Use the ``Annotated`` aliases in endpoints: ``session: SessionDep``, ``principal: PrincipalDep``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth import service
from agora.auth.principal import Permission, Principal
from agora.kit.db import Database, run_after_commit
from agora.settings import Settings

_READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def get_db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def get_settings_dep(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    """One transaction per request, committed before the response is sent (scope="function").

    Reads run in a deferred transaction; writes take SQLite's write lock up front.
    """
    db = get_db(request)
    async with db.session(write=request.method not in _READ_METHODS) as session:
        try:
            yield session
            await session.commit()
        except BaseException:
            await session.rollback()
            raise
    await run_after_commit(session)


DatabaseDep = Annotated[Database, Depends(get_db)]
SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]


def presented_token(request: Request) -> str | None:
    return service.credentials_from_headers(
        request.headers.get("authorization"), request.headers.get("x-api-key")
    )


async def authenticate_request(request: Request, session: AsyncSession) -> Principal:
    principal = await service.authenticate(
        session,
        get_db(request),
        presented_token(request),
        workspace_header=request.headers.get("x-workspace-id"),
        organization_slug=request.headers.get("x-organization-slug"),
    )
    request.state.principal = principal
    return principal


async def get_principal(
    request: Request,
    session: SessionDep,
    x_workspace_id: Annotated[str | None, Header(include_in_schema=False)] = None,
    x_organization_slug: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> Principal:
    """The authenticated caller (401 without valid credentials)."""
    return await authenticate_request(request, session)


async def get_optional_principal(request: Request, session: SessionDep) -> Principal | None:
    """The caller when credentials are presented (401 if they are invalid), else None."""
    if presented_token(request) is None:
        return None
    return await authenticate_request(request, session)


PrincipalDep = Annotated[Principal, Depends(get_principal)]


def require(permission: Permission) -> object:
    """Dependency factory: the caller must hold ``permission``."""

    async def _check(principal: PrincipalDep) -> Principal:
        principal.require(permission)
        return principal

    return Depends(_check)
