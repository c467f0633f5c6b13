"""Coworker rules (docs/coworkers.md).

- A user registers a coworker (it starts PENDING, visible to its owner); an admin whitelists it
  (visible to everyone); its owner or an admin archives it.
- A coworker works in the workspaces it was given access to: the one it was registered from,
  and any workspace where a member assigned it a task. Its API keys (kind ``coworker``) are bound
  to one of them and carry the scope ``coworker:<id>``.
- With its key it reads itself, the users whose tasks it works on (nobody else), and charges
  those users' credits once per idempotency key; the events of the tasks assigned to it are the
  tasks domain's (``tasks.service.coworker_events``).
Services flush; the caller owns the transaction.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import provisioning
from agora.accounts import service as accounts
from agora.auth import service as auth
from agora.auth.principal import Permission, Principal, coworker_of
from agora.billing import caps
from agora.coworkers import repository as repo
from agora.coworkers.schemas import (
    CAPABILITIES,
    SCOPES,
    CoworkerCreate,
    CoworkerKeyCreate,
    CoworkerUpdate,
    UsageCreate,
)
from agora.credits import ledger
from agora.kit.errors import BadRequest, Conflict, Forbidden, NotFound
from agora.kit.fields import patch_fields, trimmed
from agora.kit.ids import parse_uuid
from agora.kit.money import to_base
from agora.kit.schemas import RowView
from agora.kit.timeutil import as_utc, utcnow
from agora.models import ApiKey, Coworker, CoworkerUsage, User
from agora.settings import Settings

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
_SLUG_CHARS = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class IssuedKey(RowView):
    """A new coworker key row with its plaintext (shown once): what ``CoworkerKeyOut`` reads."""

    row: ApiKey
    token: str
    coworker_id: uuid.UUID
    workspace_id: uuid.UUID


@dataclass(frozen=True)
class Charged:
    usage: CoworkerUsage
    replayed: bool


def page_size(limit: int | None) -> int:
    size = DEFAULT_LIMIT if limit is None else limit
    if not 1 <= size <= MAX_LIMIT:
        raise BadRequest.field("limit", f"must be between 1 and {MAX_LIMIT}")
    return size


def after(value: str | None) -> uuid.UUID | None:
    """The id a cursor (a page's ``nextCursor``) points after; 400 when it is not one."""
    if not value:
        return None
    parsed = parse_uuid(value)
    if parsed is None:
        raise BadRequest.field("cursor", "must be the nextCursor of the previous page")
    return parsed


def _is_admin(principal: Principal) -> bool:
    return principal.can(Permission.ADMIN)


def acting_coworker(principal: Principal) -> uuid.UUID:
    """The coworker behind a coworker key; any other key is refused (403)."""
    coworker_id = coworker_of(principal)
    if coworker_id is None:
        raise Forbidden("Only a coworker API key may call this")
    return coworker_id


async def _slug_for(session: AsyncSession, name: str) -> str:
    base = _SLUG_CHARS.sub("-", name.lower()).strip("-")[:100] or "coworker"
    slug = base
    for _ in range(5):
        if not await repo.slug_taken(session, slug):
            return slug
        slug = f"{base}-{secrets.token_hex(3)}"
    raise Conflict(f"Could not find a free slug for {name!r}; choose another name")


async def register(session: AsyncSession, principal: Principal, body: CoworkerCreate) -> Coworker:
    """A user registers a coworker; it may work in the caller's current workspace at once."""
    principal.require(Permission.PROJECTS_WRITE)
    name = trimmed("name", body.name, 200)
    coworker = Coworker(
        owner_user_id=principal.user_id,
        slug=await _slug_for(session, name),
        name=name,
        caption=body.caption,
        company=body.company,
        company_logo=body.companyLogo,
        url=body.url,
        base_url=body.baseURL,
        email=body.email,
        description=body.description,
        image=body.image,
        meta=body.metadata,
        capabilities=sorted(set(body.capabilities)),
        priority=body.priority,
        price=0,
    )
    await repo.add(session, coworker)
    await repo.grant_workspace(session, coworker.id, principal.workspace_id)
    return coworker


def _visible_to(coworker: Coworker, principal: Principal) -> bool:
    if _is_admin(principal) or coworker.owner_user_id == principal.user_id:
        return True
    if coworker_of(principal) == coworker.id:
        return True
    return coworker.whitelisted_at is not None and coworker.archived_at is None


async def find(session: AsyncSession, principal: Principal, ref: str) -> Coworker:
    """By id, slug or name; one the caller may not see is a 404."""
    ref = ref.strip()
    parsed = parse_uuid(ref)
    found = await repo.by_id(session, parsed) if parsed else None
    if found is None and ref and len(ref) <= 200:
        found = await repo.by_slug_or_name(session, ref)
    if found is None or not _visible_to(found, principal):
        raise NotFound(f"Coworker {ref} not found")
    return found


async def assignable(
    session: AsyncSession, principal: Principal, raw: str, field: str = "coworkerId"
) -> Coworker:
    """A coworker the caller may give a task: whitelisted (or the caller's own), not archived,
    taking tasks; else 400 naming ``field``. Giving it the task gives it access to the
    workspace."""
    parsed = parse_uuid(raw.strip())
    coworker = await repo.by_id(session, parsed) if parsed else None
    if coworker is None or not (
        coworker.whitelisted_at is not None or coworker.owner_user_id == principal.user_id
    ):
        raise BadRequest.field(field, f"no coworker {raw} you may assign")
    if coworker.archived_at is not None:
        raise BadRequest.field(field, f"coworker {raw} is archived")
    if "tasks" not in (coworker.capabilities or []):
        raise BadRequest.field(field, f"coworker {raw} does not take tasks")
    await repo.grant_workspace(session, coworker.id, principal.workspace_id)
    return coworker


@dataclass(frozen=True)
class CoworkerPage:
    items: list[Coworker]
    limit: int
    next_cursor: str | None


def _scope(value: str) -> str:
    if value not in SCOPES:
        raise BadRequest.field("scope", "must be whitelisted, all or archived")
    return value


def _capabilities(raw: str | Sequence[str] | None) -> list[str]:
    """``chat`` and/or ``tasks``: repeated, or comma-separated (either case)."""
    given = [raw] if isinstance(raw, str) else list(raw or [])
    wanted = [c.strip().lower() for words in given for c in words.split(",") if c.strip()]
    if any(c not in CAPABILITIES for c in wanted):
        raise BadRequest.field("capability", "must be chat or tasks")
    return wanted


async def listing(
    session: AsyncSession,
    principal: Principal,
    *,
    scope: str = "whitelisted",
    capabilities: str | Sequence[str] | None = None,
    search: str | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> CoworkerPage:
    """Coworkers the caller may see, oldest first, with any of the ``capabilities``."""
    scope, wanted, size = _scope(scope), _capabilities(capabilities), page_size(limit)
    rows = await repo.listing(
        session,
        scope=scope,
        viewer_id=principal.user_id,
        admin=_is_admin(principal),
        capabilities=wanted,
        search=(search or "").strip() or None,
        after_id=after(cursor),
        limit=size + 1,
    )
    more = len(rows) > size
    rows = rows[:size]
    return CoworkerPage(rows, size, str(rows[-1].id) if more and rows else None)


def _may_manage(coworker: Coworker, principal: Principal) -> None:
    if not (_is_admin(principal) or coworker.owner_user_id == principal.user_id):
        raise Forbidden("Only the coworker's owner or an admin may change it")


async def update(
    session: AsyncSession, principal: Principal, ref: str, body: CoworkerUpdate
) -> Coworker:
    principal.require(Permission.PROJECTS_WRITE)
    coworker = await find(session, principal, ref)
    _may_manage(coworker, principal)
    given = patch_fields(body)
    columns = {"companyLogo": "company_logo", "baseURL": "base_url", "metadata": "meta"}
    for field, value in given.items():
        if field == "name":
            value = trimmed("name", value, 200)
        if field == "capabilities":
            value = sorted(set(value))
        setattr(coworker, columns.get(field, field), value)
    coworker.updated_at = utcnow()
    await session.flush()
    return coworker


async def archive(session: AsyncSession, principal: Principal, ref: str) -> Coworker:
    """Idempotent. An archived coworker takes no new tasks and its keys stop working for it."""
    coworker = await find(session, principal, ref)
    _may_manage(coworker, principal)
    if coworker.archived_at is None:
        coworker.archived_at = coworker.updated_at = utcnow()
        await session.flush()
    return coworker


async def whitelist(session: AsyncSession, coworker_id: str, *, on: bool = True) -> Coworker:
    """Admin: whitelist (or un-whitelist) a coworker. Idempotent."""
    parsed = parse_uuid(coworker_id.strip())
    coworker = await repo.by_id(session, parsed) if parsed else None
    if coworker is None:
        coworker = await repo.by_slug_or_name(session, coworker_id.strip())
    if coworker is None:
        raise NotFound(f"Coworker {coworker_id} not found")
    if on and coworker.archived_at is not None:
        raise Conflict(f"Coworker {coworker.id} is archived")
    if (coworker.whitelisted_at is not None) != on:
        coworker.whitelisted_at = utcnow() if on else None
        coworker.updated_at = utcnow()
        await session.flush()
    return coworker


async def issue_key(
    session: AsyncSession,
    principal: Principal,
    ref: str,
    body: CoworkerKeyCreate,
    settings: Settings,
) -> IssuedKey:
    """A coworker key bound to the caller's current workspace, which the coworker must have been
    given access to. The coworker must be whitelisted and not archived. From a browser session:
    only after a recent password proof, and the key records the session (docs/accounts.md)."""
    principal.require(Permission.PROJECTS_WRITE)
    await accounts.require_recent_authentication(session, settings, principal)
    coworker = await find(session, principal, ref)
    _may_manage(coworker, principal)
    if coworker.archived_at is not None:
        raise Conflict(f"Coworker {coworker.id} is archived")
    if coworker.whitelisted_at is None:
        raise Conflict(f"Coworker {coworker.id} is not whitelisted yet; an admin whitelists it")
    if not await repo.has_workspace(session, coworker.id, principal.workspace_id):
        raise Forbidden(
            f"Coworker {coworker.id} has no access to workspace {principal.workspace_id}"
        )
    if body.expiresAt is not None and as_utc(body.expiresAt) <= utcnow():
        raise BadRequest.field("expiresAt", "must be in the future")
    user = await accounts.user_by_id(session, principal.user_id)
    workspace = await auth.workspace_by_id(session, principal.workspace_id)
    assert user is not None
    assert workspace is not None
    created = await provisioning.create_key(
        session,
        user=user,
        kind="coworker",
        workspace=workspace,
        name=trimmed("name", body.name, 200),
        coworker_id=coworker.id,
    )
    created.key.created_by_session_id = principal.session_id
    if body.expiresAt is not None:
        created.key.expires_at = as_utc(body.expiresAt)
    await session.flush()
    return IssuedKey(
        created.key, token=created.plaintext, coworker_id=coworker.id, workspace_id=workspace.id
    )


async def me(session: AsyncSession, principal: Principal) -> repo.ActingCoworker:
    coworker_id = acting_coworker(principal)
    coworker = await repo.acting(session, coworker_id)
    if coworker is None:
        raise NotFound("The coworker of this key no longer exists")
    if coworker.archived_at is not None:
        raise Forbidden(f"Coworker {coworker.id} is archived")
    return coworker


async def visible_user(session: AsyncSession, principal: Principal, user_id: str) -> User:
    """A user key sees itself; a coworker key sees the users whose tasks it works on (in its
    workspace). Anyone else: 404."""
    parsed = parse_uuid(user_id)
    if coworker_of(principal) is None:
        allowed = parsed == principal.user_id
    else:
        coworker = await me(session, principal)  # 403 once archived
        allowed = parsed is not None and await repo.works_for(
            session, coworker.id, parsed, principal.workspace_id
        )
    user = await repo.user(session, parsed) if allowed and parsed else None
    if user is None:
        raise NotFound(f"User {user_id} not found")
    return user


def _usage_hash(body: UsageCreate) -> str:
    canonical = json.dumps(body.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


async def _charged_workspace(
    session: AsyncSession, principal: Principal, coworker_id: uuid.UUID, body: UsageCreate
) -> tuple[uuid.UUID, uuid.UUID, uuid.UUID | None]:
    """(user, workspace, organization): the coworker's own workspace, whose member the user is
    and where the coworker works on a task of the user; otherwise 404."""
    user_id = parse_uuid(body.userId)
    if user_id is None or not await repo.works_for(
        session, coworker_id, user_id, principal.workspace_id
    ):
        raise NotFound(f"User {body.userId} not found")
    organization_id = principal.organization_id
    if body.organizationId is not None and parse_uuid(body.organizationId) != organization_id:
        raise BadRequest.field(
            "organizationId", "must be the organization of the coworker key's workspace, or null"
        )
    return user_id, principal.workspace_id, organization_id


async def charge_usage(session: AsyncSession, principal: Principal, body: UsageCreate) -> Charged:
    """Charge a user's credits once per idempotency key (same key and body → the same charge;
    same key, other body → 400; short of credits → 402)."""
    coworker = await me(session, principal)
    digest = _usage_hash(body)
    key = body.idempotencyKey.strip()
    if not key:
        raise BadRequest.field("idempotencyKey", "must not be blank")
    existing = await repo.usage_by_key(session, coworker.id, key)
    if existing is not None:
        return _replay(existing, digest)
    try:
        amount = to_base(body.credits)
    except ValueError as exc:
        raise BadRequest.field("credits", str(exc)) from exc
    user_id, workspace_id, organization_id = await _charged_workspace(
        session, principal, coworker.id, body
    )
    task_id = None
    reference = parse_uuid(body.referenceId) if body.referenceId else None
    if reference is not None and await repo.task_of(session, reference, coworker.id, workspace_id):
        task_id = reference
    usage = CoworkerUsage(
        coworker_id=coworker.id,
        user_id=user_id,
        organization_id=organization_id,
        workspace_id=workspace_id,
        task_id=task_id,
        idempotency_key=key,
        reference_id=body.referenceId,
        credits=amount,
        request_hash=digest,
    )
    try:
        async with session.begin_nested():
            await repo.add(session, usage)
    except IntegrityError:
        # A concurrent request with the same key committed first.
        existing = await repo.usage_by_key(session, coworker.id, key)
        if existing is None:
            raise
        return _replay(existing, digest)
    # The cap of the member charged (whose task the coworker works on, named in the ledger), and
    # the task's project's: usage is a spend like a job (docs/billing.md).
    spend = caps.Spend(workspace_id, organization_id, user_id, amount, task_id, "the usage")
    await caps.charge(session, spend, now=utcnow())
    entry = await ledger.charge_usage(
        session,
        workspace_id=workspace_id,
        amount=amount,
        user_id=user_id,
        memo=f"usage by coworker {coworker.slug} ({key})",
    )
    await session.flush()
    usage.transaction_id = entry.id
    await session.flush()
    return Charged(usage, replayed=False)


def _replay(existing: CoworkerUsage, digest: str) -> Charged:
    if existing.request_hash != digest:
        raise BadRequest.field(
            "idempotencyKey", "was already used for a different charge; use a new key"
        )
    return Charged(existing, replayed=True)
