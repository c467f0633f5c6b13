"""/v1/auth/* (sign-up, sign-in, sessions) and /v1/api-keys. Key family: Envelope A, Simple
errors naming the field. See docs/accounts.md."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request, Response
from fastapi.responses import RedirectResponse

from agora.accounts import identities, keys, passkeys, passwords, service, signin
from agora.accounts.cookies import clear_session_cookies, set_session_cookies
from agora.accounts.dependencies import ACCEPTED, ContextDep
from agora.accounts.schemas import (
    AccountOut,
    ApiKeyIn,
    ApiKeyOut,
    CreatedApiKeyOut,
    EmailIn,
    IdentityOut,
    MessageOut,
    PasskeyAssertionIn,
    PasskeyIn,
    PasskeyNameIn,
    PasskeyOut,
    PasswordChangeIn,
    PasswordIn,
    PasswordResetIn,
    PasswordRulesOut,
    RecoveryCodesOut,
    SecondStepIn,
    SecondStepOut,
    SessionOut,
    SignedInOut,
    SignInIn,
    SignUpIn,
    TokenIn,
    WebAuthnOptionsOut,
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
from agora.kit.openapi import errors
from agora.kit.passwords import MAX_LENGTH, MIN_LENGTH, PASSWORD_RULES
from agora.kit.security import csrf_token
from agora.kit.units import Mode, mode
from agora.models import BrowserSession

router = key_router(prefix="/auth", tags=["accounts"])
keys_router = key_router(prefix="/api-keys", tags=["api-keys"])

# Ids stay ``str`` in the path: a malformed id answers the same 404 as an unknown one.
SessionId = Annotated[str, Path(alias="sessionId")]
IdentityId = Annotated[str, Path(alias="identityId", max_length=100)]
KeyId = Annotated[str, Path(alias="keyId")]
Token = Annotated[str, Query(max_length=200)]


def _message(text: str) -> EnvelopeA[MessageOut]:
    return EnvelopeA[MessageOut](data=MessageOut(message=text))


def _account(user: object) -> EnvelopeA[AccountOut]:
    return EnvelopeA[AccountOut](data=AccountOut.model_validate(user))


def _this_session(row: BrowserSession, current: bool = True) -> SessionOut:
    return SessionOut.model_validate(row).model_copy(update={"current": current})


def _signed_in(
    request: Request, response: Response, ctx: service.Context, new: service.NewSession
) -> EnvelopeA[SignedInOut]:
    csrf = set_session_cookies(response, ctx.settings, secret_key(request), new.token)
    user = AccountOut.model_validate(new.user)
    return EnvelopeA[SignedInOut](
        data=SignedInOut(user=user, session=_this_session(new.row), csrf_token=csrf)
    )


@router.get("/password-rules", operation_id="getPasswordRules")
@public
async def password_rules() -> EnvelopeA[PasswordRulesOut]:
    """The password rules, in words a person can read (no authentication)."""
    return EnvelopeA[PasswordRulesOut](
        data=PasswordRulesOut(min_length=MIN_LENGTH, max_length=MAX_LENGTH, rules=PASSWORD_RULES)
    )


@router.post("/sign-up", status_code=201, operation_id="signUp", openapi_extra=errors(409, 429))
@public
async def sign_up(body: SignUpIn, session: SessionDep, ctx: ContextDep) -> EnvelopeA[AccountOut]:
    """Create an account (user, personal workspace, credit account) and mail a verification
    link. Sign in once the address is verified."""
    return _account(
        await signin.sign_up(session, ctx, email=body.email, password=body.password, name=body.name)
    )


@router.post("/verify-email", operation_id="verifyEmail")
@public
async def verify_email(body: TokenIn, session: SessionDep) -> EnvelopeA[AccountOut]:
    """Confirm the email address with the token from the verification mail."""
    return _account(await signin.verify_email(session, body.token))


@router.get("/verify-email", operation_id="verifyEmailLink")
@mode(Mode.WRITE_ON_GET)
@public
async def verify_email_link(session: SessionDep, token: Token) -> EnvelopeA[AccountOut]:
    """The link in the verification mail (the same as the POST)."""
    return _account(await signin.verify_email(session, token))


@router.post(
    "/verify-email/resend",
    status_code=202,
    operation_id="resendVerification",
    openapi_extra=errors(429),
)
@public
async def resend_verification(
    body: EmailIn, session: SessionDep, ctx: ContextDep
) -> EnvelopeA[MessageOut]:
    """Mail a new verification link (the same answer whether or not the address has an account)."""
    await signin.resend_verification(session, ctx, body.email)
    return _message(ACCEPTED)


@router.post("/sign-in", operation_id="signIn", openapi_extra=errors(401, 403, 429))
@mode(Mode.CALLS_OUT)
@public
async def sign_in(
    body: SignInIn, request: Request, response: Response, unit: UnitDep, ctx: ContextDep
) -> EnvelopeA[SignedInOut]:
    """Sign in with email and password: sets the session cookie (HttpOnly, SameSite=Lax) and the
    CSRF cookie, and returns the CSRF token to send as ``X-CSRF-Token`` on state-changing
    requests. 20 wrong passwords for one account → 429 with Retry-After."""
    check_same_origin(request)
    new = await signin.sign_in(
        unit, ctx, email=body.email, password=body.password, previous_cookie=session_cookie(request)
    )
    return _signed_in(request, response, ctx, signin.no_second_step(new))


@router.post(
    "/magic-link", status_code=202, operation_id="requestMagicLink", openapi_extra=errors(429)
)
@public
async def request_magic_link(
    body: EmailIn, session: SessionDep, ctx: ContextDep
) -> EnvelopeA[MessageOut]:
    """Mail a one-time sign-in link (the same answer whether or not the address has an account)."""
    await signin.request_magic_link(session, ctx, body.email)
    return _message(ACCEPTED)


@router.post("/magic-link/sign-in", operation_id="signInWithLink")
@public
async def sign_in_with_link(
    body: TokenIn, request: Request, response: Response, session: SessionDep, ctx: ContextDep
) -> EnvelopeA[SignedInOut]:
    """Sign in with the token of a magic link (also verifies the email address)."""
    check_same_origin(request)
    new = await signin.sign_in_with_link(session, ctx, body.token, session_cookie(request))
    return _signed_in(request, response, ctx, signin.no_second_step(new))


@router.get(
    "/magic-link",
    status_code=303,
    response_class=RedirectResponse,
    operation_id="followMagicLink",
    responses={303: {"description": "To the web page that signs in after a confirm button"}},
)
@public
async def follow_magic_link(settings: SettingsDep, token: Token) -> RedirectResponse:
    """An old mailed link: spends nothing and signs nobody in (a link planted on another site
    must not sign the browser into someone else's account). Redirects to the web page whose
    button POSTs the token."""
    return RedirectResponse(service.link(settings, service.WEB_MAGIC_LINK, token), status_code=303)


@router.post(
    "/password-reset",
    status_code=202,
    operation_id="requestPasswordReset",
    openapi_extra=errors(429),
)
@public
async def request_password_reset(
    body: EmailIn, session: SessionDep, ctx: ContextDep
) -> EnvelopeA[MessageOut]:
    """Mail a password-reset link (the same answer whether or not the address has an account)."""
    await signin.request_password_reset(session, ctx, body.email)
    return _message(ACCEPTED)


@router.post("/password-reset/confirm", operation_id="confirmPasswordReset")
@mode(Mode.CALLS_OUT)
@public
async def confirm_password_reset(body: PasswordResetIn, unit: UnitDep) -> EnvelopeA[AccountOut]:
    """Set a new password with the reset token. Every session of the account is signed out,
    every outstanding mailed link (sign-in, reset, verification) cancelled, and every API key
    created from a browser session revoked (the web page says so before its button)."""
    return _account(await passwords.reset_password(unit, body.token, body.password))


@router.post("/reauthenticate", operation_id="reauthenticate", openapi_extra=errors(429))
@mode(Mode.CALLS_OUT)
async def reauthenticate(
    body: PasswordIn, unit: UnitDep, principal: ProfileWriter, ctx: ContextDep
) -> EnvelopeA[SessionOut]:
    """Re-enter the password in a browser session: creating API keys from a session needs a
    password (or magic-link) proof within AGORA_KEY_REAUTH_MINUTES. A wrong password → 403."""
    row = await service.confirm_password(unit, ctx, principal, body.password)
    return EnvelopeA[SessionOut](data=_this_session(row))


@router.post("/password", operation_id="changePassword", openapi_extra=errors(429))
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
    new = await passwords.change_password(
        unit,
        ctx,
        principal,
        current=body.currentPassword,
        new=body.newPassword,
        previous_cookie=session_cookie(request),
    )
    return _signed_in(request, response, ctx, new)


@router.get("/session", operation_id="getCurrentSession")
async def get_current_session(
    request: Request, session: SessionDep, principal: PrincipalDep
) -> EnvelopeA[SignedInOut]:
    """The session of this browser (cookie), with its CSRF token."""
    row = await service.current_session(session, principal)
    user = AccountOut.model_validate(await service.account(session, principal))
    csrf = csrf_token(secret_key(request), session_cookie(request) or "")
    return EnvelopeA[SignedInOut](
        data=SignedInOut(user=user, session=_this_session(row), csrf_token=csrf)
    )


@router.put("/session/workspace", operation_id="switchWorkspace")
async def switch_workspace(
    body: WorkspaceSwitchIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[SessionOut]:
    """Choose the workspace this browser works in (cookie sessions; keys use X-Workspace-Id)."""
    row = await service.switch_workspace(session, principal, body.workspaceId)
    return EnvelopeA[SessionOut](data=_this_session(row))


@router.get("/sessions", operation_id="listSessions")
async def list_sessions(session: SessionDep, principal: Reader) -> EnvelopeA[list[SessionOut]]:
    """The account's active sessions (newest first); ``current`` marks this browser's."""
    rows = await service.list_sessions(session, principal)
    return EnvelopeA[list[SessionOut]](
        data=[_this_session(row, row.id == principal.session_id) for row in rows]
    )


@router.delete("/sessions/{sessionId}", operation_id="revokeSession")
async def revoke_session(
    session_id: SessionId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[MessageOut]:
    """Sign one session out (effective at once)."""
    await service.revoke_session(session, principal, session_id)
    return _message("Session signed out")


@router.get("/identities", operation_id="listIdentities")
async def list_identities(session: SessionDep, principal: Reader) -> EnvelopeA[list[IdentityOut]]:
    """The identity providers linked to the account (Google, Microsoft, an OIDC issuer, GitHub):
    each keyed by the provider's issuer and subject. Linking happens in the web app (Settings →
    Sign-in methods), through the provider's pages."""
    rows = await identities.linked(session, principal)
    return EnvelopeA[list[IdentityOut]](data=[IdentityOut.model_validate(r) for r in rows])


@router.delete("/identities/{identityId}", operation_id="unlinkIdentity", openapi_extra=errors(409))
async def unlink_identity(
    identity_id: IdentityId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[MessageOut]:
    """Unlink a provider while another way to sign in remains (a password or another provider;
    409 otherwise), and not the last one of a provider an organization requires of you."""
    await identities.unlink(session, principal, identity_id)
    return _message("Provider unlinked")


@router.post("/sign-out", operation_id="signOut")
async def sign_out(
    response: Response, session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[MessageOut]:
    """Sign this browser out and clear its cookies."""
    await service.sign_out(session, principal)
    clear_session_cookies(response, settings)
    return _message("Signed out")


@router.post("/sign-out-everywhere", operation_id="signOutEverywhere")
async def sign_out_everywhere(
    response: Response, session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[MessageOut]:
    """Sign every session of the account out (API keys stay valid; revoke them separately)."""
    count = await service.sign_out_everywhere(session, principal)
    clear_session_cookies(response, settings)
    return _message(f"Signed out {count} session(s)")


# API keys


@keys_router.get("", operation_id="listApiKeys")
async def list_api_keys(
    session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[list[ApiKeyOut]]:
    """Your API keys that are not revoked (the secret is never shown again)."""
    found = await keys.list_keys(session, principal)
    return EnvelopeA[list[ApiKeyOut]](data=[ApiKeyOut.model_validate(key) for key in found])


@keys_router.post("", status_code=201, operation_id="createApiKey", openapi_extra=errors(404, 409))
@mode(Mode.CALLS_OUT)
async def create_api_key(
    body: ApiKeyIn, unit: UnitDep, principal: ProfileWriter, ctx: ContextDep
) -> EnvelopeA[CreatedApiKeyOut]:
    """Create a user key. ``scopes`` (optional) limits it to some of read, jobs:write,
    projects:write, profile:write; ``workspaceId`` sets its default workspace (default: the
    current one). The plaintext ``key`` is in this response only."""
    key, plaintext = await keys.create_key(
        unit,
        ctx,
        principal,
        name=body.name,
        expires_at=body.expiresAt,
        scopes=body.scopes,
        workspace_id=body.workspaceId,
    )
    out = CreatedApiKeyOut(**ApiKeyOut.model_validate(key).model_dump(), key=plaintext)
    return EnvelopeA[CreatedApiKeyOut](data=out)


@keys_router.delete("/{keyId}", operation_id="revokeApiKey")
async def revoke_api_key(
    key_id: KeyId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[ApiKeyOut]:
    """Revoke one of your keys; the next request with it answers 401."""
    return EnvelopeA[ApiKeyOut](
        data=ApiKeyOut.model_validate(await keys.revoke_key(session, principal, key_id))
    )


# Passkeys (accounts/passkeys.py; docs/accounts.md, "Passkeys"): the ceremonies' two halves,
# the options (whose challenge is a one-time token) and the browser's answer. Managing them
# needs a browser session (a key → 404) with a recent sign-in (403 naming ``password``).
passkeys_router = key_router(prefix="/auth", tags=["passkeys"])
PasskeyId = Annotated[str, Path(alias="passkeyId")]


def _passkey(row: object) -> PasskeyOut:
    return PasskeyOut.model_validate(row)


def _webauthn(options: dict[str, object]) -> EnvelopeA[WebAuthnOptionsOut]:
    return EnvelopeA[WebAuthnOptionsOut](data=WebAuthnOptionsOut(public_key=options))


@passkeys_router.get("/passkeys", operation_id="listPasskeys")
async def list_passkeys(
    session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[list[PasskeyOut]]:
    """Your passkeys (name, authenticator type, when added and last used)."""
    found = await passkeys.list_passkeys(session, principal)
    return EnvelopeA[list[PasskeyOut]](data=[_passkey(p) for p in found])


@passkeys_router.post(
    "/passkeys/registration-options",
    operation_id="passkeyRegistrationOptions",
    openapi_extra=errors(404, 409),
)
async def passkey_registration_options(
    session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[WebAuthnOptionsOut]:
    """Start adding a passkey: the options for ``navigator.credentials.create`` (a discoverable
    credential with user verification; its challenge lives AGORA_PASSKEY_CHALLENGE_SECONDS)."""
    return _webauthn(await passkeys.registration_options(session, settings, principal))


@passkeys_router.post(
    "/passkeys", status_code=201, operation_id="addPasskey", openapi_extra=errors(404, 409)
)
async def add_passkey(
    body: PasskeyIn, session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[PasskeyOut]:
    """Finish adding a passkey with the browser's answer (``credential``) and a ``name``. A
    spent, expired or another person's challenge → 400 naming ``challenge``."""
    added = await passkeys.register(
        session, settings, principal, name=body.name, credential=body.credential
    )
    return EnvelopeA[PasskeyOut](data=_passkey(added))


# The sign-in ceremonies: literal paths before /passkeys/{passkeyId} (matched in order).
@passkeys_router.post(
    "/passkeys/sign-in-options", operation_id="passkeySignInOptions", openapi_extra=errors(429)
)
@public
async def passkey_sign_in_options(
    session: SessionDep, ctx: ContextDep
) -> EnvelopeA[WebAuthnOptionsOut]:
    """Start signing in with a passkey and no password: the options for
    ``navigator.credentials.get`` (no allowed list: the authenticator offers its passkeys).
    Counted per client address (AGORA_AUTH_ATTEMPTS_PER_ADDRESS, then 429)."""
    return _webauthn(await passkeys.sign_in_options(session, ctx))


@passkeys_router.post(
    "/passkeys/sign-in", operation_id="signInWithPasskey", openapi_extra=errors(401, 403)
)
@public
async def sign_in_with_passkey(
    body: PasskeyAssertionIn,
    request: Request,
    response: Response,
    session: SessionDep,
    ctx: ContextDep,
) -> EnvelopeA[SignedInOut]:
    """Finish a passkey sign-in with the browser's answer: sets the cookies like
    ``POST /v1/auth/sign-in``. A spent or unknown challenge → 400 naming ``challenge``; a
    passkey not registered here, a bad signature or a counter that went back → 401."""
    check_same_origin(request)
    new = await passkeys.sign_in(session, ctx, body.credential, session_cookie(request))
    return _signed_in(request, response, ctx, new)


@passkeys_router.post(
    "/passkeys/second-step", operation_id="passkeySecondStep", openapi_extra=errors(401, 403)
)
@public
async def passkey_second_step(
    body: PasskeyAssertionIn,
    request: Request,
    response: Response,
    session: SessionDep,
    ctx: ContextDep,
) -> EnvelopeA[SignedInOut]:
    """Finish the second step (after the web sign-in's password or magic link) with a passkey
    of the same account; sets the cookies. Another person's passkey → 401."""
    check_same_origin(request)
    new = await passkeys.finish_second_step(session, ctx, body.credential, session_cookie(request))
    return _signed_in(request, response, ctx, new)


@passkeys_router.patch("/passkeys/{passkeyId}", operation_id="renamePasskey")
async def rename_passkey(
    passkey_id: PasskeyId, body: PasskeyNameIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[PasskeyOut]:
    """Rename one of your passkeys."""
    renamed = await passkeys.rename(session, principal, passkey_id, body.name)
    return EnvelopeA[PasskeyOut](data=_passkey(renamed))


@passkeys_router.delete(
    "/passkeys/{passkeyId}", operation_id="removePasskey", openapi_extra=errors(409)
)
async def remove_passkey(
    passkey_id: PasskeyId, session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[MessageOut]:
    """Remove one of your passkeys: it signs in no more. Your last one while the second step is
    on → 409."""
    await passkeys.remove(session, settings, principal, passkey_id)
    return _message("Passkey removed")


@passkeys_router.put("/second-step", operation_id="setSecondStep", openapi_extra=errors(409))
async def set_second_step(
    body: SecondStepIn, session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[SecondStepOut]:
    """Ask (or stop asking) for a passkey after the password or a magic link. Turning it on
    needs a passkey (409); without unused recovery codes it makes a set, in this answer only."""
    codes = await passkeys.set_second_step(session, settings, principal, body.enabled)
    state = await passkeys.second_step_state(session, principal)
    return EnvelopeA[SecondStepOut](
        data=SecondStepOut(
            enabled=state.enabled,
            passkeys=state.passkeys,
            unused_recovery_codes=state.unused_codes,
            recovery_codes=codes,
        )
    )


@passkeys_router.post("/recovery-codes", status_code=201, operation_id="newRecoveryCodes")
async def new_recovery_codes(
    session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[RecoveryCodesOut]:
    """A new set of recovery codes (the older set stops working), in this answer only."""
    codes = await passkeys.new_recovery_codes(session, settings, principal)
    return EnvelopeA[RecoveryCodesOut](data=RecoveryCodesOut(recovery_codes=codes))
