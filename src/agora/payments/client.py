"""Agora's client of its buyer payment node (masumi-payment-service, or `agora payment-node`).

Every answer is translated at this boundary into ``Purchase`` or one of the ``NodeError``
classes (``NodeUnavailable``: down, slow, 5xx — retried; ``NodeConflict``: 409;
``NodeRejected``: other 4xx). The node's clock comes with each answer (``X-Node-Time``, else
the ``Date`` header): the contract's times are judged on the node's clock, not ours.

Every request goes through the outbound guard (``kit.outbound``): the ``AGORA_OUTBOUND_ALLOW``
policy, no redirects, a byte and a total-time limit; ``local`` maps path prefixes on loopback
URLs to in-process apps (the embedded node, ``payments/embedded.py``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any

import httpx2
import structlog

from agora.kit.outbound import (
    OutboundError,
    OutboundPolicy,
    OutboundRefused,
    OutboundTimeout,
    OutboundTooLarge,
    guarded_client,
    redact_url,
    send_limited,
)

log = structlog.get_logger(__name__)

MAX_RESPONSE_BYTES = 1024 * 1024


class NodeError(Exception):
    def __init__(
        self,
        message: str,
        status_code: int | None = None,
        payload: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message, self.status_code = message, status_code
        self.payload = payload or {}  # the error answer (a 409 carries ``id`` and ``object``)


class NodeUnavailable(NodeError):
    """No usable answer: connection refused, timeout, 5xx, garbage. Worth retrying."""


class NodeConflict(NodeError):
    """409: a duplicate, or a concurrent change of the same purchase."""


class NodeRejected(NodeError):
    """400/401/403/404: retrying the same request will not help (except a 404 on
    ``request-refund``, which also means "not in a valid state yet")."""


@dataclass(frozen=True)
class Purchase:
    data: dict[str, Any]
    node_time_ms: int
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def on_chain_state(self) -> str | None:
        value = self.data.get("onChainState")
        return str(value) if value else None

    @property
    def result_hash(self) -> str | None:
        value = self.data.get("resultHash")
        return str(value) if value else None

    @property
    def next_action(self) -> str | None:
        action = self.data.get("NextAction")
        if isinstance(action, dict) and action.get("requestedAction"):
            return str(action["requestedAction"])
        return None

    @property
    def tx_hash(self) -> str | None:
        current = self.data.get("CurrentTransaction")
        if isinstance(current, dict) and current.get("txHash"):
            return str(current["txHash"])
        return None


class PaymentNodeClient:
    """One per process (it pools connections); every request goes through ``kit.outbound``."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        network: str = "Preprod",
        timeout: float = 10.0,
        policy: OutboundPolicy | None = None,
        local: Mapping[str, Any] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.network = network
        self.timeout = timeout
        self._client = guarded_client(
            policy or OutboundPolicy(),
            timeout=timeout,
            connect_timeout=5.0,
            headers={"token": token, "user-agent": "agora-marketplace/1 (payment buyer)"},
            local=local,
        )

    async def aclose(self) -> None:
        await self._client.aclose()

    async def _post(self, path: str, body: dict[str, Any]) -> Purchase:
        url = f"{self.base_url}{path}"
        try:
            answer = await send_limited(
                self._client,
                "POST",
                url,
                max_bytes=MAX_RESPONSE_BYTES,
                total_seconds=self.timeout,
                json=body,
            )
        except OutboundRefused as exc:
            log.warning("payment_node_refused", url=redact_url(url), reason=exc.detail)
            raise NodeUnavailable(f"POST {path}: refused by policy") from exc
        except OutboundTimeout as exc:
            raise NodeUnavailable(f"POST {path}: no answer in time") from exc
        except OutboundTooLarge as exc:
            raise NodeUnavailable(f"POST {path}: answer too large") from exc
        except OutboundError as exc:
            log.info("payment_node_unreachable", url=redact_url(url), reason=exc.detail)
            raise NodeUnavailable(f"POST {path}: unreachable") from exc
        status = answer.status_code
        try:
            payload = json.loads(answer.body) if answer.body else None
        except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
            payload = None
        message = _message(payload) or f"the node answered {status}"
        if status >= 500 or payload is None:
            raise NodeUnavailable(f"POST {path}: {message}", status)
        error_payload = payload if isinstance(payload, dict) else None
        if status == 409:
            raise NodeConflict(message, status, error_payload)
        if status >= 400:
            raise NodeRejected(f"POST {path}: {message}", status, error_payload)
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, dict):
            raise NodeUnavailable(f"POST {path}: the answer has no data object", status)
        return Purchase(data=data, node_time_ms=_node_time(answer.headers), raw=payload)

    async def create_purchase(self, body: dict[str, Any]) -> Purchase:
        return await self._post("/purchase", body)

    async def resolve_purchase(self, blockchain_identifier: str) -> Purchase:
        return await self._post(
            "/purchase/resolve-blockchain-identifier",
            {"blockchainIdentifier": blockchain_identifier, "network": self.network},
        )

    async def request_refund(self, blockchain_identifier: str) -> Purchase:
        return await self._post(
            "/purchase/request-refund",
            {"blockchainIdentifier": blockchain_identifier, "network": self.network},
        )


def _message(payload: Any) -> str | None:
    if isinstance(payload, dict):
        error = payload.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:500]
        if payload.get("message"):
            return str(payload["message"])[:500]
    return None


def _node_time(headers: httpx2.Headers) -> int:
    value = headers.get("x-node-time", "")
    if value.isdigit():
        return int(value)
    date = headers.get("date")
    if date:
        try:
            return int(parsedate_to_datetime(date).timestamp() * 1000)
        except (TypeError, ValueError):
            pass
    return int(time.time() * 1000)
