"""Account rules: sign-up, email verification, sign-in (password or magic link), password reset,
browser sessions and self-service API keys. Services flush; the request commits; mail goes out
after the commit (``kit.db.on_commit``), never inside the transaction.

Answers never reveal whether an email has an account on the sign-in, magic-link and reset paths
(the same 401 or 202 either way, and the same Argon2 work). Sign-up does say that an address is
taken (409): the person signing up must learn it, and the per-address limit bounds probing.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import quote

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import provisioning, tokens
from agora.accounts import repository as repo
from agora.audit import service as audit
from agora.auth import service as auth
from agora.auth.principal import Permission, Principal
from agora.auth.service import forget_cached_principals
from agora.kit.attempts import AttemptLimiter
from agora.kit.db import on_commit
from agora.kit.errors import (
    BadRequest,
    Conflict,
    FieldError,
    Forbidden,
    NotFound,
    RateLimited,
    Unauthorized,
)
from agora.kit.fields import trimmed
from agora.kit.ids import parse_uuid
from agora.kit.mail import Mail, MailSender
from agora.kit.passwords import hash_password, password_problem, verify_password
from agora.kit.security import generate_key, hash_key, new_token
from agora.kit.timeutil import as_utc, utcnow
from agora.kit.units import after_rollback
from agora.models import ApiKey, BrowserSession, User
from agora.settings import Settings

WRONG_CREDENTIALS = "the email address or the password is wrong"
USER_SCOPES = (
    Permission.READ,
    Permission.JOBS_WRITE,
    Permission.PROJECTS_WRITE,
    Permission.PROFILE_WRITE,
)
MAX_KEY_LIFETIME = timedelta(days=730)


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


# The web app's landing pages the mails link to (web/endpoints.py): each shows a button that
# POSTs the token, so a mail scanner following the link spends nothing. The JSON routes
# (/v1/auth/verify-email, /v1/auth/magic-link, …) keep working for programs.
WEB_VERIFY_EMAIL = "/verify-email"
WEB_MAGIC_LINK = "/magic-link"
WEB_RESET_PASSWORD = "/reset-password"
WEB_ACCEPT_INVITATION = "/invitations/accept"


def link(settings: Settings, path: str, token: str) -> str:
    """``{AGORA_PUBLIC_URL}{path}?token=…`` (a web landing page above)."""
    return f"{settings.public_url.rstrip('/')}{path}?token={token}"


def _send_after_commit(session: AsyncSession, ctx: Context, mail: Mail) -> None:
    on_commit(session, lambda: ctx.mailer.send(mail))


def _email(raw: str) -> str:
    return provisioning.normalise_email(raw)


# Sign-up and verification


async def sign_up(
    session: AsyncSession,
    ctx: Context,
    *,
    email: str,
    password: str,
    name: str,
    then: str | None = None,
) -> User:
    """A new account and its confirmation mail. ``then``: a same-site path the web app returns
    to after the confirmation (an invitation's page: docs/web.md), carried in the mailed link."""
    s = ctx.settings
    await ctx.attempts.record(
        s.auth_attempts_per_address, "signup-address", ctx.client_address, "Too many sign-ups"
    )
    email = _email(email)
    name = trimmed("name", name, 200)
    problem = password_problem(password, email=email, name=name)
    if problem:
        raise BadRequest.field("password", problem)
    # Hash before the first statement: the transaction (and SQLite's write lock) starts there.
    hashed = await asyncio.to_thread(hash_password, password)
    if await repo.user_by_email(session, email) is not None:
        raise Conflict("email: an account with this email address already exists; sign in")
    user, _workspace = await provisioning.create_account(
        session, email=email, name=name, credits=s.welcome_credits
    )
    user.password_hash = hashed
    await session.flush()
    await send_verification(session, ctx, user, then=then)
    return user


async def send_verification(
    session: AsyncSession, ctx: Context, user: User, *, then: str | None = None
) -> None:
    ttl = timedelta(hours=ctx.settings.verify_token_hours)
    await repo.revoke_tokens(session, user.id, ("verify_email",), utcnow())
    plaintext, _ = await tokens.issue(session, "verify_email", ttl, user_id=user.id)
    url = link(ctx.settings, WEB_VERIFY_EMAIL, plaintext)
    if then and then.startswith("/") and not then.startswith("//"):
        url += f"&next={quote(then, safe='')}"
    text = (
        f"Hello {user.name},\n\nConfirm your email address for Agora by opening this link "
        f"(valid for {ctx.settings.verify_token_hours:g} hours, once):\n\n{url}\n\n"
        f'Programs: POST /v1/auth/verify-email with {{"token": "{plaintext}"}}.\n\n'
        "If you did not sign up, ignore this mail.\n"
    )
    _send_after_commit(session, ctx, Mail(user.email, "Confirm your email address", text))


async def verify_email(session: AsyncSession, token: str) -> User:
    return await _follow_link(session, token, "verify_email")


async def _follow_link(session: AsyncSession, token: str, purpose: str) -> User:
    """Use a mailed token; following it proves the mailbox, so the address is verified."""
    used = await tokens.consume(session, token, purpose)
    user = await _token_user(session, used.user_id)
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
        await session.flush()
    return user


async def _token_user(session: AsyncSession, user_id: uuid.UUID | None) -> User:
    user = await repo.user_by_id(session, user_id) if user_id else None
    if user is None:
        raise BadRequest.field("token", "unknown token; ask for a new link")
    return user


# Sign-in


async def sign_in_password(
    session: AsyncSession, ctx: Context, *, email: str, password: str
) -> User:
    """The account for ``email`` if ``password`` is right (reads only: the caller passes a read
    transaction, so the Argon2 work holds no write lock)."""
    s = ctx.settings
    email = email.strip().lower()[:320]
    limited = "Too many failed sign-ins; retry after the time given in Retry-After"
    await ctx.attempts.check(s.auth_attempts_per_account, "signin-account", email, limited)
    await ctx.attempts.check(
        s.auth_attempts_per_address, "signin-address", ctx.client_address, limited
    )
    user = await repo.user_by_email(session, email)
    stored = user.password_hash if user is not None else None
    if not await asyncio.to_thread(verify_password, stored, password):
        await _count_failure(
            session,
            ctx,
            limited,
            email=email,
            user_id=user.id if user is not None else None,
            by_address=True,
        )
        raise Unauthorized(
            WRONG_CREDENTIALS, details=[FieldError("credentials", WRONG_CREDENTIALS)]
        )
    assert user is not None
    if user.email_verified_at is None:
        raise Forbidden(
            "Confirm your email address first (the link we sent; POST /v1/auth/verify-email/resend "
            "for a new one)",
            details=[FieldError("email", "not verified yet")],
        )
    await ctx.attempts.clear(s.auth_attempts_per_account, "signin-account", email)
    return user


async def _count_failure(
    session: AsyncSession,
    ctx: Context,
    limited: str,
    *,
    email: str,
    user_id: uuid.UUID | None,
    by_address: bool = False,
) -> None:
    """Count one wrong password (per account, and per address on sign-in). The failure that
    uses up a budget answers 429 and leaves one ``signin.failures`` audit row, written after the
    refused request's unit rolled back (``kit.units.after_rollback``): the refusal keeps it."""
    s = ctx.settings
    counters = [("account", s.auth_attempts_per_account, "signin-account", email)]
    if by_address:
        counters.append(
            ("address", s.auth_attempts_per_address, "signin-address", ctx.client_address)
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
            "account": s.auth_attempts_per_account,
            **({"address": s.auth_attempts_per_address} if by_address else {}),
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

    after_rollback(session, write)
    raise refusal


async def _mail_budget(ctx: Context, email: str) -> bool:
    """Per-address (429) and per-account (silently no mail, so nothing is revealed) budgets
    for reset and magic-link mails."""
    s = ctx.settings
    await ctx.attempts.record(
        s.auth_attempts_per_address, "mail-address", ctx.client_address, "Too many requests"
    )
    try:
        await ctx.attempts.record(s.auth_mails_per_account, "mail-account", email, "")
    except RateLimited:  # the account's budget is used up: no further mail
        return False
    return True


async def _mail_target(session: AsyncSession, ctx: Context, raw_email: str) -> User | None:
    """The account a link mail would go to, or None (no account, or its mail budget is used)."""
    email = _email(raw_email)
    if not await _mail_budget(ctx, email):
        return None
    return await repo.user_by_email(session, email)


async def request_magic_link(session: AsyncSession, ctx: Context, raw_email: str) -> None:
    user = await _mail_target(session, ctx, raw_email)
    if user is None:
        return
    plaintext, _ = await _magic_token(session, ctx.settings, user)
    url = link(ctx.settings, WEB_MAGIC_LINK, plaintext)
    text = (
        f"Hello {user.name},\n\nOpen this link to sign in to Agora (valid for "
        f"{ctx.settings.magic_link_minutes:g} minutes, once):\n\n{url}\n\n"
        f'Programs: POST /v1/auth/magic-link/sign-in with {{"token": "{plaintext}"}}.\n\n'
        "If you did not ask for it, ignore this mail.\n"
    )
    _send_after_commit(session, ctx, Mail(user.email, "Your sign-in link", text))


async def _magic_token(session: AsyncSession, settings: Settings, user: User) -> tuple[str, object]:
    ttl = timedelta(minutes=settings.magic_link_minutes)
    return await tokens.issue(session, "magic_link", ttl, user_id=user.id)


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
    plaintext, _ = await _magic_token(session, settings, user)
    return f"{base_url.rstrip('/')}{WEB_MAGIC_LINK}?token={plaintext}"


async def sign_in_magic(session: AsyncSession, token: str) -> User:
    return await _follow_link(session, token, "magic_link")


# Password reset


async def request_password_reset(session: AsyncSession, ctx: Context, raw_email: str) -> None:
    user = await _mail_target(session, ctx, raw_email)
    if user is None:
        return
    await repo.revoke_tokens(session, user.id, ("reset_password",), utcnow())
    ttl = timedelta(minutes=ctx.settings.reset_token_minutes)
    plaintext, _ = await tokens.issue(session, "reset_password", ttl, user_id=user.id)
    url = link(ctx.settings, WEB_RESET_PASSWORD, plaintext)
    text = (
        f"Hello {user.name},\n\nChoose a new Agora password with this link (valid for "
        f"{ctx.settings.reset_token_minutes:g} minutes, once):\n\n{url}\n\n"
        f"Programs: POST /v1/auth/password-reset/confirm with "
        f'{{"token": "{plaintext}", "password": "..."}}.\n\n'
        "If you did not ask for it, ignore this mail; your password stays as it is.\n"
    )
    _send_after_commit(session, ctx, Mail(user.email, "Reset your password", text))


# The links a person's mail carries for their own account: a reset or a password change cancels
# every one still outstanding (invitations are the organization's, not the account's).
ACCOUNT_LINKS = ("verify_email", "reset_password", "magic_link")
EVICTION_NOTICE = (
    "Saving a new password signs out every session, cancels every link mailed to you (sign-in, "
    "reset, verification) and revokes every API key created from a browser session."
)


async def _evict(session: AsyncSession, user_id: uuid.UUID) -> None:
    """Whoever knew the old password (or held a session, a mailed link, or a key a session made)
    loses it: every session, every outstanding account link, the keys sessions made."""
    now = utcnow()
    await repo.revoke_sessions(session, user_id, now)
    await repo.revoke_tokens(session, user_id, ACCOUNT_LINKS, now)
    await repo.revoke_session_made_keys(session, user_id, now)
    # Refused at once by this process; other processes' caches expire within 1 s.
    on_commit(session, forget_cached_principals)


async def reset_preview(session: AsyncSession, token: str) -> list[ApiKey]:
    """For the reset page's confirm step: the keys the reset will revoke (those a browser session
    made), or none for a token that is not usable (the form says why on submit)."""
    try:
        found = await tokens.find(session, token, "reset_password")
    except BadRequest:
        return []
    if found.user_id is None:
        return []
    return await repo.session_made_keys(session, found.user_id, utcnow())


async def reset_password(session: AsyncSession, token: str, password: str) -> User:
    """A new password from a reset link; evicts every session, link and session-made key."""
    found = await tokens.find(session, token, "reset_password")
    user = await _token_user(session, found.user_id)
    problem = password_problem(password, email=user.email, name=user.name)
    if problem:
        raise BadRequest.field("password", problem)
    await tokens.use(session, found)
    user.password_hash = await asyncio.to_thread(hash_password, password)
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
    await _evict(session, user.id)
    await session.flush()
    return user


async def check_password(
    read: AsyncSession, ctx: Context, principal: Principal, password: str
) -> User:
    """The signed-in user's password, checked like a sign-in (the same attempt limits; reads
    only: the caller passes a read transaction, so the Argon2 work holds no write lock). A wrong
    one answers 403 naming ``password`` (the session itself stays valid)."""
    s = ctx.settings
    user = await repo.user_by_id(read, principal.user_id)
    if user is None:
        raise NotFound("User not found")
    limited = "Too many wrong passwords; retry after the time given in Retry-After"
    await ctx.attempts.check(s.auth_attempts_per_account, "signin-account", user.email, limited)
    if not await asyncio.to_thread(verify_password, user.password_hash, password):
        await _count_failure(read, ctx, limited, email=user.email, user_id=user.id)
        raise Forbidden(
            "The password is wrong", details=[FieldError("password", "not this account's")]
        )
    return user


async def reauthenticate(session: AsyncSession, principal: Principal) -> BrowserSession:
    """Record a fresh proof of the password on this browser session (``check_password`` first)."""
    row = await current_session(session, principal)
    row.authenticated_at = utcnow()
    await session.flush()
    return row


async def change_password(
    session: AsyncSession, ctx: Context, user: User, new_password: str, previous_cookie: str | None
) -> NewSession:
    """A new password for a signed-in user whose current one was checked (``check_password``):
    evicts like a reset, then signs this browser in again with a new session."""
    problem = password_problem(new_password, email=user.email, name=user.name)
    if problem:
        raise BadRequest.field("newPassword", problem)
    hashed = await asyncio.to_thread(hash_password, new_password)
    row = await repo.user_by_id(session, user.id)
    assert row is not None
    row.password_hash = hashed
    await _evict(session, row.id)
    await session.flush()
    return await start_session(session, ctx, row, "password", previous_cookie)


def _recently_authenticated(row: BrowserSession, settings: Settings) -> bool:
    proof = as_utc(row.authenticated_at or row.created_at)
    return proof >= utcnow() - timedelta(minutes=settings.key_reauth_minutes)


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
        minutes = f"{settings.key_reauth_minutes:g}"
        raise Forbidden(
            "Creating an API key from a browser session needs a recent sign-in: re-enter your "
            "password (POST /v1/auth/reauthenticate) or sign in with a fresh magic link",
            details=[
                FieldError("password", f"no password or magic-link proof in the last {minutes} min")
            ],
        )


# Browser sessions


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
        raise Forbidden(
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
        expires_at=now + timedelta(days=ctx.settings.session_days),
        last_seen_at=now,
    )
    await repo.add(session, row)
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


# API keys over HTTP


async def list_keys(session: AsyncSession, principal: Principal) -> list[ApiKey]:
    return await repo.keys_of(session, principal.user_id)


async def create_key(
    session: AsyncSession,
    settings: Settings,
    principal: Principal,
    *,
    name: str,
    expires_at: datetime | None,
    scopes: list[str] | None,
    workspace_id: str | None,
) -> tuple[ApiKey, str]:
    name = trimmed("name", name, 200)
    await require_recent_authentication(session, settings, principal)
    now = utcnow()
    if expires_at is not None:
        if expires_at.tzinfo is None:
            raise BadRequest.field("expiresAt", "must carry a time zone, e.g. 2027-01-01T00:00:00Z")
        expires_at = as_utc(expires_at)
        if expires_at <= now:
            raise BadRequest.field("expiresAt", "must be in the future")
        if expires_at > now + MAX_KEY_LIFETIME:
            raise BadRequest.field("expiresAt", "must be at most two years ahead")
    wanted = list(dict.fromkeys(scopes or []))
    unknown = [scope for scope in wanted if scope not in USER_SCOPES]
    if unknown:
        raise BadRequest.field(
            "scopes", f"unknown scope {unknown[0]!r}; use {', '.join(USER_SCOPES)}"
        )
    if workspace_id is not None:
        chosen = parse_uuid(workspace_id.strip())
        if chosen is None or not await auth.is_member(session, principal.user_id, chosen):
            raise NotFound(f"workspaceId: workspace {workspace_id} not found")
    else:
        chosen = principal.workspace_id
    if await repo.active_key_count(session, principal.user_id, now) >= settings.api_keys_per_user:
        raise Conflict(
            f"You already have {settings.api_keys_per_user} active API keys, the limit; "
            "revoke one first"
        )
    material = generate_key("user")
    key = ApiKey(
        user_id=principal.user_id,
        kind="user",
        name=name,
        prefix=material.prefix,
        key_hash=material.key_hash,
        default_workspace_id=chosen,
        scopes=wanted,
        expires_at=expires_at,
        created_by_session_id=principal.session_id,
    )
    await repo.add(session, key)
    workspace = await auth.workspace_by_id(session, chosen)
    await audit.record(
        session,
        "key.created",
        actor=principal,
        target_kind="key",
        target_id=key.id,
        workspace_id=chosen,
        organization_id=workspace.organization_id if workspace else None,
        details={"name": name, "prefix": key.prefix, "scopes": wanted, "owner": str(key.user_id)},
    )
    return key, material.plaintext


async def revoke_key(session: AsyncSession, principal: Principal, raw_id: str) -> ApiKey:
    key_id = parse_uuid(raw_id)
    key = await repo.api_key_by_id(session, key_id) if key_id else None
    if key is None or key.user_id != principal.user_id:
        raise NotFound(f"API key {raw_id} not found")
    if key.revoked_at is None:
        key.revoked_at = utcnow()
        await session.flush()
        # Refused at once by this process; other processes' caches expire within 1 s.
        on_commit(session, forget_cached_principals)
        await audit_key_revoked(session, key)
    return key


async def audit_key_revoked(session: AsyncSession, key: ApiKey) -> None:
    workspace = await auth.workspace_by_id(session, key.default_workspace_id)
    await audit.record(
        session,
        "key.revoked",
        actor=None,
        target_kind="key",
        target_id=key.id,
        workspace_id=key.default_workspace_id,
        organization_id=workspace.organization_id if workspace else None,
        details={"name": key.name, "prefix": key.prefix, "owner": str(key.user_id)},
    )


async def account(session: AsyncSession, principal: Principal) -> User:
    user = await repo.user_by_id(session, principal.user_id)
    if user is None:
        raise NotFound("User not found")
    return user


async def resend_verification(session: AsyncSession, ctx: Context, raw_email: str) -> None:
    user = await _mail_target(session, ctx, raw_email)
    if user is not None and user.email_verified_at is None:
        await send_verification(session, ctx, user)


# ---- operators (the console's people: a live admin key) ---------------------------------------


async def is_operator(session: AsyncSession, principal: Principal | None) -> bool:
    if principal is None:
        return False
    if principal.key_kind == "admin":
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
        window = timedelta(minutes=settings.admin_reauth_minutes)
        if proof is None or proof < utcnow() - window:
            raise Forbidden(
                "An admin action needs a recent sign-in: confirm your password",
                details=[
                    FieldError(
                        "password",
                        f"no password or magic-link proof in the last "
                        f"{settings.admin_reauth_minutes:g} min",
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
