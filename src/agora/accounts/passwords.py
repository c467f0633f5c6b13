"""A new password: from a mailed reset link, or a signed-in person's change (the current one
checked). Either evicts whoever knew the old one. Argon2 runs with nothing held, between the read
and the write phase of the request's ``Unit``."""

from __future__ import annotations

import asyncio
import uuid

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import repository as repo
from agora.accounts import tokens
from agora.accounts.service import (
    Context,
    NewSession,
    browser_only,
    prove_password,
    start_session,
    token_user,
)
from agora.auth.principal import Principal
from agora.auth.service import forget_cached_principals
from agora.kit.db import on_commit
from agora.kit.errors import BadRequest
from agora.kit.passwords import hash_password, password_problem
from agora.kit.timeutil import utcnow
from agora.kit.units import Unit
from agora.models import ApiKey, User

# The links a person's mail carries for their own account: a reset or a password change cancels
# every one still outstanding (invitations are the organization's, not the account's), and any
# passkey second step waiting after the old password (accounts/passkeys.py).
ACCOUNT_LINKS = ("verify_email", "reset_password", "magic_link", "passkey_second")
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


async def _hashed(unit: Unit, password: str) -> str:
    return await unit.call_out(asyncio.to_thread(hash_password, password))


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


async def reset_password(unit: Unit, token: str, password: str) -> User:
    """A new password from a reset link; evicts every session, link and session-made key. The
    link is spent in the write phase with one compare-and-set (a link used meanwhile: 400)."""
    read = await unit.session()
    found = await tokens.find(read, token, "reset_password")
    user = await token_user(read, found.user_id)
    problem = password_problem(password, email=user.email, name=user.name)
    if problem:
        raise BadRequest.field("password", problem)
    hashed = await _hashed(unit, password)
    session = await unit.write()
    await tokens.use(session, found)
    user = await token_user(session, found.user_id)
    user.password_hash = hashed
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
    await _evict(session, user.id)
    await session.flush()
    return user


async def change_password(
    unit: Unit,
    ctx: Context,
    principal: Principal,
    *,
    current: str,
    new: str,
    previous_cookie: str | None,
) -> NewSession:
    """A browser session's account changes its password (the current one checked: wrong → 403):
    evicts like a reset, then signs this browser in again with a new session."""
    browser_only(principal)  # a browser session's account (404 for a key)
    user = await prove_password(unit, ctx, principal, current)
    problem = password_problem(new, email=user.email, name=user.name)
    if problem:
        raise BadRequest.field("newPassword", problem)
    hashed = await _hashed(unit, new)
    session = await unit.write()
    row = await repo.user_by_id(session, user.id)
    assert row is not None
    row.password_hash = hashed
    await _evict(session, row.id)
    await session.flush()
    return await start_session(session, ctx, row, "password", previous_cookie)
