"""The official Masumi SDK (PyPI ``masumi``): an SDK-built paid agent whose seller node is the
local payment node is hired through Agora, gets its funds locked, runs, submits its result hash,
and Agora shows the job COMPLETED with ``verified: true``.

The inputs carry floats and non-ASCII text: the SDK hashes them with Matrix canonical JSON
(``{"n":2.0}``), which Agora accepts (issue 27, item 4). The local node lands the funds a little
later, as the real one does. The SDK checks its payment every 10 s (its default), so this test
takes about 10-20 s.
"""

from __future__ import annotations

import uuid
import warnings
from typing import Any

import httpx2
from fastapi import FastAPI

from agora.kit.money import to_base
from tests.conftest import MakeUser
from tests.jobs.helpers import create
from tests.payments.helpers import TOKEN, Node, credits, drive, register_mounted
from tests.support.agents import LoopbackAgents

SCHEMA = {
    "input_data": [
        {"id": "text", "type": "string", "name": "Text"},
        {"id": "n", "type": "number", "name": "A number"},
    ]
}
INPUTS = [
    ({"text": "hi", "n": 2.0}, "HI!"),
    ({"text": "héllo wörld 😀 日本", "n": 1e-7}, "HÉLLO WÖRLD 😀 日本!"),
]


async def shout(identifier_from_purchaser: str, input_data: dict[str, Any]) -> str:
    return str(input_data["text"]).upper() + "!"


def sdk_agent(node: Node, agent_identifier: str) -> Any:
    with warnings.catch_warnings():  # the SDK uses pydantic class Config and on_event
        warnings.simplefilter("ignore", DeprecationWarning)
        from masumi import Config, MasumiAgentServer

        server = MasumiAgentServer(
            config=Config(payment_service_url=node.url, payment_api_key=TOKEN),
            agent_identifier=agent_identifier,
            network="Preprod",
            start_job_handler=shout,
            input_schema_handler=SCHEMA,
            seller_vkey=node.node.config.seller_vkey,
        )
    return server.app


async def test_an_sdk_built_paid_agent_is_hired_paid_and_verified(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    agent_id = await register_mounted(
        app, agents_server, "sdk", sdk_agent(node, f"sdk{uuid.uuid4().hex}"), "SDK Shouter", 2
    )
    user = await make_user(credits=to_base(10))
    job_ids = []
    for inputs, _ in INPUTS:
        created = await create(client, user.key_headers, agent_id, {"inputData": inputs})
        assert created.status_code == 201, created.text
        job_ids.append(created.json()["data"]["id"])
    for job_id, (_, result) in zip(job_ids, INPUTS, strict=True):
        done = await drive(
            app,
            client,
            user.key_headers,
            job_id,
            lambda j: j["status"] in ("COMPLETED", "FAILED"),
            max_seconds=45,
        )
        assert done["status"] == "COMPLETED", done
        assert done["result"] == result
        assert done["verified"] is True
        assert done["onChainStatus"] == "ResultSubmitted"
    assert (await credits(client, user.key_headers))["held"] == 4.2
