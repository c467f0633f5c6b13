"""The local payment node's objects as the real node answers them: only the real fields
(``purchaseResponseSchema`` in ``purchases/schemas.ts``, ``paymentResponseSchema`` in
``payments/schemas.ts``): a Purchase has no ``identifierFromPurchaser``, ``network`` or
``sellerVkey``; times are Unix-ms strings, dates ISO strings."""

from __future__ import annotations

from typing import Any

from agora.sandbox.payment_node.state import WAITING_MANUAL, Escrow, iso


def _transaction(escrow: Escrow) -> dict[str, Any] | None:
    if escrow.tx_hash is None:
        return None
    return {
        "id": escrow.tx_hash[:24],
        "createdAt": iso(escrow.tx_at),
        "updatedAt": iso(escrow.tx_at),
        "txHash": escrow.tx_hash,
        "status": "Confirmed",
        "fees": "180000",
        "blockHeight": None,
        "blockTime": None,
        "previousOnChainState": escrow.previous_state,
        "newOnChainState": escrow.on_chain_state,
        "confirmations": 1,
    }


def _common(escrow: Escrow, action: str) -> dict[str, Any]:
    changed = iso(escrow.updated_at)
    return {
        "createdAt": iso(escrow.created_at),
        "updatedAt": changed,
        "blockchainIdentifier": escrow.blockchain_identifier,
        "agentIdentifier": escrow.agent_identifier,
        "agentName": None,
        "pricingType": escrow.pricing_type,
        "lastCheckedAt": None,
        "payByTime": str(escrow.pay_by_time),
        "submitResultTime": str(escrow.submit_result_time),
        "unlockTime": str(escrow.unlock_time),
        "externalDisputeUnlockTime": str(escrow.external_dispute_unlock_time),
        "totalBuyerCardanoFees": 0,
        "totalSellerCardanoFees": 0,
        "nextActionOrOnChainStateOrResultLastChangedAt": changed,
        "nextActionLastChangedAt": changed,
        "onChainStateOrResultLastChangedAt": changed,
        "requestedById": "local-api-key",
        "onChainState": escrow.on_chain_state,
        "collateralReturnLovelace": None,
        "buyerReturnAddress": None,
        "sellerReturnAddress": escrow.seller_return_address,
        "cooldownTime": 0,
        "cooldownTimeOtherParty": 0,
        "inputHash": escrow.input_hash,
        "resultHash": escrow.result_hash,
        "NextAction": {
            "requestedAction": action,
            "errorType": "Unknown" if action == WAITING_MANUAL else None,
            "errorNote": escrow.error_note if action == WAITING_MANUAL else None,
        },
        "CurrentTransaction": _transaction(escrow),
        "WithdrawnForSeller": [],
        "WithdrawnForBuyer": [],
        "PaymentSource": {
            "id": "local-payment-source",
            "network": escrow.network,
            "paymentSourceType": escrow.payment_source_type,
            "smartContractAddress": escrow.smart_contract_address,
            "policyId": escrow.agent_identifier[:56],
        },
        "SmartContractWallet": None,
    }


def purchase_view(escrow: Escrow) -> dict[str, Any]:
    """purchaseResponseSchema (purchases/schemas.ts)."""
    return {
        "id": escrow.purchase_id,
        **_common(escrow, escrow.purchase_action),
        "PaidFunds": escrow.paid_funds,
        "SellerWallet": {"id": "local-seller-wallet", "walletVkey": escrow.seller_vkey},
        "metadata": escrow.purchase_metadata,
    }


def payment_view(escrow: Escrow) -> dict[str, Any]:
    """paymentResponseSchema (payments/schemas.ts)."""
    view = {
        "id": escrow.payment_id,
        **_common(escrow, escrow.payment_action),
        "resultHash": escrow.result_hash or "",  # created with resultHash: ""
        "RequestedFunds": escrow.requested_funds,
        "BuyerWallet": None,
        "metadata": escrow.metadata,
    }
    view["NextAction"]["resultHash"] = escrow.submitted_hash or escrow.result_hash
    return view
