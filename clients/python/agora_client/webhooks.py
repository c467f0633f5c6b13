"""Checking that a webhook came from Agora (docs/notifications.md, "Signatures"): Standard
Webhooks headers ``webhook-id``, ``webhook-timestamp`` (refused when more than 5 minutes off) and
``webhook-signature``, verified by the ``standardwebhooks`` library with the endpoint's
``whsec_…`` secret (the one ``PUT /v1/notifications/webhook`` answered)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standardwebhooks import Webhook, WebhookVerificationError

__all__ = ["WebhookVerificationError", "verify_webhook"]


def verify_webhook(body: bytes | str, headers: Mapping[str, str], secret: str) -> Any:
    """The delivery's JSON payload when its signature is Agora's; otherwise
    ``WebhookVerificationError``. Pass the raw body, exactly as received, and its headers
    (any case). Deduplicate on ``headers["webhook-id"]``: a retried delivery keeps its id."""
    lowered = {key.lower(): value for key, value in headers.items()}
    return Webhook(secret).verify(body, lowered)
