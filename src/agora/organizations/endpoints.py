"""/v1/organizations and /v1/invitations (key family: Envelope A, Simple errors).
Roles and what they allow: auth/roles.py and docs/accounts.md."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from agora.accounts.dependencies import ContextDep
from agora.accounts.schemas import ApiKeyOut, MessageOut
from agora.auth.dependencies import ProfileWriter, Reader, SessionDep, SettingsDep
from agora.files.storage import storage_from_settings
from agora.kit.envelopes import EnvelopeA
from agora.kit.families import key_router
from agora.kit.openapi import errors
from agora.organizations import service
from agora.organizations.schemas import (
    CreatedInvitationOut,
    InvitationIn,
    InvitationOut,
    InvitationTokenIn,
    MemberOut,
    OrganizationIn,
    OrganizationKeyOut,
    OrganizationOut,
    RoleIn,
)

router = key_router(prefix="/organizations", tags=["organizations"])
invitations_router = key_router(prefix="/invitations", tags=["organizations"])

# Ids stay ``str`` in the path: a malformed id answers the same 404 as an unknown one (an
# organization the caller does not belong to answers 404 too).
OrgId = Annotated[str, Path(alias="orgId")]
MemberId = Annotated[str, Path(alias="userId")]
KeyId = Annotated[str, Path(alias="keyId")]
InvitationId = Annotated[str, Path(alias="invitationId")]


def _message(text: str) -> EnvelopeA[MessageOut]:
    return EnvelopeA[MessageOut](data=MessageOut(message=text))


@router.post("", status_code=201, operation_id="createOrganization", openapi_extra=errors(409))
async def create_organization(
    body: OrganizationIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[OrganizationOut]:
    """Create an organization (with its workspace); you are its owner."""
    row = await service.create(session, principal, name=body.name, slug=body.slug)
    return EnvelopeA[OrganizationOut](data=row)


@router.get("", operation_id="listOrganizations")
async def list_organizations(
    session: SessionDep, principal: Reader
) -> EnvelopeA[list[OrganizationOut]]:
    """The organizations you belong to, with your role."""
    return EnvelopeA[list[OrganizationOut]](data=await service.list_mine(session, principal))


@router.delete("/{orgId}", operation_id="deleteOrganization", openapi_extra=errors(404, 409))
async def delete_organization(
    org_id: OrgId, session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[MessageOut]:
    """Delete the organization, its workspace and everything in it, stored files included
    (owners only)."""
    await service.delete(session, principal, org_id, storage=storage_from_settings(settings))
    return _message("Organization deleted")


@router.get("/{orgId}/members", operation_id="listOrganizationMembers", openapi_extra=errors(404))
async def list_members(
    org_id: OrgId, session: SessionDep, principal: Reader
) -> EnvelopeA[list[MemberOut]]:
    """The members and their roles."""
    return EnvelopeA[list[MemberOut]](data=await service.members(session, principal, org_id))


@router.patch(
    "/{orgId}/members/{userId}", operation_id="changeMemberRole", openapi_extra=errors(404)
)
async def change_role(
    org_id: OrgId, user_id: MemberId, body: RoleIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[MemberOut]:
    """Change a member's role (owners only; the last owner cannot step down)."""
    row = await service.change_role(session, principal, org_id, user_id, body.role)
    return EnvelopeA[MemberOut](data=row)


@router.delete(
    "/{orgId}/members/{userId}", operation_id="removeMember", openapi_extra=errors(404, 409)
)
async def remove_member(
    org_id: OrgId, user_id: MemberId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[MessageOut]:
    """Remove a member, or leave with your own user id. The last owner cannot leave (409)."""
    await service.remove(session, principal, org_id, user_id)
    return _message("Member removed")


@router.get("/{orgId}/api-keys", operation_id="listOrganizationApiKeys", openapi_extra=errors(404))
async def list_organization_keys(
    org_id: OrgId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[list[OrganizationKeyOut]]:
    """The live API keys bound to the organization's workspace (members' user keys made with its
    workspaceId, coworker keys issued there), newest first; owners and admins."""
    rows = await service.keys(session, principal, org_id)
    return EnvelopeA[list[OrganizationKeyOut]](data=rows)


@router.delete(
    "/{orgId}/api-keys/{keyId}",
    operation_id="revokeOrganizationApiKey",
    openapi_extra=errors(404),
)
async def revoke_organization_key(
    org_id: OrgId, key_id: KeyId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[ApiKeyOut]:
    """Revoke a key bound to the organization's workspace (owners and admins); the next
    request with it answers 401."""
    key = await service.revoke_key(session, principal, org_id, key_id)
    return EnvelopeA[ApiKeyOut](data=key)


@router.post(
    "/{orgId}/invitations",
    status_code=201,
    operation_id="createInvitation",
    openapi_extra=errors(404),
)
async def create_invitation(
    org_id: OrgId,
    body: InvitationIn,
    session: SessionDep,
    principal: ProfileWriter,
    ctx: ContextDep,
) -> EnvelopeA[CreatedInvitationOut]:
    """Invite by email (a single-use link mailed to that address; only that account may accept)
    or create a shareable link (no email; ``maxUses`` people may join with it). The token and
    link are in this response only."""
    token, plaintext, url = await service.invite(
        session,
        ctx,
        principal,
        org_id,
        email=body.email,
        role=body.role,
        max_uses=body.maxUses,
        expires_in_days=body.expiresInDays,
    )
    out = CreatedInvitationOut(
        **InvitationOut.model_validate(token).model_dump(), token=plaintext, url=url
    )
    return EnvelopeA[CreatedInvitationOut](data=out)


@router.get("/{orgId}/invitations", operation_id="listInvitations", openapi_extra=errors(404))
async def list_invitations(
    org_id: OrgId, session: SessionDep, principal: Reader
) -> EnvelopeA[list[InvitationOut]]:
    """The organization's invitations, newest first (owners and admins)."""
    rows = await service.invitations(session, principal, org_id)
    return EnvelopeA[list[InvitationOut]](data=rows)


@router.delete(
    "/{orgId}/invitations/{invitationId}",
    operation_id="revokeInvitation",
    openapi_extra=errors(404),
)
async def revoke_invitation(
    org_id: OrgId, invitation_id: InvitationId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[InvitationOut]:
    """Revoke an invitation; its link stops working at once."""
    row = await service.revoke_invitation(session, principal, org_id, invitation_id)
    return EnvelopeA[InvitationOut](data=row)


@invitations_router.post("/accept", operation_id="acceptInvitation")
async def accept_invitation(
    body: InvitationTokenIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[OrganizationOut]:
    """Join the organization with an invitation token (signed in, as the invited address)."""
    return EnvelopeA[OrganizationOut](data=await service.accept(session, principal, body.token))


@invitations_router.post("/decline", operation_id="declineInvitation")
async def decline_invitation(
    body: InvitationTokenIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[MessageOut]:
    """Decline an invitation (an emailed one is revoked)."""
    await service.decline(session, principal, body.token)
    return _message("Invitation declined")
