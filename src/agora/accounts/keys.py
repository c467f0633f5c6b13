"""Self-service API keys (``/v1/api-keys`` and the keys page): list, create, revoke. A browser
session creates keys only after a recent password proof (``service.require_recent_authentication``);
the keys page can give that proof with the same form (``create_key``'s ``password``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import repository as repo
from agora.accounts.service import Context, confirm_password, require_recent_authentication
from agora.audit import service as audit
from agora.auth import service as auth
from agora.auth.principal import Permission, Principal
from agora.auth.service import forget_cached_principals
from agora.kit.db import on_commit
from agora.kit.errors import BadRequest, Conflict, NotFound
from agora.kit.fields import trimmed
from agora.kit.ids import parse_uuid
from agora.kit.security import generate_key
from agora.kit.timeutil import as_utc, utcnow
from agora.kit.units import Unit
from agora.models import ApiKey
from agora.models.statuses import KeyKind
from agora.settings import Settings

USER_SCOPES = (
    Permission.READ,
    Permission.JOBS_WRITE,
    Permission.PROJECTS_WRITE,
    Permission.PROFILE_WRITE,
)
MAX_KEY_LIFETIME = timedelta(days=730)


async def list_keys(session: AsyncSession, principal: Principal) -> list[ApiKey]:
    return await repo.keys_of(session, principal.user_id)


async def create_key(
    unit: Unit,
    ctx: Context,
    principal: Principal,
    *,
    name: str,
    expires_at: datetime | None = None,
    scopes: list[str] | None = None,
    workspace_id: str | None = None,
    password: str = "",
) -> tuple[ApiKey, str]:
    """A user key and its plaintext (shown once): ``POST /v1/api-keys`` and the keys page. With
    ``password`` (the page's form), a browser session proves it first (``confirm_password``:
    read, Argon2 with nothing held, the proof written), then the key is written."""
    if password:
        await confirm_password(unit, ctx, principal, password)
    return await issue_key(
        await unit.write(),
        ctx.settings,
        principal,
        name=name,
        expires_at=expires_at,
        scopes=scopes,
        workspace_id=workspace_id,
    )


def _expiry(expires_at: datetime | None) -> datetime | None:
    if expires_at is None:
        return None
    if expires_at.tzinfo is None:
        raise BadRequest.field("expiresAt", "must carry a time zone, e.g. 2027-01-01T00:00:00Z")
    expires_at = as_utc(expires_at)
    now = utcnow()
    if expires_at <= now:
        raise BadRequest.field("expiresAt", "must be in the future")
    if expires_at > now + MAX_KEY_LIFETIME:
        raise BadRequest.field("expiresAt", "must be at most two years ahead")
    return expires_at


async def issue_key(
    session: AsyncSession,
    settings: Settings,
    principal: Principal,
    *,
    name: str,
    expires_at: datetime | None,
    scopes: list[str] | None,
    workspace_id: str | None,
) -> tuple[ApiKey, str]:
    """``create_key``'s write phase: the checks (a recent proof, the expiry, the scopes, the
    workspace, the per-user limit), the key and its audit row."""
    name = trimmed("name", name, 200)
    await require_recent_authentication(session, settings, principal)
    expires_at = _expiry(expires_at)
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
    limit = settings.accounts.api_keys_per_user
    if await repo.active_key_count(session, principal.user_id, utcnow()) >= limit:
        raise Conflict(f"You already have {limit} active API keys, the limit; revoke one first")
    material = generate_key(KeyKind.USER)
    key = ApiKey(
        user_id=principal.user_id,
        kind=KeyKind.USER,
        name=name,
        prefix=material.prefix,
        key_hash=material.key_hash,
        default_workspace_id=chosen,
        scopes=wanted,
        expires_at=expires_at,
        created_by_session_id=principal.session_id,
    )
    await repo.add(session, key)
    await _audit(session, "key.created", principal, key, {"scopes": wanted})
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
        await _audit(session, "key.revoked", None, key, {})
    return key


async def _audit(
    session: AsyncSession,
    action: str,
    actor: Principal | None,
    key: ApiKey,
    extra: dict[str, list[str]],
) -> None:
    workspace = await auth.workspace_by_id(session, key.default_workspace_id)
    await audit.record(
        session,
        action,
        actor=actor,
        target_kind="key",
        target_id=key.id,
        workspace_id=key.default_workspace_id,
        organization_id=workspace.organization_id if workspace else None,
        details={"name": key.name, "prefix": key.prefix, **extra, "owner": str(key.user_id)},
    )
