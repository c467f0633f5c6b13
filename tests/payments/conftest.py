from __future__ import annotations

import uuid

import httpx2
import pytest
from fastapi import FastAPI

from agora.sandbox.payment_node import local_node
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.jobs.helpers import fast_settings
from tests.payments.helpers import CHAIN_DELAY_MS, TOKEN, Node, PaidJobs
from tests.support.agents import LoopbackAgents


@pytest.fixture
def node(agents_server: LoopbackAgents) -> Node:
    """A fresh local payment node (testing clock on) on the loopback server."""
    # funds lock, results and refund requests land a little later, as on the real node
    state, app = local_node(TOKEN, testing=True, chain_delay_ms=CHAIN_DELAY_MS)
    path = agents_server.host.mount(f"node-{uuid.uuid4().hex[:8]}", app)
    return Node(state, f"{agents_server.base_url}{path}/api/v1")


@pytest.fixture
def settings(settings: Settings, node: Node) -> Settings:
    return fast_settings(settings).with_changes(
        payment_backend="masumi",
        masumi_payment_url=node.url,
        masumi_payment_token=TOKEN,
        masumi_follow_seconds=0.02,
        masumi_max_node_attempts=4,
        # a shared, loaded CI machine: the seller agents call the node on the same server
        agent_timeout_seconds=10.0,
        max_agent_attempts=5,
    )


@pytest.fixture
def paid_job(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> PaidJobs:
    """``await paid_job(**seller_knobs)``: a paid job on a fresh seller (see ``PaidJobs``)."""
    return PaidJobs(app, client, make_user, agents_server, node)
