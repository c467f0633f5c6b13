"""The person's side of OAuth, in the web app: the consent page (which client, which scopes,
which workspace), the device page (enter the code a command-line tool shows), and the list of
authorized apps with revoke. Forms carry the session's CSRF token (web/shell.py ``posted``).

A person who is not signed in when a client sends them to ``/oauth/authorize`` signs in first:
the authorization request waits in a short-lived signed cookie (``/oauth`` only) and
``/oauth/resume`` brings them back to it (the sign-in page's ``next`` is short by design).
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from itsdangerous import BadData, URLSafeTimedSerializer

from agora.accounts.workspaces import workspaces
from agora.auth.dependencies import SessionDep, SettingsDep, secret_key
from agora.auth.principal import Principal
from agora.kit.errors import BadRequest, NotFound
from agora.kit.units import UnitOfWorkRoute
from agora.oauth import device, redirects, service
from agora.oauth.rfc import OAuth2Error
from agora.oauth.tokens import show_user_code
from agora.settings import Settings
from agora.web.render import CSP
from agora.web.shell import SignedInDep, Text, ViewerDep, posted, render, text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)

RESUME_COOKIE = "agora_oauth_request"
RESUME_SECONDS = 900
AUTHORIZE_FIELDS = (
    "response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge",
    "code_challenge_method", "resource",
)  # fmt: skip


def _resume_signer(request: Request) -> URLSafeTimedSerializer:
    """Signs and dates the waiting authorization request (HMAC-SHA256, the app's secret key)."""
    return URLSafeTimedSerializer(
        secret_key(request),
        salt="agora.oauth.resume",
        signer_kwargs={"digest_method": hashlib.sha256},
    )


def _resume_value(request: Request, query: str) -> str:
    return str(_resume_signer(request).dumps(query))


def _resumed_query(request: Request) -> str | None:
    """The waiting request's query, or None (no cookie, tampered, or older than RESUME_SECONDS)."""
    value = request.cookies.get(RESUME_COOKIE) or ""
    try:
        query = _resume_signer(request).loads(value, max_age=RESUME_SECONDS)
    except BadData:
        return None
    return query if isinstance(query, str) else None


def _with_params(uri: str, params: dict[str, str]) -> str:
    parts = urlsplit(uri)
    query = "&".join(q for q in (parts.query, urlencode(params)) if q)
    return parts._replace(query=query).geturl()


def _to_client(redirect_uri: str, params: dict[str, str | None]) -> RedirectResponse:
    kept = {k: v for k, v in params.items() if v is not None}
    return RedirectResponse(_with_params(redirect_uri, kept), status_code=303)


def _refused_page(exc: OAuth2Error) -> BadRequest:
    """A request whose client or redirect URI is not known: shown here, never redirected."""
    return BadRequest(f"This sign-in link is not valid: {exc.description}")


def _consent_csp(redirect_uri: str) -> str:
    """The consent form posts here and is answered with a redirect to the client: the page's
    form-action must allow the client's redirect origin (browsers check redirects too). The
    origin is rebuilt from the checked scheme, host and port (``redirects.csp_origin``), never
    copied from the URI's text, so nothing in a redirect URI can add a directive."""
    origin = redirects.csp_origin(redirect_uri)
    return CSP.replace("form-action 'self'", f"form-action 'self' {origin}") if origin else CSP


async def _consent(
    request: Request,
    session: Any,
    principal: Principal,
    auth: service.AuthorizationRequest,
    params: dict[str, str],
) -> HTMLResponse:
    choices = await workspaces(session, principal)
    response = await render(
        request, session, principal, "oauth_consent.html",
        client=auth.client, redirect_host=redirects.csp_origin(auth.redirect_uri) or "",
        scopes=[(s, service.SCOPES[s]) for s in auth.scopes],
        choices=choices, params=params, action="/oauth/authorize",
    )  # fmt: skip
    response.headers["Content-Security-Policy"] = _consent_csp(auth.redirect_uri)
    return response


def _params_of(pairs: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in pairs:
        if name in AUTHORIZE_FIELDS and isinstance(value, str) and name not in out:
            out[name] = value[:2000]
    return out


async def _checked(
    session: Any, params: dict[str, str], settings: Settings
) -> service.AuthorizationRequest | RedirectResponse:
    """The checked request, or the refusal: at the client's redirect URI when it is known (a
    redirect), else on a page (400)."""
    try:
        return await service.check_authorization_request(session, params, service.issuer(settings))
    except service.RedirectError as exc:
        error = dict(exc.error.get_body())
        return _to_client(exc.redirect_uri, {**error, "state": exc.state})
    except OAuth2Error as exc:
        raise _refused_page(exc) from None


@router.get("/oauth/authorize")
async def authorize_page(
    request: Request, session: SessionDep, principal: ViewerDep, settings: SettingsDep
) -> Response:
    """RFC 6749 §4.1.1: check the request, then ask the person (sign-in first if needed)."""
    params = _params_of(request.query_params.multi_items())
    auth = await _checked(session, params, settings)
    if isinstance(auth, RedirectResponse):
        return auth
    if principal is None:
        response = RedirectResponse("/sign-in?next=/oauth/resume", status_code=303)
        response.set_cookie(
            RESUME_COOKIE, _resume_value(request, urlencode(params)), max_age=RESUME_SECONDS,
            path="/oauth", httponly=True, samesite="lax",
            secure=settings.public_url.startswith("https://"),
        )  # fmt: skip
        return response
    return await _consent(request, session, principal, auth, params)


@router.get("/oauth/resume")
async def resume(request: Request, principal: SignedInDep) -> Response:
    """After sign-in: back to the authorization request that was waiting."""
    query = _resumed_query(request)
    if query is None:
        raise BadRequest("No sign-in request is waiting (it expired): start again from the app")
    response = RedirectResponse(f"/oauth/authorize?{query}", status_code=303)
    response.delete_cookie(RESUME_COOKIE, path="/oauth")
    return response


@router.post("/oauth/authorize")
async def authorize_answer(
    request: Request, session: SessionDep, principal: SignedInDep, settings: SettingsDep
) -> Response:
    """The person's answer: allow (a code to the client's redirect URI) or deny."""
    form = await posted(request)
    auth = await _checked(session, _params_of(form.multi_items()), settings)
    if isinstance(auth, RedirectResponse):
        return auth
    answer = await service.answer_authorization(
        session, auth, principal, allow=text(form, "decision", 10) == "allow",
        workspace=text(form, "workspace", 64),
    )  # fmt: skip
    return _to_client(auth.redirect_uri, answer)


# ---- device authorization: the person's side -------------------------------------------------


@router.get("/oauth/device")
async def device_page(
    request: Request, session: SessionDep, principal: SignedInDep, user_code: Text = None
) -> HTMLResponse:
    """Enter the code the tool shows (or arrive with it from ``verification_uri_complete``)."""
    pending = await device.pending_device(session, user_code) if user_code else None
    client = await device.client_of(session, pending.client_pk) if pending else None
    return await render(
        request, session, principal, "oauth_device.html",
        device=pending, client=client,
        user_code=show_user_code(pending.user_code) if pending else "",
        entered=user_code or "", unknown=bool(user_code) and pending is None,
        scopes=[(s, service.SCOPES[s]) for s in (pending.scopes if pending else [])],
        choices=await workspaces(session, principal), answered=None,
    )  # fmt: skip


@router.post("/oauth/device")
async def device_answer(
    request: Request, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    form = await posted(request)
    allow = text(form, "decision", 10) == "allow"
    await device.answer_device(
        session, text(form, "user_code", 20), principal, allow=allow,
        workspace=text(form, "workspace", 64),
    )  # fmt: skip
    return await render(
        request, session, principal, "oauth_device.html",
        device=None, client=None, user_code="", entered="", unknown=False, scopes=[],
        choices=[], answered="allowed" if allow else "denied",
    )  # fmt: skip


# ---- authorized apps -------------------------------------------------------------------------


@router.get("/authorized-apps")
async def authorized_apps(
    request: Request, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    grants = await service.authorized_apps(session, principal.user_id)
    return await render(
        request, session, principal, "oauth_apps.html",
        grants=grants, descriptions=service.SCOPES,
    )  # fmt: skip


@router.post("/authorized-apps/{grant_id}/revoke")
async def revoke_app(
    request: Request, grant_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    await posted(request)
    if not await service.revoke_grant_of(session, principal, grant_id):
        raise NotFound("No such authorized app")
    return RedirectResponse("/authorized-apps", status_code=303)
