"""Identity rules: creating users (with their personal workspace), organizations, memberships and
API keys. Services flush; the caller owns the transaction."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import repository as repo
from agora.auth import service as auth
from agora.auth.principal import Permission, coworker_scope
from agora.auth.service import forget_cached_principals
from agora.credits import ledger
from agora.kit.db import on_commit
from agora.kit.errors import BadRequest, Conflict, NotFound
from agora.kit.security import generate_key
from agora.kit.timeutil import utcnow
from agora.models import ApiKey, Organization, OrganizationMember, User, Workspace
from agora.models.statuses import KeyKind

KEY_KINDS = tuple(KeyKind)
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$")
_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$")


@dataclass(frozen=True)
class CreatedUser:
    user: User
    workspace: Workspace
    api_key: str
    key: ApiKey


@dataclass(frozen=True)
class CreatedKey:
    key: ApiKey
    plaintext: str


def normalise_email(email: str) -> str:
    email = email.strip().lower()
    if not _EMAIL.match(email) or len(email) > 320:
        raise BadRequest.field("email", "must be a valid email address")
    return email


async def create_user(
    session: AsyncSession, *, email: str, name: str, credits: int = 0, terms_accepted: bool = True
) -> CreatedUser:
    """A user with a personal workspace (its credit account) and a first API key."""
    user, workspace = await create_account(
        session, email=email, name=name, credits=credits, terms_accepted=terms_accepted
    )
    created = await create_key(session, user=user, kind=KeyKind.USER, workspace=workspace)
    return CreatedUser(user, workspace, created.plaintext, created.key)


async def create_account(
    session: AsyncSession, *, email: str, name: str, credits: int = 0, terms_accepted: bool = True
) -> tuple[User, Workspace]:
    """A user, their personal workspace and its credits (no key: sign-up makes none)."""
    email = normalise_email(email)
    name = name.strip()
    if not 1 <= len(name) <= 200:
        raise BadRequest.field("name", "must be 1 to 200 characters")
    if await repo.user_by_email(session, email):
        raise Conflict(f"A user with email {email} already exists")
    user = User(email=email, name=name, terms_accepted=terms_accepted)
    await repo.add(session, user)
    workspace = Workspace(name=f"{name}'s workspace", kind="personal", owner_user_id=user.id)
    await repo.add(session, workspace)
    if credits:
        await ledger.grant(session, workspace_id=workspace.id, amount=credits, user_id=user.id)
    return user, workspace


# The grants a key may carry beyond its kind's own (docs/security.md). "admin" is a kind, never a
# scope: an admin grant on a user or coworker key is refused.
GRANTABLE_SCOPES = (
    Permission.READ,
    Permission.JOBS_WRITE,
    Permission.PROJECTS_WRITE,
    Permission.PROFILE_WRITE,
)


def _valid_scopes(scopes: list[str] | None) -> list[str]:
    clean = sorted({s.strip() for s in scopes or [] if s.strip()})
    for scope in clean:
        if scope == Permission.ADMIN:
            raise BadRequest.field(
                "scopes", "'admin' is not a scope; create a key of kind admin instead"
            )
        if scope not in GRANTABLE_SCOPES:
            raise BadRequest.field(
                "scopes", f"unknown scope {scope!r}; one of {', '.join(GRANTABLE_SCOPES)}"
            )
    return clean


async def create_key(
    session: AsyncSession,
    *,
    user: User,
    kind: str = KeyKind.USER,
    workspace: Workspace | None = None,
    name: str = "",
    scopes: list[str] | None = None,
    coworker_id: uuid.UUID | None = None,
) -> CreatedKey:
    """``scopes`` are the caller-given grants (validated); ``coworker_id`` binds a coworker key
    to its coworker (the ``coworker:<id>`` scope, never accepted from callers)."""
    if kind not in KEY_KINDS:
        raise BadRequest.field("kind", f"must be one of {', '.join(KEY_KINDS)}")
    clean_scopes = _valid_scopes(scopes)
    if coworker_id is not None:
        if kind != KeyKind.COWORKER:
            raise BadRequest.field("kind", "only a coworker key is bound to a coworker")
        clean_scopes.append(coworker_scope(coworker_id))
    if workspace is None:
        workspace = await auth.personal_workspace(session, user.id)
        if workspace is None:
            raise NotFound("The user has no personal workspace")
    elif not await auth.is_member(session, user.id, workspace.id):
        raise BadRequest.field("workspace", "the user is not a member of this workspace")
    material = generate_key(kind)
    key = ApiKey(
        user_id=user.id,
        kind=kind,
        name=name,
        prefix=material.prefix,
        key_hash=material.key_hash,
        default_workspace_id=workspace.id,
        scopes=clean_scopes,
    )
    await repo.add(session, key)
    return CreatedKey(key, material.plaintext)


async def revoke_key(session: AsyncSession, key_id: uuid.UUID) -> ApiKey:
    key = await repo.api_key_by_id(session, key_id)
    if key is None:
        raise NotFound(f"API key {key_id} not found")
    if key.revoked_at is None:
        key.revoked_at = utcnow()
        await session.flush()
        # Refused at once by this process; other processes' caches expire within 1 s.
        on_commit(session, forget_cached_principals)
    return key


async def create_organization(
    session: AsyncSession, *, slug: str, name: str, owner: User
) -> tuple[Organization, Workspace]:
    slug = slug.strip().lower()
    if not _SLUG.match(slug):
        raise BadRequest.field("slug", "lowercase letters, digits and hyphens, 1 to 100 chars")
    if await auth.organization_by_slug(session, slug):
        raise Conflict(f"An organization with slug {slug} already exists")
    org = Organization(slug=slug, name=name.strip() or slug)
    await repo.add(session, org)
    workspace = Workspace(name=org.name, kind="organization", organization_id=org.id)
    await repo.add(
        session,
        OrganizationMember(organization_id=org.id, user_id=owner.id, role="owner"),
        workspace,
    )
    return org, workspace


async def add_member(
    session: AsyncSession, *, org: Organization, user: User, role: str = "member"
) -> None:
    if await auth.is_org_member(session, user.id, org.id):
        return
    await repo.add(session, OrganizationMember(organization_id=org.id, user_id=user.id, role=role))
