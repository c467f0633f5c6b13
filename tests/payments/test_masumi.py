"""Every path of the payment contract, through HTTP, on both databases: a real Masumi seller
agent and the local payment node on loopback, the node's clock moved by its testing route."""

from __future__ import annotations

import httpx2
from fastapi import FastAPI

from agora.kit.money import to_base
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, reviewer
from tests.payments.helpers import HOUR_MS, Node, credits, drive, events, register_seller
from tests.support.agents import LoopbackAgents

PRICE = 2.1  # display credits: the agent's 2 plus the 5 % marketplace fee


def kinds(entries: list[dict[str, object]], job_id: str) -> list[object]:
    return sorted(e["kind"] for e in entries if e["jobId"] == job_id)


async def test_paid_job_completes_verified_and_is_captured_once_when_the_seller_is_paid(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node)
    created = await create(client, user.key_headers, agent_id)
    assert created.status_code == 201, created.text
    job_id = created.json()["data"]["id"]
    assert created.json()["data"]["onChainStatus"] is None  # nothing is on chain yet

    done = await drive(app, client, user.key_headers, job_id, lambda j: j["status"] == "COMPLETED")
    assert done["verified"] is True
    assert done["onChainStatus"] == "ResultSubmitted"
    assert done["result"] == "HELLO"
    assert done["inputHash"] and done["resultHash"]
    assert done["jobStatusSettled"] is False  # the seller is not paid before unlockTime
    held = await credits(client, user.key_headers)
    assert held["held"] == PRICE

    await node.advance(31 * HOUR_MS)  # past unlockTime: the seller withdraws
    settled = await drive(app, client, user.key_headers, job_id, lambda j: j["jobStatusSettled"])
    assert settled["onChainStatus"] == "Withdrawn"
    after = await credits(client, user.key_headers)
    assert after["balance"] == 10 - PRICE
    assert after["held"] == 0
    assert kinds(after["entries"], job_id) == ["capture", "hold"]
    # more rounds change nothing: captured once
    await drive(app, client, user.key_headers, job_id, lambda j: True)
    assert kinds((await credits(client, user.key_headers))["entries"], job_id) == [
        "capture",
        "hold",
    ]
    types = [e["type"] for e in await events(client, user.key_headers, job_id)]
    assert "purchase_created" in types
    assert "payment_settled" in types


async def test_funds_never_locked_before_pay_by_time_fail_the_job_with_a_refund(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node)
    await node.chain(lockFunds=False)
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    bought = await drive(
        app, client, user.key_headers, job_id, lambda j: j["agentJobStatus"] == "awaiting_payment"
    )
    assert bought["status"] == "RUNNING"
    assert bought["onChainStatus"] is None
    await drive(  # until Agora has bought it (the node holds the purchase, funds unlocked)
        app,
        client,
        user.key_headers,
        job_id,
        lambda _j: any(e.purchased for e in node.node.escrows.values()),
    )
    await node.advance(13 * HOUR_MS)  # past payByTime, funds never locked
    failed = await drive(app, client, user.key_headers, job_id, lambda j: j["status"] == "FAILED")
    assert failed["jobStatusSettled"] is True
    assert "never locked" in failed["error"]
    after = await credits(client, user.key_headers)
    assert (after["balance"], after["held"]) == (10, 0)
    assert kinds(after["entries"], job_id) == ["hold", "refund"]


async def test_agent_that_never_submits_gets_the_refund_withdrawn(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node, submit_result=False)
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    waiting = await drive(
        app, client, user.key_headers, job_id, lambda j: j["agentJobStatus"] == "completed"
    )
    assert waiting["status"] == "RUNNING"  # the result is not trusted before its hash is on chain
    assert waiting["onChainStatus"] == "FundsLocked"
    await node.advance(25 * HOUR_MS)  # past submitResultTime
    done = await drive(app, client, user.key_headers, job_id, lambda j: j["jobStatusSettled"])
    assert done["status"] == "FAILED"
    assert done["onChainStatus"] == "RefundWithdrawn"
    assert "no result before submitResultTime" in done["error"]
    types = [e["type"] for e in await events(client, user.key_headers, job_id)]
    assert "refund_resolved" in types
    after = await credits(client, user.key_headers)
    assert (after["balance"], after["held"]) == (10, 0)


async def _completed(
    app: FastAPI, client: httpx2.AsyncClient, headers: dict[str, str], agent_id: str
) -> str:
    job_id: str = (await create(client, headers, agent_id)).json()["data"]["id"]
    await drive(app, client, headers, job_id, lambda j: j["status"] == "COMPLETED")
    return job_id


async def test_buyer_refund_within_the_window_opens_a_dispute_the_seller_accepts(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node)
    job_id = await _completed(app, client, user.key_headers, agent_id)
    asked = await client.post(f"/v1/jobs/{job_id}/refund", headers=user.key_headers)
    assert asked.status_code == 200, asked.text
    again = await client.post(f"/v1/jobs/{job_id}/refund", headers=user.key_headers)
    assert again.status_code == 409
    assert "already has a refund pending" in again.json()["message"]
    disputed = await drive(
        app, client, user.key_headers, job_id, lambda j: j["onChainStatus"] == "Disputed"
    )
    assert disputed["jobStatusSettled"] is False
    purchase = await node.post(
        "/payment/resolve-blockchain-identifier",
        {"network": "Preprod", "blockchainIdentifier": next(iter(node.node.escrows))},
    )
    accepted = await node.post(
        "/payment/authorize-refund",
        {
            "network": "Preprod",
            "blockchainIdentifier": purchase.json()["data"]["blockchainIdentifier"],
        },
    )
    assert accepted.status_code == 200, accepted.text
    done = await drive(app, client, user.key_headers, job_id, lambda j: j["jobStatusSettled"])
    assert done["onChainStatus"] == "RefundWithdrawn"
    assert done["status"] == "COMPLETED"
    types = [e["type"] for e in await events(client, user.key_headers, job_id)]
    assert types.index("refund_requested") < types.index("dispute_pending")
    assert "refund_resolved" in types
    after = await credits(client, user.key_headers)
    assert (after["balance"], after["held"]) == (10, 0)


async def test_an_open_dispute_is_settled_by_the_network_after_its_unlock_time(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node)
    job_id = await _completed(app, client, user.key_headers, agent_id)
    assert (
        await client.post(f"/v1/jobs/{job_id}/refund", headers=user.key_headers)
    ).status_code == 200
    await drive(app, client, user.key_headers, job_id, lambda j: j["onChainStatus"] == "Disputed")
    await node.advance(37 * HOUR_MS)  # past externalDisputeUnlockTime
    done = await drive(app, client, user.key_headers, job_id, lambda j: j["jobStatusSettled"])
    assert done["onChainStatus"] == "DisputedWithdrawn"
    types = [e["type"] for e in await events(client, user.key_headers, job_id)]
    assert "dispute_pending" in types
    assert "dispute_resolved" in types
    assert (await credits(client, user.key_headers))["balance"] == 10


async def test_refund_outside_the_window_is_409_saying_why(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node)
    job_id: str = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    running = await client.post(f"/v1/jobs/{job_id}/refund", headers=user.key_headers)
    assert running.status_code == 409
    assert "was not bought on a payment node" in running.json()["message"]
    await drive(app, client, user.key_headers, job_id, lambda j: j["status"] == "COMPLETED")
    await node.advance(31 * HOUR_MS)  # past unlockTime
    await drive(app, client, user.key_headers, job_id, lambda j: j["jobStatusSettled"])
    late = await client.post(f"/v1/jobs/{job_id}/refund", headers=user.key_headers)
    assert late.status_code == 409
    assert "already settled on chain (Withdrawn)" in late.json()["message"]
    other = await make_user(credits=0)
    hidden = await client.post(f"/v1/jobs/{job_id}/refund", headers=other.key_headers)
    assert hidden.status_code == 404


async def test_a_node_down_for_a_while_is_retried_and_the_job_still_completes(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node)
    job_id: str = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    await drive(app, client, user.key_headers, job_id, lambda j: j["status"] == "RUNNING")
    await node.chain(unavailableFor=3)  # the next three node calls answer 503
    done = await drive(app, client, user.key_headers, job_id, lambda j: j["status"] == "COMPLETED")
    assert done["verified"] is True
    errors = [
        e for e in await events(client, user.key_headers, job_id) if e["type"] == "node_error"
    ]
    assert len(errors) >= 2


async def test_a_node_down_too_long_before_buying_fails_the_job_refunded(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node)
    job_id: str = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    await drive(app, client, user.key_headers, job_id, lambda j: j["status"] == "RUNNING")
    await node.chain(unavailableFor=1000)
    failed = await drive(app, client, user.key_headers, job_id, lambda j: j["status"] == "FAILED")
    await node.chain(unavailableFor=0)
    assert "payment node failed 4 times" in failed["error"]
    assert failed["jobStatusSettled"] is True
    assert (await credits(client, user.key_headers))["balance"] == 10


async def test_a_wrong_input_hash_fails_the_job_before_any_funds_lock(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node, wrong_input_hash=True)
    job_id: str = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    failed = await drive(app, client, user.key_headers, job_id, lambda j: j["status"] == "FAILED")
    assert "input hash mismatch" in failed["error"]
    assert failed["onChainStatus"] is None
    assert all(not e.purchased for e in node.node.escrows.values())
    assert (await credits(client, user.key_headers))["balance"] == 10


async def test_a_wrong_result_hash_completes_unverified_and_says_so(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node, wrong_result_hash=True)
    job_id = await _completed(app, client, user.key_headers, agent_id)
    done = await client.get(f"/v1/jobs/{job_id}", headers=user.key_headers)
    assert done.json()["data"]["verified"] is False
    mismatch = [
        e
        for e in await events(client, user.key_headers, job_id)
        if e["type"] == "result_hash_mismatch"
    ]
    assert len(mismatch) == 1
    assert mismatch[0]["detail"]["onChain"] != mismatch[0]["detail"]["computed"]


async def test_a_409_on_a_duplicate_purchase_is_recovered_by_resolving_and_comparing(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node)
    job_id: str = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    await dispatcher(app).run_once()  # /start_job only: the purchase is the next step
    (escrow,) = node.node.escrows.values()
    # The same purchase reaches the node first (an earlier attempt whose answer was lost).
    first = await node.post(
        "/purchase",
        {
            "agentIdentifier": escrow.agent_identifier,
            "inputHash": escrow.input_hash,
            "blockchainIdentifier": escrow.blockchain_identifier,
            "network": "Preprod",
            "sellerVkey": escrow.seller_vkey,
            "identifierFromPurchaser": escrow.identifier_from_purchaser,
            "payByTime": str(escrow.pay_by_time),
            "submitResultTime": str(escrow.submit_result_time),
            "unlockTime": str(escrow.unlock_time),
            "externalDisputeUnlockTime": str(escrow.external_dispute_unlock_time),
        },
    )
    assert first.status_code == 200, first.text
    done = await drive(app, client, user.key_headers, job_id, lambda j: j["status"] == "COMPLETED")
    assert done["verified"] is True
    types = [e["type"] for e in await events(client, user.key_headers, job_id)]
    assert "purchase_recovered" in types


async def _registered(node: Node, amount: int) -> str:
    answer = await node.post(
        "/registry",
        {
            "network": "Preprod",
            "name": "Paid Echo",
            "AgentPricing": {
                "pricingType": "Fixed",
                "Pricing": [{"unit": "lovelace", "amount": str(amount)}],
            },
        },
    )
    assert answer.status_code == 200, answer.text
    identifier: str = answer.json()["data"]["agentIdentifier"]
    return identifier


async def test_the_price_drift_guard_refuses_a_purchase_at_another_price(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    guarded = app.state.settings.model_copy(update={"masumi_units_per_credit": 1})
    user = await make_user(credits=to_base(10))
    listed_right = await _registered(node, to_base(2))  # the agent's 2 credits, fee excluded
    listed_higher = await _registered(node, to_base(3))
    fair = await register_seller(app, agents_server, node, agent_identifier=listed_right)
    drifted = await register_seller(app, agents_server, node, agent_identifier=listed_higher)
    ok_id = (await create(client, user.key_headers, fair)).json()["data"]["id"]
    bad_id = (await create(client, user.key_headers, drifted)).json()["data"]["id"]
    done = await drive(
        app, client, user.key_headers, ok_id, lambda j: j["status"] == "COMPLETED", settings=guarded
    )
    assert done["verified"] is True
    failed = await drive(
        app, client, user.key_headers, bad_id, lambda j: j["status"] == "FAILED", settings=guarded
    )
    assert "differ from the agent's listed price" in failed["error"]
    assert failed["jobStatusSettled"] is True
    assert (await credits(client, user.key_headers))["held"] == 2.1  # only the fair job's


async def test_cancelling_a_paid_job_waiting_for_input_gets_the_funds_back(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node, behaviour=reviewer())
    job_id: str = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    await drive(app, client, user.key_headers, job_id, lambda j: j["status"] == "INPUT_REQUIRED")
    cancelled = await client.post(f"/v1/jobs/{job_id}/cancel", headers=user.key_headers)
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["data"]["jobStatusSettled"] is False  # the funds are on chain
    pending = await drive(
        app, client, user.key_headers, job_id, lambda j: j["onChainStatus"] == "RefundRequested"
    )
    assert pending["status"] == "CANCELLED"
    await node.advance(25 * HOUR_MS)  # past submitResultTime: the buyer withdraws the refund
    done = await drive(app, client, user.key_headers, job_id, lambda j: j["jobStatusSettled"])
    assert done["onChainStatus"] == "RefundWithdrawn"
    assert (await credits(client, user.key_headers))["balance"] == 10


async def test_a_running_paid_job_cannot_be_cancelled(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register_seller(app, agents_server, node, submit_result=False)
    job_id: str = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    await drive(
        app, client, user.key_headers, job_id, lambda j: j["onChainStatus"] == "FundsLocked"
    )
    refused = await client.post(f"/v1/jobs/{job_id}/cancel", headers=user.key_headers)
    assert refused.status_code == 409
    assert "paid through the payment node" in refused.json()["message"]
