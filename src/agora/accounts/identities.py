"""Signing in, signing up and linking with an identity provider (docs/accounts.md, "Identity
providers"); the calls to the provider are ``providers.py``.

- The key is the provider's identity, ``(issuer, subject)``; the email never finds an account.
- Every flow carries a state (a one-time token of ``account_tokens``, ``idp_state``, also kept
  in the browser's signed flow cookie: a callback must come back to the browser that started it),
  a nonce (OIDC: the ID token must carry it) and a PKCE verifier (S256).
- An unknown identity signs up, only with an address the provider verified that no account holds
  yet. An address that has an account is never linked by itself: its owner signs in and links
  the provider from Settings (started by the signed-in person, coming back to the same session),
  and only with an address the provider verified.
- Unlinking needs another way to sign in (a password or another identity).
- An organization can require its members at its domain to sign in through one provider: their
  password, mailed-link and other providers' sign-ins are refused (``check_sign_in_method``).
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from dataclasses import dataclass
from datetime import timedelta

from authlib.common.security import generate_token
from itsdangerous import BadData, URLSafeTimedSerializer
from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import providers, provisioning, tokens
from agora.accounts import repository as repo
from agora.accounts.passkeys import SecondStep, session_or_second_step
from agora.accounts.providers import Claims, Provider
from agora.accounts.service import Context, NewSession
from agora.audit import service as audit
from agora.auth.principal import Principal
from agora.kit.errors import BadRequest, Conflict, FieldError, Forbidden, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.timeutil import utcnow
from agora.kit.units import Unit
from agora.models import User, UserIdentity
from agora.settings import Settings

FLOW_COOKIE = "agora_idp_flow"
FLOW_COOKIE_PATH = "/sign-in/"
MAX_IDENTITIES = 10
START_AGAIN = "This sign-in was not started in this browser or has expired; start again"


@dataclass(frozen=True)
class Flow:
    """What the browser keeps of a started flow (signed, in ``FLOW_COOKIE``)."""

    provider: str
    state: str
    nonce: str
    verifier: str
    next: str = "/agents"


@dataclass(frozen=True)
class Started:
    url: str  # the provider's sign-in page
    cookie: str  # the signed flow


@dataclass(frozen=True)
class Finished:
    """A callback's outcome: a new session (sign-in, sign-up) — or the passkey the account asks
    for after the first step —, or an identity linked."""

    new_session: NewSession | SecondStep | None
    linked: UserIdentity | None
    next: str


def _signer(secret: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(
        secret, salt="agora.idp.flow", signer_kwargs={"digest_method": hashlib.sha256}
    )


def _seal(secret: str, flow: Flow) -> str:
    return str(
        _signer(secret).dumps([flow.provider, flow.state, flow.nonce, flow.verifier, flow.next])
    )


def open_flow(secret: str, value: str | None, settings: Settings) -> Flow | None:
    """The flow the browser started, or None (no cookie, tampered, or older than the flow)."""
    try:
        found = _signer(secret).loads(value or "", max_age=int(settings.idp.flow_minutes * 60))
    except BadData:
        return None
    if not isinstance(found, list) or len(found) != 5 or not all(isinstance(x, str) for x in found):
        return None
    return Flow(*found)


def redirect_uri(settings: Settings, key: str) -> str:
    """The callback registered at the provider."""
    return f"{settings.public_url.rstrip('/')}/sign-in/{key}/callback"


def method_of(provider: Provider) -> str:
    return f"idp_{provider.key}"


async def start(
    unit: Unit,
    ctx: Context,
    secret: str,
    key: str,
    *,
    linking: Principal | None = None,
    then: str = "/agents",
) -> Started:
    """A new flow: the provider's endpoints (discovery, outside any transaction), then the state
    token written. ``linking``: the signed-in person linking a provider from Settings."""
    settings = ctx.settings
    provider = providers.provider(settings, key)
    # Each start writes a state row: bounded per client address like sign-ups.
    await ctx.attempts.record(
        settings.accounts.auth_attempts_per_address, "idp-start", ctx.client_address,
        "Too many sign-ins started",
    )  # fmt: skip
    where = await unit.call_out(providers.endpoints(settings, provider))
    session = await unit.write()
    if linking is not None:
        await _linkable(session, linking.user_id)
    ttl = timedelta(minutes=settings.idp.flow_minutes)
    state, _ = await tokens.issue(
        session, "idp_state", ttl, user_id=linking.user_id if linking else None, email=key
    )
    flow = Flow(key, state, generate_token(32), generate_token(64), then)
    url = providers.authorization_url(
        where, provider, redirect_uri=redirect_uri(settings, key), state=state,
        nonce=flow.nonce, verifier=flow.verifier,
    )  # fmt: skip
    return Started(url, _seal(secret, flow))


async def finish(
    unit: Unit,
    ctx: Context,
    key: str,
    flow: Flow | None,
    *,
    state: str,
    code: str,
    error: str,
    principal: Principal | None,
    previous_cookie: str | None,
) -> Finished:
    """The provider's answer: the state must be this browser's flow's and unspent; the code is
    exchanged (with the PKCE verifier) and the identity verified outside any transaction; then
    the person is signed in, signed up, or the identity linked."""
    settings = ctx.settings
    provider = providers.provider(settings, key)
    if flow is None or flow.provider != key:
        raise BadRequest(START_AGAIN, details=[FieldError("state", "no flow in this browser")])
    if not hmac.compare_digest(flow.state.encode(), state.encode()):
        raise BadRequest(
            "The answer does not belong to the sign-in this browser started; start again",
            details=[FieldError("state", "does not match")],
        )
    if error:
        raise BadRequest(f"{provider.name} did not sign you in ({error[:80]}); start again")
    if not code:
        raise BadRequest.field("code", "missing")
    token = await tokens.find(await unit.session(), state, "idp_state", "state")
    if token.email != key:  # the state row names the provider it was issued for
        raise BadRequest(START_AGAIN, details=[FieldError("state", "another provider's")])
    claims = await unit.call_out(
        providers.identity(
            settings, provider, redirect_uri=redirect_uri(settings, key), code=code,
            nonce=flow.nonce, verifier=flow.verifier,
        )
    )  # fmt: skip
    session = await unit.write()
    await tokens.use(session, token, "state")
    if token.user_id is not None:
        linked = await link(session, token.user_id, principal, provider, claims)
        return Finished(None, linked, "/settings/sign-in")
    new = await _sign_in_or_up(session, ctx, provider, claims, previous_cookie)
    return Finished(new, None, flow.next)


async def _sign_in_or_up(
    session: AsyncSession,
    ctx: Context,
    provider: Provider,
    claims: Claims,
    previous_cookie: str | None,
) -> NewSession | SecondStep:
    now = utcnow()
    identity = await repo.identity_by_key(session, claims.issuer, claims.subject)
    if identity is not None:
        user = await repo.user_by_id(session, identity.user_id)
        assert user is not None  # the identity cascades with its user
        identity.email, identity.email_verified = claims.email, claims.email_verified
        identity.last_used_at = now
    else:
        if not claims.email or not claims.email_verified:
            raise Forbidden(
                f"{provider.name} did not confirm an email address for this account; Agora "
                "creates accounts only for confirmed addresses. Confirm it there, or sign up "
                "with a password",
                details=[FieldError("email", "not verified by the provider")],
            )
        existing = await repo.user_by_email(session, claims.email)
        if existing is not None:
            user = await _link_required(session, existing, provider, claims)
        else:
            name = claims.name or claims.email.split("@", 1)[0]
            user, _workspace = await provisioning.create_account(
                session, email=claims.email, name=name,
                credits=ctx.settings.accounts.welcome_credits,
            )  # fmt: skip
            user.email_verified_at = now
            identity = await _add_identity(session, user, provider, claims)
    await check_sign_in_method(session, ctx.settings, user, provider.key)
    return await session_or_second_step(session, ctx, user, method_of(provider), previous_cookie)


async def _link_required(
    session: AsyncSession, user: User, provider: Provider, claims: Claims
) -> User:
    """An address that has an account is linked only by its signed-in owner (Settings), with one
    exception: an organization of the account requires this very provider for the address's
    domain (its password and mailed links are refused), and the provider verified this very
    address. The organization's owners chose the provider for their domain; without it the
    member could not sign in at all."""
    if claims.email_verified and provider.key in await required_providers(session, user):
        identity = await _add_identity(session, user, provider, claims)
        await audit.record(
            session, "auth.identity_linked", actor=audit.SYSTEM, target_kind="user",
            target_id=user.id,
            details={"provider": provider.key, "issuer": identity.issuer,
                     "reason": "organization rule"},
        )  # fmt: skip
        return user
    raise Conflict(
        f"An Agora account with {claims.email} already exists. Sign in to it (password "
        f"or mailed link), then link {provider.name} under Settings → Sign-in methods"
    )


async def link(
    session: AsyncSession,
    started_by: uuid.UUID,
    principal: Principal | None,
    provider: Provider,
    claims: Claims,
) -> UserIdentity:
    """Link the identity to the person who started the link (``started_by``, the state's
    user), signed in in this browser (``principal``)."""
    if principal is None or principal.user_id != started_by:
        raise Forbidden(
            "Linking a provider finishes in the session that started it: sign in and start again",
            details=[FieldError("session", "not the person who started the link")],
        )
    if not claims.email or not claims.email_verified:
        raise Forbidden(
            f"{provider.name} did not confirm the email address of this account: linking needs "
            "an address the provider verified. Confirm it there and start again",
            details=[FieldError("email", "not verified by the provider")],
        )
    user = await _linkable(session, principal.user_id)
    identity = await repo.identity_by_key(session, claims.issuer, claims.subject)
    if identity is not None and identity.user_id != user.id:
        raise Conflict(f"This {provider.name} account is already linked to another Agora account")
    if identity is None:
        identity = await _add_identity(session, user, provider, claims)
        await audit.record(
            session, "auth.identity_linked", actor=principal, target_kind="user",
            target_id=user.id, details={"provider": provider.key, "issuer": claims.issuer},
        )  # fmt: skip
    return identity


async def _linkable(session: AsyncSession, user_id: uuid.UUID) -> User:
    user = await repo.user_by_id(session, user_id)
    if user is None:
        raise NotFound("User not found")
    if len(await repo.identities_of(session, user.id)) >= MAX_IDENTITIES:
        raise Conflict(f"At most {MAX_IDENTITIES} providers can be linked; unlink one first")
    return user


async def _add_identity(
    session: AsyncSession, user: User, provider: Provider, claims: Claims
) -> UserIdentity:
    identity = UserIdentity(
        user_id=user.id,
        provider=provider.key,
        issuer=claims.issuer,
        subject=claims.subject,
        email=claims.email,
        email_verified=claims.email_verified,
        last_used_at=utcnow(),
    )
    await repo.add(session, identity)
    return identity


# ---- settings: the linked identities ------------------------------------------------------------


async def linked(session: AsyncSession, principal: Principal) -> list[UserIdentity]:
    return await repo.identities_of(session, principal.user_id)


async def unlink(session: AsyncSession, principal: Principal, raw_id: str) -> None:
    """Remove a linked identity while another way to sign in remains (a password or another
    identity), and not the last one of a provider an organization requires."""
    identity_id = parse_uuid(raw_id.strip())
    mine = await repo.identities_of(session, principal.user_id)
    identity = next((i for i in mine if i.id == identity_id), None)
    if identity is None:
        raise NotFound(f"Linked identity {raw_id[:40]} not found")
    user = await repo.user_by_id(session, principal.user_id)
    assert user is not None
    others = [i for i in mine if i.id != identity.id]
    if user.password_hash is None and not others:
        raise Conflict(
            "This is your only way to sign in: set a password first (Forgot your password? "
            "mails a link) or link another provider"
        )
    required = await required_providers(session, user)
    if identity.provider in required and not any(i.provider == identity.provider for i in others):
        raise Conflict(
            f"{required[identity.provider]} requires you to sign in with this provider; it "
            "stays linked"
        )
    await repo.delete_identity(session, identity)
    await audit.record(
        session, "auth.identity_unlinked", actor=principal, target_kind="user",
        target_id=user.id, details={"provider": identity.provider, "issuer": identity.issuer},
    )  # fmt: skip


# ---- organizations' rule ------------------------------------------------------------------------


def domain_of(email: str) -> str:
    return email.rsplit("@", 1)[-1].lower()


async def required_providers(session: AsyncSession, user: User) -> dict[str, str]:
    """provider → the organization requiring it, for this person's address."""
    rules = await repo.sign_in_rules(session, user.id, domain_of(user.email))
    return {provider: organization for organization, provider in reversed(rules)}


async def check_sign_in_method(
    session: AsyncSession, settings: Settings, user: User, provider: str | None
) -> None:
    """403 when an organization of the person requires its members at their address's domain to
    sign in through another provider (``provider`` None: a password or a mailed link)."""
    required = await required_providers(session, user)
    if not required or provider in required:
        return
    needed, organization = next(iter(required.items()))
    name = providers.label(settings, needed)
    raise Forbidden(
        f"{organization} requires its members at @{domain_of(user.email)} to sign in with "
        f"{name}: use the “Sign in with {name}” button",
        details=[FieldError("email", f"sign in with {name}")],
    )
