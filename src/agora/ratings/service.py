"""Rating rules.

- Only the hirer rates, only their own job (another person's job is a 404, as every job of
  someone else), only once it has ended COMPLETED or FAILED (409 before).
- One rating per person per agent (as app stores do; ``uq_ratings_user_agent``): the first is
  created (201); rating the agent again from a later hire replaces stars and review (200), from
  the same or an earlier job it is a 409 (change it with PATCH).
- The hirer may change stars and review for ``EDIT_WINDOW`` after rating (409 after).
- The agent's developer (its owner, or their organization) replies once per review (409 twice).
- Anyone signed in may report a review once; the operator lists reports (admin API).
- The agent's aggregate (people, sum, one count per star) changes in the rating's transaction by
  one relative UPDATE (``repository.change_aggregate``), so it is exact under concurrency and a
  listing reads it with the agent's row.
- Review text is plain text that never holds markup (``clean_text``).
"""

from __future__ import annotations

import html
import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

import nh3
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import service as agents
from agora.auth.principal import Permission, Principal
from agora.kit.errors import BadRequest, Conflict, NotFound
from agora.kit.ids import fetch_by_id
from agora.kit.schemas import RowView
from agora.kit.timeutil import as_utc, utcnow
from agora.models import Job, Rating, RatingReport
from agora.models.statuses import JobStatus
from agora.ratings import repository as repo
from agora.ratings.signals import toolbox_changed

EDIT_WINDOW = timedelta(days=7)
ENDED = (JobStatus.COMPLETED, JobStatus.FAILED)


@dataclass(frozen=True)
class ShownRating(RowView):
    """A rating row with when its hirer can no longer edit it: what ``RatingOut`` reads."""

    row: Rating

    @property
    def editable_until(self) -> datetime:
        return as_utc(self.row.created_at) + EDIT_WINDOW


# C0 and C1 control characters but tab and newline, and DEL: never part of a review.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CLEAN_PASSES = 4  # a tag hidden inside another one is removed by the next pass; bounded


def _strip_tags(text: str) -> str:
    """Tags removed, every other character kept as typed: ``&`` is escaped first, so nh3 (which
    escapes ``<``, ``>`` and ``&`` in text) and the unescape give back exactly what was typed,
    an entity such as ``&lt;`` included, and never turn one into a ``<``."""
    return html.unescape(nh3.clean(text.replace("&", "&amp;"), tags=set()))


def clean_text(text: str | None) -> str | None:
    """Review text as plain text: control characters and HTML tags removed (nh3, the results'
    sanitiser), everything else as typed (``&lt;script&gt;`` stays those 14 characters),
    trimmed; cleaned again until nothing changes, so the stored text never holds a tag. Pages
    escape it (Jinja autoescape; Markdown with raw HTML disabled, web/render.markdown)."""
    if text is None:
        return None
    cleaned = _CONTROL.sub("", text)
    for _ in range(_CLEAN_PASSES):
        stripped = _strip_tags(cleaned)
        if stripped == cleaned:
            break
        cleaned = stripped
    else:
        cleaned = cleaned.replace("<", "").replace(">", "")  # still changing: no brackets at all
    return cleaned.strip() or None


@dataclass(frozen=True)
class Rated:
    """A ``rate`` outcome: the rating, and whether it was created (201) or replaced (200)."""

    rating: ShownRating
    created: bool


async def rate(
    session: AsyncSession, principal: Principal, job_id: str, stars: int, review: str | None
) -> Rated:
    job = await fetch_by_id(
        job_id,
        "Job",
        lambda parsed: repo.own_job_for_update(
            session, parsed, principal.user_id, principal.workspace_id
        ),
    )
    if job.status not in ENDED:
        raise Conflict(f"Job {job_id} has not ended (status {job.status}); rate it once it has")
    cleaned = clean_text(review)
    existing = await repo.of_person_for_update(session, principal.user_id, job.agent_id)
    if existing is None:
        rating = Rating(
            job_id=job.id, agent_id=job.agent_id, user_id=principal.user_id,
            workspace_id=principal.workspace_id, stars=stars, review=cleaned,
        )  # fmt: skip
        try:
            async with session.begin_nested():
                await repo.add(session, rating)
        except IntegrityError:
            # The person's concurrent first rating of this agent committed first: replace it.
            existing = await repo.of_person_for_update(session, principal.user_id, job.agent_id)
            if existing is None:
                raise
        else:
            await repo.change_aggregate(session, job.agent_id, add=stars, remove=None)
            return Rated(ShownRating(rating), created=True)
    return Rated(await _rate_again(session, existing, job, stars, cleaned), created=False)


async def _rate_again(
    session: AsyncSession, rating: Rating, job: Job, stars: int, review: str | None
) -> ShownRating:
    """The person's rating of the agent, replaced from a later hire (``job``): stars, review and
    the job it rates; the edit window starts again; the developer's reply to the old review
    goes with it. The same or an earlier job: 409."""
    rated = await repo.hire_order(session, rating.job_id)
    if rated is not None and (as_utc(job.created_at), job.id) <= (as_utc(rated[0]), rated[1]):
        raise Conflict(
            f"You already rated this agent for job {rating.job_id}; one rating per person per "
            "agent: change it with PATCH, or rate it again from a later job"
        )
    await repo.change_aggregate(session, rating.agent_id, add=stars, remove=rating.stars)
    now = utcnow()
    rating.job_id, rating.workspace_id = job.id, job.workspace_id
    rating.stars, rating.review = stars, review
    rating.reply = rating.reply_user_id = rating.replied_at = None
    rating.created_at = rating.updated_at = now
    await session.flush()
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
    await toolbox_changed(session, principal.user_id)


# ---- the person's assistant (docs/mcp.md, "Your toolbox") --------------------------------

TOOLBOX_LIMIT = 50  # agents in a person's toolbox (favourites and assistant picks) as MCP tools


async def set_in_assistant(
    session: AsyncSession, principal: Principal, agent_id: str, chosen: bool
) -> bool:
    """Add the agent to the caller's assistant ("add to my assistant"; ``chosen`` False:
    remove it); the person's MCP sessions are told their tool list changed. Returns ``chosen``."""
    principal.require(Permission.JOBS_WRITE)
    agent = await agents.get_shown(session, agent_id)
    if chosen:
        changed = await repo.add_to_assistant(session, principal.user_id, agent.id)
    else:
        changed = await repo.remove_from_assistant(session, principal.user_id, agent.id)
    if changed:
        await toolbox_changed(session, principal.user_id)
    return chosen


async def in_assistant(session: AsyncSession, user_id: uuid.UUID, agent_id: uuid.UUID) -> bool:
    return await repo.in_assistant(session, user_id, agent_id)


async def toolbox(session: AsyncSession, user_id: uuid.UUID) -> list[uuid.UUID]:
    """The agents of a person's toolbox (favourites and assistant picks), oldest choice first."""
    return await repo.toolbox(session, user_id, TOOLBOX_LIMIT)


async def rated_jobs(session: AsyncSession, job_ids: list[uuid.UUID]) -> dict[uuid.UUID, Rating]:
    return await repo.rated_jobs(session, job_ids)
