"""Device authorization (RFC 8628): a command-line tool gets a device code to poll with and a user
code for the person, who answers on the device page (oauth/pages.py) in a signed-in browser."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.kit.errors import NotFound
from agora.kit.security import hash_key
from agora.kit.timeutil import as_utc, utcnow
from agora.models import OAuthClient, OAuthDeviceCode, OAuthGrant
from agora.oauth import repository as repo
from agora.oauth import tokens as t
from agora.oauth.rfc import (
    DEVICE_CODE_GRANT_TYPE,
    AccessDeniedError,
    AuthorizationPendingError,
    ExpiredTokenError,
    InvalidGrantError,
    SlowDownError,
    UnauthorizedClientError,
)
from agora.oauth.service import (
    check_workspace,
    granted_scopes,
    issue_tokens,
    record_denied,
    record_granted,
)


async def start_device(
    session: AsyncSession, client: OAuthClient, scope: str | None, issuer: str
) -> dict[str, Any]:
    if DEVICE_CODE_GRANT_TYPE not in client.grant_types:
        raise UnauthorizedClientError("this client did not register the device_code grant")
    scopes = granted_scopes(scope)
    device_code, device_hash = t.new_secret("")
    user_code = t.new_user_code()
    await repo.add(
        session,
        OAuthDeviceCode(
            client_pk=client.id,
            device_hash=device_hash,
            user_code=user_code,
            scopes=scopes,
            interval=t.DEVICE_INTERVAL_SECONDS,
            expires_at=utcnow() + t.DEVICE_LIFETIME,
        ),
    )
    shown = t.show_user_code(user_code)
    return {
        "device_code": device_code,
        "user_code": shown,
        "verification_uri": f"{issuer}/oauth/device",
        "verification_uri_complete": f"{issuer}/oauth/device?user_code={shown}",
        "expires_in": int(t.DEVICE_LIFETIME.total_seconds()),
        "interval": t.DEVICE_INTERVAL_SECONDS,
    }


# Last poll per device request, in this process (RFC 8628 §3.5 slow_down). A refused poll's
# unit rolls back, so this is memory, not a column; bounded.
_last_poll: dict[uuid.UUID, datetime] = {}


async def poll_device(
    session: AsyncSession, client: OAuthClient, form: dict[str, str]
) -> dict[str, Any]:
    presented = form.get("device_code") or ""
    device = await repo.device_by_hash(session, hash_key(presented)) if presented else None
    if device is None or device.client_pk != client.id:
        raise InvalidGrantError("the device_code is not valid")
    now = utcnow()
    if as_utc(device.expires_at) <= now or device.used_at is not None:
        raise ExpiredTokenError("the device code has expired")
    if device.denied_at is not None:
        raise AccessDeniedError("the person refused")
    if device.grant_id is None:
        last = _last_poll.get(device.id)
        if len(_last_poll) > 100_000:
            _last_poll.clear()
        _last_poll[device.id] = now
        if last is not None and (now - last).total_seconds() < device.interval:
            raise SlowDownError("poll at most every interval seconds")
        raise AuthorizationPendingError("the person has not answered yet")
    _last_poll.pop(device.id, None)
    grant = await repo.grant_by_id(session, device.grant_id)
    if grant is None or grant.revoked_at is not None:
        raise InvalidGrantError("the grant has been revoked")
    # Spent once (compare-and-set, as codes and refresh tokens are): of concurrent polls of an
    # approved code only the first gets tokens; the others learn it is used up.
    if not await repo.spend_device(session, device.id, now):
        raise ExpiredTokenError("the device code has expired")
    return await issue_tokens(session, grant)


async def pending_device(session: AsyncSession, user_code: str) -> OAuthDeviceCode | None:
    """The unanswered, unexpired device request with this user code (None otherwise)."""
    device = await repo.device_by_user_code(session, t.normalize_user_code(user_code))
    if device is None or device.grant_id is not None or device.denied_at is not None:
        return None
    if as_utc(device.expires_at) <= utcnow():
        return None
    return device


async def answer_device(
    session: AsyncSession, user_code: str, principal: Principal, *, allow: bool, workspace: str
) -> None:
    """The person's answer on the device page: a grant in the chosen workspace, or a refusal
    (the tool's next poll learns it); either way an audit row. An unknown, answered or expired
    code: 404."""
    device = await pending_device(session, user_code)
    client = await repo.client_by_pk(session, device.client_pk) if device else None
    if device is None or client is None:
        raise NotFound("This code is unknown, answered already or expired")
    workspace_id = await check_workspace(session, principal.user_id, workspace)
    if not allow:
        device.denied_at = utcnow()
        await session.flush()
        await record_denied(session, principal, client, device.scopes, "device")
        return
    grant = OAuthGrant(
        client_pk=device.client_pk,
        user_id=principal.user_id,
        workspace_id=workspace_id,
        scopes=device.scopes,
    )
    await repo.add(session, grant)
    device.grant_id = grant.id
    await session.flush()
    await record_granted(session, "oauth.device_approved", principal, client, grant)


async def client_of(session: AsyncSession, client_pk: uuid.UUID) -> OAuthClient | None:
    return await repo.client_by_pk(session, client_pk)
