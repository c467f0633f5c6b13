"""Shares of jobs (docs/jobs.md, "Shares"): a public link and/or one for an organization the
sharer belongs to, made at creation (``jobShareRequest``) or later; the shared view by token."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import service as accounts
from agora.auth import service as auth
from agora.auth.principal import Principal
from agora.jobs import repository as repo
from agora.jobs.schemas import JobShareRequest
from agora.jobs.views import ShownJob, shown_one, visible_job
from agora.kit.errors import BadRequest, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.timeutil import utcnow
from agora.models import Organization
from agora.settings import Settings

NOT_YOUR_ORGANIZATION = "no organization you belong to has this identifier"
SHARE_PATH = "/shares/"  # the web page of a share (the API's share.url is /v1/shares/{token})


async def share_target(
    session: AsyncSession, principal: Principal, request: JobShareRequest, at: str = ""
) -> Organization | None:
    """The recipient organization: one the caller belongs to. Unknown organizations and ones the
    caller is not in get the same answer (no probing of other tenants' ids or slugs). Errors
    name ``at`` + the field (``jobShareRequest.`` in a job's creation body)."""

    async def mine(found: Organization | None) -> Organization | None:
        if found is None:
            return None
        member = await auth.is_org_member(session, principal.user_id, found.id)
        return found if member else None

    org: Organization | None = None
    if request.recipientOrganizationId is not None:
        parsed = parse_uuid(request.recipientOrganizationId)
        org = await mine(await accounts.organization_by_id(session, parsed) if parsed else None)
        if org is None:
            raise BadRequest.field(f"{at}recipientOrganizationId", NOT_YOUR_ORGANIZATION)
    if request.recipientOrganizationSlug is not None:
        by_slug = await mine(
            await auth.organization_by_slug(session, request.recipientOrganizationSlug)
        )
        if by_slug is None:
            raise BadRequest.field(f"{at}recipientOrganizationSlug", NOT_YOUR_ORGANIZATION)
        if org is not None and org.id != by_slug.id:
            raise BadRequest.field(
                f"{at}recipientOrganizationSlug",
                "names another organization than recipientOrganizationId",
            )
        org = by_slug
    if not request.public and org is None:
        raise BadRequest.field(
            at.rstrip(".") or "public", "a share that is not public needs a recipient organization"
        )
    return org


def new_share_token() -> str:
    return secrets.token_urlsafe(24)


async def shared_job(
    session: AsyncSession, token: str, principal: Principal | None, *, settings: Settings
) -> ShownJob:
    """A shared job by its token: public links need no credentials; a share limited to a
    recipient organization is shown to that organization's members (and the owner)."""
    job = await repo.by_share_token(session, token) if len(token) <= 64 else None
    if job is None:
        raise NotFound("Share not found")
    if not job.share_public:
        allowed = principal is not None and (
            principal.user_id == job.user_id
            or (
                job.share_recipient_organization_id is not None
                and await auth.is_org_member(
                    session, principal.user_id, job.share_recipient_organization_id
                )
            )
        )
        if not allowed:
            raise NotFound("Share not found")
    out = await shown_one(session, job, settings)
    agent = await repo.agent(session, job.agent_id)
    return ShownJob(job, out.share, agent_name=agent.name if agent else "")


async def share_job(
    session: AsyncSession,
    principal: Principal,
    job_id: str,
    request: JobShareRequest,
    *,
    settings: Settings,
) -> ShownJob:
    """Share an existing job (its creator only, like every job route; anyone else → 404): a
    public link and/or one for a recipient organization, as ``jobShareRequest`` at creation.
    Sharing a shared job again keeps its link and changes who may see it. The job's own
    ``updatedAt`` is left alone (a share is not a change of the job; the feed keeps its order)."""
    job = await visible_job(session, principal, job_id)
    org = await share_target(session, principal, request)
    now = utcnow()
    await repo.set_share(
        session,
        job.id,
        token=job.share_token or new_share_token(),
        public=request.public,
        recipient_organization_id=org.id if org else None,
        user_id=principal.user_id,
        created_at=job.share_created_at if job.share_token else now,
        updated_at=now,
    )
    return await shown_one(session, await repo.refresh(session, job), settings)


async def unshare_job(
    session: AsyncSession, principal: Principal, job_id: str, *, settings: Settings
) -> ShownJob:
    """Revoke the job's share (its creator only; anyone else → 404): its link answers 404 from
    now on; sharing again makes a new link. Revoking an unshared job changes nothing."""
    job = await visible_job(session, principal, job_id)
    if job.share_token:
        await repo.clear_share(session, job.id)
        job = await repo.refresh(session, job)
    return await shown_one(session, job, settings)


# ---- the job page's share card ------------------------------------------------------------


def share_link(settings: Settings, token: str | None) -> str | None:
    """The web page of a job's share (the API's ``share.url`` stays ``/v1/shares/{token}``)."""
    return f"{settings.public_url.rstrip('/')}{SHARE_PATH}{token}" if token else None


@dataclass(frozen=True)
class ShareTarget:
    organization_id: uuid.UUID
    name: str


async def share_targets(session: AsyncSession, principal: Principal) -> list[ShareTarget]:
    """The organizations a job can be shared with: the signed-in person's own."""
    return [
        ShareTarget(org["id"], str(org["name"]))
        for org in await auth.memberships_of(session, principal.user_id)
    ]
