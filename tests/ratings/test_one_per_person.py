"""One rating per person per agent (issue 43.8), and review text that never becomes markup
(issue 43.7): through the API, MCP and the pages, on both databases; migration 0022 folds
existing duplicates (the latest kept) and the aggregate counts people."""

from __future__ import annotations

import asyncio
import secrets
import uuid
from datetime import timedelta
from pathlib import Path

import httpx2
from sqlalchemy import func, select

from agora.kit.db import Database
from agora.kit.migrate import downgrade, upgrade
from agora.kit.timeutil import utcnow
from agora.models import Agent, Job, Rating, RatingReport, User, Workspace
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.kit.test_migrations import _fresh_database
from tests.payments.test_refund_page import _sign_in_by_link
from tests.ratings.test_ratings import agent_rating, make_agent, make_jobs, rate
from tests.support.legacy import insert_old
from tests.web.test_pages import _csrf


async def test_a_later_hire_replaces_the_persons_rating_and_the_aggregate_counts_people(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser, settings: Settings
) -> None:
    alice, bob = await make_user(), await make_user()
    agent_id = await make_agent(db)
    first, second = await make_jobs(db, alice, agent_id, n=2)  # second: a later hire
    (bobs,) = await make_jobs(db, bob, agent_id)
    created = await rate(client, alice, first, 2, "slow")
    assert created.status_code == 201, created.text
    rating_id = created.json()["data"]["id"]
    assert (await rate(client, bob, bobs, 5)).status_code == 201
    again = await rate(client, alice, second, 4, "better now")
    assert again.status_code == 200, again.text
    data = again.json()["data"]
    assert data["id"] == rating_id and data["jobId"] == second
    assert (data["stars"], data["review"]) == (4, "better now")
    summary = await agent_rating(client, agent_id)
    assert summary["count"] == 2 and summary["average"] == 4.5
    assert summary["distribution"] == {"1": 0, "2": 0, "3": 0, "4": 1, "5": 1}
    # The same job, or an earlier one, is not a later hire: 409 naming PATCH.
    for job_id in (second, first):
        refused = await rate(client, alice, job_id, 1)
        assert refused.status_code == 409, refused.text
        assert "one rating per person per agent" in refused.json()["message"]
    listed = await client.get(f"/v1/agents/{agent_id}/ratings")
    assert sorted(r["stars"] for r in listed.json()["data"]) == [4, 5]
    # The job page of the first hire shows the person's one rating of the agent, to change.
    await _sign_in_by_link(client, settings, alice.email)
    page = await client.get(f"/jobs/{first}")
    assert page.status_code == 200, page.text
    assert 'id="my-rating"' in page.text and "better now" in page.text
    assert f'name="rating_id" value="{rating_id}"' in page.text
    # From a later hire's page the form replaces it (the agent's third job for Alice).
    (third,) = await make_jobs(db, alice, agent_id)
    later_page = await client.get(f"/jobs/{third}")
    form = {"csrf": _csrf(later_page.text), "rating_id": rating_id, "stars": "1",
            "review": "worse again"}  # fmt: skip
    posted = await client.post(f"/jobs/{third}/rate", data=form)
    assert posted.status_code == 303, posted.text
    mine = await client.get(f"/v1/ratings/{rating_id}", headers=alice.bearer_headers)
    assert (mine.json()["data"]["jobId"], mine.json()["data"]["stars"]) == (third, 1)
    assert (await agent_rating(client, agent_id))["count"] == 2


async def test_parallel_ratings_of_one_agent_by_one_person_leave_one_rating(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    people = [await make_user() for _ in range(4)]
    agent_id = await make_agent(db)
    hires = {p.user_id: await make_jobs(db, p, agent_id, n=5) for p in people}
    answers = await asyncio.gather(
        *(rate(client, p, job_id, 1 + n) for p in people
          for n, job_id in enumerate(hires[p.user_id]))
    )  # fmt: skip
    codes = [a.status_code for a in answers]
    assert codes.count(201) == 4 and set(codes) <= {200, 201, 409}, codes
    summary = await agent_rating(client, agent_id)
    assert summary["count"] == 4
    async with db.transaction(write=False) as session:
        rows = (await session.execute(select(Rating.user_id, Rating.job_id, Rating.stars))).all()
        latest = {
            person: max(hires[person], key=lambda j: (created[j], uuid.UUID(j)))
            for person in hires
            for created in [
                {str(i): c for i, c in (await session.execute(select(Job.id, Job.created_at)))}
            ]
        }
    mine = {r.user_id: r for r in rows if r.user_id in hires}
    assert len(mine) == 4
    for person, row in mine.items():  # the latest hire always wins, whatever the order
        assert str(row.job_id) == latest[person]
        assert row.stars == 1 + hires[person].index(latest[person])
    assert sum(summary["distribution"].values()) == 4


async def test_review_text_is_kept_as_typed_and_never_becomes_markup(
    client: httpx2.AsyncClient, db: Database, make_user: MakeUser
) -> None:
    user = await make_user()
    agent_id = await make_agent(db)
    (job_id,) = await make_jobs(db, user, agent_id)
    typed = "&lt;script&gt;alert(1)&lt;/script&gt; a < b & c\x07 <b>bold</b>"
    response = await rate(client, user, job_id, 3, typed)
    assert response.status_code == 201, response.text
    review = response.json()["data"]["review"]
    assert review == "&lt;script&gt;alert(1)&lt;/script&gt; a < b & c bold"
    assert "<script" not in review
    listed = await client.get(f"/v1/agents/{agent_id}/ratings")
    assert listed.json()["data"][0]["review"] == review
    # A tag hidden in another one, and an entity-encoded one after a real one.
    rating_id = response.json()["data"]["id"]
    for sneaky in ("<scr<script>ipt>alert(1)</script>", "<<b>script>x"):
        edited = await client.patch(
            f"/v1/ratings/{rating_id}", json={"review": sneaky}, headers=user.bearer_headers
        )
        assert edited.status_code == 200, edited.text
        assert "<script" not in (edited.json()["data"]["review"] or "")
    await client.patch(
        f"/v1/ratings/{rating_id}", json={"review": typed}, headers=user.bearer_headers
    )
    page = await client.get(f"/agents/{agent_id}")
    assert page.status_code == 200, page.text
    assert "alert(1)" in page.text and "<script>alert" not in page.text


async def test_migration_folds_duplicates_keeping_the_latest(db: Database, tmp_path: Path) -> None:
    async with _fresh_database(db, tmp_path) as fresh:
        await upgrade(fresh.engine)
        await downgrade(fresh.engine, "0020_quarantine_dismissals")  # before 0022: no index
        now = utcnow()
        async with fresh.transaction() as session:
            # the users table as of 0020 (later columns: passkey_second_step)
            person = await insert_old(session, User, email="p@example.com", name="P")
            other = await insert_old(session, User, email="o@example.com", name="O")
            ws = Workspace(name="W", kind="personal", owner_user_id=person["id"])
            session.add(ws)
            await session.flush()
            agent = await insert_old(  # the agents table as of 0020 (tests/support/legacy.py)
                session, Agent, name="A", base_url="http://127.0.0.1:9", status="VERIFIED",
                rating_count=4, rating_sum=11,
            )  # fmt: skip
            jobs = [
                await insert_old(session, Job, workspace_id=ws.id, user_id=u["id"],
                                 agent_id=agent["id"], name=f"J{i}", status="COMPLETED",
                                 identifier_from_purchaser=secrets.token_hex(8))
                for i, u in enumerate([person, person, person, other])
            ]  # fmt: skip
            ratings = [
                Rating(job_id=j["id"], agent_id=agent["id"], user_id=j["user_id"],
                       workspace_id=ws.id, stars=s, created_at=now - timedelta(minutes=m))
                for j, s, m in zip(jobs, [1, 5, 3, 2], [30, 10, 10, 5], strict=True)
            ]  # fmt: skip
            session.add_all(ratings)
            await session.flush()
            # Two of the person's at the same moment: the greater id is the later one.
            tied = sorted(ratings[1:3], key=lambda r: r.id)
            session.add(RatingReport(rating_id=ratings[0].id, user_id=other["id"], reason="rude"))
            agent_id, kept = agent["id"], {tied[1].id, ratings[3].id}
        await upgrade(fresh.engine)
        async with fresh.transaction(write=False) as session:
            left = set(await session.scalars(select(Rating.id)))
            reports = await session.scalar(select(func.count()).select_from(RatingReport))
            folded = await session.get(Agent, agent_id)
            assert folded is not None
            aggregate = (folded.rating_count, folded.rating_sum,
                         [getattr(folded, f"rating_{n}") for n in range(1, 6)])  # fmt: skip
        assert left == kept and reports == 0
        stars = tied[1].stars
        expected = [int(n == 2) + int(n == stars) for n in range(1, 6)]
        assert aggregate == (2, 2 + stars, expected)
