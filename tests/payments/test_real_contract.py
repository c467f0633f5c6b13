"""Paid jobs against the real contracts (issue 27), through HTTP, on both databases: Masumi
seller agents and the local payment node (faithful to masumi-payment-service aca3833) on
loopback, the dispatcher driven directly, the node's clock moved by its testing route."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from fastapi import FastAPI

from agora.kit.money import to_base
from agora.models import Agent
from agora.sandbox.protocol import Behaviour, Step
from tests.jobs.helpers import create, register
from tests.payments.helpers import (
    HOUR_MS,
    Node,
    PaidJob,
    PaidJobs,
    on_chain,
    register_seller,
    settled,
    status,
)
from tests.support.agents import LoopbackAgents

SCHEMA = {
    "input_data": [
        {"id": "text", "type": "text", "name": "Text"},
        {"id": "n", "type": "number", "name": "A number"},
    ]
}
RESULT = 'line one\nsaid "hi" — 😀\t\\end'


def quoting(**kwargs: Any) -> Behaviour:
    """Completes at once with a result that has a newline, quotes and non-ASCII text."""
    return Behaviour("quoting", SCHEMA, lambda job: Step("completed", result=RESULT), **kwargs)


def failing() -> Behaviour:
    return Behaviour("failing", SCHEMA, lambda job: Step("failed", result="it broke"))


async def transition(job: PaidJob, to_status: str) -> dict[str, Any]:
    found = [e for e in await job.events() if e["toStatus"] == to_status]
    assert len(found) == 1, found
    detail: dict[str, Any] = found[0]["detail"]
    return detail


async def paid(paid_job: PaidJobs, inputs: dict[str, Any], **knobs: Any) -> PaidJob:
    """A paid job with these inputs on a fresh seller (``knobs``: SellerConfig's)."""
    buyer = await paid_job.make_user(credits=to_base(10))
    agent_id = await register_seller(
        paid_job.app, paid_job.agents_server, paid_job.node, behaviour=quoting(), **knobs
    )
    created = await create(paid_job.client, buyer.key_headers, agent_id, {"inputData": inputs})
    assert created.status_code == 201, created.text
    return PaidJob(paid_job.app, paid_job.client, buyer, created.json()["data"]["id"], {})


FLOATS = {"text": "héllo wörld 😀 日本", "n": 2.0}


async def test_an_sdk_rule_seller_hashing_floats_and_unicode_is_bought_and_verified(
    paid_job: PaidJobs,
) -> None:
    """Items 4 and 10: the SDK's canonical JSON (``{"n":2.0}``) and its JSON-escaped result."""
    job = await paid(paid_job, FLOATS)
    done = await job.until(status("COMPLETED"))
    assert done["verified"] is True, done
    assert done["result"] == RESULT
    assert (await transition(job, "RUNNING"))["inputHashRule"] == "sdk"
    assert (await transition(job, "COMPLETED"))["resultHashRule"] == "sdk"


async def test_a_spec_following_seller_is_verified_by_mip_004s_own_rules(
    paid_job: PaidJobs,
) -> None:
    """Items 4 and 10: RFC 8785 for the input, the raw string for the result (MIP-004's text)."""
    # 1e-7: "1e-07" in the SDK's form, "1e-7" in RFC 8785's (a float on both databases)
    job = await paid(paid_job, {"text": "x", "n": 1e-7}, spec_hashes=True)
    done = await job.until(status("COMPLETED"))
    assert done["verified"] is True, done
    assert (await transition(job, "RUNNING"))["inputHashRule"] == "jcs"
    assert (await transition(job, "COMPLETED"))["resultHashRule"] == "raw"


async def test_a_seller_that_answers_inputHash_is_bought(paid_job: PaidJobs) -> None:
    """Item 11: the SDK's next release (pip-masumi bc7e041) spells input_hash inputHash."""
    job = await paid(paid_job, {"text": "x", "n": 3}, camel_input_hash=True)
    done = await job.until(status("COMPLETED"))
    assert done["verified"] is True, done


async def test_a_v2_sellers_signed_payment_source_fields_reach_the_purchase(
    paid_job: PaidJobs, node: Node
) -> None:
    """Item 5: supportedPaymentSourceIndex, sellerReturnAddress, paymentSourceType and
    smartContractAddress are inside the seller's signature: the node refuses a purchase
    without them."""
    job = await paid(
        paid_job,
        {"text": "x", "n": 1},
        supported_payment_source_index=0,
        seller_return_address="addr_test1qqsellerreturn",
    )
    done = await job.until(status("COMPLETED"))
    assert done["verified"] is True, done
    (escrow,) = node.node.escrows.values()
    assert escrow.purchased and escrow.payment_source_type == "Web3CardanoV2"


async def dynamic_agent(paid_job: PaidJobs, lovelace: int | None) -> str:
    """A seller that asks ``lovelace`` for each job (None: a plain demo agent, no seller),
    listed Dynamic-priced (as the registry import lists such agents)."""
    if lovelace is None:
        agent_id = await register(paid_job.app, paid_job.agents_server, quoting(), price=1)
    else:
        agent_id = await register_seller(
            paid_job.app,
            paid_job.agents_server,
            paid_job.node,
            behaviour=quoting(),
            dynamic_amounts=[{"amount": str(lovelace), "unit": ""}],
        )
    async with paid_job.app.state.db.transaction() as session:
        agent = await session.get(Agent, uuid.UUID(agent_id))
        assert agent is not None
        agent.pricing_type, agent.price, agent.fee = "DYNAMIC", 0, 0
    return agent_id


async def test_a_dynamic_priced_agent_is_bought_under_the_buyers_ceiling(
    paid_job: PaidJobs, node: Node, app: FastAPI
) -> None:
    """Item 6: the purchase carries the seller's signed amounts; the credits captured are the
    signed price (1 lovelace per credit base unit here, plus the 5 % fee), the rest of the
    ceiling goes back; a price above the ceiling buys nothing."""
    priced = app.state.settings.with_changes(masumi_units_per_credit=1)
    agent_id = await dynamic_agent(paid_job, 2_000_000)  # 2 credits
    buyer = await paid_job.make_user(credits=to_base(10))
    headers = buyer.key_headers
    refused = await create(paid_job.client, headers, agent_id, {"inputData": {"text": "x"}})
    assert refused.status_code == 400
    assert "maxAcceptedCredits" in refused.text
    body = {"inputData": {"text": "x", "n": 1}, "maxAcceptedCredits": 5}
    fits = await create(paid_job.client, headers, agent_id, body)
    assert fits.status_code == 201, fits.text
    low = {**body, "maxAcceptedCredits": 2}  # 2.1 with the fee: above it
    above = await create(paid_job.client, headers, agent_id, low)
    assert above.status_code == 201, above.text
    job = PaidJob(app, paid_job.client, buyer, fits.json()["data"]["id"], {})
    too_dear = PaidJob(app, paid_job.client, buyer, above.json()["data"]["id"], {})
    assert (await job.credits())["held"] == 7  # both ceilings
    failed = await too_dear.until(status("FAILED"), settings=priced)
    assert "asks 2.1 credits (fee included), above the 2 you accept" in failed["error"]
    done = await job.until(status("COMPLETED"), settings=priced)
    assert done["verified"] is True, done
    bought = [e for e in node.node.escrows.values() if e.purchased]
    assert len(bought) == 1
    assert bought[0].purchase_amounts == [{"amount": "2000000", "unit": ""}]
    await node.advance(31 * HOUR_MS)  # past unlockTime: the seller withdraws
    await job.until(settled, settings=priced)
    after = await job.credits()
    assert (after["balance"], after["held"]) == (7.9, 0)
    assert job.kinds(after) == ["capture", "hold", "refund"]
    assert too_dear.kinds(after) == ["hold", "refund"]


async def test_a_dynamic_priced_agent_that_signs_no_amounts_is_not_bought(
    paid_job: PaidJobs, app: FastAPI
) -> None:
    """Item 6: its price is the seller's to name (a plain demo agent answers payment fields
    but no amounts); nothing is bought, nothing charged."""
    agent_id = await dynamic_agent(paid_job, None)
    buyer = await paid_job.make_user(credits=to_base(10))
    body = {"inputData": {"text": "x", "n": 1}, "maxAcceptedCredits": 5}
    created = await create(paid_job.client, buyer.key_headers, agent_id, body)
    assert created.status_code == 201, created.text
    job = PaidJob(app, paid_job.client, buyer, created.json()["data"]["id"], {})
    failed = await job.until(status("FAILED"))
    assert "answered without its signed amounts" in failed["error"]
    after = await job.credits()
    assert (after["balance"], after["held"]) == (10, 0)
    assert job.kinds(after) == ["hold", "refund"]


async def test_a_refund_answered_409_then_404_then_accepted_is_refunded_once(
    paid_job: PaidJobs, node: Node
) -> None:
    """Item 7: purchases/request-refund/index.ts answers 409 on a concurrent change and 404
    while the purchase is not in a valid state; both are retried."""
    job = await paid(paid_job, {"text": "x", "n": 1})
    await job.until(status("COMPLETED"))
    await node.chain(forced={"/purchase/request-refund": [409, 404]})
    assert (await job.post("refund")).status_code == 200
    disputed = await job.until(on_chain("Disputed"))
    assert disputed["jobStatusSettled"] is False
    retries = [e["detail"] for e in await job.events() if e["type"] == "refund_retry"]
    assert [r["status"] for r in retries] == [409, 404]
    await node.advance(37 * HOUR_MS)  # past externalDisputeUnlockTime: the network settles
    done = await job.until(settled)
    assert done["onChainStatus"] == "DisputedWithdrawn"
    await job.until(lambda j: True)  # more rounds change nothing
    after = await job.credits()
    assert (after["balance"], after["held"]) == (10, 0)
    assert job.kinds(after) == ["hold", "refund"]


async def test_a_refund_never_accepted_before_the_window_closes_is_marked_stuck(
    paid_job: PaidJobs, node: Node, app: FastAPI, agents_server: LoopbackAgents
) -> None:
    """Item 7: after unlockTime the request is dropped and the job says so (refund_stuck); it
    is never left FAILED with its credits held and nobody following it."""
    buyer = await paid_job.make_user(credits=to_base(10))
    agent_id = await register_seller(
        app, agents_server, node, behaviour=failing(), submit_result=False
    )
    created = await create(
        paid_job.client, buyer.key_headers, agent_id, {"inputData": {"text": "x", "n": 1}}
    )
    assert created.status_code == 201, created.text
    job = PaidJob(app, paid_job.client, buyer, created.json()["data"]["id"], {})
    await node.chain(forced={"/purchase/request-refund": [404] * 100})
    failed = await job.until(status("FAILED"))
    assert failed["jobStatusSettled"] is False  # the funds are on chain
    deadline = time.monotonic() + 15
    while "refund_retry" not in await job.event_types():
        assert time.monotonic() < deadline
        await job.until(lambda j: True)
        await asyncio.sleep(0.02)
    await node.advance(31 * HOUR_MS)  # past unlockTime: the refund window has closed
    while "refund_stuck" not in await job.event_types():
        assert time.monotonic() < deadline
        await job.until(lambda j: True)
        await asyncio.sleep(0.02)
    (stuck,) = [e["detail"] for e in await job.events() if e["type"] == "refund_stuck"]
    assert stuck["status"] == 404 and stuck["windowClosed"] is True
    current = await job.read()
    assert current["status"] == "FAILED" and current["jobStatusSettled"] is False
    assert (await job.credits())["held"] == 2.1  # held, and the job is still followed:
    await node.chain(forced={"/purchase/request-refund": []})
    await node.post(
        "/purchase/request-refund",
        {"network": "Preprod", "blockchainIdentifier": next(iter(node.node.escrows))},
    )  # an operator asks the node by hand
    await node.advance(HOUR_MS)
    done = await job.until(settled)
    assert done["onChainStatus"] == "RefundWithdrawn"
    assert (await job.credits())["balance"] == 10


async def test_a_purchase_the_node_stops_on_is_shown_and_never_charged(
    paid_job: PaidJobs, node: Node
) -> None:
    """A batch that misses payByTime leaves the real purchase in WaitingForManualAction
    (prisma enum PurchasingAction): the job says so (node_manual_action) and, the funds never
    locked, fails refunded."""
    await node.chain(chainDelayMs=600_000)  # the batch is slow
    job = await paid(paid_job, {"text": "x", "n": 1})
    await job.until(lambda _j: any(e.purchased for e in node.node.escrows.values()))
    await node.advance(13 * HOUR_MS)  # past payByTime before the funds were locked
    failed = await job.until(status("FAILED"))
    assert "never locked" in failed["error"]
    (manual,) = [e["detail"] for e in await job.events() if e["type"] == "node_manual_action"]
    assert manual["note"] == "payByTime passed before the funds were locked"
    after = await job.credits()
    assert (after["balance"], after["held"]) == (10, 0)
