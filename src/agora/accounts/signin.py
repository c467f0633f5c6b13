"""Sign-up, email verification, sign-in (password or magic link) and the mailed links (sign-in,
password reset, a new verification). Each is one use case, called by its REST door
(accounts/endpoints.py) and its page (accounts/pages.py) alike.

Answers never reveal whether an email has an account on the sign-in, magic-link and reset paths
(the same 401 or 202 either way, and the same Argon2 work). Sign-up does say that an address is
taken (409): the person signing up must learn it, and the per-address limit bounds probing.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from urllib.parse import quote

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import identities, passkeys, provisioning, tokens
from agora.accounts import repository as repo
from agora.accounts.passkeys import SecondStep
from agora.accounts.service import (
    WEB_MAGIC_LINK,
    WEB_RESET_PASSWORD,
    WEB_VERIFY_EMAIL,
    Context,
    NewSession,
    count_failure,
    link,
    magic_token,
    send_after_commit,
    token_user,
    verified_outside,
)
from agora.kit.errors import BadRequest, Conflict, FieldError, Forbidden, RateLimited, Unauthorized
from agora.kit.fields import trimmed
from agora.kit.mail import Mail
from agora.kit.passwords import hash_password, password_problem
from agora.kit.timeutil import utcnow
from agora.kit.units import Unit
from agora.models import User

WRONG_CREDENTIALS = "the email address or the password is wrong"
FAILED_SIGN_INS = "Too many failed sign-ins; retry after the time given in Retry-After"


# ---- sign-up and verification -------------------------------------------------------------------


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
        s.accounts.auth_attempts_per_address,
        "signup-address",
        ctx.client_address,
        "Too many sign-ups",
    )
    email = provisioning.normalise_email(email)
    name = trimmed("name", name, 200)
    problem = password_problem(password, email=email, name=name)
    if problem:
        raise BadRequest.field("password", problem)
    # Hash before the first statement: the transaction (and SQLite's write lock) starts there.
    hashed = await asyncio.to_thread(hash_password, password)
    if await repo.user_by_email(session, email) is not None:
        raise Conflict("email: an account with this email address already exists; sign in")
    user, _workspace = await provisioning.create_account(
        session, email=email, name=name, credits=s.accounts.welcome_credits
    )
    user.password_hash = hashed
    await session.flush()
    await send_verification(session, ctx, user, then=then)
    return user


async def send_verification(
    session: AsyncSession, ctx: Context, user: User, *, then: str | None = None
) -> None:
    ttl = timedelta(hours=ctx.settings.accounts.verify_token_hours)
    await repo.revoke_tokens(session, user.id, ("verify_email",), utcnow())
    plaintext, _ = await tokens.issue(session, "verify_email", ttl, user_id=user.id)
    url = link(ctx.settings, WEB_VERIFY_EMAIL, plaintext)
    if then and then.startswith("/") and not then.startswith("//"):
        url += f"&next={quote(then, safe='')}"
    text = (
        f"Hello {user.name},\n\nConfirm your email address for Agora by opening this link "
        f"(valid for {ctx.settings.accounts.verify_token_hours:g} hours, once):\n\n{url}\n\n"
        f'Programs: POST /v1/auth/verify-email with {{"token": "{plaintext}"}}.\n\n'
        "If you did not sign up, ignore this mail.\n"
    )
    send_after_commit(session, ctx, Mail(user.email, "Confirm your email address", text))


async def verify_email(session: AsyncSession, token: str) -> User:
    return await _follow_link(session, token, "verify_email")


async def _follow_link(session: AsyncSession, token: str, purpose: str) -> User:
    """Use a mailed token; following it proves the mailbox, so the address is verified."""
    used = await tokens.consume(session, token, purpose)
    user = await token_user(session, used.user_id)
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
        await session.flush()
    return user


# ---- sign-in ------------------------------------------------------------------------------------


SECOND_STEP_BY_API = (
    "This account asks for a passkey after the password: sign in in the web app, or with the "
    "passkey alone (POST /v1/auth/passkeys/sign-in-options, then /v1/auth/passkeys/sign-in)"
)


def no_second_step(new: NewSession | SecondStep) -> NewSession:
    """The REST doors' sign-ins: an account with the second step on is refused (403 naming
    ``secondStep``; the request rolls back, so its token is never kept)."""
    if isinstance(new, SecondStep):
        raise Forbidden(
            SECOND_STEP_BY_API, details=[FieldError("secondStep", "a passkey is asked")]
        )
    return new


async def sign_in(
    unit: Unit, ctx: Context, *, email: str, password: str, previous_cookie: str | None
) -> NewSession | SecondStep:
    """Sign in with email and password: the account is read, the password checked with nothing
    held (Argon2 never holds the write transaction), then a new browser session is written.
    20 wrong passwords for one account → 429 (``count_failure``). An account with the passkey
    second step on gets a ``SecondStep`` instead of a session."""
    s = ctx.settings
    email = email.strip().lower()[:320]
    await ctx.attempts.check(
        s.accounts.auth_attempts_per_account, "signin-account", email, FAILED_SIGN_INS
    )
    await ctx.attempts.check(
        s.accounts.auth_attempts_per_address, "signin-address", ctx.client_address, FAILED_SIGN_INS
    )
    user = await repo.user_by_email(await unit.session(), email)
    stored = user.password_hash if user is not None else None
    if not await verified_outside(unit, stored, password):
        await count_failure(
            unit.after_rollback,
            ctx,
            FAILED_SIGN_INS,
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
    write = await unit.write()
    await identities.check_sign_in_method(write, s, user, None)  # an organization's provider
    await ctx.attempts.clear(s.accounts.auth_attempts_per_account, "signin-account", email)
    return await passkeys.session_or_second_step(write, ctx, user, "password", previous_cookie)


async def sign_in_with_link(
    session: AsyncSession, ctx: Context, token: str, previous_cookie: str | None
) -> NewSession | SecondStep:
    """Sign in with the token of a magic link (following it also verifies the address); the
    passkey second step follows when the account asks for it."""
    user = await _follow_link(session, token, "magic_link")
    await identities.check_sign_in_method(session, ctx.settings, user, None)
    return await passkeys.session_or_second_step(session, ctx, user, "magic_link", previous_cookie)


# ---- mailed links -------------------------------------------------------------------------------


async def _mail_budget(ctx: Context, email: str) -> bool:
    """Per-address (429) and per-account (silently no mail, so nothing is revealed) budgets
    for reset and magic-link mails."""
    s = ctx.settings
    await ctx.attempts.record(
        s.accounts.auth_attempts_per_address,
        "mail-address",
        ctx.client_address,
        "Too many requests",
    )
    try:
        await ctx.attempts.record(s.accounts.auth_mails_per_account, "mail-account", email, "")
    except RateLimited:  # the account's budget is used up: no further mail
        return False
    return True


async def _mail_target(session: AsyncSession, ctx: Context, raw_email: str) -> User | None:
    """The account a link mail would go to, or None (no account, or its mail budget is used)."""
    email = provisioning.normalise_email(raw_email)
    if not await _mail_budget(ctx, email):
        return None
    return await repo.user_by_email(session, email)


async def request_magic_link(session: AsyncSession, ctx: Context, raw_email: str) -> None:
    user = await _mail_target(session, ctx, raw_email)
    if user is None:
        return
    plaintext = await magic_token(session, ctx.settings, user)
    url = link(ctx.settings, WEB_MAGIC_LINK, plaintext)
    text = (
        f"Hello {user.name},\n\nOpen this link to sign in to Agora (valid for "
        f"{ctx.settings.accounts.magic_link_minutes:g} minutes, once):\n\n{url}\n\n"
        f'Programs: POST /v1/auth/magic-link/sign-in with {{"token": "{plaintext}"}}.\n\n'
        "If you did not ask for it, ignore this mail.\n"
    )
    send_after_commit(session, ctx, Mail(user.email, "Your sign-in link", text))


async def request_password_reset(session: AsyncSession, ctx: Context, raw_email: str) -> None:
    user = await _mail_target(session, ctx, raw_email)
    if user is None:
        return
    await repo.revoke_tokens(session, user.id, ("reset_password",), utcnow())
    ttl = timedelta(minutes=ctx.settings.accounts.reset_token_minutes)
    plaintext, _ = await tokens.issue(session, "reset_password", ttl, user_id=user.id)
    url = link(ctx.settings, WEB_RESET_PASSWORD, plaintext)
    text = (
        f"Hello {user.name},\n\nChoose a new Agora password with this link (valid for "
        f"{ctx.settings.accounts.reset_token_minutes:g} minutes, once):\n\n{url}\n\n"
        f"Programs: POST /v1/auth/password-reset/confirm with "
        f'{{"token": "{plaintext}", "password": "..."}}.\n\n'
        "If you did not ask for it, ignore this mail; your password stays as it is.\n"
    )
    send_after_commit(session, ctx, Mail(user.email, "Reset your password", text))


async def resend_verification(session: AsyncSession, ctx: Context, raw_email: str) -> None:
    user = await _mail_target(session, ctx, raw_email)
    if user is not None and user.email_verified_at is None:
        await send_verification(session, ctx, user)
