"""A paid MIP-003 agent that is a real Masumi seller on a payment node (the local one in the
demo and tests, or a real masumi-payment-service: ``AGORA_DEMO_SELLER_*`` settings):
``/start_job`` registers the payment (``POST /payment`` with ISO 8601 ``payByTime`` and
``submitResultTime``, as the node requires) and answers with its payment fields; the job runs
only once the node says FundsLocked; a finished job submits its MIP-004 result hash
(``/payment/submit-result``) before reporting ``completed``.

The seller's verification key is its own (``SellerConfig.seller_vkey``, the hash of its
selling wallet's key): the node's payment object does not carry it.

Knobs for tests (real HTTP behaviour, not mocks): never submit the result, submit a wrong result
hash, report a wrong input hash, hash by MIP-004's text (RFC 8785 input, raw result) instead of
the SDK's rule, answer ``inputHash`` (the SDK's next release) instead of ``input_hash``, sell
through a V2 payment source, ask a Dynamic price.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agora.kit.outbound import OutboundError, OutboundPolicy, guarded_client, send_limited
from agora.mip003 import hashes
from agora.payments.embedded import node_token, node_url
from agora.sandbox.protocol import (
    JOB_NOT_FOUND,
    AgentJob,
    Behaviour,
    JobStore,
    advance,
    read_answer,
    read_start,
    status_payload,
)
from agora.settings import Settings


@dataclass
class SellerConfig:
    node_url: str  # the seller node, up to /api/v1
    token: str
    agent_identifier: str
    network: str = "Preprod"
    seller_vkey: str = "local-seller-vkey"  # the selling wallet's key hash
    pay_by_minutes: int = 12 * 60  # payByTime: now + this; submitResultTime: twice as far
    submit_result: bool = True
    spec_hashes: bool = False  # MIP-004's text: RFC 8785 input hash, raw-string result hash
    camel_input_hash: bool = False  # answer inputHash instead of input_hash
    supported_payment_source_index: int | None = None  # a V2 seller
    seller_return_address: str | None = None
    dynamic_amounts: list[dict[str, str]] | None = None  # a Dynamic price for each job
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


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class SellerServer:
    """The paid agent's MIP-003 endpoints, each sale followed on the seller's payment node."""

    def __init__(self, behaviour: Behaviour, seller: SellerConfig) -> None:
        self.behaviour, self.seller = behaviour, seller
        self.sales: JobStore[_Sale] = JobStore(lambda sale: sale.job.identifier)

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/provide_input", self.provide_input, methods=["POST"]),
                Route("/availability", self.availability),
                Route("/input_schema", self.input_schema),
                Route("/start_job", self.start_job, methods=["POST"]),
                Route("/status", self.status),
            ]
        )

    async def node(self, path: str, body: dict[str, Any]) -> dict[str, Any] | None:
        """The node's ``data`` for a POST, or None when it refused or did not answer."""
        seller = self.seller
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

    async def availability(self, _request: Request) -> Response:
        return JSONResponse({"status": "available", "type": "masumi-agent"})

    async def input_schema(self, _request: Request) -> Response:
        return JSONResponse(self.behaviour.input_schema)

    async def start_job(self, request: Request) -> Response:
        started = await read_start(request)
        if isinstance(started, Response):
            return started
        identifier, data = started
        sold = self.sales.of_identifier(identifier)
        if sold is not None:
            return JSONResponse(sold.answer)
        computed = hashes.input_hashes(identifier, data)
        spec = self.seller.spec_hashes
        digest = computed.get("jcs", computed["sdk"]) if spec else computed["sdk"]
        payment = await self.node("/payment", self._payment_request(identifier, digest))
        if payment is None:
            return JSONResponse({"detail": "the payment node refused the payment"}, status_code=500)
        job = AgentJob(id=str(uuid.uuid4()), identifier=identifier, input_data=data)
        job.status = "awaiting_payment"
        answer = self._start_answer(job, payment, digest)
        self.sales.add(job.id, _Sale(job, payment["blockchainIdentifier"], answer))
        self.behaviour.started.append(job.id)
        return JSONResponse(answer)

    def _payment_request(self, identifier: str, digest: str) -> dict[str, Any]:
        """``POST /payment``: ISO 8601 times (``ez.dateIn()``, as the official SDK writes them)."""
        seller, now = self.seller, datetime.now(UTC)
        asked: dict[str, Any] = {
            "inputHash": digest,
            "network": seller.network,
            "agentIdentifier": seller.agent_identifier,
            "identifierFromPurchaser": identifier,
            "payByTime": _iso(now + timedelta(minutes=seller.pay_by_minutes)),
            "submitResultTime": _iso(now + timedelta(minutes=2 * seller.pay_by_minutes)),
        }
        if seller.supported_payment_source_index is not None:
            asked["supportedPaymentSourceIndex"] = seller.supported_payment_source_index
        if seller.seller_return_address:
            asked["sellerReturnAddress"] = seller.seller_return_address
        if seller.dynamic_amounts:
            asked["RequestedFunds"] = seller.dynamic_amounts
        return asked

    def _start_answer(self, job: AgentJob, payment: dict[str, Any], digest: str) -> dict[str, Any]:
        """The ``/start_job`` answer: the job and its payment fields (the node's payment)."""
        seller = self.seller
        answer: dict[str, Any] = {
            "id": job.id,
            "blockchainIdentifier": payment["blockchainIdentifier"],
            "payByTime": int(payment["payByTime"]),
            "submitResultTime": int(payment["submitResultTime"]),
            "unlockTime": int(payment["unlockTime"]),
            "externalDisputeUnlockTime": int(payment["externalDisputeUnlockTime"]),
            "agentIdentifier": seller.agent_identifier,
            "sellerVKey": seller.seller_vkey,
            "identifierFromPurchaser": job.identifier,
            "inputHash" if seller.camel_input_hash else "input_hash": (
                ("0" * 64) if seller.wrong_input_hash else digest
            ),
        }
        source = payment.get("PaymentSource") or {}
        if source.get("paymentSourceType") == "Web3CardanoV2":  # signed: the buyer forwards
            answer.update(
                paymentSourceType="Web3CardanoV2",
                smartContractAddress=source.get("smartContractAddress"),
                supportedPaymentSourceIndex=seller.supported_payment_source_index,
                sellerReturnAddress=payment.get("sellerReturnAddress"),
            )
        if seller.dynamic_amounts:
            answer["Amounts"] = payment.get("RequestedFunds") or seller.dynamic_amounts
        return answer

    async def status(self, request: Request) -> Response:
        sale = self.sales.get(request.query_params.get("job_id", ""))
        if sale is None:
            return JSONResponse(JOB_NOT_FOUND, status_code=404)
        job, seller = sale.job, self.seller
        if not sale.paid:
            state = await self.node(
                "/payment/resolve-blockchain-identifier",
                {"network": seller.network, "blockchainIdentifier": sale.blockchain_identifier},
            )
            if state is not None and state.get("onChainState") == "FundsLocked":
                sale.paid, job.status = True, "running"
        if sale.paid and job.status not in ("completed", "failed") and job.awaiting_schema is None:
            advance(self.behaviour, job)
        if job.status == "completed" and not sale.submitted and seller.submit_result:
            sale.submitted = await self._submit_result(sale)
        return JSONResponse(status_payload(job, uuid.uuid4().hex))

    async def _submit_result(self, sale: _Sale) -> bool:
        """The finished job's MIP-004 result hash, on chain (``/payment/submit-result``)."""
        seller, job = self.seller, sale.job
        result = (job.result or "") + ("!" if seller.wrong_result_hash else "")
        rule = "raw" if seller.spec_hashes else "sdk"
        submitted = await self.node(
            "/payment/submit-result",
            {
                "network": seller.network,
                "blockchainIdentifier": sale.blockchain_identifier,
                "submitResultHash": hashes.result_hashes(job.identifier, result)[rule],
            },
        )
        return submitted is not None

    async def provide_input(self, request: Request) -> Response:
        answer = await read_answer(request, self.sales)
        if isinstance(answer, Response):
            return answer
        sale, data = answer
        job = sale.job
        if job.status != "awaiting_input" or not isinstance(data, dict):
            return JSONResponse({"detail": "not awaiting this input"}, status_code=400)
        job.provided.append(data)
        job.awaiting_schema, job.status, job.message = None, "running", None
        return JSONResponse(
            {"input_hash": hashes.input_hash(job.identifier, data), "signature": "local"}
        )


def build_seller_app(behaviour: Behaviour, seller: SellerConfig) -> Starlette:
    return SellerServer(behaviour, seller).app()


def demo_seller(
    settings: Settings, *, local: Mapping[str, Any] | None = None
) -> SellerConfig | None:
    """The paid demo agent's seller side: on the node ``AGORA_DEMO_SELLER_NODE_URL`` names (a
    real one: its token, agentIdentifier and selling wallet's key hash come from the
    ``AGORA_DEMO_SELLER_*`` settings), else on the embedded node; ``local``: the in-process
    routes (the embedded node)."""
    policy = OutboundPolicy.from_setting(settings.outbound_allow)
    if settings.demo_seller.node_url:
        return SellerConfig(
            node_url=settings.demo_seller.node_url.rstrip("/"),
            token=settings.demo_seller.token,
            agent_identifier=settings.demo_seller.agent_identifier,
            seller_vkey=settings.demo_seller.vkey,
            network=settings.masumi.network,
            policy=policy,
        )
    if not settings.payments.node_embedded:
        return None
    return SellerConfig(
        node_url=node_url(settings),
        token=node_token(settings),
        agent_identifier="demo-reviewer-seller",
        network=settings.masumi.network,
        policy=policy,
        local=local,
    )
