"""The local payment node answers as masumi-payment-service does at commit aca3833 (each test
names the file it mirrors): real HTTP on loopback, no database. Actions land ``DELAY_MS`` after
they are asked for, as the real node's batches and the chain do; the tests move the node's
clock past it (deterministic on a loaded machine)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx2
import pytest

from tests.payments.helpers import TOKEN, Node

AGENT = "a" * 56 + "6167656e74"
DYNAMIC_AGENT = "d" * 56 + "64796e"
DELAY_MS = 60_000
PURCHASER = "0123456789abcdef01"
INPUT_HASH = "ab" * 32

# purchaseResponseSchema (src/routes/api/purchases/schemas.ts): every field of a Purchase
PURCHASE_FIELDS = {
    "id",
    "createdAt",
    "updatedAt",
    "blockchainIdentifier",
    "agentIdentifier",
    "agentName",
    "pricingType",
    "lastCheckedAt",
    "payByTime",
    "submitResultTime",
    "unlockTime",
    "externalDisputeUnlockTime",
    "totalBuyerCardanoFees",
    "totalSellerCardanoFees",
    "nextActionOrOnChainStateOrResultLastChangedAt",
    "nextActionLastChangedAt",
    "onChainStateOrResultLastChangedAt",
    "requestedById",
    "onChainState",
    "collateralReturnLovelace",
    "buyerReturnAddress",
    "sellerReturnAddress",
    "cooldownTime",
    "cooldownTimeOtherParty",
    "inputHash",
    "resultHash",
    "NextAction",
    "ActionHistory",
    "CurrentTransaction",
    "TransactionHistory",
    "PaidFunds",
    "WithdrawnForSeller",
    "WithdrawnForBuyer",
    "PaymentSource",
    "SellerWallet",
    "SmartContractWallet",
    "metadata",
}


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def times() -> dict[str, str]:
    now = datetime.now(UTC)
    return {
        "payByTime": iso(now + timedelta(hours=12)),
        "submitResultTime": iso(now + timedelta(hours=24)),
    }


async def post(
    node: Node, path: str, body: dict[str, Any], token: str | None = TOKEN
) -> httpx2.Response:
    headers = {"token": token} if token is not None else {}
    async with httpx2.AsyncClient(timeout=5) as client:
        return await client.post(f"{node.url}{path}", json=body, headers=headers)


async def payment(node: Node, **extra: Any) -> dict[str, Any]:
    body = {
        "network": "Preprod",
        "agentIdentifier": AGENT,
        "identifierFromPurchaser": PURCHASER,
        "inputHash": INPUT_HASH,
        **times(),
        **extra,
    }
    answer = await post(node, "/payment", body)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()["data"]
    return data


def purchase_body(paid: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "network": "Preprod",
        "blockchainIdentifier": paid["blockchainIdentifier"],
        "agentIdentifier": AGENT,
        "identifierFromPurchaser": PURCHASER,
        "inputHash": INPUT_HASH,
        "sellerVkey": "local-seller-vkey",
        "payByTime": paid["payByTime"],
        "submitResultTime": paid["submitResultTime"],
        "unlockTime": paid["unlockTime"],
        "externalDisputeUnlockTime": paid["externalDisputeUnlockTime"],
        **extra,
    }


@pytest.fixture(autouse=True)
async def slow_chain(node: Node) -> None:
    await node.chain(chainDelayMs=DELAY_MS)


async def eventually(
    node: Node, read: Callable[[], Awaitable[dict[str, Any]]], key: str, want: Any
) -> None:
    """Not yet; once the chain delay has passed, ``key`` is ``want``."""
    assert (await read())[key] != want
    await node.advance(DELAY_MS)
    data = await read()
    assert data[key] == want, data


async def test_every_auth_failure_is_401(node: Node) -> None:
    """packages/payment-core/src/auth-middleware.ts: no key, bad key, key without the right."""
    node.node.config.tokens["read-only"] = frozenset({"read"})
    body = {"network": "Preprod", "blockchainIdentifier": "00"}
    missing = await post(node, "/purchase/request-refund", body, token=None)
    wrong = await post(node, "/purchase/request-refund", body, token="nope")
    weak = await post(node, "/purchase/request-refund", body, token="read-only")
    assert [r.status_code for r in (missing, wrong, weak)] == [401, 401, 401]
    assert weak.json() == {
        "status": "error",
        "error": {"message": "Unauthorized, pay access required"},
    }


async def test_post_payment_takes_iso_dates_and_refuses_unix_milliseconds(node: Node) -> None:
    """src/routes/api/payments/schemas.ts: payByTime and submitResultTime are ez.dateIn()."""
    base = {
        "network": "Preprod",
        "agentIdentifier": AGENT,
        "identifierFromPurchaser": PURCHASER,
        "inputHash": INPUT_HASH,
    }
    ms = int(time.time() * 1000)
    unix = await post(
        node,
        "/payment",
        {**base, "payByTime": str(ms + 12 * 3_600_000), "submitResultTime": str(ms + 86_400_000)},
    )
    assert unix.status_code == 400
    assert "payByTime" in unix.json()["error"]["message"]
    # payments/index.ts: without times the schema's defaults (1970) fail the time rules
    timeless = await post(node, "/payment", base)
    assert timeless.status_code == 400
    assert timeless.json()["error"]["message"] == (
        "Pay by time must be before submit result time (min. 5 minutes)"
    )
    paid = await post(node, "/payment/", {**base, **times()})  # the SDK's trailing slash
    assert paid.status_code == 200, paid.text
    data = paid.json()["data"]
    assert data["payByTime"].isdigit()  # objects carry times as Unix-ms strings
    assert data["createdAt"].endswith("Z")  # and dates as ISO strings
    assert "sellerVkey" not in data and "sellerVKey" not in data
    assert data["NextAction"]["requestedAction"] == "WaitingForExternalAction"


async def test_a_purchase_has_only_the_real_fields_and_its_funds_lock_later(node: Node) -> None:
    """purchases/index.ts createPurchaseInitPost (onChainState null, NextAction
    FundsLockingRequested, CurrentTransaction null); purchases/schemas.ts
    purchaseResponseSchema (no identifierFromPurchaser, network or sellerVkey)."""
    paid = await payment(node)
    created = await post(node, "/purchase", purchase_body(paid))
    assert created.status_code == 200, created.text
    data = created.json()["data"]
    assert set(data) == PURCHASE_FIELDS - {"ActionHistory", "TransactionHistory"}
    assert data["onChainState"] is None
    assert data["NextAction"]["requestedAction"] == "FundsLockingRequested"
    assert data["CurrentTransaction"] is None

    async def resolve() -> dict[str, Any]:
        answer = await post(
            node,
            "/purchase/resolve-blockchain-identifier",
            {"network": "Preprod", "blockchainIdentifier": paid["blockchainIdentifier"]},
        )
        assert answer.status_code == 200, answer.text
        resolved: dict[str, Any] = answer.json()["data"]
        return resolved

    assert set(await resolve()) == PURCHASE_FIELDS
    await eventually(node, resolve, "onChainState", "FundsLocked")
    locked = await resolve()
    assert locked["NextAction"]["requestedAction"] == "WaitingForExternalAction"
    assert locked["CurrentTransaction"]["txHash"]


async def test_a_duplicate_purchase_is_409_purchase_exists_with_id_and_object(node: Node) -> None:
    """purchases/index.ts (HttpExistsError) and payment-core endpoint-factory.ts (its shape)."""
    paid = await payment(node)
    first = await post(node, "/purchase", purchase_body(paid))
    again = await post(node, "/purchase", purchase_body(paid))
    assert again.status_code == 409
    body = again.json()
    assert body["status"] == "error"
    assert body["error"] == {"message": "Purchase exists"}
    assert body["id"] == first.json()["data"]["id"]
    assert body["object"]["blockchainIdentifier"] == paid["blockchainIdentifier"]
    assert "identifierFromPurchaser" not in body["object"]


async def test_a_purchase_must_carry_what_the_seller_signed(node: Node) -> None:
    """purchases/shared.ts resolvePurchaseCreationContext: the V2 fields and a Dynamic price's
    amounts are inside the seller's signature."""
    node.node.pricing[DYNAMIC_AGENT] = ("Dynamic", [])
    amounts = [{"amount": "2000000", "unit": ""}]
    paid = await payment(
        node, supportedPaymentSourceIndex=0, sellerReturnAddress="addr_test1qqreturn"
    )
    dynamic = await payment(node, RequestedFunds=amounts, agentIdentifier=DYNAMIC_AGENT)
    bare = await post(node, "/purchase", purchase_body(paid))
    assert bare.status_code == 400
    assert bare.json()["error"]["message"] == "Invalid blockchain identifier, signature invalid"
    no_amounts = await post(
        node, "/purchase", purchase_body(dynamic, agentIdentifier=DYNAMIC_AGENT)
    )
    assert no_amounts.status_code == 400
    assert no_amounts.json()["error"]["message"] == (
        "For dynamic pricing, Amounts must be provided"
    )
    other = await post(
        node,
        "/purchase",
        purchase_body(
            dynamic, agentIdentifier=DYNAMIC_AGENT, Amounts=[{"amount": "1", "unit": ""}]
        ),
    )
    assert other.status_code == 400
    assert "signature invalid" in other.json()["error"]["message"]
    forwarded = await post(
        node,
        "/purchase",
        purchase_body(
            paid,
            supportedPaymentSourceIndex=0,
            sellerReturnAddress="addr_test1qqreturn",
            paymentSourceType="Web3CardanoV2",
            smartContractAddress=paid["PaymentSource"]["smartContractAddress"],
        ),
    )
    assert forwarded.status_code == 200, forwarded.text
    signed = await post(
        node,
        "/purchase",
        purchase_body(dynamic, agentIdentifier=DYNAMIC_AGENT, Amounts=amounts),
    )
    assert signed.status_code == 200, signed.text
    assert signed.json()["data"]["pricingType"] == "Dynamic"


async def test_refunds_and_results_wait_for_the_chain_and_a_busy_purchase_is_404(
    node: Node,
) -> None:
    """purchases/request-refund/index.ts and payments/submit-result/index.ts: only with NextAction
    WaitingForExternalAction (else 404 "…not in valid state"); the answer keeps onChainState
    and names the requested action; the state changes later."""
    paid = await payment(node)
    ident = {"network": "Preprod", "blockchainIdentifier": paid["blockchainIdentifier"]}
    assert (await post(node, "/purchase", purchase_body(paid))).status_code == 200
    locking = await post(node, "/purchase/request-refund", ident)
    assert locking.status_code == 404
    assert locking.json()["error"]["message"] == "Purchase not found or not in valid state"
    early = await post(node, "/payment/submit-result", {**ident, "submitResultHash": "c" * 64})
    assert early.status_code == 404
    assert early.json()["error"]["message"] == "Payment not found or in invalid state"

    async def purchase() -> dict[str, Any]:
        answer = await post(node, "/purchase/resolve-blockchain-identifier", ident)
        data: dict[str, Any] = answer.json()["data"]
        return data

    await eventually(node, purchase, "onChainState", "FundsLocked")
    asked = await post(node, "/purchase/request-refund", ident)
    assert asked.status_code == 200, asked.text
    assert asked.json()["data"]["onChainState"] == "FundsLocked"
    assert asked.json()["data"]["NextAction"]["requestedAction"] == "SetRefundRequestedRequested"
    busy = await post(node, "/purchase/request-refund", ident)
    assert busy.status_code == 404  # a request already under way
    await eventually(node, purchase, "onChainState", "RefundRequested")
    submitted = await post(node, "/payment/submit-result", {**ident, "submitResultHash": "c" * 64})
    assert submitted.status_code == 200, submitted.text
    assert submitted.json()["data"]["NextAction"]["requestedAction"] == "SubmitResultRequested"
    assert (await purchase())["resultHash"] is None
    await eventually(node, purchase, "onChainState", "Disputed")
    assert (await purchase())["resultHash"] == "c" * 64


async def test_a_forced_concurrent_change_answers_the_real_409(node: Node) -> None:
    """purchases/request-refund/index.ts: Prisma P2025 on the optimistic lock → 409."""
    await node.chain(forced={"/purchase/request-refund": [409]})
    answer = await post(
        node, "/purchase/request-refund", {"network": "Preprod", "blockchainIdentifier": "00"}
    )
    assert answer.status_code == 409
    assert answer.json()["error"]["message"] == (
        "Purchase state changed concurrently; retry against the new state"
    )
