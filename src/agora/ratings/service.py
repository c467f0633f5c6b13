"""Rating rules.

- Only the hirer rates, only their own job (another person's job is a 404, as every job of
  someone else), only once it has ended COMPLETED or FAILED (409 before), once per job (409).
- The hirer may change stars and review for ``EDIT_WINDOW`` after rating (409 after).
- The agent's developer (its owner, or their organization) replies once per review (409 twice).
- Anyone signed in may report a review once; the operator lists reports (admin API).
- The agent's aggregate (count, sum, one count per star) changes in the rating's transaction by
  one relative UPDATE (``repository.change_aggregate``), so it is exact under concurrency and a
  listing reads it with the agent's row.
"""

from __future__ import annotations

import html
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

import nh3
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import service as agents
from agora.auth.principal import Principal
from agora.kit.errors import BadRequest, Conflict, NotFound
from agora.kit.ids import fetch_by_id
from agora.kit.schemas import RowView
from agora.kit.timeutil import as_utc, utcnow
from agora.models import Rating, RatingReport
from agora.models.statuses import JobStatus
from agora.ratings import repository as repo

EDIT_WINDOW = timedelta(days=7)
ENDED = (JobStatus.COMPLETED, JobStatus.FAILED)


@dataclass(frozen=True)
class ShownRating(RowView):
    """A rating row with when its hirer can no longer edit it: what ``RatingOut`` reads."""

    row: Rating

    @property
    def editable_until(self) -> datetime:
        return as_utc(self.row.created_at) + EDIT_WINDOW


def clean_text(text: str | None) -> str | None:
    """Review text as plain text: HTML removed (nh3, the results' sanitiser), trimmed.
    Pages render it as Markdown with raw HTML disabled (web/render.markdown)."""
    if text is None:
        return None
    cleaned = html.unescape(nh3.clean(text, tags=set())).strip()
    return cleaned or None


async def rate(
    session: AsyncSession, principal: Principal, job_id: str, stars: int, review: str | None
) -> ShownRating:
    job = await fetch_by_id(
        job_id,
        "Job",
        lambda parsed: repo.own_job_for_update(
            session, parsed, principal.user_id, principal.workspace_id
        ),
    )
    if job.status not in ENDED:
        raise Conflict(f"Job {job_id} has not ended (status {job.status}); rate it once it has")
    if await repo.of_job(session, job.id) is not None:
        raise Conflict(f"Job {job_id} is already rated; change the rating with PATCH")
    rating = await repo.add(
        session,
        Rating(
            job_id=job.id,
            agent_id=job.agent_id,
            user_id=principal.user_id,
            workspace_id=principal.workspace_id,
            stars=stars,
            review=clean_text(review),
        ),
    )
    await repo.change_aggregate(session, job.agent_id, add=stars, remove=None)
    return ShownRating(rating)


async def _own_rating(
    session: AsyncSession, principal: Principal, rating_id: str, *, for_update: bool = False
) -> Rating:
    """The caller's own rating; anyone else's is the same 404 as an unknown one."""

    async def own(parsed: uuid.UUID) -> Rating | None:
        rating = await repo.get(session, parsed, for_update=for_update)
        return rating if rating is not None and rating.user_id == principal.user_id else None

    rating: Rating = await fetch_by_id(rating_id, "Rating", own)
    return rating


async def get_own(session: AsyncSession, principal: Principal, rating_id: str) -> ShownRating:
    return ShownRating(await _own_rating(session, principal, rating_id))


async def edit(
    session: AsyncSession,
    principal: Principal,
    rating_id: str,
    *,
    stars: int | None,
    review: str | None,
    review_given: bool,
) -> ShownRating:
    rating = await _own_rating(session, principal, rating_id, for_update=True)
    if utcnow() > as_utc(rating.created_at) + EDIT_WINDOW:
        raise Conflict(f"A rating can be changed for {EDIT_WINDOW.days} days; this one no longer")
    if stars is not None and stars != rating.stars:
        await repo.change_aggregate(session, rating.agent_id, add=stars, remove=rating.stars)
        rating.stars = stars
    if review_given:
        rating.review = clean_text(review)
    rating.updated_at = utcnow()
    await session.flush()
    return ShownRating(rating)


async def _rating(session: AsyncSession, rating_id: str, *, for_update: bool = False) -> Rating:
    rating: Rating = await fetch_by_id(
        rating_id, "Rating", lambda parsed: repo.get(session, parsed, for_update=for_update)
    )
    return rating


async def reply(
    session: AsyncSession, principal: Principal, rating_id: str, text: str
) -> ShownRating:
    """The agent's developer answers a review, once."""
    rating = await _rating(session, rating_id, for_update=True)
    if not await agents.is_owned_by(session, rating.agent_id, principal):
        raise NotFound(f"Rating {rating_id} not found among your agents' ratings")
    if rating.reply is not None:
        raise Conflict(f"Rating {rating_id} already has a reply")
    cleaned = clean_text(text)
    if not cleaned:
        raise BadRequest.field("reply", "must not be empty")
    rating.reply = cleaned
    rating.reply_user_id = principal.user_id
    rating.replied_at = utcnow()
    await session.flush()
    return ShownRating(rating)


async def report(
    session: AsyncSession, principal: Principal, rating_id: str, reason: str
) -> RatingReport:
    rating = await _rating(session, rating_id)
    await agents.get_shown(session, str(rating.agent_id))  # a hidden agent's reviews: 404
    if await repo.report_by(session, rating.id, principal.user_id) is not None:
        raise Conflict(f"You already reported rating {rating_id}")
    return await repo.add_report(
        session, RatingReport(rating_id=rating.id, user_id=principal.user_id, reason=reason.strip())
    )


async def of_agent(
    session: AsyncSession, agent_id: str, *, offset: int, limit: int
) -> tuple[list[ShownRating], int]:
    agent = await agents.get_shown(session, agent_id)
    ratings, total = await repo.of_agent(session, agent.id, offset=offset, limit=limit)
    return [ShownRating(r) for r in ratings], total


@dataclass(frozen=True)
class ListedReport(RowView):
    """A report with its rating and reporter: what ``ReportOut`` reads."""

    row: RatingReport
    rating: Rating
    reporter_email: str

    @property
    def stars(self) -> int:
        return self.rating.stars

    @property
    def review(self) -> str | None:
        return self.rating.review

    @property
    def agent_id(self) -> uuid.UUID:
        return self.rating.agent_id


async def reports(
    session: AsyncSession, *, open_only: bool, offset: int, limit: int
) -> tuple[list[ListedReport], int]:
    rows, total = await repo.reports(session, open_only=open_only, offset=offset, limit=limit)
    return [ListedReport(r, rating, email) for r, rating, email in rows], total


async def resolve_report(session: AsyncSession, report_id: str, *, remove_review: bool) -> None:
    """Close a report; ``remove_review`` also blanks the review text (the stars stay)."""
    report = await fetch_by_id(report_id, "Report", lambda p: repo.get_report(session, p))
    report.resolved_at = utcnow()
    if remove_review:
        rating = await _rating(session, str(report.rating_id), for_update=True)
        rating.review = None
    await session.flush()


async def set_favourite(
    session: AsyncSession, principal: Principal, agent_id: str, favourite: bool
) -> None:
    agent = await agents.get_shown(session, agent_id)
    if favourite:
        await repo.favourite(session, principal.user_id, agent.id)
    else:
        await repo.unfavourite(session, principal.user_id, agent.id)


async def rated_jobs(session: AsyncSession, job_ids: list[uuid.UUID]) -> dict[uuid.UUID, Rating]:
    return await repo.rated_jobs(session, job_ids)
