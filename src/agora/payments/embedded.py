"""Where the embedded payment node is (docs/payments.md): the local node (``agora.sandbox``) is
mounted at ``NODE_PREFIX`` when ``AGORA_PAYMENT_NODE_EMBEDDED`` is true; Agora buys there (unless
``AGORA_MASUMI_PAYMENT_URL`` points elsewhere) with a token derived from the secret key."""

from __future__ import annotations

import hashlib
import hmac

from agora.settings import Settings

NODE_PREFIX = "/payment-node"


def node_token(settings: Settings) -> str:
    if settings.masumi.payment_token:
        return settings.masumi.payment_token
    secret = settings.resolved_secret_key().encode()
    return hmac.new(secret, b"agora-embedded-payment-node", hashlib.sha256).hexdigest()[:40]


def node_url(settings: Settings) -> str:
    if settings.masumi.payment_url:
        return settings.masumi.payment_url
    return f"{settings.public_url.rstrip('/')}{NODE_PREFIX}/api/v1"
