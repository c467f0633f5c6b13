"""Turn request credentials into a Principal.

Credentials: ``Authorization: Bearer <key>`` or ``x-api-key: <key>`` (both accepted everywhere).
Workspace: ``X-Workspace-Id`` (must be the caller's) → ``X-Organization-Slug`` (caller must be a
member) → the key's default workspace. Coworker keys are bound to their own workspace.

OAuth access tokens (``agora_oat_…``, oauth/) are accepted wherever a key is: the person who
granted them, the scopes granted, bound to the workspace chosen at consent, checked against the
database on every request (a revocation applies at once) and under the same membership rule.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth import repository as repo
from agora.auth.principal import Principal
from agora.auth.roles import ROLE_PERMISSIONS
from agora.kit.db import Database, write_after_commit
from agora.kit.errors import BadRequest, FieldError, Forbidden, Unauthorized
from agora.kit.ids import parse_uuid
from agora.kit.ratelimit import KeyResolver
from agora.kit.security import hash_key, hashes_match
from agora.kit.timeutil import as_utc, utcnow
from agora.kit.units import Unit
from agora.models.statuses import KeyKind

# An OAuth access token (oauth/tokens.py makes them): accepted wherever an API key is.
ACCESS_PREFIX = "agora_oat_"
LAST_USED_INTERVAL = timedelta(minutes=1)
# Process-local memo of when we last wrote last_used_at, so most requests skip the write.
_last_touch: dict[uuid.UUID, float] = {}
# THE process-local cache of usable keys by hash: (monotonic time read, row). Authentication and
# the rate limiter's key-id resolver share it. A key revoked by another process (the CLI, another
# API process) is refused here at most this long after (tests/production/test_revocation.py).
PRINCIPAL_CACHE_SECONDS = 0.5
PRINCIPAL_CACHE_MAX = 10_000
_principal_cache: dict[str, tuple[float, repo.KeyPrincipalRow]] = {}
Touch = Callable[[AsyncSession, uuid.UUID], Awaitable[None]]  # last-use bookkeeping


def _unauthorized(reason: str) -> Unauthorized:
    """The interface's 401 text ("Authentication required"), the reason in ``details``."""
    return Unauthorized("Authentication required", details=[FieldError("credentials", reason)])


def credentials_from_headers(authorization: str | None, api_key: str | None) -> str | None:
    if api_key:
        return api_key.strip()
    if authorization:
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            return token.strip()
        raise _unauthorized("the Authorization header must be 'Bearer <API key>'")
    return None


def _cached_principal(presented: str) -> repo.KeyPrincipalRow | None:
    cached = _principal_cache.get(presented)
    if cached is not None and time.monotonic() - cached[0] < PRINCIPAL_CACHE_SECONDS:
        return cached[1]
    return None


async def _key_principal(session: AsyncSession, presented: str) -> repo.KeyPrincipalRow | None:
    """The key's row from the process cache while it is younger than PRINCIPAL_CACHE_SECONDS,
    else from the database (one statement). Only usable keys are cached; expiry is checked on
    every request, so the cache can only delay seeing a revocation, by at most its lifetime."""
    cached = _cached_principal(presented)
    if cached is not None:
        return cached
    now = time.monotonic()
    found = await repo.key_principal(session, presented)
    if found is None or found.revoked_at is not None:
        _principal_cache.pop(presented, None)
        return found
    if len(_principal_cache) >= PRINCIPAL_CACHE_MAX:  # bounded memory
        _principal_cache.clear()
    _principal_cache[presented] = (now, found)
    return found


def forget_cached_principals() -> None:
    """Drop every cached key (after a revocation in this process: refused at once here)."""
    _principal_cache.clear()


async def authenticate(
    session: AsyncSession,
    token: str | None,
    *,
    workspace_header: str | None = None,
    organization_slug: str | None = None,
) -> Principal:
    if not token:
        raise Unauthorized("Authentication required")
    if token.startswith(ACCESS_PREFIX):
        return await authenticate_access_token(
            session,
            token,
            workspace_header=workspace_header,
            organization_slug=organization_slug,
        )
    presented = hash_key(token)
    key = await _key_principal(session, presented)
    if key is None or not hashes_match(key.key_hash, presented):
        raise _unauthorized("the API key is not valid")
    if key.revoked_at is not None:
        raise _unauthorized("the API key has been revoked")
    if key.expires_at is not None and as_utc(key.expires_at) <= utcnow():
        raise _unauthorized("the API key has expired")

    organization_id = key.organization_id
    workspace_id = key.default_workspace_id
    role, suspended = key.org_role, key.org_suspended
    if workspace_header or organization_slug:
        workspace_id = await _resolve_workspace(
            session, key.user_id, key.kind, workspace_id, workspace_header, organization_slug
        )
        if workspace_id != key.default_workspace_id:
            workspace = await repo.workspace_by_id(session, workspace_id)
            assert workspace is not None
            organization_id = workspace.organization_id
            role, suspended = await _org_standing(session, key.user_id, organization_id)
    elif organization_id is None and key.workspace_owner_id != key.user_id:
        # The key's own personal workspace only (a row that says otherwise is refused).
        raise _not_member()
    _check_member(organization_id, role, suspended)
    _note_use(session, key.key_id, _touch_key)
    return Principal(
        user_id=key.user_id,
        key_id=key.key_id,
        key_kind=key.kind,
        workspace_id=workspace_id,
        organization_id=organization_id,
        scopes=frozenset(key.scopes or []),
        org_role=role,
        role_limit=ROLE_PERMISSIONS.get(role) if role else None,
    )


async def authenticate_access_token(
    session: AsyncSession,
    token: str,
    *,
    workspace_header: str | None = None,
    organization_slug: str | None = None,
) -> Principal:
    """An OAuth access token → the Principal of the person who granted it, in the workspace of
    the grant (a header naming another one: 403), with the scopes granted. Read from the
    database on every request: a revoked token or grant is refused at once."""
    row = await repo.access_principal(session, hash_key(token))
    if row is None or row.kind != "access":
        raise _unauthorized("the access token is not valid")
    if row.revoked_at is not None or row.grant_revoked_at is not None:
        raise _unauthorized("the access token has been revoked")
    if as_utc(row.expires_at) <= utcnow():
        raise _unauthorized("the access token has expired")
    if workspace_header or organization_slug:
        chosen = await _resolve_workspace(
            session,
            row.user_id,
            KeyKind.USER,
            row.workspace_id,
            workspace_header,
            organization_slug,
        )
        if chosen != row.workspace_id:
            raise Forbidden("An OAuth access token works only in the workspace it was granted for")
    if row.organization_id is None and row.workspace_owner_id != row.user_id:
        raise _not_member()
    _check_member(row.organization_id, row.org_role, row.org_suspended_at is not None)
    _note_use(session, row.grant_id, _touch_grant)
    return Principal(
        user_id=row.user_id,
        key_id=row.grant_id,
        key_kind=KeyKind.USER,
        workspace_id=row.workspace_id,
        organization_id=row.organization_id,
        # Never empty: an empty scope set would mean "everything a user does" (principal.py).
        scopes=frozenset(row.scopes or ["read"]),
        org_role=row.org_role,
        role_limit=ROLE_PERMISSIONS.get(row.org_role) if row.org_role else None,
        oauth_grant_id=row.grant_id,
    )


def _not_member() -> Forbidden:
    return Forbidden(
        "You are not a member of this workspace (any more)",
        details=[FieldError("workspace", "the credential's user is not a member of it")],
    )


def _check_member(organization_id: uuid.UUID | None, role: str | None, suspended: bool) -> None:
    """Membership of the workspace actually used: in an organization's workspace the caller
    must hold a role there. A missing membership row never means "no limit" (issue 26). An
    organization an operator suspended refuses every credential in its workspace (403)."""
    if organization_id is not None and role is None:
        raise _not_member()
    if organization_id is not None and suspended:
        raise Forbidden(
            "This organization is suspended; contact the operator",
            details=[FieldError("workspace", "the organization is suspended")],
        )


async def _org_standing(
    session: AsyncSession, user_id: uuid.UUID, org_id: uuid.UUID | None
) -> tuple[str | None, bool]:
    """The user's role in the organization and whether it is suspended (one round trip)."""
    return (None, False) if org_id is None else await repo.org_standing(session, user_id, org_id)


async def authenticate_session(
    session: AsyncSession,
    cookie_token: str,
    *,
    workspace_header: str | None = None,
    organization_slug: str | None = None,
) -> Principal:
    """A browser session cookie → the same Principal as a user key would give.

    Workspace: ``X-Workspace-Id`` → ``X-Organization-Slug`` → the workspace the session switched
    to (while the user still belongs to it) → the personal workspace.
    """
    found = await repo.session_with_user(session, hash_key(cookie_token))
    if found is None:
        raise _unauthorized("the session is not valid")
    browser, user = found
    if browser.revoked_at is not None:
        raise _unauthorized("the session has been signed out")
    if as_utc(browser.expires_at) <= utcnow():
        raise _unauthorized("the session has expired")
    personal = await repo.personal_workspace(session, user.id)
    if personal is None:
        raise _unauthorized("the account has no workspace")
    default = personal.id
    if browser.workspace_id is not None and await repo.is_member(
        session, user.id, browser.workspace_id
    ):
        default = browser.workspace_id
    workspace_id = await _resolve_workspace(
        session, user.id, KeyKind.USER, default, workspace_header, organization_slug
    )
    workspace = personal if workspace_id == personal.id else None
    if workspace is None:
        workspace = await repo.workspace_by_id(session, workspace_id)
        assert workspace is not None
    role, suspended = await _org_standing(session, user.id, workspace.organization_id)
    if suspended and not (workspace_header or organization_slug):
        # The session had switched to a suspended organization: back to the personal one.
        workspace, workspace_id, role, suspended = personal, personal.id, None, False
    _check_member(workspace.organization_id, role, suspended)
    _note_use(session, browser.id, _touch_session)
    return Principal(
        user_id=user.id,
        key_id=browser.id,
        key_kind=KeyKind.USER,
        workspace_id=workspace_id,
        organization_id=workspace.organization_id,
        session_id=browser.id,
        org_role=role,
        role_limit=ROLE_PERMISSIONS.get(role) if role else None,
    )


async def _resolve_workspace(
    session: AsyncSession,
    user_id: uuid.UUID,
    key_kind: str,
    default_workspace_id: uuid.UUID,
    workspace_header: str | None,
    organization_slug: str | None,
) -> uuid.UUID:
    chosen: uuid.UUID | None = None
    if workspace_header:
        chosen = parse_uuid(workspace_header.strip())
        if chosen is None:
            raise BadRequest.field("X-Workspace-Id", "must be a workspace id (UUID)")
        if not await repo.is_member(session, user_id, chosen):
            raise Forbidden("You are not a member of the workspace in X-Workspace-Id")
    elif organization_slug:
        org = await repo.organization_by_slug(session, organization_slug.strip())
        if org is None or not await repo.is_org_member(session, user_id, org.id):
            raise Forbidden("You are not a member of the organization in X-Organization-Slug")
        workspace = await repo.organization_workspace(session, org.id)
        assert workspace is not None
        chosen = workspace.id
    if chosen is None:
        return default_workspace_id
    if key_kind == KeyKind.COWORKER and chosen != default_workspace_id:
        raise Forbidden("A coworker key works only in its own workspace")
    return chosen


# ---- last use: bookkeeping after the request's unit commits -----------------------------------


def _note_use(session: AsyncSession, item_id: uuid.UUID, touch: Touch) -> None:
    """A key's, grant's or session's last use, written by ``touch`` after the caller's unit
    commits, in its own short transaction (``kit.db.write_after_commit``: on SQLite a write
    request already holds the write lock). At most once a minute per item: a memo answers the
    other requests, which then schedule nothing at all (no after-commit task per request)."""
    if _touch_due(item_id):
        write_after_commit(session, lambda own: touch(own, item_id))


def _touch_due(item_id: uuid.UUID) -> bool:
    """True at most once a minute per key or session in this process (bounded memory)."""
    now_mono = time.monotonic()
    last = _last_touch.get(item_id)
    if last is not None and now_mono - last < LAST_USED_INTERVAL.total_seconds():
        return False
    _last_touch[item_id] = now_mono
    if len(_last_touch) > 100_000:
        _last_touch.clear()
    return True


async def _touch_key(session: AsyncSession, key_id: uuid.UUID) -> None:
    """A key's lastUsedAt (``_note_use``; the row itself is written at most once a minute)."""
    await repo.touch_api_key(session, key_id, utcnow(), LAST_USED_INTERVAL)


async def _touch_grant(session: AsyncSession, grant_id: uuid.UUID) -> None:
    """An OAuth grant's last use (``_note_use``)."""
    await repo.touch_grant(session, grant_id, utcnow())


async def _touch_session(session: AsyncSession, session_id: uuid.UUID) -> None:
    """A browser session's lastSeenAt (``_note_use``; at most once a minute per session)."""
    await repo.touch_session(session, session_id, utcnow(), LAST_USED_INTERVAL)


# ---- the rate limiter's key lookup (kit.ratelimit) --------------------------------------------


async def resolve_key_id(unit: Unit, token: str) -> str | None:
    """For rate limiting: credential → the key's id (valid, unrevoked, unexpired keys; an OAuth
    access token's grant) or None. Keys come from the same cache as authentication
    (``_principal_cache``), so limiting and authenticating a request cost at most one read per
    key per PRINCIPAL_CACHE_SECONDS; ``unit`` (kit's read unit) is opened only on a miss."""
    digest = hash_key(token)
    if token.startswith(ACCESS_PREFIX):  # an OAuth access token: its grant is the "key"
        row = await repo.access_principal(await unit.session(), digest)
        usable = row is not None and row.kind == "access" and row.revoked_at is None
        if row is None or not usable or as_utc(row.expires_at) <= utcnow():
            return None
        return str(row.grant_id)
    key = _cached_principal(digest) or await _key_principal(await unit.session(), digest)
    if key is None or not hashes_match(key.key_hash, digest) or key.revoked_at is not None:
        return None
    if key.expires_at is not None and as_utc(key.expires_at) <= utcnow():
        return None
    return str(key.key_id)


def key_id_resolver(db: Database) -> KeyResolver:
    """The rate limiter's resolver (``kit.ratelimit``): ``resolve_key_id`` reading ``db``."""
    return KeyResolver(db, resolve_key_id)


# ---- tenancy: who belongs to which workspace and organization --------------------------------
# The other domains ask these here (the SQL is auth's: it resolves every request's workspace).
personal_workspace = repo.personal_workspace
workspace_by_id = repo.workspace_by_id
organization_by_slug = repo.organization_by_slug
organization_workspace = repo.organization_workspace
is_member = repo.is_member
is_org_member = repo.is_org_member
org_standing = repo.org_standing
org_role = repo.org_role
memberships_of = repo.memberships_of
session_with_user = repo.session_with_user
