"""A local Masumi payment node: the REST contract of masumi-payment-service over an in-memory
escrow book that stands in for the chain (docs/payments.md, "The local payment node"). Its
modules: ``state`` (the real node's words, the escrow rows, the clock), ``checks`` (a request
body's checks), ``node`` (the rules: ``PaymentNode``), ``views`` (the objects it answers),
``http`` (the routes).

It answers as the real service does at commit ``aca3833`` (github.com/masumi-network/
masumi-payment-service; each rule below names the file it mirrors), never more kindly:

- routes under ``/api/v1``: seller ``POST /payment`` (``src/routes/api/payments/index.ts``),
  ``/payment/resolve-blockchain-identifier``, ``/payment/submit-result``,
  ``/payment/authorize-refund``; buyer ``POST /purchase`` (``purchases/index.ts``,
  ``purchases/shared.ts``), ``/purchase/resolve-blockchain-identifier``,
  ``/purchase/request-refund``, ``/purchase/cancel-refund-request``,
  ``/purchase/error-state-recovery``; ``POST /registry`` (a minimal registration that records
  an agent's pricing);
- envelopes ``{"status":"success","data":…}`` / ``{"status":"error","error":{"message":…}}``,
  a 409 "Purchase exists" adding ``id`` and ``object`` (``packages/payment-core/src/
  endpoint-factory.ts``, ``http-exists-error.ts``);
- every auth failure is **401** (no key, bad key, key without the right:
  ``packages/payment-core/src/auth-middleware.ts``);
- ``POST /payment`` takes ISO 8601 dates (``ez.dateIn()``, ``payments/schemas.ts``) and refuses
  Unix milliseconds; ``POST /purchase`` takes Unix milliseconds as strings; objects carry
  times as Unix-ms strings and dates (``createdAt``…) as ISO strings;
- objects carry only the real fields (``purchaseResponseSchema`` in ``purchases/schemas.ts``,
  ``paymentResponseSchema`` in ``payments/schemas.ts``): a Purchase has no
  ``identifierFromPurchaser``, ``network`` or ``sellerVkey``;
- actions take effect later, as the real node's batches and the chain do: a new purchase is
  ``onChainState: null`` with ``NextAction.requestedAction: FundsLockingRequested``; the funds
  lock ``chain_delay_ms`` later (``FundsLocked``, ``WaitingForExternalAction``). A submitted
  result (``SubmitResultRequested``), a refund request (``SetRefundRequestedRequested``), its
  cancellation and a seller's authorisation likewise change the state only after the delay;
  meanwhile the next request on that purchase answers **404** "not found or in (not in a)
  valid state", as the real routes do (they select on ``NextAction:
  WaitingForExternalAction``).

"The chain" is lazy: each request first applies what time has made true. The clock can be
moved, and forced answers queued (a concurrent change's 409), through ``/api/v1/testing/*``
only when the node is built with ``testing=True`` (``agora payment-node --testing``). Every
answer carries ``X-Node-Time`` (the node's clock, Unix ms) beside ``Date``.

Simplifications (no chain, no wallets): the blockchainIdentifier is the signed fields as hex
plus an HMAC (the real one is a CIP-8 signature over the same fields); the seller's key is
``NodeConfig.seller_vkey``; an agent not registered here is priced Fixed (Dynamic when its
payment names ``RequestedFunds``), where the real node reads its on-chain metadata.
"""

from __future__ import annotations

from starlette.applications import Starlette

from agora.sandbox.payment_node.http import build_node_app
from agora.sandbox.payment_node.node import PaymentNode
from agora.sandbox.payment_node.state import NodeConfig

__all__ = ["NodeConfig", "PaymentNode", "build_node_app", "local_node"]


def local_node(
    token: str,
    *,
    testing: bool = False,
    read_token: str | None = None,
    chain_delay_ms: int = 1000,
) -> tuple[PaymentNode, Starlette]:
    """A node with one full-rights key (and optionally a read-only one); actions take effect
    ``chain_delay_ms`` after they are asked for."""
    tokens = {token: frozenset({"read", "pay", "admin"})}
    if read_token:
        tokens[read_token] = frozenset({"read"})
    config = NodeConfig(tokens=tokens, testing=testing, chain_delay_ms=chain_delay_ms)
    node = PaymentNode(config)
    return node, build_node_app(node)
