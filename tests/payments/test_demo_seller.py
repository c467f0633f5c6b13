"""The paid demo agent sells as a real seller would (issue 27, item 13): pointed at a node by
the ``AGORA_DEMO_SELLER_*`` settings (here the local node on loopback, which answers as
masumi-payment-service aca3833 does), it sends ISO 8601 times with ``POST /payment`` and
answers ``/start_job`` with its own wallet's key hash (a real payment object carries none)."""

from __future__ import annotations

import httpx2
import pytest

from agora.settings import Settings
from tests.payments.helpers import TOKEN, Node

AGENT = "b" * 56 + "726576696577"
VKEY = "f" * 56


@pytest.fixture
def settings(settings: Settings, node: Node) -> Settings:
    return settings.with_changes(
        demo=True,
        demo_seller_node_url=node.url,
        demo_seller_token=TOKEN,
        demo_seller_agent_identifier=AGENT,
        demo_seller_vkey=VKEY,
    )


async def test_the_paid_demo_agent_sells_on_the_node_its_settings_name(
    client: httpx2.AsyncClient, node: Node
) -> None:
    started = await client.post(
        "/demo-agents/reviewer/start_job",
        json={"identifier_from_purchaser": "0123456789abcdef01", "input_data": {"text": "a b"}},
    )
    assert started.status_code == 200, started.text
    answer = started.json()
    assert answer["sellerVKey"] == VKEY
    assert answer["agentIdentifier"] == AGENT
    (escrow,) = node.node.escrows.values()
    assert escrow.agent_identifier == AGENT
    assert answer["blockchainIdentifier"] == escrow.blockchain_identifier
    assert answer["payByTime"] == escrow.pay_by_time  # Unix ms in the MIP-003 answer
    assert escrow.submit_result_time - escrow.pay_by_time == 12 * 3_600_000
