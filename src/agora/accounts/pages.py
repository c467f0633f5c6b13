"""The web app's account pages: sign-up, sign-in (password or mailed link), email
confirmation, password reset, sign-out, the workspace switch and API keys (docs/accounts.md)."""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from agora.accounts import keys, passkeys, passwords, providers, signin
from agora.accounts import service as accounts
from agora.accounts.cookies import clear_session_cookies, set_session_cookies
from agora.accounts.dependencies import ACCEPTED, ContextDep
from agora.auth.dependencies import (
    SessionDep,
    SessionPrincipalDep,
    SettingsDep,
    UnitDep,
    check_same_origin,
    public,
    secret_key,
    session_cookie,
)
from agora.auth.principal import Principal
from agora.kit.errors import AgoraError, BadRequest
from agora.kit.units import Mode, UnitOfWorkRoute, after_rollback, mode
from agora.web import flash
from agora.web.render import sentence
from agora.web.shell import SignedInDep, Text, safe_next, toasted
from agora.web.shell import field_errors as _field_errors
from agora.web.shell import posted as _form
from agora.web.shell import render as _render
from agora.web.shell import text as _text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


@router.get("/sign-up")
@public
async def sign_up_page(request: Request, session: SessionDep, next: Text = None) -> HTMLResponse:
    """``next``: where to return after the confirmation (kept through the mailed link: an
    invitation opened before the account existed is not lost)."""
    return await _render(
        request, session, None, "sign_up.html", values={}, errors={}, next=safe_next(next, "")
    )


@router.post("/sign-up")
@public
async def sign_up(request: Request, session: SessionDep, ctx: ContextDep) -> HTMLResponse:
    form = await _form(request)
    values = {k: _text(form, k, 320) for k in ("email", "name")}
    then = safe_next(_text(form, "next", 500), "")
    try:
        user = await signin.sign_up(
            session, ctx, email=values["email"], password=_text(form, "password", 200),
            name=values["name"], then=then or None,
        )  # fmt: skip
    except AgoraError as exc:
        errors = _field_errors(exc) or {"form": exc.message}
        if not exc.details and exc.message.startswith("email:"):
            errors = {"email": exc.message.removeprefix("email:").strip()}
        return await _render(
            request, session, None, "sign_up.html", exc.status_code, values=values, errors=errors,
            next=then, summary=None,  # the page writes its own
        )  # fmt: skip
    return await _render(
        request, session, None, "signed_up.html", email=user.email,
        invitation=then.startswith("/invitations/"),
    )  # fmt: skip


# The pages that ask for an address and mail a link (the same service calls as
# POST /v1/auth/magic-link, /password-reset and /verify-email/resend): one answer whether or not
# the address has an account; the POST redirects (PRG) to the page with ``sent=1``.
_MAIL_PAGES: dict[str, dict[str, str]] = {
    "/magic-link": {
        "title": "Sign in with a link",
        "intro": "We mail you a one-time link that signs you in; no password needed.",
        "button": "Mail me a sign-in link",
    },
    "/reset-password": {
        "title": "Reset your password",
        "intro": "We mail you a link to choose a new password.",
        "button": "Mail me a reset link",
    },
    "/verify-email": {
        "title": "Confirm your email address",
        "intro": "We mail you a new link to confirm your address (if it is not confirmed yet).",
        "button": "Mail me a new confirmation link",
    },
}


async def _mail_page(
    request: Request,
    session: Any,
    path: str,
    *,
    sent: bool = False,
    email: str = "",
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    errors = errors or {}
    summary = [("email", sentence(errors["email"], "email"))] if errors.get("email") else []
    return await _render(
        request, session, None, "request_mail.html", status_code, **_MAIL_PAGES[path],
        action=f"{path}/request", sent=ACCEPTED if sent else "", email=email, errors=errors,
        summary=summary,
    )  # fmt: skip


async def _request_mail(request: Request, session: Any, ctx: Any, path: str) -> Response:
    form = await _form(request)
    email = _text(form, "email", 320).strip()
    send = {
        "/magic-link": signin.request_magic_link,
        "/reset-password": signin.request_password_reset,
        "/verify-email": signin.resend_verification,
    }[path]
    try:
        if not email:
            raise BadRequest.field("email", "is required")
        await send(session, ctx, email)
    except BadRequest as exc:
        errors = _field_errors(exc) or {"form": exc.message}
        if "email" not in errors and exc.message.startswith("email:"):
            errors = {"email": exc.message.removeprefix("email:").strip()}
        return await _mail_page(request, session, path, email=email, errors=errors, status_code=400)
    return RedirectResponse(f"{path}?sent=1", status_code=303)


@router.get("/verify-email")
@public
async def verify_page(
    request: Request,
    session: SessionDep,
    token: Text = None,
    sent: Text = None,
    next: Text = None,
) -> HTMLResponse:
    """An interstitial (a mail scanner following the link spends nothing): a button that POSTs.
    Without a token: the form that mails a new link. ``next`` (from sign-up) is kept."""
    if not token:
        return await _mail_page(request, session, "/verify-email", sent=bool(sent))
    return await _render(
        request, session, None, "token.html", token=token or "", action="/verify-email",
        title="Confirm your email address", button="Confirm my address",
        next=safe_next(next, ""),
    )  # fmt: skip


@router.post("/verify-email")
@public
async def verify(request: Request, session: SessionDep) -> Response:
    form = await _form(request)
    await signin.verify_email(session, _text(form, "token", 200))
    then = safe_next(_text(form, "next", 500), "")
    target = "/sign-in?verified=1" + (f"&next={quote(then, safe='')}" if then else "")
    return RedirectResponse(target, status_code=303)


@router.get("/magic-link")
@public
async def magic_page(
    request: Request, session: SessionDep, token: Text = None, sent: Text = None
) -> HTMLResponse:
    if not token:  # no link yet: the form that mails one
        return await _mail_page(request, session, "/magic-link", sent=bool(sent))
    return await _render(
        request, session, None, "token.html", token=token or "", action="/magic-link",
        title="Sign in with your link", button="Sign me in",
    )  # fmt: skip


@router.post("/magic-link")
@public
async def magic_sign_in(request: Request, session: SessionDep, ctx: ContextDep) -> Response:
    check_same_origin(request)  # login CSRF: a form on another site never signs in here
    form = await _form(request)
    token = _text(form, "token", 200)
    new = await signin.sign_in_with_link(session, ctx, token, session_cookie(request))
    if isinstance(new, passkeys.SecondStep):
        return await second_step_page(request, new.pending, new.options, "/agents")
    response = RedirectResponse("/agents", status_code=303)
    set_session_cookies(response, ctx.settings, secret_key(request), new.token)
    return response


@router.get("/sign-in")
@public
async def sign_in_page(
    request: Request, session: SessionDep, next: Text = None, verified: Text = None
) -> HTMLResponse:
    target = safe_next(next)
    notice = "Your address is confirmed: sign in." if verified else ""
    if target.startswith("/invitations/accept"):
        notice = (notice + " " if notice else "") + (
            "Sign in to accept your invitation. No account yet? Create one: the invitation "
            "waits for you."
        )
    return await _render(
        request, session, None, "sign_in.html", next=target, values={}, errors={}, notice=notice,
        providers=providers.configured(request.app.state.settings),
    )  # fmt: skip


def _sign_in_errors(exc: AgoraError) -> dict[str, str]:
    """The sign-in refusals as full sentences on their fields: wrong credentials on the
    password, an unconfirmed address on the email (the page links to a new confirmation)."""
    found = _field_errors(exc)
    if found.get("email", "").startswith("sign in with"):  # an organization's provider
        return {"email": f"{exc.message}."}
    if "credentials" in found:
        return {"password": "The email address or the password is wrong."}
    if "not verified" in found.get("email", ""):
        return {
            "email": "Confirm your email address first: open the link we mailed you, or ask "
            "for a new one below."
        }
    if found:
        return {k: f"{v[:1].upper()}{v[1:].rstrip('.')}." for k, v in found.items()}
    return {"form": f"{exc.message.rstrip('.')}."}


def _sign_in_summary(errors: dict[str, str]) -> list[tuple[str | None, str]]:
    return [(None if k == "form" else k, v) for k, v in errors.items()]


@router.post("/sign-in")
@mode(Mode.CALLS_OUT)
@public
async def sign_in(request: Request, unit: UnitDep, ctx: ContextDep) -> Response:
    check_same_origin(request)  # login CSRF: a form on another site never signs in here
    form = await _form(request)
    email, target = _text(form, "email", 320), safe_next(_text(form, "next", 500))
    try:
        new = await signin.sign_in(
            unit, ctx, email=email, password=_text(form, "password", 200),
            previous_cookie=session_cookie(request),
        )  # fmt: skip
    except accounts.Suspended:
        raise  # the error page, not the form
    except AgoraError as exc:
        errors = _sign_in_errors(exc)
        return await _render(
            request, None, None, "sign_in.html", exc.status_code, next=target,
            values={"email": email}, errors=errors, summary=_sign_in_summary(errors),
            unverified="not verified" in _field_errors(exc).get("email", ""),
            providers=providers.configured(ctx.settings),
        )  # fmt: skip
    if isinstance(new, passkeys.SecondStep):
        return await second_step_page(request, new.pending, new.options, target)
    response = RedirectResponse(target, status_code=303)
    set_session_cookies(response, ctx.settings, secret_key(request), new.token)
    return response


@router.post("/sign-out")
async def sign_out(
    request: Request, session: SessionDep, principal: SessionPrincipalDep, settings: SettingsDep
) -> Response:
    await _form(request)
    if principal is not None:
        await accounts.sign_out(session, principal)
    response = toasted(request, "/sign-in", "signed-out")
    clear_session_cookies(response, settings)
    return response


@router.get("/reset-password")
@public
async def reset_page(
    request: Request, session: SessionDep, token: Text = None, sent: Text = None
) -> HTMLResponse:
    if not token:  # no link yet: the form that mails one
        return await _mail_page(request, session, "/reset-password", sent=bool(sent))
    revoked = await passwords.reset_preview(session, token)  # the confirm step names them
    return await _render(
        request, session, None, "reset.html", token=token, errors={}, revoked=revoked,
        notice=passwords.EVICTION_NOTICE,
    )  # fmt: skip


@router.post("/magic-link/request")
@public
async def request_magic_link(request: Request, session: SessionDep, ctx: ContextDep) -> Response:
    return await _request_mail(request, session, ctx, "/magic-link")


@router.post("/reset-password/request")
@public
async def request_password_reset(
    request: Request, session: SessionDep, ctx: ContextDep
) -> Response:
    return await _request_mail(request, session, ctx, "/reset-password")


@router.post("/verify-email/request")
@public
async def request_verification(request: Request, session: SessionDep, ctx: ContextDep) -> Response:
    return await _request_mail(request, session, ctx, "/verify-email")


@router.post("/reset-password")
@mode(Mode.CALLS_OUT)
@public
async def reset(request: Request, unit: UnitDep) -> Response:
    form = await _form(request)
    token = _text(form, "token", 200)
    try:
        await passwords.reset_password(unit, token, _text(form, "password", 200))
    except AgoraError as exc:
        errors = _field_errors(exc) or {"form": exc.message}
        return await _render(
            request, None, None, "reset.html", exc.status_code, token=token, errors=errors,
            revoked=[], notice=passwords.EVICTION_NOTICE,
        )  # fmt: skip
    return RedirectResponse("/sign-in", status_code=303)


@router.post("/workspace")
async def switch_workspace(
    request: Request, session: SessionDep, principal: SignedInDep
) -> Response:
    form = await _form(request)
    await accounts.switch_workspace(session, principal, _text(form, "workspaceId", 100))
    return toasted(request, safe_next(_text(form, "next", 500)), "workspace")


async def _keys_page(
    request: Request,
    session: Any,
    principal: Principal,
    *,
    created: str = "",
    errors: dict[str, str] | None = None,
    name: str = "",
    status_code: int = 200,
) -> HTMLResponse:
    found = await keys.list_keys(session, principal)
    errors = errors or {}
    summary = [("key-name", sentence(errors["name"], "name"))] if errors.get("name") else []
    if errors.get("password"):
        summary.append(("key-password", sentence(errors["password"], "password")))
    return await _render(
        request, session, principal, "keys.html", status_code, keys=found, created=created,
        errors=errors, summary=summary, key_name=name,
        reauth_minutes=f"{request.app.state.settings.accounts.key_reauth_minutes:g}",
    )  # fmt: skip


@router.get("/keys")
async def keys_page(request: Request, session: SessionDep, principal: SignedInDep) -> Response:
    # A key just created (POST /keys → 303 here) is shown once: sealed for this session in a
    # one-path cookie (web/flash.py), deleted by this answer.
    response = await _keys_page(request, session, principal, created=flash.take(request, "/keys"))
    flash.clear(request, response, "/keys")
    return response


@router.post("/keys")
@mode(Mode.CALLS_OUT)
async def create_key(
    request: Request, unit: UnitDep, principal: SignedInDep, ctx: ContextDep
) -> Response:
    form = await _form(request)
    name = _text(form, "name", 300)
    try:  # with a password: the session's fresh proof first (a session needs a recent one)
        _key, plaintext = await keys.create_key(
            unit, ctx, principal, name=name, password=_text(form, "password", 1024)
        )
    except AgoraError as exc:
        errors = _field_errors(exc)
        if errors.get("password"):  # the whole sentence: what is asked and why
            errors["password"] = exc.message
        elif not errors.get("name"):
            errors = {"form": exc.message}
        # The refusal's page (rolled back) reads in the write phase: the read phase may be over.
        return await _keys_page(
            request, await unit.write(), principal, errors=errors, name=name,
            status_code=exc.status_code,
        )  # fmt: skip
    # Post/Redirect/Get: a reload of the next page creates nothing. The key is shown once, by
    # that page (never stored in the clear, never in a URL).
    response = RedirectResponse("/keys", status_code=303)
    flash.put(request, response, ctx.settings, "/keys", plaintext)
    return response


@router.post("/keys/{key_id}/revoke")
async def revoke_key(
    request: Request, key_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    await _form(request)
    await keys.revoke_key(session, principal, key_id)
    return RedirectResponse("/keys", status_code=303)


# ---- passkeys (accounts/passkeys.py; the ceremonies themselves are /v1/auth/passkeys/*, called
# by static/passkeys.js) ---------------------------------------------------------------------


async def second_step_page(
    request: Request,
    pending: str,
    options: dict[str, Any],
    target: str,
    *,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    """The password (or magic link) was right and the account asks for a passkey: the page
    that runs ``navigator.credentials.get`` (static/passkeys.js), or takes a recovery code."""
    errors = errors or {}
    summary = [("recovery-code", errors["code"])] if errors.get("code") else []
    return await _render(
        request, None, None, "second_step.html", status_code, pending=pending, options=options,
        next=target, errors=errors, summary=summary,
    )  # fmt: skip


@router.post("/sign-in/recovery-code")
@public
async def sign_in_with_recovery_code(
    request: Request, session: SessionDep, ctx: ContextDep
) -> Response:
    check_same_origin(request)
    form = await _form(request)
    pending, target = _text(form, "token", 200), safe_next(_text(form, "next", 500))
    try:
        new = await passkeys.sign_in_with_recovery_code(
            session, ctx, partial(after_rollback, session), token=pending,
            code=_text(form, "code", 100), previous_cookie=session_cookie(request),
        )  # fmt: skip
    except accounts.Suspended:
        raise
    except AgoraError as exc:
        if "code" not in _field_errors(exc):
            raise  # the step's token is spent or expired, or too many tries: the error page
        options = await passkeys.second_step_options(session, ctx.settings, pending)
        return await second_step_page(
            request, pending, options, target, errors={"code": f"{exc.message[:1].upper()}"
            f"{exc.message[1:]}."}, status_code=exc.status_code,
        )  # fmt: skip
    response = RedirectResponse(target, status_code=303)
    set_session_cookies(response, ctx.settings, secret_key(request), new.token)
    return response


PASSKEYS_PAGE = "/settings/passkeys"


async def _passkeys_page(
    request: Request,
    session: Any,
    principal: Principal,
    *,
    codes: list[str] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    found = await passkeys.list_passkeys(session, principal)
    state = await passkeys.second_step_state(session, principal)
    return await _render(
        request, session, principal, "passkeys.html", status_code, passkeys=found, state=state,
        codes=codes or [], errors=errors or {},
        reauth_minutes=f"{request.app.state.settings.accounts.key_reauth_minutes:g}",
    )  # fmt: skip


@router.get(PASSKEYS_PAGE)
async def passkeys_page(request: Request, session: SessionDep, principal: SignedInDep) -> Response:
    """Passkeys, the second step and recovery codes. New recovery codes (POST → 303 here) are
    shown once, sealed for this session like a new API key (web/flash.py)."""
    codes = flash.take(request, PASSKEYS_PAGE).split()
    response = await _passkeys_page(request, session, principal, codes=codes)
    flash.clear(request, response, PASSKEYS_PAGE)
    return response


async def _passkey_action(
    request: Request, session: Any, principal: Principal, action: Any
) -> Response:
    """Run ``action``; its refusal is the page with the reason (rolled back), else PRG."""
    try:
        codes: list[str] | None = await action()
    except AgoraError as exc:
        if exc.status_code == 404:
            raise
        return await _passkeys_page(
            request, session, principal, errors={"form": exc.message},
            status_code=exc.status_code,
        )  # fmt: skip
    response = RedirectResponse(PASSKEYS_PAGE, status_code=303)
    if codes:
        flash.put(request, response, request.app.state.settings, PASSKEYS_PAGE, " ".join(codes))
    return response


@router.post("/settings/passkeys/{passkey_id}/name")
async def rename_passkey(
    request: Request, passkey_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    form = await _form(request)

    async def action() -> None:
        await passkeys.rename(session, principal, passkey_id, _text(form, "name", 200))

    return await _passkey_action(request, session, principal, action)


@router.post("/settings/passkeys/{passkey_id}/remove")
async def remove_passkey(
    request: Request, passkey_id: str, session: SessionDep, principal: SignedInDep,
    settings: SettingsDep,
) -> Response:  # fmt: skip
    await _form(request)

    async def action() -> None:
        await passkeys.remove(session, settings, principal, passkey_id)

    return await _passkey_action(request, session, principal, action)


@router.post("/settings/passkeys/second-step")
async def set_second_step(
    request: Request, session: SessionDep, principal: SignedInDep, settings: SettingsDep
) -> Response:
    form = await _form(request)
    enabled = _text(form, "enabled", 10) == "true"

    async def action() -> list[str]:
        return await passkeys.set_second_step(session, settings, principal, enabled)

    return await _passkey_action(request, session, principal, action)


@router.post("/settings/passkeys/recovery-codes")
async def new_recovery_codes(
    request: Request, session: SessionDep, principal: SignedInDep, settings: SettingsDep
) -> Response:
    await _form(request)

    async def action() -> list[str]:
        return await passkeys.new_recovery_codes(session, settings, principal)

    return await _passkey_action(request, session, principal, action)
