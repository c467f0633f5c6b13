"""The trust tools over MCP: hire, rate, favourite, search with sort and filters, compare."""

from __future__ import annotations

from fastapi import FastAPI

from agora.kit.money import to_base
from tests.conftest import MakeUser
from tests.jobs.helpers import echo, register
from tests.mcp.test_mcp import call, call_error, connect
from tests.support.agents import LoopbackAgents


async def test_rate_favourite_search_and_compare(
    mcp_base: str, app: FastAPI, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    user = await make_user(credits=to_base(10))
    slow = echo(fault="status_hang", hang_seconds=2.0)  # not ended when first rated
    first = await register(app, agents_server, slow, price=1)
    second = await register(app, agents_server, echo(), price=0)
    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        job = await call(session, "create_job", agent_id=first, input_data={"text": "hi"})
        early = await call_error(session, "rate_job", job_id=job["id"], stars=5)
        assert "409" in early or "not ended" in early or "COMPLETED" in early
        slow.fault = None  # its next status poll answers at once
        done = await call(session, "wait_for_job", job_id=job["id"], timeout_seconds=20)
        assert done["status"] == "COMPLETED"
        rating = await call(session, "rate_job", job_id=job["id"], stars=5, review="Fast")
        assert rating["stars"] == 5 and rating["review"] == "Fast"
        assert "already rated" in await call_error(session, "rate_job", job_id=job["id"], stars=4)
        assert "stars" in await call_error(session, "rate_job", job_id=job["id"], stars=9)
        changed = await call(session, "update_rating", rating_id=rating["id"], stars=4)
        assert changed["stars"] == 4 and changed["review"] == "Fast"
        # Review text is plain text as typed: an entity stays an entity, never a tag (43.7).
        typed = "&lt;script&gt;alert(1)&lt;/script&gt; <i>Fast</i>"
        inert = await call(session, "update_rating", rating_id=rating["id"], review=typed)
        assert inert["review"] == "&lt;script&gt;alert(1)&lt;/script&gt; Fast"

        await call(session, "favourite_agent", agent_id=second)
        found = await call(session, "search_agents", favourites=True)
        assert [a["id"] for a in found["agents"]] == [second]
        hired = await call(session, "search_agents", hired_before=True)
        assert [a["id"] for a in hired["agents"]] == [first]
        ranked = await call(session, "search_agents", sort="rating")
        assert [a["id"] for a in ranked["agents"]] == [first, second]
        assert ranked["agents"][0]["rating"]["average"] == 4.0
        assert "sort" in await call_error(session, "search_agents", sort="best")

        compared = await call(session, "compare_agents", agent_ids=[first, second])
        assert [a["id"] for a in compared] == [first, second]
        assert compared[0]["failureRate"] == 0.0 and compared[0]["inputFields"][0]["id"] == "text"
