"""A paid MIP-003 agent that is a real Masumi seller on a payment node (the local one in the
demo and tests): ``/start_job`` registers the payment (``POST /payment``) and answers with its
payment fields; the job runs only once the node says FundsLocked; a finished job submits its
MIP-004 result hash (``/payment/submit-result``) before reporting ``completed``.

Knobs for tests (real HTTP behaviour, not mocks): never submit the result, submit a wrong result
hash, report a wrong input hash.
"""

from __future__ import annotations

import json
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agora.demo_agents.protocol import (
    MAX_JOBS,
    AgentJob,
    Behaviour,
    advance,
    read_start,
    status_payload,
)
from agora.kit.outbound import OutboundError, OutboundPolicy, guarded_client, send_limited
from agora.payments import hashes


@dataclass
class SellerConfig:
    node_url: str  # the seller node, up to /api/v1
    token: str
    agent_identifier: str
    network: str = "Preprod"
    submit_result: bool = True
    wrong_result_hash: bool = False
    wrong_input_hash: bool = False
    # Calls to the node go through the outbound guard: this policy (strict by default; the
    # demo passes AGORA_OUTBOUND_ALLOW) and in-process routes (the embedded node)
    policy: OutboundPolicy = field(default_factory=OutboundPolicy)
    local: Mapping[str, Any] | None = None


@dataclass
class _Sale:
    job: AgentJob
    blockchain_identifier: str
    answer: dict[str, Any]
    paid: bool = False
    submitted: bool = False


def build_seller_app(behaviour: Behaviour, seller: SellerConfig) -> Starlette:
    sales: OrderedDict[str, _Sale] = OrderedDict()
    by_identifier: dict[str, str] = {}

    async def node(path: str, body: dict[str, Any]) -> dict[str, Any] | None:
        # A client per call: the seller runs in whichever event loop serves it (no pooled
        # connections left open when that loop ends).
        client = guarded_client(
            seller.policy, timeout=5.0, headers={"token": seller.token}, local=seller.local
        )
        async with client:
            try:
                answer = await send_limited(
                    client,
                    "POST",
                    f"{seller.node_url}{path}",
                    max_bytes=1024 * 1024,
                    total_seconds=5.0,
                    json=body,
                )
            except OutboundError:
                return None
        if answer.status_code != 200:
            return None
        try:
            payload = json.loads(answer.body)
        except ValueError:
            return None
        data = payload.get("data") if isinstance(payload, dict) else None
        return data if isinstance(data, dict) else None

    async def availability(_request: Request) -> Response:
        return JSONResponse({"status": "available", "type": "masumi-agent"})

    async def input_schema(_request: Request) -> Response:
        return JSONResponse(behaviour.input_schema)

    async def start_job(request: Request) -> Response:
        started = await read_start(request)
        if isinstance(started, Response):
            return started
        identifier, data = started
        if identifier in by_identifier:
            return JSONResponse(sales[by_identifier[identifier]].answer)
        digest = hashes.input_hash(identifier, data)
        payment = await node(
            "/payment",
            {
                "inputHash": digest,
                "network": seller.network,
                "agentIdentifier": seller.agent_identifier,
                "identifierFromPurchaser": identifier,
            },
        )
        if payment is None:
            return JSONResponse({"detail": "the payment node refused the payment"}, status_code=500)
        job = AgentJob(id=str(uuid.uuid4()), identifier=identifier, input_data=data)
        job.status = "awaiting_payment"
        answer = {
            "id": job.id,
            "blockchainIdentifier": payment["blockchainIdentifier"],
            "payByTime": int(payment["payByTime"]),
            "submitResultTime": int(payment["submitResultTime"]),
            "unlockTime": int(payment["unlockTime"]),
            "externalDisputeUnlockTime": int(payment["externalDisputeUnlockTime"]),
            "agentIdentifier": seller.agent_identifier,
            "sellerVKey": payment["sellerVkey"],
            "identifierFromPurchaser": identifier,
            "input_hash": ("0" * 64) if seller.wrong_input_hash else digest,
        }
        sales[job.id] = _Sale(job, payment["blockchainIdentifier"], answer)
        by_identifier[identifier] = job.id
        behaviour.started.append(job.id)
        while len(sales) > MAX_JOBS:
            _, old = sales.popitem(last=False)
            by_identifier.pop(old.job.identifier, None)
        return JSONResponse(answer)

    async def status(request: Request) -> Response:
        sale = sales.get(request.query_params.get("job_id", ""))
        if sale is None:
            return JSONResponse({"detail": "job not found"}, status_code=404)
        job = sale.job
        if not sale.paid:
            state = await node(
                "/payment/resolve-blockchain-identifier",
                {"network": seller.network, "blockchainIdentifier": sale.blockchain_identifier},
            )
            if state is not None and state.get("onChainState") == "FundsLocked":
                sale.paid, job.status = True, "running"
        if sale.paid and job.status not in ("completed", "failed") and job.awaiting_schema is None:
            advance(behaviour, job)
        if job.status == "completed" and not sale.submitted and seller.submit_result:
            result = job.result or ""
            digest = hashes.result_hash(
                job.identifier, result + ("!" if seller.wrong_result_hash else "")
            )
            submitted = await node(
                "/payment/submit-result",
                {
                    "network": seller.network,
                    "blockchainIdentifier": sale.blockchain_identifier,
                    "submitResultHash": digest,
                },
            )
            sale.submitted = submitted is not None
        return JSONResponse(status_payload(job, uuid.uuid4().hex))

    async def provide_input(request: Request) -> Response:
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"detail": "body must be JSON"}, status_code=400)
        sale = sales.get(str(body.get("job_id", ""))) if isinstance(body, dict) else None
        if sale is None:
            return JSONResponse({"detail": "job not found"}, status_code=404)
        data = body.get("input_data")
        if sale.job.status != "awaiting_input" or not isinstance(data, dict):
            return JSONResponse({"detail": "not awaiting this input"}, status_code=400)
        sale.job.provided.append(data)
        sale.job.awaiting_schema, sale.job.status = None, "running"
        return JSONResponse(
            {"input_hash": hashes.input_hash(sale.job.identifier, data), "signature": "local"}
        )

    return Starlette(
        routes=[
            Route("/provide_input", provide_input, methods=["POST"]),
            Route("/availability", availability),
            Route("/input_schema", input_schema),
            Route("/start_job", start_job, methods=["POST"]),
            Route("/status", status),
        ]
    )
