"""The local payment node inside the API process (the embedded demo): mounted at
``NODE_PREFIX`` when ``AGORA_PAYMENT_NODE_EMBEDDED`` is true; Agora buys there (unless
``AGORA_MASUMI_PAYMENT_URL`` points elsewhere) and the paid demo agent sells there."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

from agora.demo_agents.seller import SellerConfig
from agora.kit.outbound import OutboundPolicy
from agora.settings import Settings

NODE_PREFIX = "/payment-node"


def node_token(settings: Settings) -> str:
    if settings.masumi_payment_token:
        return settings.masumi_payment_token
    secret = settings.resolved_secret_key().encode()
    return hmac.new(secret, b"agora-embedded-payment-node", hashlib.sha256).hexdigest()[:40]


def node_url(settings: Settings) -> str:
    if settings.masumi_payment_url:
        return settings.masumi_payment_url
    return f"{settings.public_url.rstrip('/')}{NODE_PREFIX}/api/v1"


def demo_seller(
    settings: Settings, *, local: Mapping[str, Any] | None = None
) -> SellerConfig | None:
    """The paid demo agent's seller side: on the node ``AGORA_DEMO_SELLER_NODE_URL`` names (a
    real one: its token, agentIdentifier and selling wallet's key hash come from the
    ``AGORA_DEMO_SELLER_*`` settings), else on the embedded node; ``local``: the in-process
    routes (the embedded node)."""
    policy = OutboundPolicy.from_setting(settings.outbound_allow)
    if settings.demo_seller_node_url:
        return SellerConfig(
            node_url=settings.demo_seller_node_url.rstrip("/"),
            token=settings.demo_seller_token,
            agent_identifier=settings.demo_seller_agent_identifier,
            seller_vkey=settings.demo_seller_vkey,
            network=settings.masumi_network,
            policy=policy,
        )
    if not settings.payment_node_embedded:
        return None
    return SellerConfig(
        node_url=node_url(settings),
        token=node_token(settings),
        agent_identifier="demo-reviewer-seller",
        network=settings.masumi_network,
        policy=policy,
        local=local,
    )
