"""/v1/organizations and /v1/invitations (key family: Envelope A, Simple errors).
Roles and what they allow: auth/roles.py and docs/accounts.md."""

from __future__ import annotations

from agora.accounts.dependencies import ContextDep
from agora.accounts.schemas import ApiKeyOut, MessageOut
from agora.auth.dependencies import ProfileWriter, Reader, SessionDep, SettingsDep
from agora.files.storage import storage_from_settings
from agora.kit.envelopes import EnvelopeA
from agora.kit.families import key_router
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


@router.post(
    "",
    status_code=201,
    response_model=EnvelopeA[OrganizationOut],
    operation_id="createOrganization",
    openapi_extra={"x-agora-errors": [409]},
)
async def create_organization(
    body: OrganizationIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[OrganizationOut]:
    """Create an organization (with its workspace); you are its owner."""
    row = await service.create(session, principal, name=body.name, slug=body.slug)
    return EnvelopeA[OrganizationOut](data=OrganizationOut.model_validate(row))


@router.get("", response_model=EnvelopeA[list[OrganizationOut]], operation_id="listOrganizations")
async def list_organizations(
    session: SessionDep, principal: Reader
) -> EnvelopeA[list[OrganizationOut]]:
    """The organizations you belong to, with your role."""
    rows = await service.list_mine(session, principal)
    return EnvelopeA[list[OrganizationOut]](
        data=[OrganizationOut.model_validate(row) for row in rows]
    )


@router.delete(
    "/{orgId}",
    response_model=EnvelopeA[MessageOut],
    operation_id="deleteOrganization",
    openapi_extra={"x-agora-errors": [404, 409]},
)
async def delete_organization(
    orgId: str, session: SessionDep, principal: ProfileWriter, settings: SettingsDep
) -> EnvelopeA[MessageOut]:
    """Delete the organization, its workspace and everything in it, stored files included
    (owners only)."""
    await service.delete(session, principal, orgId, storage=storage_from_settings(settings))
    return EnvelopeA[MessageOut](data=MessageOut(message="Organization deleted"))


@router.get(
    "/{orgId}/members",
    response_model=EnvelopeA[list[MemberOut]],
    operation_id="listOrganizationMembers",
    openapi_extra={"x-agora-errors": [404]},
)
async def list_members(
    orgId: str, session: SessionDep, principal: Reader
) -> EnvelopeA[list[MemberOut]]:
    """The members and their roles."""
    rows = await service.members(session, principal, orgId)
    return EnvelopeA[list[MemberOut]](data=[MemberOut.model_validate(row) for row in rows])


@router.patch(
    "/{orgId}/members/{userId}",
    response_model=EnvelopeA[MemberOut],
    operation_id="changeMemberRole",
    openapi_extra={"x-agora-errors": [404]},
)
async def change_role(
    orgId: str, userId: str, body: RoleIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[MemberOut]:
    """Change a member's role (owners only; the last owner cannot step down)."""
    row = await service.change_role(session, principal, orgId, userId, body.role)
    return EnvelopeA[MemberOut](data=MemberOut.model_validate(row))


@router.delete(
    "/{orgId}/members/{userId}",
    response_model=EnvelopeA[MessageOut],
    operation_id="removeMember",
    openapi_extra={"x-agora-errors": [404, 409]},
)
async def remove_member(
    orgId: str, userId: str, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[MessageOut]:
    """Remove a member, or leave with your own user id. The last owner cannot leave (409)."""
    await service.remove(session, principal, orgId, userId)
    return EnvelopeA[MessageOut](data=MessageOut(message="Member removed"))


@router.get(
    "/{orgId}/api-keys",
    response_model=EnvelopeA[list[OrganizationKeyOut]],
    operation_id="listOrganizationApiKeys",
    openapi_extra={"x-agora-errors": [404]},
)
async def list_organization_keys(
    orgId: str, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[list[OrganizationKeyOut]]:
    """The live API keys bound to the organization's workspace (members' user keys made with its
    workspaceId, coworker keys issued there), newest first; owners and admins."""
    rows = await service.keys(session, principal, orgId)
    return EnvelopeA[list[OrganizationKeyOut]](
        data=[OrganizationKeyOut.model_validate(row) for row in rows]
    )


@router.delete(
    "/{orgId}/api-keys/{keyId}",
    response_model=EnvelopeA[ApiKeyOut],
    operation_id="revokeOrganizationApiKey",
    openapi_extra={"x-agora-errors": [404]},
)
async def revoke_organization_key(
    orgId: str, keyId: str, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[ApiKeyOut]:
    """Revoke a key bound to the organization's workspace (owners and admins); the next
    request with it answers 401."""
    key = await service.revoke_key(session, principal, orgId, keyId)
    return EnvelopeA[ApiKeyOut](data=ApiKeyOut.model_validate(key))


@router.post(
    "/{orgId}/invitations",
    status_code=201,
    response_model=EnvelopeA[CreatedInvitationOut],
    operation_id="createInvitation",
    openapi_extra={"x-agora-errors": [404]},
)
async def create_invitation(
    orgId: str, body: InvitationIn, session: SessionDep, principal: ProfileWriter, ctx: ContextDep
) -> EnvelopeA[CreatedInvitationOut]:
    """Invite by email (a single-use link mailed to that address; only that account may accept)
    or create a shareable link (no email; ``maxUses`` people may join with it). The token and
    link are in this response only."""
    token, plaintext, url = await service.invite(
        session,
        ctx,
        principal,
        orgId,
        email=body.email,
        role=body.role,
        max_uses=body.maxUses,
        expires_in_days=body.expiresInDays,
    )
    out = CreatedInvitationOut(
        **InvitationOut.model_validate(token).model_dump(), token=plaintext, url=url
    )
    return EnvelopeA[CreatedInvitationOut](data=out)


@router.get(
    "/{orgId}/invitations",
    response_model=EnvelopeA[list[InvitationOut]],
    operation_id="listInvitations",
    openapi_extra={"x-agora-errors": [404]},
)
async def list_invitations(
    orgId: str, session: SessionDep, principal: Reader
) -> EnvelopeA[list[InvitationOut]]:
    """The organization's invitations, newest first (owners and admins)."""
    rows = await service.invitations(session, principal, orgId)
    return EnvelopeA[list[InvitationOut]](data=[InvitationOut.model_validate(row) for row in rows])


@router.delete(
    "/{orgId}/invitations/{invitationId}",
    response_model=EnvelopeA[InvitationOut],
    operation_id="revokeInvitation",
    openapi_extra={"x-agora-errors": [404]},
)
async def revoke_invitation(
    orgId: str, invitationId: str, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[InvitationOut]:
    """Revoke an invitation; its link stops working at once."""
    row = await service.revoke_invitation(session, principal, orgId, invitationId)
    return EnvelopeA[InvitationOut](data=InvitationOut.model_validate(row))


@invitations_router.post(
    "/accept",
    response_model=EnvelopeA[OrganizationOut],
    operation_id="acceptInvitation",
)
async def accept_invitation(
    body: InvitationTokenIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[OrganizationOut]:
    """Join the organization with an invitation token (signed in, as the invited address)."""
    row = await service.accept(session, principal, body.token)
    return EnvelopeA[OrganizationOut](data=OrganizationOut.model_validate(row))


@invitations_router.post(
    "/decline",
    response_model=EnvelopeA[MessageOut],
    operation_id="declineInvitation",
)
async def decline_invitation(
    body: InvitationTokenIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[MessageOut]:
    """Decline an invitation (an emailed one is revoked)."""
    await service.decline(session, principal, body.token)
    return EnvelopeA[MessageOut](data=MessageOut(message="Invitation declined"))
