"""Organization rules. Who may do what is the table in ``auth/roles.py`` (and docs/accounts.md);
every check here goes through ``role_allows``. A caller who is not a member gets 404 (an
organization's existence is not revealed); a member lacking the role gets 403.
"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import identities, providers, provisioning, tokens
from agora.accounts import service as accounts
from agora.accounts.service import WEB_ACCEPT_INVITATION, Context, link
from agora.audit import service as audit
from agora.auth import service as auth
from agora.auth.principal import Principal
from agora.auth.roles import ROLES, Allowed, OrgAction, may_invite_as, may_remove, role_allows
from agora.auth.service import forget_cached_principals
from agora.files import service as files
from agora.files.storage import Storage
from agora.kit.db import on_commit
from agora.kit.errors import BadRequest, Conflict, FieldError, Forbidden, NotFound
from agora.kit.fields import trimmed
from agora.kit.ids import parse_uuid
from agora.kit.mail import Mail
from agora.kit.timeutil import utcnow
from agora.models import AccountToken, ApiKey, Organization, User
from agora.notifications import notify
from agora.organizations import repository as repo
from agora.settings import Settings

_NOT_SLUG = re.compile(r"[^a-z0-9]+")
_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")


def _slug_from(name: str) -> str:
    return _NOT_SLUG.sub("-", name.lower()).strip("-")[:100].strip("-") or "org"


async def _membership(
    session: AsyncSession, principal: Principal, raw_org_id: str, *, lock: bool = False
) -> tuple[Organization, str]:
    org_id = parse_uuid(raw_org_id)
    org = None
    if org_id is not None:
        org = await (repo.lock_organization if lock else accounts.organization_by_id)(
            session, org_id
        )
    role = await auth.org_role(session, principal.user_id, org.id) if org else None
    if org is None or role is None:
        raise NotFound(f"Organization {raw_org_id} not found")
    return org, role


def valid_role(role: str) -> str:
    """One of the roles of ``auth/roles.py`` (400 naming ``role`` otherwise): every caller, the
    API's schemas and the web's forms alike, goes through the service's check."""
    if role not in ROLES:
        raise BadRequest.field("role", f"must be one of {', '.join(ROLES)}")
    return role


def _require(role: str, action: OrgAction, what: str) -> None:
    if not role_allows(role, action):
        raise Forbidden(f"An organization {role} may not {what}")


async def _org_out(
    session: AsyncSession, principal: Principal, org_id: uuid.UUID
) -> dict[str, Any]:
    for row in await auth.memberships_of(session, principal.user_id):
        if row["id"] == org_id:
            return row
    raise NotFound(f"Organization {org_id} not found")


async def create(
    session: AsyncSession, principal: Principal, *, name: str, slug: str | None
) -> dict[str, Any]:
    name = trimmed("name", name, 200)
    user = await accounts.user_by_id(session, principal.user_id)
    assert user is not None
    org, _workspace = await provisioning.create_organization(
        session, slug=slug if slug is not None else _slug_from(name), name=name, owner=user
    )
    return await _org_out(session, principal, org.id)


async def allowed(session: AsyncSession, principal: Principal, raw_org_id: str) -> Allowed:
    """What the caller may do in the organization (404 if not a member): the pages' switch."""
    _org, role = await _membership(session, principal, raw_org_id)
    return Allowed(role)


async def list_mine(session: AsyncSession, principal: Principal) -> list[dict[str, Any]]:
    return await auth.memberships_of(session, principal.user_id)


async def members(
    session: AsyncSession, principal: Principal, raw_org_id: str
) -> list[dict[str, Any]]:
    org, role = await _membership(session, principal, raw_org_id)
    _require(role, OrgAction.VIEW, "see the members")
    return await repo.members(session, org.id)


async def _member_row(session: AsyncSession, org_id: uuid.UUID, raw_user_id: str) -> dict[str, Any]:
    user_id = parse_uuid(raw_user_id)
    for row in await repo.members(session, org_id):
        if row["user_id"] == user_id:
            return row
    raise NotFound(f"Member {raw_user_id} not found")


async def change_role(
    session: AsyncSession, principal: Principal, raw_org_id: str, raw_user_id: str, new_role: str
) -> dict[str, Any]:
    new_role = valid_role(new_role)
    org, role = await _membership(session, principal, raw_org_id, lock=True)
    _require(role, OrgAction.CHANGE_ROLES, "change roles")
    target = await _member_row(session, org.id, raw_user_id)
    if (
        target["role"] == "owner"
        and new_role != "owner"
        and await repo.owner_count(session, org.id) <= 1
    ):
        raise BadRequest.field("role", "the last owner cannot step down; make another owner first")
    await repo.set_role(session, org.id, target["user_id"], new_role)
    await audit.record(
        session,
        "org.role_changed",
        actor=principal,
        target_kind="user",
        target_id=target["user_id"],
        organization_id=org.id,
        details={"from": target["role"], "to": new_role},
    )
    if new_role != target["role"] and target["user_id"] != principal.user_id:
        await notify(
            session,
            user_id=target["user_id"],
            kind="org.role_changed",
            subject_ref=f"organization:{org.id}",
            data={
                "organizationId": str(org.id),
                "organization": org.name,
                "role": new_role,
                "previousRole": target["role"],
            },
        )
    return {**target, "role": new_role}


async def remove(
    session: AsyncSession, principal: Principal, raw_org_id: str, raw_user_id: str
) -> None:
    """Remove a member, or leave (your own id). The last owner can do neither."""
    org, role = await _membership(session, principal, raw_org_id, lock=True)
    target = await _member_row(session, org.id, raw_user_id)
    leaving = target["user_id"] == principal.user_id
    if not leaving and not may_remove(role, target["role"]):
        _require(role, OrgAction.REMOVE_MEMBERS, "remove members")
        raise Forbidden(f"An organization {role} may not remove an owner")
    if target["role"] == "owner" and await repo.owner_count(session, org.id) <= 1:
        raise Conflict(
            "The last owner cannot leave the organization; make another member owner first, "
            "or delete the organization"
        )
    await repo.remove_member(session, org.id, target["user_id"])
    await audit.record(
        session,
        "org.member_removed",
        actor=principal,
        target_kind="user",
        target_id=target["user_id"],
        organization_id=org.id,
        details={"role": target["role"], "left": leaving},
    )
    # In the same transaction: the keys bound to the organization's workspace (user keys made
    # with its workspaceId, coworker keys issued there) stop working with the membership.
    workspace = await auth.organization_workspace(session, org.id)
    if workspace is not None:
        now = utcnow()
        await accounts.revoke_workspace_keys(session, target["user_id"], workspace.id, now)
        on_commit(session, forget_cached_principals)


async def delete(
    session: AsyncSession, principal: Principal, raw_org_id: str, *, storage: Storage
) -> None:
    """Delete the organization and its workspace; the workspace's stored files' rows go by
    cascade and their blobs in ``storage`` once the deletion commits."""
    org, role = await _membership(session, principal, raw_org_id, lock=True)
    _require(role, OrgAction.DELETE, "delete the organization")
    workspace = await auth.organization_workspace(session, org.id)
    if workspace is not None and workspace.held > 0:
        raise Conflict("Running jobs hold this organization's credits; wait for them to finish")
    if workspace is not None:
        await files.forget_workspace(session, workspace.id, storage=storage)
    await repo.delete_organization(session, org.id)


# The organization's API keys (owners and admins)


async def _keys_workspace(
    session: AsyncSession, principal: Principal, raw_org_id: str, what: str
) -> uuid.UUID:
    org, role = await _membership(session, principal, raw_org_id)
    _require(role, OrgAction.MANAGE_KEYS, what)
    workspace = await auth.organization_workspace(session, org.id)
    if workspace is None:
        raise NotFound(f"Organization {raw_org_id} not found")
    return workspace.id


async def keys(
    session: AsyncSession, principal: Principal, raw_org_id: str
) -> list[dict[str, Any]]:
    """The live keys whose default workspace is the organization's: every member's user keys
    made with its workspaceId and the coworker keys issued there (never the secrets)."""
    workspace_id = await _keys_workspace(session, principal, raw_org_id, "see its API keys")
    rows = await accounts.workspace_keys(session, workspace_id, utcnow())
    return [_key_row(key, email, name) for key, email, name in rows]


def _key_row(key: ApiKey, email: str, name: str) -> dict[str, Any]:
    return {
        "id": key.id,
        "name": key.name,
        "kind": key.kind,
        "prefix": key.prefix,
        "scopes": key.scopes,
        "default_workspace_id": key.default_workspace_id,
        "created_at": key.created_at,
        "last_used_at": key.last_used_at,
        "expires_at": key.expires_at,
        "revoked_at": key.revoked_at,
        "user_id": key.user_id,
        "user_email": email,
        "user_name": name,
    }


async def revoke_key(
    session: AsyncSession, principal: Principal, raw_org_id: str, raw_key_id: str
) -> ApiKey:
    """Revoke a key bound to the organization's workspace (another workspace's key: 404)."""
    workspace_id = await _keys_workspace(session, principal, raw_org_id, "revoke its API keys")
    key_id = parse_uuid(raw_key_id)
    key = await accounts.api_key_by_id(session, key_id) if key_id else None
    if key is None or key.default_workspace_id != workspace_id:
        raise NotFound(f"API key {raw_key_id} not found")
    revoked = await provisioning.revoke_key(session, key.id)
    await audit.record(
        session,
        "key.revoked",
        actor=principal,
        target_kind="key",
        target_id=key.id,
        workspace_id=workspace_id,
        organization_id=parse_uuid(raw_org_id),
        details={"name": key.name, "prefix": key.prefix, "owner": str(key.user_id)},
    )
    return revoked


# Invitations


async def invite(
    session: AsyncSession,
    ctx: Context,
    principal: Principal,
    raw_org_id: str,
    *,
    email: str | None,
    role: str,
    max_uses: int | None,
    expires_in_days: float | None,
) -> tuple[AccountToken, str, str]:
    role = valid_role(role)
    org, my_role = await _membership(session, principal, raw_org_id)
    _require(my_role, OrgAction.INVITE, "invite people")
    if not may_invite_as(my_role, role):
        raise Forbidden(f"An organization {my_role} may not invite an owner")
    if email is not None:
        email = provisioning.normalise_email(email)
        if max_uses not in (None, 1):
            raise BadRequest.field("maxUses", "an invitation by email is single-use")
        max_uses = 1
    days = expires_in_days or ctx.settings.accounts.invitation_days
    plaintext, token = await tokens.issue(
        session,
        "invitation",
        timedelta(days=days),
        email=email,
        organization_id=org.id,
        role=role,
        created_by=principal.user_id,
        max_uses=max_uses or 1,
    )
    url = link(ctx.settings, WEB_ACCEPT_INVITATION, plaintext)
    await audit.record(
        session,
        "org.invitation_sent",
        actor=principal,
        target_kind="invitation",
        target_id=token.id,
        organization_id=org.id,
        details={"email": email, "role": role, "maxUses": max_uses or 1},
    )
    if email is not None:
        inviter = await accounts.user_by_id(session, principal.user_id)
        who = inviter.name if inviter else "Someone"
        text = (
            f"Hello,\n\n{who} invites you to join the organization {org.name} on Agora as "
            f"{role}. The invitation is valid for {days:g} days:\n\n{url}\n\n"
            f'Programs: POST /v1/invitations/accept with {{"token": "{plaintext}"}} once signed '
            "in (or /v1/invitations/decline).\n"
        )
        mail = Mail(email, f"Join {org.name} on Agora", text)
        on_commit(session, lambda: ctx.mailer.send(mail))
        invitee = await accounts.user_by_email(session, email)
        if invitee is not None:  # an existing account: its inbox too (the mail has the link)
            await notify(
                session,
                user_id=invitee.id,
                kind="org.invitation",
                subject_ref=f"invitation:{token.id}",
                data={
                    "organizationId": str(org.id),
                    "organization": org.name,
                    "role": role,
                    "inviter": who,
                    "message": f"Open the invitation mail sent to {email} to accept or decline.",
                },
            )
    return token, plaintext, url


async def invitations(
    session: AsyncSession, principal: Principal, raw_org_id: str
) -> list[AccountToken]:
    org, role = await _membership(session, principal, raw_org_id)
    _require(role, OrgAction.INVITE, "see invitations")
    return await accounts.invitations_of(session, org.id)


async def revoke_invitation(
    session: AsyncSession, principal: Principal, raw_org_id: str, raw_id: str
) -> AccountToken:
    org, role = await _membership(session, principal, raw_org_id)
    _require(role, OrgAction.INVITE, "revoke invitations")
    token_id = parse_uuid(raw_id)
    token = await accounts.token_by_id(session, token_id) if token_id else None
    if token is None or token.organization_id != org.id or token.purpose != "invitation":
        raise NotFound(f"Invitation {raw_id} not found")
    if token.revoked_at is None:
        token.revoked_at = utcnow()
        await session.flush()
    return token


async def _addressee_check(token: AccountToken, user: User) -> None:
    if token.email is not None and token.email != user.email:
        raise Forbidden(
            "This invitation was sent to another email address",
            details=[FieldError("token", "the invitation is for another email address")],
        )


async def preview(session: AsyncSession, plaintext: str) -> dict[str, Any]:
    """What an invitation offers (the organization's name, the role, the address it was sent
    to), for the page that asks to accept it; an unusable token is a 400 on ``token``."""
    token = await tokens.find(session, plaintext, "invitation")
    assert token.organization_id is not None
    org = await accounts.organization_by_id(session, token.organization_id)
    if org is None:
        raise BadRequest.field("token", "unknown token; ask for a new link")
    return {"organization": org.name, "role": token.role or "member", "email": token.email}


async def accept(session: AsyncSession, principal: Principal, plaintext: str) -> dict[str, Any]:
    token = await tokens.find(session, plaintext, "invitation")
    user = await accounts.user_by_id(session, principal.user_id)
    assert user is not None
    assert token.organization_id is not None
    await _addressee_check(token, user)
    if await auth.org_role(session, user.id, token.organization_id) is None:
        await tokens.use(session, token)
        org = await accounts.organization_by_id(session, token.organization_id)
        assert org is not None
        role = valid_role(token.role or "member")  # one stored before roles were checked: 400
        await provisioning.add_member(session, org=org, user=user, role=role)
        await audit.record(
            session,
            "org.invitation_accepted",
            actor=principal,
            target_kind="invitation",
            target_id=token.id,
            organization_id=org.id,
            details={"role": role},
        )
        await audit.record(
            session,
            "org.member_added",
            actor=principal,
            target_kind="user",
            target_id=user.id,
            organization_id=org.id,
            details={"role": role, "by": "invitation"},
        )
    return await _org_out(session, principal, token.organization_id)


async def decline(session: AsyncSession, principal: Principal, plaintext: str) -> None:
    """An emailed invitation is revoked by its addressee's decline; a shared link stays usable
    by others (declining it just does not join)."""
    token = await tokens.find(session, plaintext, "invitation")
    user = await accounts.user_by_id(session, principal.user_id)
    assert user is not None
    await _addressee_check(token, user)
    if token.email is not None:
        token.revoked_at = utcnow()
        await session.flush()


# ---- the sign-in rule: the domain's members sign in through one provider ----------------------


async def sign_in_rule(
    session: AsyncSession, principal: Principal, raw_org_id: str
) -> tuple[str, str] | None:
    """(domain, provider) the organization requires, or None; any member may read it."""
    org, _role = await _membership(session, principal, raw_org_id)
    if org.sign_in_domain and org.sign_in_provider:
        return org.sign_in_domain, org.sign_in_provider
    return None


async def set_sign_in_rule(
    session: AsyncSession,
    settings: Settings,
    principal: Principal,
    raw_org_id: str,
    *,
    domain: str,
    provider: str,
) -> None:
    """Owners require the organization's members whose address is at ``domain`` to sign in
    through ``provider`` (a configured one); an empty domain lifts the rule. An owner whose own
    address is at the domain links that provider first (the rule applies to them too)."""
    org, role = await _membership(session, principal, raw_org_id)
    _require(role, OrgAction.SET_SIGN_IN, "set how members sign in")
    domain = domain.strip().lower().removeprefix("@")
    if not domain:
        org.sign_in_domain = org.sign_in_provider = None
    else:
        if not _DOMAIN.match(domain):
            raise BadRequest.field("domain", "must be a domain name such as example.com")
        offered = {p.key: p.name for p in providers.configured(settings)}
        if provider not in offered:
            raise BadRequest.field(
                "provider", f"must be one of {', '.join(offered) or 'none configured'}"
            )
        user = await accounts.user_by_id(session, principal.user_id)
        assert user is not None
        mine = await identities.linked(session, principal)
        if identities.domain_of(user.email) == domain and all(i.provider != provider for i in mine):
            raise Conflict(
                f"The rule applies to you too: link {offered[provider]} to your account first "
                "(Settings → Sign-in methods)"
            )
        org.sign_in_domain, org.sign_in_provider = domain, provider
    await session.flush()
    await audit.record(
        session, "org.sign_in_rule", actor=principal, target_kind="organization",
        target_id=org.id, organization_id=org.id,
        details={"domain": org.sign_in_domain, "provider": org.sign_in_provider},
    )  # fmt: skip
