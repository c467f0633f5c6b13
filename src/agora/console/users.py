"""The operator's users: search, a user's detail, suspension (and lifting it), credit grants.
The admin API (admin keys) and the console's pages (an operator's browser session) call these
same functions; the door checks the operator (``accounts.require_operator``) and hands its
``audit.Actor`` in.

- An operator never acts on their own account's money or suspension (403).
- Suspension cancels the user's unfinished jobs (``console.jobs.cancel_unfinished``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import service as accounts
from agora.audit import service as audit
from agora.auth import service as auth
from agora.auth.service import forget_cached_principals
from agora.console import repository as repo
from agora.console.jobs import cancel_unfinished
from agora.credits import ledger
from agora.kit.db import on_commit
from agora.kit.errors import BadRequest, Conflict, FieldError, Forbidden, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.money import to_base
from agora.kit.timeutil import utcnow
from agora.models import ApiKey, BrowserSession, Job, LedgerEntry, User, Workspace


def _not_yourself(actor: audit.Actor, user_id: uuid.UUID, what: str) -> None:
    if actor.user_id == user_id:
        raise Forbidden(
            f"An operator may not {what} their own account; ask another operator",
            details=[FieldError("userId", "is your own account")],
        )


async def search_users(
    session: AsyncSession, q: str | None, *, limit: int, offset: int = 0
) -> tuple[list[User], int]:
    return await repo.search_users(session, (q or "")[:320], limit=limit, offset=offset)


async def get_user(session: AsyncSession, raw_user_id: str) -> User:
    user_id = parse_uuid(raw_user_id)
    user = await accounts.user_by_id(session, user_id) if user_id else None
    if user is None:
        raise NotFound(f"User {raw_user_id} not found")
    return user


@dataclass
class UserDetail:
    user: User
    workspaces: list[Workspace]
    keys: list[ApiKey]
    sessions: list[BrowserSession]
    jobs: list[Job]
    ledger: list[LedgerEntry] = field(default_factory=list)


async def user_detail(session: AsyncSession, raw_user_id: str) -> UserDetail:
    user = await get_user(session, raw_user_id)
    workspaces = await repo.workspaces_of(session, user.id)
    personal = [w.id for w in workspaces if w.kind == "personal"]
    return UserDetail(
        user=user,
        workspaces=workspaces,
        keys=await repo.keys_of(session, user.id),
        sessions=await repo.sessions_of(session, user.id),
        jobs=await repo.jobs_of(session, user.id),
        ledger=await repo.ledger_of(session, personal),
    )


@dataclass(frozen=True)
class Suspension:
    user: User
    sessions: int
    keys: int
    jobs_cancelled: int
    jobs_left: int


async def suspend(
    session: AsyncSession, actor: audit.Actor, raw_user_id: str, reason: str
) -> Suspension:
    """Suspend: no sign-in; every session and key revoked in this transaction (401 at once in
    this process, within a second elsewhere); the user's unfinished jobs cancelled and their
    held credits refunded (a job paid on a payment node and already running is left to the
    node's refund flow, counted in ``jobs_left``)."""
    reason = reason.strip()
    if not reason:
        raise BadRequest.field("reason", "say why the account is suspended")
    user = await get_user(session, raw_user_id)
    _not_yourself(actor, user.id, "suspend")
    user = await repo.user_for_update(session, user.id) or user
    if user.suspended_at is not None:
        raise Conflict(f"User {user.id} is already suspended")
    now = utcnow()
    user.suspended_at = now
    sessions = await accounts.revoke_sessions(session, user.id, now)
    keys = await repo.revoke_all_keys(session, user.id, now)
    on_commit(session, forget_cached_principals)
    cancelled, left = await cancel_unfinished(
        session,
        await repo.unfinished_jobs(session, user_id=user.id),
        "the account was suspended by an operator",
    )
    await session.flush()
    await audit.record(
        session,
        "user.suspended",
        actor=actor,
        target_kind="user",
        target_id=user.id,
        details={
            "email": user.email,
            "reason": reason[:500],
            "sessions": sessions,
            "keys": keys,
            "jobsCancelled": cancelled,
            "jobsLeft": left,
        },
    )
    return Suspension(user, sessions, keys, cancelled, left)


async def unsuspend(session: AsyncSession, actor: audit.Actor, raw_user_id: str) -> User:
    """Lift a suspension: the user may sign in again (revoked keys stay revoked)."""
    user = await get_user(session, raw_user_id)
    _not_yourself(actor, user.id, "unsuspend")
    if user.suspended_at is None:
        raise Conflict(f"User {user.id} is not suspended")
    user.suspended_at = None
    await session.flush()
    await audit.record(
        session,
        "user.unsuspended",
        actor=actor,
        target_kind="user",
        target_id=user.id,
        details={"email": user.email},
    )
    return user


# ---- credit grants ------------------------------------------------------------------------


@dataclass(frozen=True)
class Grant:
    user: User
    workspace_id: uuid.UUID
    amount: int
    balance: int

    @property
    def user_id(self) -> uuid.UUID:
        return self.user.id


async def grant_credits(
    session: AsyncSession,
    actor: audit.Actor,
    raw_user_id: str,
    *,
    amount: Any,
    reason: str,
    workspace_id: str | None = None,
) -> Grant:
    """Credits into one of the user's workspaces (default: the personal one), with a reason
    kept in the ledger entry and the audit log. Never to the operator's own account."""
    reason = (reason or "").strip()
    if not reason:
        raise BadRequest.field("reason", "say why the credits are granted (e.g. a ticket)")
    try:
        base = to_base(str(amount))
    except ValueError as exc:
        raise BadRequest.field("amount", str(exc)) from exc
    if base <= 0:
        raise BadRequest.field("amount", "must be positive")
    user = await get_user(session, raw_user_id)
    _not_yourself(actor, user.id, "grant credits to")
    if workspace_id:
        chosen = parse_uuid(workspace_id.strip())
        if chosen is None or not await auth.is_member(session, user.id, chosen):
            raise NotFound(f"workspaceId: the user has no workspace {workspace_id}")
    else:
        personal = await auth.personal_workspace(session, user.id)
        if personal is None:
            raise NotFound(f"User {user.id} has no workspace")
        chosen = personal.id
    if actor.user_id is not None and await auth.is_member(session, actor.user_id, chosen):
        raise Forbidden(
            "An operator may not grant credits to a workspace they belong to",
            details=[FieldError("workspaceId", "is one of your own workspaces")],
        )
    balance = await ledger.grant(
        session, workspace_id=chosen, amount=base, user_id=user.id, memo=f"grant: {reason}"
    )
    await audit.record(
        session,
        "credits.granted",
        actor=actor,
        target_kind="user",
        target_id=user.id,
        workspace_id=chosen,
        details={"amount": base, "reason": reason[:500], "balanceAfter": balance},
    )
    return Grant(user, chosen, base, balance)
