"""/v1/auth/* (sign-up, sign-in, sessions) and /v1/api-keys. Key family: Envelope A, Simple
errors naming the field. See docs/accounts.md."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request, Response
from fastapi.responses import RedirectResponse

from agora.accounts import service
from agora.accounts.cookies import clear_session_cookies, set_session_cookies
from agora.accounts.dependencies import ACCEPTED, ContextDep
from agora.accounts.schemas import (
    AccountOut,
    ApiKeyIn,
    ApiKeyOut,
    CreatedApiKeyOut,
    EmailIn,
    MessageOut,
    PasswordChangeIn,
    PasswordIn,
    PasswordResetIn,
    PasswordRulesOut,
    SessionOut,
    SignedInOut,
    SignInIn,
    SignUpIn,
    TokenIn,
    WorkspaceSwitchIn,
)
from agora.auth.dependencies import (
    PrincipalDep,
    ProfileWriter,
    Reader,
    SessionDep,
    SettingsDep,
    UnitDep,
    check_same_origin,
    public,
    secret_key,
    session_cookie,
)
from agora.kit.envelopes import EnvelopeA
from agora.kit.families import key_router
from agora.kit.passwords import MAX_LENGTH, MIN_LENGTH, PASSWORD_RULES
from agora.kit.security import csrf_token
from agora.kit.units import Mode, mode

router = key_router(prefix="/auth", tags=["accounts"])
keys_router = key_router(prefix="/api-keys", tags=["api-keys"])


def _signed_in(
    request: Request, response: Response, ctx: service.Context, new: service.NewSession
) -> EnvelopeA[SignedInOut]:
    csrf = set_session_cookies(response, ctx.settings, secret_key(request), new.token)
    out = SignedInOut(
        user=AccountOut.model_validate(new.user),
        session=SessionOut.model_validate(new.row).model_copy(update={"current": True}),
        csrf_token=csrf,
    )
    return EnvelopeA[SignedInOut](data=out)


@router.get(
    "/password-rules", response_model=EnvelopeA[PasswordRulesOut], operation_id="getPasswordRules"
)
@public
async def password_rules() -> EnvelopeA[PasswordRulesOut]:
    """The password rules, in words a person can read (no authentication)."""
    return EnvelopeA[PasswordRulesOut](
        data=PasswordRulesOut(min_length=MIN_LENGTH, max_length=MAX_LENGTH, rules=PASSWORD_RULES)
    )


@router.post(
    "/sign-up",
    status_code=201,
    response_model=EnvelopeA[AccountOut],
    operation_id="signUp",
    openapi_extra={"x-agora-errors": [409, 429]},
)
@public
async def sign_up(body: SignUpIn, session: SessionDep, ctx: ContextDep) -> EnvelopeA[AccountOut]:
    """Create an account (user, personal workspace, credit account) and mail a verification
    link. Sign in once the address is verified."""
    user = await service.sign_up(
        session, ctx, email=body.email, password=body.password, name=body.name
    )
    return EnvelopeA[AccountOut](data=AccountOut.model_validate(user))


@router.post("/verify-email", response_model=EnvelopeA[AccountOut], operation_id="verifyEmail")
@public
async def verify_email(body: TokenIn, session: SessionDep) -> EnvelopeA[AccountOut]:
    """Confirm the email address with the token from the verification mail."""
    return EnvelopeA[AccountOut](
        data=AccountOut.model_validate(await service.verify_email(session, body.token))
    )


@router.get("/verify-email", response_model=EnvelopeA[AccountOut], operation_id="verifyEmailLink")
@mode(Mode.WRITE_ON_GET)
@public
async def verify_email_link(
    session: SessionDep, token: Annotated[str, Query(max_length=200)]
) -> EnvelopeA[AccountOut]:
    """The link in the verification mail (the same as the POST)."""
    return EnvelopeA[AccountOut](
        data=AccountOut.model_validate(await service.verify_email(session, token))
    )


@router.post(
    "/verify-email/resend",
    status_code=202,
    response_model=EnvelopeA[MessageOut],
    operation_id="resendVerification",
    openapi_extra={"x-agora-errors": [429]},
)
@public
async def resend_verification(
    body: EmailIn, session: SessionDep, ctx: ContextDep
) -> EnvelopeA[MessageOut]:
    """Mail a new verification link (the same answer whether or not the address has an account)."""
    await service.resend_verification(session, ctx, body.email)
    return EnvelopeA[MessageOut](data=MessageOut(message=ACCEPTED))


@router.post(
    "/sign-in",
    response_model=EnvelopeA[SignedInOut],
    operation_id="signIn",
    openapi_extra={"x-agora-errors": [401, 403, 429]},
)
@mode(Mode.CALLS_OUT)
@public
async def sign_in(
    body: SignInIn,
    request: Request,
    response: Response,
    unit: UnitDep,
    ctx: ContextDep,
) -> EnvelopeA[SignedInOut]:
    """Sign in with email and password: sets the session cookie (HttpOnly, SameSite=Lax) and the
    CSRF cookie, and returns the CSRF token to send as ``X-CSRF-Token`` on state-changing
    requests. 20 wrong passwords for one account → 429 with Retry-After."""
    check_same_origin(request)
    # The password check runs in the read phase, so the Argon2 work (tens to hundreds of ms)
    # never holds the write transaction (SQLite's write lock).
    user = await service.sign_in_password(
        await unit.session(), ctx, email=body.email, password=body.password
    )
    new = await service.start_session(
        await unit.write(), ctx, user, "password", session_cookie(request)
    )
    return _signed_in(request, response, ctx, new)


@router.post(
    "/magic-link",
    status_code=202,
    response_model=EnvelopeA[MessageOut],
    operation_id="requestMagicLink",
    openapi_extra={"x-agora-errors": [429]},
)
@public
async def request_magic_link(
    body: EmailIn, session: SessionDep, ctx: ContextDep
) -> EnvelopeA[MessageOut]:
    """Mail a one-time sign-in link (the same answer whether or not the address has an account)."""
    await service.request_magic_link(session, ctx, body.email)
    return EnvelopeA[MessageOut](data=MessageOut(message=ACCEPTED))


@router.post(
    "/magic-link/sign-in", response_model=EnvelopeA[SignedInOut], operation_id="signInWithLink"
)
@public
async def sign_in_with_link(
    body: TokenIn, request: Request, response: Response, session: SessionDep, ctx: ContextDep
) -> EnvelopeA[SignedInOut]:
    """Sign in with the token of a magic link (also verifies the email address)."""
    check_same_origin(request)
    user = await service.sign_in_magic(session, body.token)
    new = await service.start_session(session, ctx, user, "magic_link", session_cookie(request))
    return _signed_in(request, response, ctx, new)


@router.get(
    "/magic-link",
    status_code=303,
    response_class=RedirectResponse,
    operation_id="followMagicLink",
    responses={303: {"description": "To the web page that signs in after a confirm button"}},
)
@public
async def follow_magic_link(
    settings: SettingsDep, token: Annotated[str, Query(max_length=200)]
) -> RedirectResponse:
    """An old mailed link: spends nothing and signs nobody in (a link planted on another site
    must not sign the browser into someone else's account). Redirects to the web page whose
    button POSTs the token."""
    return RedirectResponse(service.link(settings, service.WEB_MAGIC_LINK, token), status_code=303)


@router.post(
    "/password-reset",
    status_code=202,
    response_model=EnvelopeA[MessageOut],
    operation_id="requestPasswordReset",
    openapi_extra={"x-agora-errors": [429]},
)
@public
async def request_password_reset(
    body: EmailIn, session: SessionDep, ctx: ContextDep
) -> EnvelopeA[MessageOut]:
    """Mail a password-reset link (the same answer whether or not the address has an account)."""
    await service.request_password_reset(session, ctx, body.email)
    return EnvelopeA[MessageOut](data=MessageOut(message=ACCEPTED))


@router.post(
    "/password-reset/confirm",
    response_model=EnvelopeA[AccountOut],
    operation_id="confirmPasswordReset",
)
@public
async def confirm_password_reset(
    body: PasswordResetIn, session: SessionDep
) -> EnvelopeA[AccountOut]:
    """Set a new password with the reset token. Every session of the account is signed out,
    every outstanding mailed link (sign-in, reset, verification) cancelled, and every API key
    created from a browser session revoked (the web page says so before its button)."""
    user = await service.reset_password(session, body.token, body.password)
    return EnvelopeA[AccountOut](data=AccountOut.model_validate(user))


@router.post(
    "/reauthenticate",
    response_model=EnvelopeA[SessionOut],
    operation_id="reauthenticate",
    openapi_extra={"x-agora-errors": [429]},
)
@mode(Mode.CALLS_OUT)
async def reauthenticate(
    body: PasswordIn,
    unit: UnitDep,
    principal: ProfileWriter,
    ctx: ContextDep,
) -> EnvelopeA[SessionOut]:
    """Re-enter the password in a browser session: creating API keys from a session needs a
    password (or magic-link) proof within AGORA_KEY_REAUTH_MINUTES. A wrong password → 403."""
    # The read phase checks the password: Argon2 never holds the write transaction.
    await service.check_password(await unit.session(), ctx, principal, body.password)
    row = await service.reauthenticate(await unit.write(), principal)
    return EnvelopeA[SessionOut](
        data=SessionOut.model_validate(row).model_copy(update={"current": True})
    )


@router.post(
    "/password",
    response_model=EnvelopeA[SignedInOut],
    operation_id="changePassword",
    openapi_extra={"x-agora-errors": [429]},
)
@mode(Mode.CALLS_OUT)
async def change_password(
    body: PasswordChangeIn,
    request: Request,
    response: Response,
    unit: UnitDep,
    principal: ProfileWriter,
    ctx: ContextDep,
) -> EnvelopeA[SignedInOut]:
    """Change the password of a browser session's account (the current one is checked: wrong →
    403). Like a reset it signs out every session, cancels every mailed link and revokes every
    key a browser session created; this browser gets a new session (new cookies, CSRF token)."""
    service.browser_only(principal)  # a browser session's account (404 for a key)
    # The read phase checks the password: Argon2 never holds the write transaction.
    user = await service.check_password(await unit.session(), ctx, principal, body.currentPassword)
    new = await service.change_password(
        await unit.write(), ctx, user, body.newPassword, session_cookie(request)
    )
    return _signed_in(request, response, ctx, new)


@router.get("/session", response_model=EnvelopeA[SignedInOut], operation_id="getCurrentSession")
async def get_current_session(
    request: Request, session: SessionDep, principal: PrincipalDep
) -> EnvelopeA[SignedInOut]:
    """The session of this browser (cookie), with its CSRF token."""
    row = await service.current_session(session, principal)
    user = await service.account(session, principal)
    cookie = session_cookie(request) or ""
    out = SignedInOut(
        user=AccountOut.model_validate(user),
        session=SessionOut.model_validate(row).model_copy(update={"current": True}),
        csrf_token=csrf_token(secret_key(request), cookie),
    )
    return EnvelopeA[SignedInOut](data=out)


@router.put(
    "/session/workspace", response_model=EnvelopeA[SessionOut], operation_id="switchWorkspace"
)
async def switch_workspace(
    body: WorkspaceSwitchIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[SessionOut]:
    """Choose the workspace this browser works in (cookie sessions; keys use X-Workspace-Id)."""
    row = await service.switch_workspace(session, principal, body.workspaceId)
    return EnvelopeA[SessionOut](
        data=SessionOut.model_validate(row).model_copy(update={"current": True})
    )


@router.get("/sessions", response_model=EnvelopeA[list[SessionOut]], operation_id="listSessions")
async def list_sessions(session: SessionDep, principal: Reader) -> EnvelopeA[list[SessionOut]]:
    """The account's active sessions (newest first); ``current`` marks this browser's."""
    rows = await service.list_sessions(session, principal)
    return EnvelopeA[list[SessionOut]](
        data=[
            SessionOut.model_validate(row).model_copy(
                update={"current": row.id == principal.session_id}
            )
            for row in rows
        ]
    )


@router.delete(
    "/sessions/{sessionId}", response_model=EnvelopeA[MessageOut], operation_id="revokeSession"
)
async def revoke_session(
    sessionId: str, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[MessageOut]:
    """Sign one session out (effective at once)."""
    await service.revoke_session(session, principal, sessionId)
    return EnvelopeA[MessageOut](data=MessageOut(message="Session signed out"))


@router.post("/sign-out", response_model=EnvelopeA[MessageOut], operation_id="signOut")
async def sign_out(
    response: Response, session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[MessageOut]:
    """Sign this browser out and clear its cookies."""
    await service.sign_out(session, principal)
    clear_session_cookies(response, settings)
    return EnvelopeA[MessageOut](data=MessageOut(message="Signed out"))


@router.post(
    "/sign-out-everywhere", response_model=EnvelopeA[MessageOut], operation_id="signOutEverywhere"
)
async def sign_out_everywhere(
    response: Response, session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[MessageOut]:
    """Sign every session of the account out (API keys stay valid; revoke them separately)."""
    count = await service.sign_out_everywhere(session, principal)
    clear_session_cookies(response, settings)
    return EnvelopeA[MessageOut](data=MessageOut(message=f"Signed out {count} session(s)"))


# API keys


@keys_router.get("", response_model=EnvelopeA[list[ApiKeyOut]], operation_id="listApiKeys")
async def list_api_keys(
    session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[list[ApiKeyOut]]:
    """Your API keys that are not revoked (the secret is never shown again)."""
    keys = await service.list_keys(session, principal)
    return EnvelopeA[list[ApiKeyOut]](data=[ApiKeyOut.model_validate(key) for key in keys])


@keys_router.post(
    "",
    status_code=201,
    response_model=EnvelopeA[CreatedApiKeyOut],
    operation_id="createApiKey",
    openapi_extra={"x-agora-errors": [404, 409]},
)
async def create_api_key(
    body: ApiKeyIn, session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[CreatedApiKeyOut]:
    """Create a user key. ``scopes`` (optional) limits it to some of read, jobs:write,
    projects:write, profile:write; ``workspaceId`` sets its default workspace (default: the
    current one). The plaintext ``key`` is in this response only."""
    key, plaintext = await service.create_key(
        session,
        settings,
        principal,
        name=body.name,
        expires_at=body.expiresAt,
        scopes=body.scopes,
        workspace_id=body.workspaceId,
    )
    out = CreatedApiKeyOut(**ApiKeyOut.model_validate(key).model_dump(), key=plaintext)
    return EnvelopeA[CreatedApiKeyOut](data=out)


@keys_router.delete("/{keyId}", response_model=EnvelopeA[ApiKeyOut], operation_id="revokeApiKey")
async def revoke_api_key(
    keyId: str, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[ApiKeyOut]:
    """Revoke one of your keys; the next request with it answers 401."""
    return EnvelopeA[ApiKeyOut](
        data=ApiKeyOut.model_validate(await service.revoke_key(session, principal, keyId))
    )
