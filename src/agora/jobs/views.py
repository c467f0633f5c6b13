"""What a caller sees of jobs: the visible job (anyone else's is a 404) and the rows the
responses read (``ShownJob``: a job with its share, its demo flag and a listing's preview)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.jobs import repository as repo
from agora.jobs.schemas import Pagination
from agora.kit.ids import fetch_by_id
from agora.kit.schemas import RowView
from agora.mip003 import hashes
from agora.models import Job
from agora.models.rows import JobColumns
from agora.settings import Settings

# Listings carry a bounded preview of each result (a result may be up to 5 MiB).
RESULT_PREVIEW_CHARS = 2000


@dataclass(frozen=True)
class ShareUserView:
    """The sharer when their user row is gone: the owner's id, no name."""

    id: uuid.UUID
    name: str = ""
    image: str | None = None


@dataclass(frozen=True)
class ShareView:
    """A job's share record with its sharer and recipient: what ``ShareOut`` reads."""

    created_at: datetime
    updated: datetime
    url: str
    public: bool
    user: repo.SharerColumns | ShareUserView
    recipient_organization: repo.RecipientColumns | None


@dataclass(frozen=True)
class ShownJob(RowView):
    """A job row with its share (and, for shared views, its agent's name): what ``JobOut``
    and ``SharedJobOut`` read. Other attributes are the row's."""

    row: JobColumns
    share: ShareView | None
    agent_name: str = ""
    preview: bool = False
    is_demo: bool = False

    @property
    def result_hash(self) -> str | None:
        """MIP-004 hash of the whole result (also when ``result`` is a listing's preview): the one
        the payment backend stored at completion, else computed the same way."""
        stored: str | None = self.row.result_hash
        if stored is not None:
            return stored
        result: str | None = self.row.result
        return hashes.result_hash(self.row.identifier_from_purchaser, result) if result else None

    @property
    def result_submitted_at(self) -> datetime | None:
        completed: datetime | None = self.row.completed_at
        return completed if self.row.result else None

    @property
    def result(self) -> str | None:
        result: str | None = self.row.result
        if result is not None and self.result_truncated:
            return result[:RESULT_PREVIEW_CHARS]
        return result

    @property
    def result_truncated(self) -> bool:
        return self.preview and len(self.row.result or "") > RESULT_PREVIEW_CHARS


@dataclass(frozen=True)
class JobPage:
    jobs: list[ShownJob]
    pagination: Pagination


def share_url(settings: Settings, token: str) -> str:
    return f"{settings.public_url.rstrip('/')}/v1/shares/{token}"


def _share(
    job: JobColumns,
    settings: Settings,
    users: dict[uuid.UUID, repo.SharerColumns],
    orgs: dict[uuid.UUID, repo.RecipientColumns],
) -> ShareView | None:
    if not job.share_token:
        return None
    sharer = users.get(job.share_user_id or job.user_id) or users.get(job.user_id)
    org = (
        orgs.get(job.share_recipient_organization_id)
        if job.share_recipient_organization_id
        else None
    )
    created = job.share_created_at or job.created_at
    return ShareView(
        created_at=created,
        updated=job.share_updated_at or created,
        url=share_url(settings, job.share_token),
        public=job.share_public,
        user=sharer or ShareUserView(job.user_id),
        recipient_organization=org,
    )


async def shown(
    session: AsyncSession,
    jobs: Sequence[JobColumns],
    settings: Settings,
    *,
    preview: bool = False,
    demo: set[uuid.UUID] | None = None,
) -> list[ShownJob]:
    """The jobs with their shares' sharers and recipients (two queries, whatever the count);
    with ``preview``, each result cut to ``RESULT_PREVIEW_CHARS`` (listings). ``demo``: which
    of their agents are demo agents, when the caller read it already (else one more query)."""
    shared = [j for j in jobs if j.share_token]
    users = await repo.users_by_id(
        session, [u for j in shared for u in (j.share_user_id, j.user_id) if u is not None]
    )
    orgs = await repo.organizations_by_id(
        session,
        [j.share_recipient_organization_id for j in shared if j.share_recipient_organization_id],
    )
    if demo is None:
        demo = await repo.demo_agent_ids(session, list({j.agent_id for j in jobs}))
    return [
        ShownJob(
            job, _share(job, settings, users, orgs), preview=preview, is_demo=job.agent_id in demo
        )
        for job in jobs
    ]


async def shown_one(session: AsyncSession, job: JobColumns, settings: Settings) -> ShownJob:
    return (await shown(session, [job], settings))[0]


async def visible_job(session: AsyncSession, principal: Principal, job_id: str) -> Job:
    """The caller's own job in the current workspace; any other id (malformed, unknown, another
    person's or workspace's) is the same 404."""
    return await fetch_by_id(
        job_id,
        "Job",
        lambda parsed: repo.visible(session, parsed, principal.user_id, principal.workspace_id),
    )
