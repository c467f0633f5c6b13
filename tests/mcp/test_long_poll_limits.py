"""wait_for_job is a long poll: at most 2 run at once per key; the third is refused at once."""

from __future__ import annotations

import asyncio
import time

from fastapi import FastAPI

from agora.sandbox.protocol import Step
from tests.conftest import MakeUser
from tests.jobs.helpers import echo, register
from tests.mcp.test_mcp import call, connect
from tests.support.agents import LoopbackAgents


async def test_a_third_concurrent_wait_for_job_on_one_key_is_refused(
    mcp_base: str, app: FastAPI, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    user = await make_user()
    agent_id = await register(app, agents_server, echo(step=lambda _job: Step("running")))
    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        created = await call(session, "create_job", agent_id=agent_id, input_data={"text": "a"})

        async def wait() -> tuple[bool, str, float]:
            started = time.monotonic()
            result = await session.call_tool(
                "wait_for_job", {"job_id": created["id"], "timeout_seconds": 5}
            )
            text = str(result.content[0].text)  # type: ignore[union-attr]
            return bool(result.is_error), text, time.monotonic() - started

        outcomes = await asyncio.gather(wait(), wait(), wait())
    refused = [o for o in outcomes if o[0]]
    waited = [o for o in outcomes if not o[0]]
    assert len(refused) == 1 and "429" in refused[0][1], outcomes
    assert refused[0][2] < 4.0  # refused at once, not after waiting
    assert len(waited) == 2 and all(o[2] >= 4.5 for o in waited), outcomes
