"""Account rules the account use cases share and other domains ask: the ``Context`` the use cases
take, the mailed links, the password proof (``confirm_password``: the reauthentication use case),
browser sessions, the console's operators, and the accounts' lookups (other domains never import
``accounts.repository``). Services flush; the request commits; mail goes out after the commit
(``kit.db.on_commit``), never inside the transaction.

The other use cases live beside this module: ``signin.py`` (sign-up, verification, sign-in,
mailed links), ``passwords.py`` (reset and change), ``keys.py`` (API keys), ``workspaces.py``
(the header's workspace switcher).

Argon2 never holds a transaction: a use case that checks or hashes a password takes the request's
``Unit`` and does that work in ``unit.call_out`` (nothing held), between its read and write phases.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import repository as repo
from agora.accounts import tokens
from agora.audit import service as audit
from agora.auth import service as auth
from agora.auth.principal import Principal
from agora.kit.attempts import AttemptLimiter
from agora.kit.db import on_commit
from agora.kit.errors import BadRequest, FieldError, Forbidden, NotFound, RateLimited
from agora.kit.ids import parse_uuid
from agora.kit.mail import Mail, MailSender
from agora.kit.passwords import verify_password
from agora.kit.security import hash_key, new_token
from agora.kit.timeutil import as_utc, utcnow
from agora.kit.units import RollbackWork, Unit, after_rollback
from agora.models import BrowserSession, User
from agora.models.statuses import KeyKind
from agora.settings import Settings


@dataclass(frozen=True)
class Context:
    """What the account rules need from the outside: settings, the mail sender, the attempt
    counters and the caller's address."""

    settings: Settings
    mailer: MailSender
    attempts: AttemptLimiter
    client_address: str
    user_agent: str = ""


@dataclass(frozen=True)
class NewSession:
    token: str
    row: BrowserSession
    user: User


# The web app's landing pages the mails link to (accounts/pages.py, organizations/pages.py): each
# shows a button that POSTs the token, so a mail scanner following the link spends nothing. The
# JSON routes (/v1/auth/verify-email, /v1/auth/magic-link, …) keep working for programs.
WEB_VERIFY_EMAIL = "/verify-email"
WEB_MAGIC_LINK = "/magic-link"
WEB_RESET_PASSWORD = "/reset-password"
WEB_ACCEPT_INVITATION = "/invitations/accept"


def link(settings: Settings, path: str, token: str) -> str:
    """``{AGORA_PUBLIC_URL}{path}?token=…`` (a web landing page above)."""
    return f"{settings.public_url.rstrip('/')}{path}?token={token}"


def send_after_commit(session: AsyncSession, ctx: Context, mail: Mail) -> None:
    on_commit(session, lambda: ctx.mailer.send(mail))


async def token_user(session: AsyncSession, user_id: uuid.UUID | None) -> User:
    """The account a mailed token was issued for (400 on ``token`` if it is gone)."""
    user = await repo.user_by_id(session, user_id) if user_id else None
    if user is None:
        raise BadRequest.field("token", "unknown token; ask for a new link")
    return user


async def magic_token(session: AsyncSession, settings: Settings, user: User) -> str:
    """A one-time sign-in token for ``user`` (the magic-link mail's, the demo's)."""
    ttl = timedelta(minutes=settings.accounts.magic_link_minutes)
    plaintext, _ = await tokens.issue(session, "magic_link", ttl, user_id=user.id)
    return plaintext


async def demo_sign_in_link(
    session: AsyncSession, settings: Settings, email: str, base_url: str
) -> str | None:
    """A one-time sign-in link for an existing user (``agora serve`` prints one for the demo);
    the user's address counts as verified."""
    user = await repo.user_by_email(session, email)
    if user is None:
        return None
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
    plaintext = await magic_token(session, settings, user)
    return f"{base_url.rstrip('/')}{WEB_MAGIC_LINK}?token={plaintext}"


async def account(session: AsyncSession, principal: Principal) -> User:
    user = await repo.user_by_id(session, principal.user_id)
    if user is None:
        raise NotFound("User not found")
    return user


# ---- the password proof -----------------------------------------------------------------------

WRONG_PASSWORDS = "Too many wrong passwords; retry after the time given in Retry-After"


async def count_failure(
    rolled_back: Callable[[RollbackWork], None],
    ctx: Context,
    limited: str,
    *,
    email: str,
    user_id: uuid.UUID | None,
    by_address: bool = False,
) -> None:
    """Count one wrong password (per account, and per address on sign-in). The failure that
    uses up a budget answers 429 and leaves one ``signin.failures`` audit row, written after the
    refused request's unit rolled back (``rolled_back``: the unit's ``after_rollback``): the
    refusal keeps it."""
    s = ctx.settings
    counters = [("account", s.accounts.auth_attempts_per_account, "signin-account", email)]
    if by_address:
        counters.append(
            ("address", s.accounts.auth_attempts_per_address, "signin-address", ctx.client_address)
        )
    crossed: list[str] = []
    refusal: RateLimited | None = None
    for name, limit, kind, value in counters:
        try:
            await ctx.attempts.record(limit, kind, value, limited)
        except RateLimited as exc:
            crossed.append(name)
            refusal = exc
    if refusal is None:
        return
    details = {
        "email": email,
        "address": ctx.client_address,
        "crossed": crossed,
        "threshold": {
            "account": s.accounts.auth_attempts_per_account,
            **({"address": s.accounts.auth_attempts_per_address} if by_address else {}),
        },
    }

    async def write(audit_session: AsyncSession) -> None:
        await audit.record(
            audit_session,
            "signin.failures",
            actor=audit.SYSTEM,
            target_kind="user" if user_id is not None else "email",
            target_id=user_id or email,
            details=details,
        )

    rolled_back(write)
    raise refusal


async def verified_outside(unit: Unit, stored_hash: str | None, password: str) -> bool:
    """Argon2 (tens to hundreds of ms) with nothing held: the read phase ends first."""
    return await unit.call_out(asyncio.to_thread(verify_password, stored_hash, password))


async def _password_holder(read: AsyncSession, ctx: Context, principal: Principal) -> User:
    user = await repo.user_by_id(read, principal.user_id)
    if user is None:
        raise NotFound("User not found")
    s = ctx.settings
    await ctx.attempts.check(
        s.accounts.auth_attempts_per_account, "signin-account", user.email, WRONG_PASSWORDS
    )
    return user


async def _wrong_password(
    rolled_back: Callable[[RollbackWork], None], ctx: Context, user: User
) -> Forbidden:
    await count_failure(rolled_back, ctx, WRONG_PASSWORDS, email=user.email, user_id=user.id)
    return Forbidden(
        "The password is wrong", details=[FieldError("password", "not this account's")]
    )


async def prove_password(unit: Unit, ctx: Context, principal: Principal, password: str) -> User:
    """The signed-in user's password, checked like a sign-in (the same attempt limits): read,
    then Argon2 with nothing held. A wrong one answers 403 naming ``password`` (the session
    itself stays valid)."""
    user = await _password_holder(await unit.session(), ctx, principal)
    if not await verified_outside(unit, user.password_hash, password):
        raise await _wrong_password(unit.after_rollback, ctx, user)
    return user


async def confirm_password(
    unit: Unit, ctx: Context, principal: Principal, password: str
) -> BrowserSession:
    """Re-enter the password in a browser session (``POST /v1/auth/reauthenticate``, the
    console's ``/admin/reauthenticate``, a key made on the keys page): the proof key creation
    and admin actions ask for, recorded on the session in the write phase."""
    await prove_password(unit, ctx, principal, password)
    return await reauthenticate(await unit.write(), principal)


async def check_password(
    read: AsyncSession, ctx: Context, principal: Principal, password: str
) -> User:
    """``prove_password`` on a read session (Argon2 in a thread while the read phase is open):
    the console's ``/admin/reauthenticate`` until it calls ``confirm_password``."""
    user = await _password_holder(read, ctx, principal)
    if not await asyncio.to_thread(verify_password, user.password_hash, password):
        raise await _wrong_password(partial(after_rollback, read), ctx, user)
    return user


async def reauthenticate(session: AsyncSession, principal: Principal) -> BrowserSession:
    """Record a fresh proof of the password on this browser session (the password checked)."""
    row = await current_session(session, principal)
    row.authenticated_at = utcnow()
    await session.flush()
    return row


def _recently_authenticated(row: BrowserSession, settings: Settings) -> bool:
    proof = as_utc(row.authenticated_at or row.created_at)
    return proof >= utcnow() - timedelta(minutes=settings.accounts.key_reauth_minutes)


async def require_recent_authentication(
    session: AsyncSession, settings: Settings, principal: Principal
) -> None:
    """A browser session creates keys only within AGORA_KEY_REAUTH_MINUTES of its last password
    or magic-link proof (a stolen or unattended session cannot mint a lasting credential);
    API keys are not asked. An OAuth access token never: a short-lived, scoped token must not
    turn itself into a lasting, unscoped key (docs/accounts.md)."""
    if principal.oauth_grant_id is not None:
        raise Forbidden("An OAuth access token cannot create API keys: use the web app")
    if principal.session_id is None:
        return
    row = await current_session(session, principal)
    if not _recently_authenticated(row, settings):
        minutes = f"{settings.accounts.key_reauth_minutes:g}"
        raise Forbidden(
            "Creating an API key from a browser session needs a recent sign-in: re-enter your "
            "password (POST /v1/auth/reauthenticate) or sign in with a fresh magic link",
            details=[
                FieldError("password", f"no password or magic-link proof in the last {minutes} min")
            ],
        )


# ---- browser sessions -------------------------------------------------------------------------


class Suspended(Forbidden):
    """A sign-in of a suspended account (403 naming ``email``; the web app shows its error
    page, not the sign-in form)."""


async def start_session(
    session: AsyncSession,
    ctx: Context,
    user: User,
    method: str,
    previous_cookie: str | None,
) -> NewSession:
    """A new session (new secret) on every sign-in; the browser's previous one is revoked, so a
    planted cookie never becomes a signed-in session (fixation)."""
    if user.suspended_at is not None:
        raise Suspended(
            "This account is suspended; contact the operator",
            details=[FieldError("email", "the account is suspended")],
        )
    now = utcnow()
    if previous_cookie:
        found = await auth.session_with_user(session, hash_key(previous_cookie))
        if found is not None:
            await repo.revoke_sessions(session, found[0].user_id, now, only=found[0].id)
    plaintext, token_hash = new_token()
    row = BrowserSession(
        user_id=user.id,
        token_hash=token_hash,
        method=method,
        user_agent=ctx.user_agent[:300],
        client_address=ctx.client_address[:64],
        expires_at=now + timedelta(days=ctx.settings.accounts.session_days),
        last_seen_at=now,
    )
    await repo.add(session, row)
    if await repo.cancel_account_deletion(session, user.id, now):
        await audit.record(
            session,
            "account.deletion_cancelled",
            actor=audit.Actor("user", user.id, row.id),
            target_kind="user",
            target_id=user.id,
            details={"by": "sign_in"},
        )
    await audit.record(
        session,
        "auth.sign_in",
        actor=audit.Actor("user", user.id, row.id),
        target_kind="user",
        target_id=user.id,
        details={"method": method, "userAgent": ctx.user_agent[:200]},
    )
    return NewSession(plaintext, row, user)


def browser_only(principal: Principal) -> uuid.UUID:
    """The browser session's id (404 for a request made with a key)."""
    if principal.session_id is None:
        raise NotFound("This request was not made with a session cookie")
    return principal.session_id


async def current_session(session: AsyncSession, principal: Principal) -> BrowserSession:
    row = await repo.session_by_id(session, browser_only(principal))
    if row is None:
        raise NotFound("Session not found")
    return row


async def list_sessions(session: AsyncSession, principal: Principal) -> list[BrowserSession]:
    return await repo.sessions_of(session, principal.user_id, utcnow())


async def revoke_session(session: AsyncSession, principal: Principal, raw_id: str) -> None:
    session_id = parse_uuid(raw_id)
    row = await repo.session_by_id(session, session_id) if session_id else None
    if row is None or row.user_id != principal.user_id:
        raise NotFound(f"Session {raw_id} not found")
    await repo.revoke_sessions(session, principal.user_id, utcnow(), only=row.id)
    await audit.record(
        session, "session.revoked", actor=principal, target_kind="session", target_id=row.id
    )


async def sign_out(session: AsyncSession, principal: Principal) -> None:
    if principal.session_id is not None:
        await repo.revoke_sessions(session, principal.user_id, utcnow(), only=principal.session_id)


async def end_sessions(session: AsyncSession, user_id: uuid.UUID) -> int:
    """Revoke every browser session of ``user_id`` (a confirmed account deletion: only a new
    sign-in, which cancels it, opens one again)."""
    return await repo.revoke_sessions(session, user_id, utcnow())


async def sign_out_everywhere(session: AsyncSession, principal: Principal) -> int:
    count = await repo.revoke_sessions(session, principal.user_id, utcnow())
    await audit.record(
        session,
        "session.revoked",
        actor=principal,
        target_kind="user",
        target_id=principal.user_id,
        details={"sessions": count, "everywhere": True},
    )
    return count


async def switch_workspace(
    session: AsyncSession, principal: Principal, raw_workspace_id: str
) -> BrowserSession:
    row = await current_session(session, principal)
    workspace_id = parse_uuid(raw_workspace_id.strip())
    if workspace_id is None or not await auth.is_member(session, principal.user_id, workspace_id):
        raise NotFound(f"workspaceId: workspace {raw_workspace_id} not found")
    row.workspace_id = workspace_id
    await session.flush()
    return row


# ---- operators (the console's people: a live admin key) ---------------------------------------


# Who is told about an operator's matter (a listing losing its badge): bounded.
MAX_OPERATORS_TOLD = 20


async def operators(session: AsyncSession) -> list[uuid.UUID]:
    """The operators' user ids (a live admin key), at most ``MAX_OPERATORS_TOLD``."""
    return await repo.operator_ids(session, utcnow(), MAX_OPERATORS_TOLD)


async def is_operator(session: AsyncSession, principal: Principal | None) -> bool:
    if principal is None:
        return False
    if principal.key_kind == KeyKind.ADMIN:
        return True
    return principal.session_id is not None and await repo.is_operator(
        session, principal.user_id, utcnow()
    )


async def require_operator(
    session: AsyncSession, settings: Settings, principal: Principal, *, acting: bool
) -> audit.Actor:
    """The operator as an audit actor (``admin``); 404 for anyone else (the console does not
    exist for them), 403 naming ``password`` for an action without a recent proof."""
    if not await is_operator(session, principal):
        raise NotFound("Not found")
    if acting and principal.session_id is not None:
        row = await repo.session_by_id(session, principal.session_id)
        proof = as_utc(row.authenticated_at or row.created_at) if row is not None else None
        window = timedelta(minutes=settings.accounts.admin_reauth_minutes)
        if proof is None or proof < utcnow() - window:
            raise Forbidden(
                "An admin action needs a recent sign-in: confirm your password",
                details=[
                    FieldError(
                        "password",
                        f"no password or magic-link proof in the last "
                        f"{settings.accounts.admin_reauth_minutes:g} min",
                    )
                ],
            )
    return audit.actor_of(principal, operator=True)


# ---- asked by other domains (they never import accounts.repository) -------------------------
user_by_id = repo.user_by_id
user_by_email = repo.user_by_email
user_row = repo.user_row
session_by_id = repo.session_by_id
revoke_sessions = repo.revoke_sessions
organization_by_id = repo.organization_by_id
api_key_by_id = repo.api_key_by_id
revoke_workspace_keys = repo.revoke_workspace_keys
workspace_keys = repo.workspace_keys
invitations_of = repo.invitations_of
token_by_id = repo.token_by_id
revoke_named_keys = repo.revoke_named_keys
