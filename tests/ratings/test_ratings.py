"""Ratings and reviews through the API, on both databases: who may rate what and when, the
agent's aggregate (exact under 100 concurrent ratings), replies, reports, favourites."""

from __future__ import annotations

import asyncio
import secrets
import uuid
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from sqlalchemy import update

from agora.jobs import lifecycle
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import Agent, Job, Rating
from tests.conftest import MakeUser, TestUser


async def make_agent(db: Database, name: str = "Rated agent", **values: Any) -> uuid.UUID:
    async with db.transaction() as session:
        agent = Agent(
            name=name, base_url="http://127.0.0.1:9", status="VERIFIED", is_shown=True, **values
        )
        session.add(agent)
        await session.flush()
        return agent.id


async def make_jobs(
    db: Database, user: TestUser, agent_id: uuid.UUID, n: int = 1, status: str = "COMPLETED"
) -> list[str]:
    """``n`` jobs of ``user`` that ran ``agent_id``, ended in ``status`` (jobs are the jobs
    feature's: the tests insert running jobs and end them through its lifecycle, which also
    counts a completion for the popularity sort)."""
    now, unended = utcnow(), ("PENDING", "RUNNING")
    async with db.transaction() as session:
        jobs = [
            Job(
                workspace_id=user.workspace_id,
                user_id=user.user_id,
                agent_id=agent_id,
                name=f"Job {i}",
                status=status if status in unended else "RUNNING",
                identifier_from_purchaser=secrets.token_hex(8),
                price=0,
                refund=0,
                started_at=now - timedelta(seconds=10 + i),
            )
            for i in range(n)
        ]
        session.add_all(jobs)
        await session.flush()
        for job in jobs if status not in unended else ():
            assert await lifecycle.transition(session, job, status)
        return [str(j.id) for j in jobs]


async def rate(
    client: httpx2.AsyncClient, user: TestUser, job_id: str, stars: int, review: str | None = None
) -> httpx2.Response:
    body: dict[str, Any] = {"jobId": job_id, "stars": stars}
    if review is not None:
        body["review"] = review
    return await client.post("/v1/ratings", json=body, headers=user.bearer_headers)


async def agent_rating(client: httpx2.AsyncClient, agent_id: uuid.UUID) -> dict[str, Any]:
    response = await client.get(f"/v1/agents/{agent_id}")
    assert response.status_code == 200, response.text
    rating: dict[str, Any] = response.json()["data"]["rating"]
    return rating


async def test_the_hirer_rates_an_ended_job_once_with_a_sanitised_review(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    user = await make_user()
    agent_id = await make_agent(db)
    (job_id,) = await make_jobs(db, user, agent_id)
    assert await agent_rating(client, agent_id) == {
        "average": None,
        "count": 0,
        "distribution": {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0},
        "score": 3.0,
    }
    response = await rate(client, user, job_id, 4, "Good <script>alert(1)</script>**work**")
    assert response.status_code == 201, response.text
    rating = response.json()["data"]
    assert rating["stars"] == 4 and rating["review"] == "Good **work**"
    assert rating["jobId"] == job_id and rating["reply"] is None
    summary = await agent_rating(client, agent_id)
    assert summary["average"] == 4.0 and summary["count"] == 1
    assert summary["distribution"]["4"] == 1
    assert summary["score"] == pytest.approx((5 * 3.0 + 4) / 6, abs=1e-4)

    twice = await rate(client, user, job_id, 5)
    assert twice.status_code == 409, twice.text
    listed = await client.get(f"/v1/agents/{agent_id}/ratings")
    assert [r["stars"] for r in listed.json()["data"]] == [4]
    assert listed.json()["meta"]["pagination"]["total"] == 1


async def test_refusals_before_the_end_for_another_person_and_bad_stars(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    hirer, other = await make_user(), await make_user()
    agent_id = await make_agent(db)
    (running,) = await make_jobs(db, hirer, agent_id, status="RUNNING")
    (pending,) = await make_jobs(db, hirer, agent_id, status="PENDING")
    (failed,) = await make_jobs(db, hirer, agent_id, status="FAILED")
    (done,) = await make_jobs(db, hirer, agent_id)
    for job_id in (running, pending):
        response = await rate(client, hirer, job_id, 5)
        assert response.status_code == 409, response.text
        assert "has not ended" in response.text
    stranger = await rate(client, other, done, 1)  # another person's job: not theirs to see
    assert stranger.status_code == 404, stranger.text
    unknown = await rate(client, hirer, str(uuid.uuid4()), 3)
    assert unknown.status_code == 404
    for stars in (0, 6):
        bad = await rate(client, hirer, done, stars)
        assert bad.status_code == 400 and "stars" in bad.text, bad.text
    anonymous = await client.post("/v1/ratings", json={"jobId": done, "stars": 3})
    assert anonymous.status_code == 401
    assert (await rate(client, hirer, failed, 1)).status_code == 201  # FAILED has ended too
    assert (await agent_rating(client, agent_id))["count"] == 1


async def test_editing_moves_the_aggregate_within_the_window_only(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    user, other = await make_user(), await make_user()
    agent_id = await make_agent(db)
    (first,) = await make_jobs(db, user, agent_id)
    (second,) = await make_jobs(db, other, agent_id)
    rating_id = (await rate(client, user, first, 2, "meh")).json()["data"]["id"]
    await rate(client, other, second, 5)
    edited = await client.patch(
        f"/v1/ratings/{rating_id}", json={"stars": 4}, headers=user.bearer_headers
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["data"]["review"] == "meh"  # untouched when not given
    summary = await agent_rating(client, agent_id)
    assert summary["distribution"] == {"1": 0, "2": 0, "3": 0, "4": 1, "5": 1}
    assert summary["average"] == 4.5 and summary["count"] == 2
    foreign = await client.patch(
        f"/v1/ratings/{rating_id}", json={"stars": 1}, headers=other.bearer_headers
    )
    assert foreign.status_code == 404
    async with db.transaction() as session:  # the window has passed
        await session.execute(
            update(Rating)
            .where(Rating.id == uuid.UUID(rating_id))
            .values(created_at=utcnow() - timedelta(days=8))
        )
    late = await client.patch(
        f"/v1/ratings/{rating_id}", json={"stars": 1}, headers=user.bearer_headers
    )
    assert late.status_code == 409, late.text
    assert (await agent_rating(client, agent_id))["average"] == 4.5


async def test_a_hundred_concurrent_ratings_keep_the_aggregate_exact(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    users = [await make_user() for _ in range(100)]  # one rating per person per agent
    agent_id = await make_agent(db)
    jobs = [(u, j) for u in users for j in await make_jobs(db, u, agent_id)]
    stars = [1 + i % 5 for i in range(len(jobs))]
    # And a few racing to rate the same job twice: exactly one of each pair wins (the other is
    # not a later hire: 409).
    responses = await asyncio.gather(
        *(rate(client, u, j, s) for (u, j), s in zip(jobs, stars, strict=True)),
        *(rate(client, u, j, 5) for u, j in jobs[:5]),
    )
    codes = [r.status_code for r in responses]
    assert codes.count(201) == 100 and codes.count(409) == 5, codes
    won = {
        r.json()["data"]["jobId"]: r.json()["data"]["stars"]
        for r in responses
        if r.status_code == 201
    }
    summary = await agent_rating(client, agent_id)
    assert summary["count"] == 100
    expected = {str(n): sum(1 for s in won.values() if s == n) for n in range(1, 6)}
    assert summary["distribution"] == expected
    assert summary["average"] == round(sum(won.values()) / 100, 2)


async def test_the_developer_replies_once_and_reports_reach_the_operator(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser, admin: TestUser
) -> None:
    hirer, developer, stranger = await make_user(), await make_user(), await make_user()
    agent_id = await make_agent(db, owner_user_id=developer.user_id)
    (job_id,) = await make_jobs(db, hirer, agent_id)
    rating_id = (await rate(client, hirer, job_id, 1, "Useless!")).json()["data"]["id"]

    def reply(user: TestUser, text: str) -> Any:
        return client.post(
            f"/v1/ratings/{rating_id}/reply", json={"reply": text}, headers=user.bearer_headers
        )

    assert (await reply(stranger, "Not mine")).status_code == 404
    answered = await reply(developer, "Sorry, <b>fixed</b> now")
    assert answered.status_code == 200, answered.text
    assert answered.json()["data"]["reply"] == "Sorry, fixed now"
    assert (await reply(developer, "Again")).status_code == 409

    report = await client.post(
        f"/v1/ratings/{rating_id}/reports",
        json={"reason": "abusive"},
        headers=stranger.bearer_headers,
    )
    assert report.status_code == 204, report.text
    again = await client.post(
        f"/v1/ratings/{rating_id}/reports", json={"reason": "x"}, headers=stranger.bearer_headers
    )
    assert again.status_code == 409
    assert (
        await client.get("/v1/admin/rating-reports", headers=stranger.bearer_headers)
    ).status_code == 404
    queue = await client.get("/v1/admin/rating-reports", headers=admin.bearer_headers)
    assert queue.status_code == 200, queue.text
    (item,) = queue.json()["data"]
    assert item["ratingId"] == rating_id and item["reason"] == "abusive"
    assert item["review"] == "Useless!" and item["reporterEmail"] == stranger.email
    resolved = await client.post(
        f"/v1/admin/rating-reports/{item['id']}/resolve?removeReview=true",
        headers=admin.bearer_headers,
    )
    assert resolved.status_code == 204, resolved.text
    assert (await client.get("/v1/admin/rating-reports", headers=admin.bearer_headers)).json()[
        "data"
    ] == []
    listed = (await client.get(f"/v1/agents/{agent_id}/ratings")).json()["data"]
    assert listed[0]["review"] is None and listed[0]["stars"] == 1


async def test_favourites_and_hired_before_filter_the_listing(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    user, other = await make_user(), await make_user()
    liked, hired = await make_agent(db, "Liked"), await make_agent(db, "Hired")
    await make_agent(db, "Neither")
    await make_jobs(db, user, hired)
    put = await client.put(f"/v1/agents/{liked}/favourite", headers=user.bearer_headers)
    assert put.status_code == 204, put.text
    assert (
        await client.put(f"/v1/agents/{liked}/favourite", headers=user.bearer_headers)
    ).status_code == 204

    async def names(query: str, who: TestUser) -> list[str]:
        response = await client.get(f"/v1/agents?{query}", headers=who.bearer_headers)
        assert response.status_code == 200, response.text
        return [a["name"] for a in response.json()["data"]]

    assert await names("favourites=true", user) == ["Liked"]
    assert await names("hiredBefore=true", user) == ["Hired"]
    assert await names("favourites=true", other) == []
    assert await names("favourites=true&sort=newest", user) == ["Liked"]
    public = await client.get("/v1/agents?favourites=true")
    assert public.status_code == 400 and "favourites" in public.text
    gone = await client.delete(f"/v1/agents/{liked}/favourite", headers=user.bearer_headers)
    assert gone.status_code == 204
    assert await names("favourites=true", user) == []
    missing = await client.put(f"/v1/agents/{uuid.uuid4()}/favourite", headers=user.bearer_headers)
    assert missing.status_code == 404
