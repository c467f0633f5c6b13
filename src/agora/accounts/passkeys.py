"""Passkeys (WebAuthn, through the ``webauthn`` library): register, name and remove them; sign
in with one and no password (a discoverable credential names its account by its user handle);
a passkey as the second step after the password or the magic link for people who turn it on;
recovery codes for when the passkey is lost (docs/accounts.md, "Passkeys").

Every challenge is a one-time token of ``accounts/tokens.py`` (256 bits, stored as SHA-256,
short-lived, used once by a conditional UPDATE): the challenge the browser signs is the token's
secret, so the answer names its own challenge (``clientDataJSON.challenge``), which is looked up
by hash and spent in the same transaction as the sign-in. Nothing is kept in a cookie or in
memory. A refused ceremony rolls back and spends nothing; its challenge expires
(``AGORA_PASSKEY_CHALLENGE_SECONDS``).
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncSession
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticationCredential,
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    RegistrationCredential,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from agora.accounts import passkey_repository as repo
from agora.accounts import repository as accounts_repo
from agora.accounts import tokens
from agora.accounts.service import (
    Context,
    NewSession,
    browser_only,
    count_failure,
    require_recent_authentication,
    start_session,
    token_user,
)
from agora.audit import service as audit
from agora.auth.principal import Principal
from agora.kit.errors import BadRequest, Conflict, FieldError, NotFound, Unauthorized
from agora.kit.fields import trimmed
from agora.kit.ids import parse_uuid
from agora.kit.security import hash_key
from agora.kit.timeutil import utcnow
from agora.kit.units import RollbackWork
from agora.models import AccountToken, Passkey, User
from agora.settings import Settings

# The token purposes (accounts/tokens.py): a registration's challenge (for the signed-in user),
# a passwordless sign-in's (no user yet) and the second step's (the user whose first step
# passed; its ``role`` column keeps that first step's method).
REGISTER = "passkey_register"
SIGN_IN = "passkey_sign_in"
SECOND_STEP = "passkey_second"

CHALLENGE_GONE = "unknown, expired or already used: start again"
NOT_SIGNED_IN = "this passkey does not sign in here"


@dataclass(frozen=True)
class RelyingParty:
    id: str
    name: str
    origin: str


def relying_party(settings: Settings) -> RelyingParty:
    """The relying party: AGORA_PASSKEY_RP_ID / _RP_NAME / _ORIGIN, else from the public URL
    (its host; "Agora"; its scheme, host and port)."""
    url = urlsplit(settings.public_url)
    host = url.hostname or "localhost"
    default_origin = f"{url.scheme}://{host}" + (f":{url.port}" if url.port else "")
    s = settings.passkeys
    return RelyingParty(s.rp_id or host, s.rp_name or "Agora", s.origin or default_origin)


def _ttl(settings: Settings) -> timedelta:
    return timedelta(seconds=settings.passkeys.challenge_seconds)


def _descriptor(passkey: Passkey) -> PublicKeyCredentialDescriptor:
    known = {t.value for t in AuthenticatorTransport}
    transports = [AuthenticatorTransport(t) for t in passkey.transports.split(",") if t in known]
    return PublicKeyCredentialDescriptor(
        id=_unb64(passkey.credential_id, "credential"), transports=transports or None
    )


def _unb64(value: str, field: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise BadRequest.field(field, "not base64url") from None


def _options(options: object) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(options_to_json(options))  # type: ignore[arg-type]
    return found


async def _spend_challenge(
    session: AsyncSession, client_data_json: bytes, purpose: str, kind: str
) -> tuple[AccountToken, bytes]:
    """The challenge the browser signed (from its clientDataJSON): looked up in the token store
    and spent. Returns the token and the challenge's bytes."""
    try:
        client_data = parse_client_data_json(client_data_json)
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise BadRequest.field("credential", "clientDataJSON is not valid") from None
    if client_data.type != kind:
        raise BadRequest.field("credential", f"clientDataJSON.type is not {kind}")
    try:
        plaintext = client_data.challenge.decode("ascii")
    except UnicodeDecodeError:
        raise BadRequest.field("challenge", CHALLENGE_GONE) from None
    try:
        token = await tokens.consume(session, plaintext, purpose, "challenge")
    except BadRequest:
        raise BadRequest.field("challenge", CHALLENGE_GONE) from None
    return token, client_data.challenge


# ---- registering, naming and removing ---------------------------------------------------------


async def list_passkeys(session: AsyncSession, principal: Principal) -> list[Passkey]:
    return await repo.passkeys_of(session, principal.user_id)


async def registration_options(
    session: AsyncSession, settings: Settings, principal: Principal
) -> dict[str, Any]:
    """The options of ``navigator.credentials.create`` for the signed-in person (a browser
    session with a recent sign-in): a discoverable credential with user verification; the user
    handle is the user's id; the passkeys already registered are excluded."""
    browser_only(principal)
    await require_recent_authentication(session, settings, principal)
    user = await token_user(session, principal.user_id)
    existing = await repo.passkeys_of(session, user.id)
    if len(existing) >= settings.passkeys.max_per_user:
        raise Conflict(f"At most {settings.passkeys.max_per_user} passkeys; remove one first")
    plaintext, _ = await tokens.issue(session, REGISTER, _ttl(settings), user_id=user.id)
    rp = relying_party(settings)
    return _options(
        generate_registration_options(
            rp_id=rp.id,
            rp_name=rp.name,
            user_id=user.id.bytes,
            user_name=user.email,
            user_display_name=user.name,
            challenge=plaintext.encode("ascii"),
            timeout=int(settings.passkeys.challenge_seconds * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.REQUIRED,
            ),
            exclude_credentials=[_descriptor(p) for p in existing],
        )
    )


def _registration(credential: dict[str, Any]) -> RegistrationCredential:
    try:
        return parse_registration_credential_json(credential)
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise BadRequest.field("credential", "not a WebAuthn registration response") from None


async def register(
    session: AsyncSession,
    settings: Settings,
    principal: Principal,
    *,
    name: str,
    credential: dict[str, Any],
) -> Passkey:
    """Check the browser's answer to ``registration_options`` (its challenge is spent, it was
    issued to this person, the origin and RP id match, the user was verified) and keep the
    passkey."""
    browser_only(principal)
    await require_recent_authentication(session, settings, principal)
    name = trimmed("name", name, 100) or "Passkey"
    parsed = _registration(credential)
    token, challenge = await _spend_challenge(
        session, parsed.response.client_data_json, REGISTER, "webauthn.create"
    )
    if token.user_id != principal.user_id:
        raise BadRequest.field("challenge", CHALLENGE_GONE)
    rp = relying_party(settings)
    try:
        verified = verify_registration_response(
            credential=parsed,
            expected_challenge=challenge,
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            require_user_verification=True,
        )
    except WebAuthnException as exc:
        raise BadRequest.field("credential", f"refused: {exc}") from None
    credential_id = bytes_to_base64url(verified.credential_id)
    if await repo.passkey_by_credential(session, credential_id) is not None:
        raise Conflict("credential: this passkey is already registered")
    if await repo.passkey_count(session, principal.user_id) >= settings.passkeys.max_per_user:
        raise Conflict(f"At most {settings.passkeys.max_per_user} passkeys; remove one first")
    transports = ",".join(t.value for t in parsed.response.transports or [])
    passkey = Passkey(
        user_id=principal.user_id,
        credential_id=credential_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        name=name,
        aaguid=verified.aaguid,
        transports=transports[:200],
        backed_up=verified.credential_backed_up,
    )
    await accounts_repo.add(session, passkey)
    await audit.record(
        session,
        "passkey.added",
        actor=principal,
        target_kind="passkey",
        target_id=passkey.id,
        details={"name": name, "aaguid": verified.aaguid},
    )
    return passkey


async def _own(session: AsyncSession, principal: Principal, raw_id: str) -> Passkey:
    passkey_id = parse_uuid(raw_id)
    passkey = await repo.passkey_by_id(session, passkey_id) if passkey_id else None
    if passkey is None or passkey.user_id != principal.user_id:
        raise NotFound(f"Passkey {raw_id} not found")
    return passkey


async def rename(session: AsyncSession, principal: Principal, raw_id: str, name: str) -> Passkey:
    browser_only(principal)
    passkey = await _own(session, principal, raw_id)
    passkey.name = trimmed("name", name, 100) or passkey.name
    await session.flush()
    return passkey


async def remove(
    session: AsyncSession, settings: Settings, principal: Principal, raw_id: str
) -> None:
    """Remove a passkey (it signs in no more). The last one is kept while the second step is
    on (409: turn it off first, or the account would ask for a passkey it no longer has)."""
    browser_only(principal)
    await require_recent_authentication(session, settings, principal)
    passkey = await _own(session, principal, raw_id)
    user = await token_user(session, principal.user_id)
    if user.passkey_second_step and await repo.passkey_count(session, user.id) <= 1:
        raise Conflict("The second step is on: turn it off before removing your last passkey")
    await repo.delete_passkey(session, passkey.id)
    await audit.record(
        session,
        "passkey.removed",
        actor=principal,
        target_kind="passkey",
        target_id=passkey.id,
        details={"name": passkey.name},
    )


# ---- recovery codes and the second step -------------------------------------------------------


def _recovery_code() -> str:
    """80 random bits as four groups of four (Crockford-like base32, no 0/O/1/I)."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    raw = "".join(secrets.choice(alphabet) for _ in range(16))
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def _code_hash(code: str) -> str:
    return hash_key("".join(c for c in code.upper() if c.isalnum()))


async def new_recovery_codes(
    session: AsyncSession, settings: Settings, principal: Principal
) -> list[str]:
    """A new set of recovery codes (the older set stops working), shown once; stored as
    SHA-256 (80 random bits each: a fast hash is enough)."""
    browser_only(principal)
    await require_recent_authentication(session, settings, principal)
    codes = [_recovery_code() for _ in range(settings.passkeys.recovery_codes)]
    await repo.replace_recovery_codes(session, principal.user_id, [_code_hash(c) for c in codes])
    await audit.record(
        session,
        "recovery_codes.created",
        actor=principal,
        target_kind="user",
        target_id=principal.user_id,
        details={"count": len(codes)},
    )
    return codes


@dataclass(frozen=True)
class SecondStepState:
    enabled: bool
    passkeys: int
    unused_codes: int


async def second_step_state(session: AsyncSession, principal: Principal) -> SecondStepState:
    user = await token_user(session, principal.user_id)
    return SecondStepState(
        user.passkey_second_step,
        await repo.passkey_count(session, user.id),
        await repo.unused_recovery_codes(session, user.id),
    )


async def set_second_step(
    session: AsyncSession, settings: Settings, principal: Principal, enabled: bool
) -> list[str]:
    """Turn the second step on or off. On needs a passkey (409 otherwise); turning it on
    without unused recovery codes makes a set, returned (shown once)."""
    browser_only(principal)
    await require_recent_authentication(session, settings, principal)
    user = await token_user(session, principal.user_id)
    codes: list[str] = []
    if enabled and await repo.passkey_count(session, user.id) == 0:
        raise Conflict("Add a passkey before asking for one after the password")
    if enabled and await repo.unused_recovery_codes(session, user.id) == 0:
        codes = await new_recovery_codes(session, settings, principal)
    if user.passkey_second_step != enabled:
        user.passkey_second_step = enabled
        await session.flush()
        await audit.record(
            session,
            "passkey.second_step",
            actor=principal,
            target_kind="user",
            target_id=user.id,
            details={"enabled": enabled},
        )
    return codes


@dataclass(frozen=True)
class SecondStep:
    """The first step (a password, a magic link or an identity provider) passed, and the
    account asks for a passkey after it: ``pending`` is the second step's one-time token, also
    the challenge of ``options`` (for ``navigator.credentials.get``)."""

    pending: str
    options: dict[str, Any]
    user: User


async def session_or_second_step(
    session: AsyncSession, ctx: Context, user: User, method: str, previous_cookie: str | None
) -> NewSession | SecondStep:
    """Every browser sign-in's last move: a session, or — for an account that asks for a passkey
    after the first step — the second step instead (whatever the first step was)."""
    if user.passkey_second_step and user.suspended_at is None:
        pending, options = await begin_second_step(session, ctx.settings, user, method)
        return SecondStep(pending, options, user)
    return await start_session(session, ctx, user, method, previous_cookie)


async def begin_second_step(
    session: AsyncSession, settings: Settings, user: User, first_step: str
) -> tuple[str, dict[str, Any]]:
    """The first step (``first_step``: password or magic_link) passed for an account that asks
    for a passkey: a short-lived one-time token for the second step (it is also the challenge
    of the options returned, for ``navigator.credentials.get``)."""
    plaintext, _ = await tokens.issue(
        session, SECOND_STEP, _ttl(settings), user_id=user.id, role=first_step
    )
    return plaintext, await _second_step_options(session, settings, user.id, plaintext)


async def second_step_options(
    session: AsyncSession, settings: Settings, pending: str
) -> dict[str, Any]:
    """The options of a second step still waiting (a page shown again after a wrong recovery
    code); 400 naming ``token`` once it is spent or expired."""
    token = await tokens.find(session, pending, SECOND_STEP, "token")
    user = await token_user(session, token.user_id)
    return await _second_step_options(session, settings, user.id, pending)


async def _second_step_options(
    session: AsyncSession, settings: Settings, user_id: uuid.UUID, challenge: str
) -> dict[str, Any]:
    rp = relying_party(settings)
    options = generate_authentication_options(
        rp_id=rp.id,
        challenge=challenge.encode("ascii"),
        timeout=int(settings.passkeys.challenge_seconds * 1000),
        allow_credentials=[_descriptor(p) for p in await repo.passkeys_of(session, user_id)],
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return _options(options)


# ---- signing in -----------------------------------------------------------------------------


async def sign_in_options(session: AsyncSession, ctx: Context) -> dict[str, Any]:
    """The options of ``navigator.credentials.get`` for a passwordless sign-in: no allowed
    list (the authenticator offers its discoverable credentials for this RP), user
    verification required. Each counts against the client address's sign-in budget
    (``AGORA_AUTH_ATTEMPTS_PER_ADDRESS``, then 429): anyone may ask, and each is a row."""
    settings = ctx.settings
    await ctx.attempts.spend(
        settings.accounts.auth_attempts_per_address,
        "passkey-address",
        ctx.client_address,
        "Too many passkey sign-ins; retry after the time given in Retry-After",
    )
    plaintext, _ = await tokens.issue(session, SIGN_IN, _ttl(settings))
    rp = relying_party(settings)
    return _options(
        generate_authentication_options(
            rp_id=rp.id,
            challenge=plaintext.encode("ascii"),
            timeout=int(settings.passkeys.challenge_seconds * 1000),
            user_verification=UserVerificationRequirement.REQUIRED,
        )
    )


def _assertion(credential: dict[str, Any]) -> AuthenticationCredential:
    try:
        return parse_authentication_credential_json(credential)
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise BadRequest.field("credential", "not a WebAuthn authentication response") from None


def _refused(reason: str) -> Unauthorized:
    return Unauthorized(
        f"The passkey was refused: {reason}", details=[FieldError("credential", reason)]
    )


async def _check_assertion(
    session: AsyncSession,
    settings: Settings,
    parsed: AuthenticationCredential,
    challenge: bytes,
    *,
    user_verification: bool,
) -> Passkey:
    """The registered passkey that signed ``challenge`` (origin, RP id, signature, user
    verification, and a signature counter that moved forward), its counter advanced."""
    passkey = await repo.passkey_by_credential(session, bytes_to_base64url(parsed.raw_id))
    if passkey is None:
        raise _refused(NOT_SIGNED_IN)
    handle = parsed.response.user_handle
    if handle and handle != passkey.user_id.bytes:
        raise _refused(NOT_SIGNED_IN)
    rp = relying_party(settings)
    try:
        verified = verify_authentication_response(
            credential=parsed,
            expected_challenge=challenge,
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count,
            require_user_verification=user_verification,
        )
    except WebAuthnException as exc:
        reason = str(exc)
        if "sign count" in reason:
            reason = "its signature counter did not move forward (a copied authenticator?)"
        raise _refused(reason) from None
    seen = passkey.sign_count
    if not await repo.advance_counter(session, passkey.id, seen, verified.new_sign_count, utcnow()):
        raise _refused("used twice at once")
    await session.refresh(passkey)
    return passkey


async def _used(session: AsyncSession, passkey: Passkey, step: str) -> None:
    await audit.record(
        session,
        "passkey.used",
        actor=audit.Actor("user", passkey.user_id),
        target_kind="passkey",
        target_id=passkey.id,
        details={"name": passkey.name, "step": step},
    )


async def sign_in(
    session: AsyncSession,
    ctx: Context,
    credential: dict[str, Any],
    previous_cookie: str | None,
) -> NewSession:
    """Sign in with a passkey and no password: the challenge of ``sign_in_options``, a
    registered passkey with user verification; its account is the passkey's."""
    parsed = _assertion(credential)
    _token, challenge = await _spend_challenge(
        session, parsed.response.client_data_json, SIGN_IN, "webauthn.get"
    )
    passkey = await _check_assertion(
        session, ctx.settings, parsed, challenge, user_verification=True
    )
    user = await token_user(session, passkey.user_id)
    await _used(session, passkey, "sign_in")
    return await start_session(session, ctx, user, "passkey", previous_cookie)


async def finish_second_step(
    session: AsyncSession,
    ctx: Context,
    credential: dict[str, Any],
    previous_cookie: str | None,
) -> NewSession:
    """The second step with a passkey: the challenge ``begin_second_step`` issued after the
    first step, signed by a passkey of that same account (another person's passkey: 401)."""
    parsed = _assertion(credential)
    token, challenge = await _spend_challenge(
        session, parsed.response.client_data_json, SECOND_STEP, "webauthn.get"
    )
    passkey = await _check_assertion(
        session, ctx.settings, parsed, challenge, user_verification=False
    )
    if passkey.user_id != token.user_id:
        raise _refused("not a passkey of the account signing in")
    user = await token_user(session, token.user_id)
    await _used(session, passkey, "second_step")
    method = f"{token.role or 'password'}+passkey"
    return await start_session(session, ctx, user, method, previous_cookie)


WRONG_CODE = "this recovery code is wrong or already used"


async def sign_in_with_recovery_code(
    session: AsyncSession,
    ctx: Context,
    rolled_back: Callable[[RollbackWork], None],
    *,
    token: str,
    code: str,
    previous_cookie: str | None,
) -> NewSession:
    """The second step with a recovery code instead of the passkey: the second step's token
    (the first step passed) and one unused code of that account, used now. A wrong code counts
    against the account's sign-in budget (429 past it)."""
    pending = await tokens.find(session, token, SECOND_STEP, "token")
    user = await token_user(session, pending.user_id)
    s = ctx.settings
    await ctx.attempts.check(
        s.accounts.auth_attempts_per_account, "signin-account", user.email, WRONG_CODE
    )
    if not await repo.use_recovery_code(session, user.id, _code_hash(code), utcnow()):
        await count_failure(rolled_back, ctx, WRONG_CODE, email=user.email, user_id=user.id)
        raise Unauthorized(WRONG_CODE, details=[FieldError("code", WRONG_CODE)])
    await tokens.use(session, pending, "token")
    await audit.record(
        session,
        "recovery_code.used",
        actor=audit.Actor("user", user.id),
        target_kind="user",
        target_id=user.id,
        details={"left": await repo.unused_recovery_codes(session, user.id)},
    )
    method = f"{pending.role or 'password'}+recovery"
    return await start_session(session, ctx, user, method, previous_cookie)
