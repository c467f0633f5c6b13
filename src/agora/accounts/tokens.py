"""One token mechanism for every link we send or share: email verification, password reset,
magic-link sign-in and organization invitations.

A token is 256 random bits, shown once (in the mail or the invitation response) and stored only
as its SHA-256; it expires, it can be revoked, and it is used with one conditional UPDATE so a
single-use token works exactly once even under concurrency. Lookup is by hash, then the stored
hash is compared in constant time.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import repository as repo
from agora.kit.errors import BadRequest
from agora.kit.security import hash_key, hashes_match, new_token
from agora.kit.timeutil import as_utc, utcnow
from agora.models import AccountToken

# The passkey ceremonies' challenges are tokens too (accounts/passkeys.py): a registration's,
# a passwordless sign-in's and the second step's (its ``role``: the first step's method).
# idp_state: the state of a sign-in at an identity provider (accounts/identities.py).
PURPOSES = (
    "verify_email",
    "reset_password",
    "magic_link",
    "invitation",
    "passkey_register",
    "passkey_sign_in",
    "passkey_second",
    "idp_state",
)


async def issue(
    session: AsyncSession,
    purpose: str,
    ttl: timedelta,
    *,
    user_id: uuid.UUID | None = None,
    email: str | None = None,
    organization_id: uuid.UUID | None = None,
    role: str | None = None,
    created_by: uuid.UUID | None = None,
    max_uses: int = 1,
) -> tuple[str, AccountToken]:
    assert purpose in PURPOSES
    plaintext, token_hash = new_token()
    token = AccountToken(
        purpose=purpose,
        token_hash=token_hash,
        user_id=user_id,
        email=email,
        organization_id=organization_id,
        role=role,
        created_by=created_by,
        max_uses=max_uses,
        uses=0,
        expires_at=utcnow() + ttl,
    )
    await repo.add(session, token)
    return plaintext, token


async def find(
    session: AsyncSession, plaintext: str, purpose: str, field: str = "token"
) -> AccountToken:
    """The usable token for ``plaintext`` (400 naming ``field`` if unknown, expired, revoked or
    used up). Does not use it."""
    presented = hash_key(plaintext.strip())
    token = await repo.token_by_hash(session, presented)
    if token is None or token.purpose != purpose or not hashes_match(token.token_hash, presented):
        raise BadRequest.field(field, "unknown token; ask for a new link")
    if token.uses >= token.max_uses:  # first: a used link is also revoked by a reset
        raise BadRequest.field(field, "this link has already been used")
    if token.revoked_at is not None:
        raise BadRequest.field(field, "this link has been revoked; ask for a new one")
    if as_utc(token.expires_at) <= utcnow():
        raise BadRequest.field(field, "this link has expired; ask for a new one")
    return token


async def use(session: AsyncSession, token: AccountToken, field: str = "token") -> None:
    """Count one use, atomically; a concurrent use that won first makes this a 400."""
    if not await repo.use_token(session, token.id, utcnow()):
        raise BadRequest.field(field, "this link has already been used")


async def consume(
    session: AsyncSession, plaintext: str, purpose: str, field: str = "token"
) -> AccountToken:
    token = await find(session, plaintext, purpose, field)
    await use(session, token, field)
    return token
