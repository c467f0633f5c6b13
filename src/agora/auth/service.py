"""Turn request credentials into a Principal.

Credentials: ``Authorization: Bearer <key>`` or ``x-api-key: <key>`` (both accepted everywhere).
Workspace: ``X-Workspace-Id`` (must be the caller's) → ``X-Organization-Slug`` (caller must be a
member) → the key's default workspace. Coworker keys are bound to their own workspace.
"""

from __future__ import annotations

import time
import uuid
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.identity import repository as repo
from agora.kit.db import Database, on_commit
from agora.kit.errors import BadRequest, FieldError, Forbidden, Unauthorized
from agora.kit.ids import parse_uuid
from agora.kit.security import hash_key, hashes_match
from agora.kit.timeutil import as_utc, utcnow

LAST_USED_INTERVAL = timedelta(minutes=1)
# Process-local memo of when we last wrote last_used_at, so most requests skip the write.
_last_touch: dict[uuid.UUID, float] = {}


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


async def authenticate(
    session: AsyncSession,
    db: Database,
    token: str | None,
    *,
    workspace_header: str | None = None,
    organization_slug: str | None = None,
) -> Principal:
    if not token:
        raise Unauthorized("Authentication required")
    presented = hash_key(token)
    found = await repo.api_key_with_user(session, presented)
    if found is None or not hashes_match(found[0].key_hash, presented):
        raise _unauthorized("the API key is not valid")
    key, user = found
    now = utcnow()
    if key.revoked_at is not None:
        raise _unauthorized("the API key has been revoked")
    if key.expires_at is not None and as_utc(key.expires_at) <= now:
        raise _unauthorized("the API key has expired")

    workspace_id = await _resolve_workspace(
        session, user.id, key.kind, key.default_workspace_id, workspace_header, organization_slug
    )
    workspace = await repo.workspace_by_id(session, workspace_id)
    assert workspace is not None
    # After the caller's transaction: on SQLite a write request already holds the write lock.
    on_commit(session, lambda: touch_last_used(db, key.id))
    return Principal(
        user_id=user.id,
        key_id=key.id,
        key_kind=key.kind,
        workspace_id=workspace_id,
        organization_id=workspace.organization_id,
        scopes=frozenset(key.scopes or []),
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
    if key_kind == "coworker" and chosen != default_workspace_id:
        raise Forbidden("A coworker key works only in its own workspace")
    return chosen


async def touch_last_used(db: Database, key_id: uuid.UUID) -> None:
    """Write lastUsedAt at most once a minute, in its own short transaction."""
    now_mono = time.monotonic()
    last = _last_touch.get(key_id)
    if last is not None and now_mono - last < LAST_USED_INTERVAL.total_seconds():
        return
    _last_touch[key_id] = now_mono
    if len(_last_touch) > 100_000:  # bounded memory
        _last_touch.clear()
    async with db.transaction() as session:
        await repo.touch_api_key(session, key_id, utcnow(), LAST_USED_INTERVAL)
