"""agora-client: a typed Python client for Agora.

``agora_client.generated`` is generated from Agora's OpenAPI document (``make client``); the
rest is a small layer on top: :class:`Client` / :class:`AsyncClient` (jobs that wait, every
cursor-paged list as an iterator, ``Idempotency-Key`` on creates, ``Retry-After`` honoured,
typed errors), the OAuth device sign-in and :func:`verify_webhook`.
"""

from agora_client._http import RetryPolicy, Tokens
from agora_client.client import VERSION, AsyncClient, Client
from agora_client.errors import (
    AgoraError,
    BadRequest,
    Conflict,
    DeviceFlowError,
    FieldError,
    Forbidden,
    NotFound,
    PayloadTooLarge,
    PaymentRequired,
    RateLimited,
    ServerError,
    Unauthorized,
    Unavailable,
    WaitTimeout,
)
from agora_client.oauth import DeviceCode, async_sign_in_with_device, sign_in_with_device
from agora_client.webhooks import WebhookVerificationError, verify_webhook

__version__ = VERSION
__all__ = [
    "AgoraError",
    "AsyncClient",
    "BadRequest",
    "Client",
    "Conflict",
    "DeviceCode",
    "DeviceFlowError",
    "FieldError",
    "Forbidden",
    "NotFound",
    "PayloadTooLarge",
    "PaymentRequired",
    "RateLimited",
    "RetryPolicy",
    "ServerError",
    "Tokens",
    "Unauthorized",
    "Unavailable",
    "WaitTimeout",
    "WebhookVerificationError",
    "async_sign_in_with_device",
    "sign_in_with_device",
    "verify_webhook",
]
