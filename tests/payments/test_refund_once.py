"""A refund is asked once per job, ever (issue 43.3): 20 parallel refund requests of one
completed paid job, with the dispatcher asking the node meanwhile, are answered with exactly one
200; once the node was asked (the request done with) another request is still 409; the ledger
holds one refund entry. Both databases, the local payment node and a Masumi seller on loopback."""

from __future__ import annotations

import asyncio
import time

from agora.dispatch.worker import Dispatcher
from tests.jobs.helpers import dispatcher
from tests.payments.helpers import HOUR_MS, Node, PaidJob, PaidJobs, on_chain, settled, status


async def _asked_on_node(node: Node) -> bool:
    """The node got the buyer's refund request (its next action, or a state it led to)."""
    (escrow,) = node.node.escrows.values()
    asked = escrow.purchase_action == "SetRefundRequestedRequested"
    return asked or escrow.on_chain_state in ("Disputed", "RefundRequested")


async def _rounds_until(d: Dispatcher, done: asyncio.Event, *, max_rounds: int = 400) -> int:
    """The dispatcher's rounds while the requests arrive: bounded in count and time."""
    rounds, deadline = 0, time.monotonic() + 30
    while not done.is_set() and rounds < max_rounds and time.monotonic() < deadline:
        await d.run_once()
        rounds += 1
        await asyncio.sleep(0)
    return rounds


async def _refund_entries(job: PaidJob) -> list[str]:
    return [k for k in job.kinds(await job.credits()) if k == "refund"]


async def test_twenty_parallel_refunds_are_accepted_once_and_refunded_once(
    paid_job: PaidJobs, node: Node
) -> None:
    job = await paid_job()
    await job.until(status("COMPLETED"))
    done = asyncio.Event()

    async def requests() -> list[int]:
        try:
            answers = await asyncio.gather(*(job.post("refund") for _ in range(20)))
        finally:
            done.set()
        return [a.status_code for a in answers]

    statuses, rounds = await asyncio.wait_for(
        asyncio.gather(requests(), _rounds_until(dispatcher(job.app), done)), timeout=60
    )
    assert sorted(statuses) == [200] + [409] * 19, statuses
    assert rounds >= 1
    # The node is asked; a later request is still refused: once per job, ever.
    for _ in range(200):
        if await _asked_on_node(node):
            break
        await dispatcher(job.app).run_once()
    assert await _asked_on_node(node)
    later = await job.post("refund")
    assert later.status_code == 409, later.text
    assert "a refund is asked once per job" in later.json()["message"]
    await job.until(on_chain("Disputed"))
    assert (await job.post("refund")).status_code == 409
    await node.advance(37 * HOUR_MS)  # past externalDisputeUnlockTime: the network decides
    done_job = await job.until(settled)
    assert done_job["onChainStatus"] == "DisputedWithdrawn"
    assert await _refund_entries(job) == ["refund"]
    assert (await job.credits())["balance"] == 10
    types = await job.event_types()
    assert types.count("refund_requested") == 1


async def test_a_refund_asked_of_the_node_cannot_be_asked_again(
    paid_job: PaidJobs, node: Node
) -> None:
    """The window of the regression: the dispatcher asked the node (the request done with),
    the purchase is still ResultSubmitted on chain (the node's state moves later)."""
    job = await paid_job()
    await job.until(status("COMPLETED"))
    assert (await job.post("refund")).status_code == 200
    d = dispatcher(job.app)
    for _ in range(200):  # bounded: one or two rounds ask the node
        await d.run_once()
        if await _asked_on_node(node):
            break
    assert await _asked_on_node(node)
    read = await job.read()
    assert read["onChainStatus"] == "ResultSubmitted"  # the chain has not moved yet
    again = await job.post("refund")
    assert again.status_code == 409, again.text
    assert again.json()["message"].endswith("a refund is asked once per job")
    await job.until(on_chain("Disputed"))
    assert (await job.post("refund")).status_code == 409
    assert (await job.event_types()).count("refund_requested") == 1
