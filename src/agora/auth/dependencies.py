"""FastAPI dependencies: the request's session (the request owns the transaction), the caller.

Use the ``Annotated`` aliases in endpoints: ``session: SessionDep``, ``principal: PrincipalDep``.
"""

from __future__ import annotations

from typing import Annotated, TypeVar

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth import service
from agora.auth.principal import Permission, Principal
from agora.kit.errors import NO_ROUTE, FieldError, Forbidden, NotFound, Unauthorized
from agora.kit.replica import route_reads
from agora.kit.requestid import note_principal
from agora.kit.security import csrf_matches, csrf_token
from agora.kit.units import ANONYMOUS, READ_METHODS, Unit, request_session, request_unit
from agora.models.statuses import KeyKind
from agora.settings import Settings


def get_settings_dep(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


# The dependencies are ``async def``: FastAPI runs a plain ``def`` dependency in its thread pool,
# a thread hop per request for a getattr (docs/performance.md).
async def _settings_dependency(request: Request) -> Settings:
    return get_settings_dep(request)


SettingsDep = Annotated[Settings, Depends(_settings_dependency)]
# One transaction per request, opened by its route (kit/units.py: ``UnitOfWorkRoute``) and
# committed before the response is sent; its after-commit hooks run after the response.
SessionDep = Annotated[AsyncSession, Depends(request_session)]
# The unit itself, for CALLS_OUT routes: ``await unit.call_out(...)``, then ``await unit.write()``.
UnitDep = Annotated[Unit, Depends(request_unit)]


def presented_token(request: Request) -> str | None:
    return service.credentials_from_headers(
        request.headers.get("authorization"), request.headers.get("x-api-key")
    )


CSRF_HEADER = "X-CSRF-Token"


def session_cookie(request: Request) -> str | None:
    """The browser-session cookie's value, when the request carries one."""
    return request.cookies.get(get_settings_dep(request).accounts.session_cookie) or None


def secret_key(request: Request) -> str:
    cached: str | None = getattr(request.app.state, "secret_key", None)
    if cached is None:
        cached = get_settings_dep(request).resolved_secret_key()
        request.app.state.secret_key = cached
    return cached


def csrf_token_for(request: Request) -> str | None:
    """The CSRF token for the request's session cookie (server-rendered forms put it in a hidden
    field or the X-CSRF-Token header), or None without a cookie."""
    cookie = session_cookie(request)
    return csrf_token(secret_key(request), cookie) if cookie else None


def check_csrf(request: Request, presented: str | None = None) -> None:
    """403 unless a state-changing cookie request carries its session's CSRF token (from the
    X-CSRF-Token header, or ``presented``, e.g. a form field). API keys need none."""
    cookie = session_cookie(request)
    if cookie is None or request.method in READ_METHODS:
        return
    if not csrf_matches(secret_key(request), cookie, presented or request.headers.get(CSRF_HEADER)):
        raise Forbidden(
            "A request signed in with a session cookie must carry the X-CSRF-Token header",
            details=[FieldError(CSRF_HEADER, "missing or not this session's CSRF token")],
        )


# Sign-in from this site only (login CSRF, issue 26 item 5). Browsers send Sec-Fetch-Site on every
# request and Origin on every POST; "none" is a navigation the person started (typed, bookmark).
_SAME_SITE_FETCHES = frozenset({"same-origin", "none"})


def _origin(url: str) -> str:
    scheme, _, rest = url.strip().partition("://")
    return f"{scheme.lower()}://{rest.split('/', 1)[0].lower()}" if rest else ""


def check_same_origin(request: Request) -> None:
    """403 unless a state-changing sign-in comes from this site: ``Sec-Fetch-Site`` is
    ``same-origin`` or ``none``, or else ``Origin`` is this server's (``AGORA_PUBLIC_URL``'s or
    the request's own). A request with neither header does not come from a browser (a program:
    curl, an SDK) and passes; a cross-site form post from a browser always carries one."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        if site.strip().lower() in _SAME_SITE_FETCHES:
            return
        raise Forbidden(
            "Sign-in is accepted from this site only",
            details=[FieldError("Sec-Fetch-Site", f"{site[:40]!r} is not same-origin")],
        )
    origin = request.headers.get("origin")
    if origin is None:
        return
    allowed = {
        _origin(str(request.base_url)),
        _origin(get_settings_dep(request).public_url),
    }
    if _origin(origin) not in allowed or origin.strip().lower() == "null":
        raise Forbidden(
            "Sign-in is accepted from this site only",
            details=[FieldError("Origin", "not this site's origin")],
        )


# A dependency carrying this attribute authenticates as the named one (kit/openapi.py).
AUTHENTICATES = "agora_authenticates_as"

# Who may call a route, declared once per route (issue 26; tests/auth/test_route_access.py
# walks every route of the app): a dependency or an endpoint carrying ``ACCESS`` names it.
# - a permission value ("read", "jobs:write", ...): ``require(Permission.X)`` / its aliases;
# - ANY_KEY: ``PrincipalDep``, any valid credential (the service decides, e.g. coworker-only);
# - COWORKER_KEY: ``CoworkerKeyDep``, a coworker key only (403 for any other);
# - OPTIONAL: ``OptionalPrincipal``, anonymous or any valid credential;
# - BROWSER: the web app's pages, a browser session (``SessionPrincipalDep``; CSRF on forms);
# - PUBLIC: no credential at all (``@public`` on the endpoint).
ACCESS = "agora_access"
ANY_KEY = "any key"
OPTIONAL = "optional credentials"
BROWSER = "browser session"
COWORKER_KEY = "coworker key"
PUBLIC = "public"


_Endpoint = TypeVar("_Endpoint")


def public(endpoint: _Endpoint) -> _Endpoint:
    """Declare a route that takes no credential (sign-in, the public catalogue, health)."""
    setattr(endpoint, ACCESS, PUBLIC)
    setattr(endpoint, ANONYMOUS, True)  # asked without credentials: may read the replica
    return endpoint


async def authenticate_request(request: Request, session: AsyncSession) -> Principal:
    """The request's principal (authenticated once per request: a second dependency that asks
    gets the same one)."""
    known: Principal | None = getattr(request.state, "principal", None)
    if known is not None:
        return known
    if presented_token(request) is None and (cookie := session_cookie(request)) is not None:
        principal = await service.authenticate_session(
            session,
            cookie,
            workspace_header=request.headers.get("x-workspace-id"),
            organization_slug=request.headers.get("x-organization-slug"),
        )
        check_csrf(request)
        request.state.principal = principal
        note_principal(principal)
        await route_reads(session, principal.user_id)
        return principal
    principal = await service.authenticate(
        session,
        presented_token(request),
        workspace_header=request.headers.get("x-workspace-id"),
        organization_slug=request.headers.get("x-organization-slug"),
    )
    request.state.principal = principal
    note_principal(principal)
    await route_reads(session, principal.user_id)
    return principal


async def get_principal(request: Request, session: SessionDep) -> Principal:
    """The authenticated caller (401 without valid credentials). The workspace headers
    (``X-Workspace-Id``, ``X-Organization-Slug``) are read from the request."""
    return await authenticate_request(request, session)


async def get_optional_principal(request: Request, session: SessionDep) -> Principal | None:
    """The caller when credentials are presented (401 if they are invalid), else None."""
    if presented_token(request) is None and session_cookie(request) is None:
        await route_reads(session, None)  # an anonymous reader
        return None
    return await authenticate_request(request, session)


async def get_coworker_principal(request: Request, session: SessionDep) -> Principal:
    """A coworker key (403 for any other credential): the /v1/coworkers/me routes."""
    principal = await authenticate_request(request, session)
    if principal.key_kind != KeyKind.COWORKER:
        raise Forbidden("Only a coworker key may use this route")
    return principal


setattr(get_principal, ACCESS, ANY_KEY)
setattr(get_coworker_principal, ACCESS, COWORKER_KEY)
CoworkerKeyDep = Annotated[Principal, Depends(get_coworker_principal)]
setattr(get_optional_principal, ACCESS, OPTIONAL)
PrincipalDep = Annotated[Principal, Depends(get_principal)]


def require(permission: Permission) -> object:
    """Dependency factory: the caller, who must hold ``permission``. One dependency that
    authenticates and checks (a level less to solve on every request than ``PrincipalDep``
    under a check); OpenAPI reads it as ``get_principal`` (``AUTHENTICATES``)."""

    async def _check(request: Request, session: SessionDep) -> Principal:
        principal = await authenticate_request(request, session)
        if permission is Permission.ADMIN and not principal.can(permission):
            # The admin API answers a non-admin as a path no route matches, like the /admin
            # pages (docs/security.md): it is not there for them.
            raise NotFound(NO_ROUTE)
        principal.require(permission)
        return principal

    setattr(_check, AUTHENTICATES, get_principal.__name__)
    setattr(_check, ACCESS, permission.value)
    return Depends(_check)


# ---- declared once: one alias per permission ---------------------------------------------
# Endpoints take ``principal: Reader`` (or ``JobsWriter`` …); nothing else re-declares them.
# (Path parameters are declared by the domain whose routes take them: ``jobs/endpoints.py``
# declares ``JobId`` …)

Reader = Annotated[Principal, require(Permission.READ)]
JobsWriter = Annotated[Principal, require(Permission.JOBS_WRITE)]
ProjectsWriter = Annotated[Principal, require(Permission.PROJECTS_WRITE)]
ProfileWriter = Annotated[Principal, require(Permission.PROFILE_WRITE)]
Admin = Annotated[Principal, require(Permission.ADMIN)]
OptionalPrincipal = Annotated[Principal | None, Depends(get_optional_principal)]


async def get_session_principal(request: Request, session: SessionDep) -> Principal | None:
    """For server-rendered pages: the signed-in browser's principal, or None (no cookie, or a
    revoked or expired session). CSRF is not checked here; forms call ``check_csrf``."""
    cookie = session_cookie(request)
    if cookie is None:
        await route_reads(session, None)  # an anonymous reader
        return None
    try:
        principal = await service.authenticate_session(session, cookie)
    except Unauthorized:
        await route_reads(session, None)
        return None
    note_principal(principal)
    await route_reads(session, principal.user_id)
    return principal


setattr(get_session_principal, ACCESS, BROWSER)
SessionPrincipalDep = Annotated[Principal | None, Depends(get_session_principal)]
