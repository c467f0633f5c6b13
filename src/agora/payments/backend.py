"""The payment backends the dispatcher drives (the seam: ``dispatch/payment.py``;
docs/payments.md), and which one is configured (``payment_backend``, built by the composition
root: ``workers.py``, ``app.py``).

- ``CreditsBackend`` (default): Agora's ledger only — credits held at creation, captured on
  COMPLETED, refunded on FAILED/CANCELLED (``jobs.lifecycle``).
- ``MasumiBackend`` (``payments/masumi.py``): a paid agent that answers ``/start_job`` with
  payment fields is bought on Agora's buyer payment node and followed to its settlement.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agora.dispatch.payment import DispatchSteps, PaymentBackend, StartPlan
from agora.kit.outbound import OutboundPolicy
from agora.mip003.types import StartedJob
from agora.models import Job
from agora.payments import embedded
from agora.payments.client import PaymentNodeClient
from agora.payments.masumi import MasumiBackend
from agora.payments.states import MASUMI
from agora.settings import Settings


class CreditsBackend:
    name = "credits"

    def on_started(self, job: Job, started: StartedJob) -> StartPlan:
        return StartPlan()

    def follows(self, job: Job) -> bool:
        return False

    def fail_fields(self, job: Job, dispatcher: DispatchSteps) -> dict[str, Any]:
        return {}

    async def step(self, dispatcher: DispatchSteps, job: Job, base_url: str) -> None:
        raise RuntimeError("the credits backend follows no purchase")

    async def aclose(self) -> None:
        return None


_NODE_CLIENTS: dict[tuple[str, str, str, float, str], PaymentNodeClient] = {}


def payment_backend(
    settings: Settings, *, local: Mapping[str, Any] | None = None
) -> PaymentBackend:
    """The configured backend. ``local``: in-process routes (the embedded node, ``app.py``)."""
    if settings.payments.backend == MASUMI and settings.payments.node_embedded:
        settings = settings.with_changes(
            masumi_payment_url=embedded.node_url(settings),
            masumi_payment_token=embedded.node_token(settings),
        )
    if settings.payments.backend == MASUMI:
        return MasumiBackend(_node_client(settings, local), settings)
    if settings.payments.backend != "credits":
        raise ValueError(f"unknown payment backend {settings.payments.backend!r}")
    return CreditsBackend()


def _node_client(settings: Settings, local: Mapping[str, Any] | None) -> PaymentNodeClient:
    """This app's own in-process node (``local``) gets a client of its own; any other node one
    pooled client per process (the process's dispatchers share it)."""
    if not settings.masumi.payment_url or not settings.masumi.payment_token:
        raise ValueError(
            "AGORA_PAYMENT_BACKEND=masumi needs AGORA_MASUMI_PAYMENT_URL and "
            "AGORA_MASUMI_PAYMENT_TOKEN"
        )
    if local:
        return _new_client(settings, local)
    key = (
        settings.masumi.payment_url,
        settings.masumi.payment_token,
        settings.masumi.network,
        settings.masumi.timeout_seconds,
        settings.outbound_allow or "",
    )
    node = _NODE_CLIENTS.get(key)
    if node is None:
        node = _NODE_CLIENTS[key] = _new_client(settings, None)
    return node


def _new_client(settings: Settings, local: Mapping[str, Any] | None) -> PaymentNodeClient:
    return PaymentNodeClient(
        settings.masumi.payment_url,
        settings.masumi.payment_token,
        network=settings.masumi.network,
        timeout=settings.masumi.timeout_seconds,
        policy=OutboundPolicy.from_setting(settings.outbound_allow),
        local=local,
    )
