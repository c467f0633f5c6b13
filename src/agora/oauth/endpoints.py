"""The authorization server's machine endpoints: metadata (RFC 8414, RFC 9728), registration
(RFC 7591), token, revocation (RFC 7009), device authorization (RFC 8628). Thin: parse, call the
service, answer in OAuth's own shapes (RFC 6749 §5.2 errors, ``Cache-Control: no-store``).
The person's pages (consent, device, authorized apps) are in oauth/pages.py."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any
from urllib.parse import unquote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts.dependencies import attempt_limiter
from agora.auth.dependencies import SessionDep, SettingsDep, public
from agora.kit.errors import RateLimited
from agora.kit.units import UnitOfWorkRoute, after_rollback
from agora.models import OAuthClient
from agora.oauth import clients, device, service
from agora.oauth.rfc import (
    DEVICE_CODE_GRANT_TYPE,
    InvalidClientError,
    InvalidClientMetadataError,
    InvalidRequestError,
    OAuth2Error,
    TemporarilyUnavailableError,
    UnsupportedGrantTypeError,
    echo,
)
from agora.settings import Settings

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
MAX_FORM_FIELDS = 20


def oauth_error(
    error: OAuth2Error, status_code: int | None = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = dict(error.get_body())
    answered = {**NO_STORE, **{k: v for k, v in error.get_headers() if k != "Content-Type"}}
    return JSONResponse(
        body, status_code=status_code or error.status_code, headers={**answered, **(headers or {})}
    )


@router.get("/.well-known/oauth-authorization-server")
@public
async def authorization_server_metadata(settings: SettingsDep) -> JSONResponse:
    return JSONResponse(service.server_metadata(service.issuer(settings)))


@router.get("/.well-known/oauth-protected-resource")
@public
async def protected_resource_metadata(settings: SettingsDep) -> JSONResponse:
    return JSONResponse(service.resource_metadata(service.issuer(settings), ""))


@router.get("/.well-known/oauth-protected-resource/{resource:path}")
@public
async def protected_resource_metadata_of(resource: str, settings: SettingsDep) -> JSONResponse:
    """RFC 9728 §3.1: the metadata of the resource at ``/<resource>`` (``/mcp``, ``/sse``,
    ``/v1``…): the same server, the same authorization server."""
    return JSONResponse(service.resource_metadata(service.issuer(settings), "/" + resource[:200]))


REGISTRATIONS_SPENT = "Too many client registrations from this address; try again later"


async def _spend_registration(request: Request, settings: Settings) -> None:
    """One of the address's ``AGORA_OAUTH_REGISTRATIONS_PER_ADDRESS`` (``RateLimited`` past it;
    only well-formed registrations count, a client fixing its metadata is not held back)."""
    budget = settings.accounts.oauth_registrations_per_address
    if budget.strip().lower() in ("off", ""):
        return
    address = request.client.host if request.client else "unknown"
    await attempt_limiter(request).spend(budget, "oauth-register", address, REGISTRATIONS_SPENT)


@router.post("/oauth/register")
@public
async def register(request: Request, session: SessionDep, settings: SettingsDep) -> JSONResponse:
    """RFC 7591: open registration, with limits (docs/accounts.md, docs/security.md): the
    metadata checked, then the address's budget (429 with Retry-After), then the write."""
    try:
        body = json.loads(await request.body() or b"null")
    except ValueError:
        return oauth_error(InvalidClientMetadataError("the body must be JSON"))
    try:
        asked = clients.checked_metadata(body)
        await _spend_registration(request, settings)
        answer = await clients.register_client(session, asked)
    except RateLimited as exc:
        refusal = TemporarilyUnavailableError(exc.message)
        return oauth_error(refusal, 429, headers=dict(exc.headers))
    except OAuth2Error as exc:
        return oauth_error(exc)
    return JSONResponse(answer, status_code=201, headers=NO_STORE)


async def _form(request: Request) -> dict[str, str]:
    """The form body, each parameter at most once (RFC 6749 §3.2)."""
    form = await request.form(max_files=0, max_fields=MAX_FORM_FIELDS)
    out: dict[str, str] = {}
    for name, value in form.multi_items():
        if not isinstance(value, str):
            raise InvalidRequestError(f"{echo(name, 40)} must be text")
        if name in out:
            raise InvalidRequestError(f"{echo(name, 40)} is repeated")
        out[name] = value[:4000]
    return out


def _basic(request: Request) -> bool:
    return request.headers.get("authorization", "").lower().startswith("basic ")


async def _client(session: AsyncSession, request: Request, form: dict[str, str]) -> OAuthClient:
    """The calling client: HTTP Basic (client_secret_basic) or form fields."""
    if not _basic(request):
        return await clients.authenticate_client(
            session, form.get("client_id"), form.get("client_secret"), via_basic=False
        )
    try:
        decoded = base64.b64decode(request.headers["authorization"][6:].strip(), validate=True)
        client_id, _, secret = decoded.decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        raise InvalidClientError("malformed Basic credentials") from None
    if form.get("client_id") not in (None, unquote(client_id)):
        raise InvalidClientError("client_id differs from the Basic credentials")
    return await clients.authenticate_client(
        session, unquote(client_id), unquote(secret), via_basic=True
    )


def _refused(request: Request, exc: OAuth2Error) -> JSONResponse:
    """RFC 6749 §5.2: a client that failed HTTP Basic authentication answers 401."""
    basic = isinstance(exc, InvalidClientError) and _basic(request)
    return oauth_error(exc, 401 if basic else None)


@router.post("/oauth/token")
@public
async def token(request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    """authorization_code (PKCE S256), refresh_token (rotated; reuse revokes the family) and
    the device_code grant."""
    try:
        form = await _form(request)
        client = await _client(session, request, form)
        grant_type = form.get("grant_type") or ""
        if grant_type not in client.grant_types:
            raise UnsupportedGrantTypeError(echo(grant_type, 60))
        service.check_resource(form.get("resource") or None, service.issuer(settings))
        answer: dict[str, Any]
        if grant_type == "authorization_code":
            answer = await service.exchange_code(session, client, form)
        elif grant_type == "refresh_token":
            answer = await service.refresh(session, client, form)
        elif grant_type == DEVICE_CODE_GRANT_TYPE:
            answer = await device.poll_device(session, client, form)
        else:
            raise UnsupportedGrantTypeError(echo(grant_type, 60))
    except service.FamilyRevoked as exc:
        # The 400 rolls this unit back; the revocation is written right after, before the
        # answer leaves (no window in which the family's other tokens still work).
        grant_id, reason = exc.grant_id, exc.reason

        async def revoke(written: AsyncSession) -> None:
            await service.revoke_family(written, grant_id, reason)

        after_rollback(session, revoke)
        return oauth_error(exc)
    except OAuth2Error as exc:
        return _refused(request, exc)
    return JSONResponse(answer, headers=NO_STORE)


@router.post("/oauth/revoke")
@public
async def revoke(request: Request, session: SessionDep) -> Response:
    """RFC 7009: 200 whether or not the token was known."""
    try:
        form = await _form(request)
        client = await _client(session, request, form)
        if not form.get("token"):
            raise InvalidRequestError("token is required")
        await service.revoke_token(session, client, form["token"])
    except OAuth2Error as exc:
        return _refused(request, exc)
    return Response(status_code=200, headers=NO_STORE)


@router.post("/oauth/device_authorization")
@public
async def device_authorization(
    request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """RFC 8628 §3.1 to 3.2: a device code to poll with, a user code for the person."""
    try:
        form = await _form(request)
        client = await _client(session, request, form)
        answer = await device.start_device(
            session, client, form.get("scope"), service.issuer(settings)
        )
    except OAuth2Error as exc:
        return _refused(request, exc)
    return JSONResponse(answer, headers=NO_STORE)
