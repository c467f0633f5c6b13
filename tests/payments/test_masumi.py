"""Every path of the payment contract, through HTTP, on both databases: a real Masumi seller
agent and the local payment node on loopback, the node's clock moved by its testing route.
``paid_job`` (conftest) registers a fresh seller and creates a job on it for a buyer with 10
credits; the job's ``until`` drives the dispatcher until the job, read over HTTP, matches."""

from __future__ import annotations

import httpx2
from fastapi import FastAPI

from agora.kit.money import to_base
from tests.conftest import MakeUser
from tests.jobs.helpers import dispatcher, reviewer
from tests.payments.helpers import HOUR_MS, Node, PaidJobs, on_chain, settled, status

PRICE = 2.1  # display credits: the agent's 2 plus the 5 % marketplace fee


async def test_paid_job_completes_verified_and_is_captured_once_when_the_seller_is_paid(
    paid_job: PaidJobs, node: Node
) -> None:
    job = await paid_job()
    assert job.created["onChainStatus"] is None  # nothing is on chain yet

    done = await job.until(status("COMPLETED"))
    assert done["verified"] is True
    assert done["onChainStatus"] == "ResultSubmitted"
    assert done["result"] == "HELLO"
    assert done["inputHash"] and done["resultHash"]
    assert done["jobStatusSettled"] is False  # the seller is not paid before unlockTime
    held = await job.credits()
    assert held["held"] == PRICE

    await node.advance(31 * HOUR_MS)  # past unlockTime: the seller withdraws
    paid = await job.until(settled)
    assert paid["onChainStatus"] == "Withdrawn"
    after = await job.credits()
    assert after["balance"] == 10 - PRICE
    assert after["held"] == 0
    assert job.kinds(after) == ["capture", "hold"]
    # more rounds change nothing: captured once
    await job.until(lambda j: True)
    assert job.kinds(await job.credits()) == ["capture", "hold"]
    types = await job.event_types()
    assert "purchase_created" in types
    assert "payment_settled" in types


async def test_funds_never_locked_before_pay_by_time_fail_the_job_with_a_refund(
    paid_job: PaidJobs, node: Node
) -> None:
    job = await paid_job()
    await node.chain(lockFunds=False)
    bought = await job.until(lambda j: j["agentJobStatus"] == "awaiting_payment")
    assert bought["status"] == "RUNNING"
    assert bought["onChainStatus"] is None
    # until Agora has bought it (the node holds the purchase, funds unlocked)
    await job.until(lambda _j: any(e.purchased for e in node.node.escrows.values()))
    await node.advance(13 * HOUR_MS)  # past payByTime, funds never locked
    failed = await job.until(status("FAILED"))
    assert failed["jobStatusSettled"] is True
    assert "never locked" in failed["error"]
    after = await job.credits()
    assert (after["balance"], after["held"]) == (10, 0)
    assert job.kinds(after) == ["hold", "refund"]


async def test_agent_that_never_submits_gets_the_refund_withdrawn(
    paid_job: PaidJobs, node: Node
) -> None:
    job = await paid_job(submit_result=False)
    waiting = await job.until(lambda j: j["agentJobStatus"] == "completed")
    assert waiting["status"] == "RUNNING"  # the result is not trusted before its hash is on chain
    assert waiting["onChainStatus"] == "FundsLocked"
    await node.advance(25 * HOUR_MS)  # past submitResultTime
    done = await job.until(settled)
    assert done["status"] == "FAILED"
    assert done["onChainStatus"] == "RefundWithdrawn"
    assert "no result before submitResultTime" in done["error"]
    assert "refund_resolved" in await job.event_types()
    after = await job.credits()
    assert (after["balance"], after["held"]) == (10, 0)


async def test_buyer_refund_within_the_window_opens_a_dispute_the_seller_accepts(
    paid_job: PaidJobs, node: Node
) -> None:
    job = await paid_job()
    await job.until(status("COMPLETED"))
    asked = await job.post("refund")
    assert asked.status_code == 200, asked.text
    again = await job.post("refund")
    assert again.status_code == 409
    assert "already has a refund pending" in again.json()["message"]
    disputed = await job.until(on_chain("Disputed"))
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
    done = await job.until(settled)
    assert done["onChainStatus"] == "RefundWithdrawn"
    assert done["status"] == "COMPLETED"
    types = await job.event_types()
    assert types.index("refund_requested") < types.index("dispute_pending")
    assert "refund_resolved" in types
    after = await job.credits()
    assert (after["balance"], after["held"]) == (10, 0)


async def test_an_open_dispute_is_settled_by_the_network_after_its_unlock_time(
    paid_job: PaidJobs, node: Node
) -> None:
    job = await paid_job()
    await job.until(status("COMPLETED"))
    assert (await job.post("refund")).status_code == 200
    await job.until(on_chain("Disputed"))
    await node.advance(37 * HOUR_MS)  # past externalDisputeUnlockTime
    done = await job.until(settled)
    assert done["onChainStatus"] == "DisputedWithdrawn"
    types = await job.event_types()
    assert "dispute_pending" in types
    assert "dispute_resolved" in types
    assert (await job.credits())["balance"] == 10


async def test_refund_outside_the_window_is_409_saying_why(
    paid_job: PaidJobs, node: Node, client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    job = await paid_job()
    running = await job.post("refund")
    assert running.status_code == 409
    assert "was not bought on a payment node" in running.json()["message"]
    await job.until(status("COMPLETED"))
    await node.advance(31 * HOUR_MS)  # past unlockTime
    await job.until(settled)
    late = await job.post("refund")
    assert late.status_code == 409
    assert "already settled on chain (Withdrawn)" in late.json()["message"]
    other = await make_user(credits=0)
    hidden = await client.post(f"/v1/jobs/{job.id}/refund", headers=other.key_headers)
    assert hidden.status_code == 404


async def test_a_node_down_for_a_while_is_retried_and_the_job_still_completes(
    paid_job: PaidJobs, node: Node
) -> None:
    job = await paid_job()
    await job.until(status("RUNNING"))
    await node.chain(unavailableFor=3)  # the next three node calls answer 503
    done = await job.until(status("COMPLETED"))
    assert done["verified"] is True
    assert (await job.event_types()).count("node_error") >= 2


async def test_a_node_down_too_long_before_buying_fails_the_job_refunded(
    paid_job: PaidJobs, node: Node
) -> None:
    job = await paid_job()
    await job.until(status("RUNNING"))
    await node.chain(unavailableFor=1000)
    failed = await job.until(status("FAILED"))
    await node.chain(unavailableFor=0)
    assert "payment node failed 4 times" in failed["error"]
    assert failed["jobStatusSettled"] is True
    assert (await job.credits())["balance"] == 10


async def test_a_wrong_input_hash_fails_the_job_before_any_funds_lock(
    paid_job: PaidJobs, node: Node
) -> None:
    job = await paid_job(wrong_input_hash=True)
    failed = await job.until(status("FAILED"))
    assert "input hash mismatch" in failed["error"]
    assert failed["onChainStatus"] is None
    assert all(not e.purchased for e in node.node.escrows.values())
    assert (await job.credits())["balance"] == 10


async def test_a_wrong_result_hash_completes_unverified_and_says_so(paid_job: PaidJobs) -> None:
    job = await paid_job(wrong_result_hash=True)
    await job.until(status("COMPLETED"))
    done = await job.read()
    assert done["verified"] is False
    mismatch = [e for e in await job.events() if e["type"] == "result_hash_mismatch"]
    assert len(mismatch) == 1
    assert mismatch[0]["detail"]["onChain"] != mismatch[0]["detail"]["computed"]


async def test_a_409_on_a_duplicate_purchase_is_recovered_by_resolving_and_comparing(
    paid_job: PaidJobs, node: Node, app: FastAPI
) -> None:
    job = await paid_job()
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
    done = await job.until(status("COMPLETED"))
    assert done["verified"] is True
    assert "purchase_recovered" in await job.event_types()


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
    paid_job: PaidJobs, node: Node, app: FastAPI
) -> None:
    guarded = app.state.settings.with_changes(masumi_units_per_credit=1)
    listed_right = await _registered(node, to_base(2))  # the agent's 2 credits, fee excluded
    listed_higher = await _registered(node, to_base(3))
    fair = await paid_job(agent_identifier=listed_right)
    drifted = await paid_job(agent_identifier=listed_higher, user=fair.user)  # the same buyer
    done = await fair.until(status("COMPLETED"), settings=guarded)
    assert done["verified"] is True
    failed = await drifted.until(status("FAILED"), settings=guarded)
    assert "Provided Amounts do not match the fixed pricing" in failed["error"]
    assert failed["jobStatusSettled"] is True
    assert (await fair.credits())["held"] == 2.1  # only the fair job's


async def test_cancelling_a_paid_job_waiting_for_input_gets_the_funds_back(
    paid_job: PaidJobs, node: Node
) -> None:
    job = await paid_job(behaviour=reviewer())
    await job.until(status("INPUT_REQUIRED"))
    cancelled = await job.post("cancel")
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["data"]["jobStatusSettled"] is False  # the funds are on chain
    pending = await job.until(on_chain("RefundRequested"))
    assert pending["status"] == "CANCELLED"
    await node.advance(25 * HOUR_MS)  # past submitResultTime: the buyer withdraws the refund
    done = await job.until(settled)
    assert done["onChainStatus"] == "RefundWithdrawn"
    assert (await job.credits())["balance"] == 10


async def test_a_running_paid_job_cannot_be_cancelled(paid_job: PaidJobs) -> None:
    job = await paid_job(submit_result=False)
    await job.until(on_chain("FundsLocked"))
    refused = await job.post("cancel")
    assert refused.status_code == 409
    assert "paid through the payment node" in refused.json()["message"]
