"""A paid job settled by a refund on the payment node tells its owner (job.refunded)."""

from __future__ import annotations

from tests.payments.conftest import node, paid_job, settings  # noqa: F401 - fixtures
from tests.payments.helpers import HOUR_MS, Node, PaidJobs, settled


async def test_a_refund_settled_on_chain_notifies_the_owner(
    paid_job: PaidJobs,  # noqa: F811
    node: Node,  # noqa: F811
) -> None:
    job = await paid_job(submit_result=False)
    await job.until(lambda j: j["agentJobStatus"] == "completed")
    await node.advance(25 * HOUR_MS)  # past submitResultTime: the buyer's refund
    done = await job.until(settled)
    assert done["onChainStatus"] == "RefundWithdrawn"
    answer = await job.client.get("/v1/notifications", headers=job.user.key_headers)
    kinds = [i["kind"] for i in answer.json()["data"]["items"]]
    assert {"job.refunded", "job.failed"} <= set(kinds)
    [refunded] = [i for i in answer.json()["data"]["items"] if i["kind"] == "job.refunded"]
    assert refunded["subjectRef"] == f"job:{job.id}"
