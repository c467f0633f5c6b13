"""The web app's sign-in with an identity provider (docs/accounts.md, "Identity providers"): the
sign-in page's buttons start a flow, the provider sends the person back to the callback, and
Settings → Sign-in methods lists the linked providers, links another and unlinks one.

The sign-in button is a link (``GET /sign-in/{provider}``): a form posting here and answered with
a redirect to the provider would be stopped by the pages' CSP ``form-action 'self'`` (browsers
check a form's redirects too). Linking is a CSRF-checked POST answered by a page whose link
continues to the provider: the person's second click is the confirmation.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from agora.accounts import identities, providers
from agora.accounts import service as accounts
from agora.accounts.cookies import set_session_cookies
from agora.accounts.dependencies import ContextDep
from agora.accounts.pages import second_step_page
from agora.accounts.passkeys import SecondStep
from agora.accounts.service import NewSession
from agora.auth.dependencies import (
    SessionDep,
    SessionPrincipalDep,
    UnitDep,
    public,
    secret_key,
    session_cookie,
)
from agora.auth.principal import Principal
from agora.kit.units import Mode, UnitOfWorkRoute, mode
from agora.settings import Settings
from agora.web.shell import SignedInDep, Text, posted, render, safe_next

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


def _with_flow(response: Response, settings: Settings, value: str) -> Response:
    response.set_cookie(
        identities.FLOW_COOKIE,
        value,
        max_age=int(settings.idp.flow_minutes * 60),
        path=identities.FLOW_COOKIE_PATH,
        secure=settings.public_url.lower().startswith("https://"),
        httponly=True,
        samesite="lax",
    )
    return response


@router.get("/sign-in/{provider}")
@mode(Mode.CALLS_OUT)
@public
async def start_sign_in(
    request: Request, provider: str, unit: UnitDep, ctx: ContextDep, next: Text = None
) -> Response:
    """To the provider's sign-in page, with a new state, nonce and PKCE verifier."""
    started = await identities.start(
        unit, ctx, secret_key(request), provider[:40], then=safe_next(next)
    )
    response = RedirectResponse(started.url, status_code=303)
    return _with_flow(response, ctx.settings, started.cookie)


@router.get("/sign-in/{provider}/callback")
@mode(Mode.CALLS_OUT)
async def callback(
    request: Request,
    provider: str,
    unit: UnitDep,
    ctx: ContextDep,
    principal: SessionPrincipalDep,
    state: Text = None,
    code: Text = None,
    error: Text = None,
) -> Response:
    """The provider's answer: signs in (or up), or links the provider in Settings."""
    secret = secret_key(request)
    flow = identities.open_flow(secret, request.cookies.get(identities.FLOW_COOKIE), ctx.settings)
    finished = await identities.finish(
        unit, ctx, provider[:40], flow, state=(state or "")[:200], code=(code or "")[:2000],
        error=(error or "")[:100], principal=principal, previous_cookie=session_cookie(request),
    )  # fmt: skip
    target = finished.next + ("?linked=1" if finished.linked is not None else "")
    response: Response
    if isinstance(finished.new_session, SecondStep):  # the account asks for its passkey too
        step = finished.new_session
        response = await second_step_page(request, step.pending, step.options, target)
    else:
        response = RedirectResponse(target, status_code=303)
    response.delete_cookie(identities.FLOW_COOKIE, path=identities.FLOW_COOKIE_PATH)
    if isinstance(finished.new_session, NewSession):
        set_session_cookies(response, ctx.settings, secret, finished.new_session.token)
    return response


async def _methods_page(
    request: Request, session: Any, principal: Principal, *, linked: bool = False
) -> HTMLResponse:
    settings: Settings = request.app.state.settings
    user = await accounts.account(session, principal)
    found = await identities.linked(session, principal)
    return await render(
        request, session, principal, "sign_in_methods.html",
        identities=[(i, providers.label(settings, i.provider)) for i in found],
        providers=providers.configured(settings), has_password=user.password_hash is not None,
        linked=linked,
    )  # fmt: skip


@router.get("/settings/sign-in")
async def methods_page(
    request: Request, session: SessionDep, principal: SignedInDep, linked: Text = None
) -> HTMLResponse:
    return await _methods_page(request, session, principal, linked=bool(linked))


@router.post("/settings/sign-in/{provider}/link")
@mode(Mode.CALLS_OUT)
async def start_link(
    request: Request, provider: str, unit: UnitDep, ctx: ContextDep, principal: SignedInDep
) -> Response:
    """A new linking flow for the signed-in person; the page's link continues to the provider."""
    await posted(request)
    started = await identities.start(
        unit, ctx, secret_key(request), provider[:40], linking=principal,
        then="/settings/sign-in",
    )  # fmt: skip
    response = await render(
        request, await unit.write(), principal, "sign_in_link.html",
        provider=providers.provider(ctx.settings, provider[:40]), url=started.url,
    )  # fmt: skip
    return _with_flow(response, ctx.settings, started.cookie)


@router.post("/settings/sign-in/identities/{identity_id}/unlink")
async def unlink(
    request: Request, identity_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    await posted(request)
    await identities.unlink(session, principal, identity_id)
    return RedirectResponse("/settings/sign-in", status_code=303)
