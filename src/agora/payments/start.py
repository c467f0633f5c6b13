"""What a paid agent's ``/start_job`` answer means for payment (docs/payments.md): its payment
fields checked before anything is bought — the MIP-004 input hash, the contract's times, the
seller's signed payment source and amounts, a Dynamic price in credits — and the job's payment
record (``payment``) the purchase is made from (``payments/masumi.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agora.dispatch.payment import StartPlan
from agora.kit.money import fee_for, to_display
from agora.mip003 import hashes
from agora.mip003.types import (
    PAYMENT_IDENTITY_FIELDS,
    PAYMENT_TIME_FIELDS,
    StartedJob,
    unix_ms,
)
from agora.models import Job
from agora.models.statuses import JobType, PricingType
from agora.payments.states import MASUMI
from agora.settings import Settings

DYNAMIC = PricingType.DYNAMIC.value  # job.payment["pricing"] of a Dynamic-priced job
HOUR_MS = 3_600_000
REQUIRED = PAYMENT_TIME_FIELDS + PAYMENT_IDENTITY_FIELDS

# The V2 payment-source fields of a /start_job answer (masumi-payment-service aca3833,
# src/routes/api/purchases/schemas.ts createPurchaseInitSchemaInput): inside the seller's
# signature (purchases/shared.ts buildSignedBlockchainIdentifierPayload), forwarded to the
# purchase as given.
SOURCE_TEXT_FIELDS = ("paymentSourceType", "sellerReturnAddress", "smartContractAddress")
PAYMENT_SOURCE_TYPES = ("Web3CardanoV1", "Web3CardanoV2")


def signed_source_fields(raw: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    found: dict[str, Any] = {}
    for name in SOURCE_TEXT_FIELDS:
        value = raw.get(name)
        if value in (None, ""):
            continue
        if not isinstance(value, str) or len(value) > 250:
            return {}, f"{name} must be a string of at most 250 characters"
        found[name] = value
    if found.get("paymentSourceType", PAYMENT_SOURCE_TYPES[0]) not in PAYMENT_SOURCE_TYPES:
        return {}, "paymentSourceType must be Web3CardanoV1 or Web3CardanoV2"
    index = raw.get("supportedPaymentSourceIndex")
    if index is not None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 24:
            return {}, "supportedPaymentSourceIndex must be an integer from 0 to 24"
        found["supportedPaymentSourceIndex"] = index
    return found, None


def signed_amounts(raw: Mapping[str, Any]) -> tuple[list[dict[str, str]] | None, str | None]:
    """The seller's signed amounts: ``Amounts`` (the purchase's name), ``RequestedFunds`` (the
    node's payment object) or ``amounts`` (older agents); each ``{amount, unit}``, at most 7
    (the node's limit), whole positive amounts."""
    for name in ("Amounts", "RequestedFunds", "amounts"):
        value = raw.get(name)
        if value is None or value == []:
            continue
        if not isinstance(value, list) or len(value) > 7:
            return None, f"{name} must be a list of at most 7 {{amount, unit}}"
        out: list[dict[str, str]] = []
        for item in value:
            if not isinstance(item, dict):
                return None, f"each of {name} must be an {{amount, unit}} object"
            amount, unit = item.get("amount"), item.get("unit", "")
            text = str(amount) if isinstance(amount, (int, str)) and amount is not True else ""
            if not text.isdigit() or len(text) > 25 or int(text) <= 0:
                return None, f"{name}: each amount must be a positive whole number"
            if not isinstance(unit, str) or len(unit) > 150:
                return None, f"{name}: each unit must be a string of at most 150 characters"
            out.append({"amount": text, "unit": unit})
        return out, None
    return None, None


def _unit(unit: str) -> str:
    """The node's unit: lovelace is the empty unit (masumi-payment-service aca3833,
    src/utils/shared/transformers.ts normalizePurchaseUnit)."""
    return "" if unit.lower() == "lovelace" else unit


def start_plan(job: Job, started: StartedJob, settings: Settings) -> StartPlan:
    """The payment fields of ``started`` checked (a failure names the first problem; nothing is
    bought then), and the job's fields for the purchase the dispatcher makes next."""
    raw = started.raw
    dynamic = (job.payment or {}).get("pricing") == DYNAMIC
    if dynamic and not raw.get("blockchainIdentifier"):  # its price is the seller's to name
        return StartPlan(
            failure="the Dynamic-priced agent answered without payment fields; nothing was bought"
        )
    if job.job_type != JobType.PAID or not raw.get("blockchainIdentifier"):
        return StartPlan()  # a free job, or an agent that sells through Agora's credits
    missing = [k for k in REQUIRED if raw.get(k) in (None, "")]
    if missing:
        return StartPlan(failure=f"the agent's /start_job answer lacks {', '.join(missing)}")
    echo = raw.get("identifierFromPurchaser")
    if echo is not None and echo != job.identifier_from_purchaser:
        return StartPlan(failure="the agent echoed another identifierFromPurchaser")
    rule, problem = _input_hash_rule(job, started)
    if rule is None:
        return StartPlan(failure=problem)
    payment, problem = _payment(job, raw, rule, settings)
    if payment is None:
        return StartPlan(failure=problem)
    fields: dict[str, Any] = {}
    if dynamic:
        charged, problem = dynamic_charge(job, payment.get("amounts"), settings)
        if charged is None:
            return StartPlan(failure=problem)
        payment["chargedCredits"], fields["fee"] = charged
    data = job.input_data or {}
    return StartPlan(
        fields={
            **fields,
            "payment_backend": MASUMI,
            "blockchain_identifier": str(raw["blockchainIdentifier"]),
            "input_hash": hashes.input_hashes(job.identifier_from_purchaser, data)[rule],
            "on_chain_status": None,
            "agent_job_status": "awaiting_payment",
            "payment": payment,
        },
        detail={"inputHashRule": rule},
    )


def _input_hash_rule(job: Job, started: StartedJob) -> tuple[str | None, str | None]:
    """The MIP-004 rule the agent's input hash follows (the SDK's canonical JSON or RFC 8785),
    or None and the mismatch in words."""
    data = job.input_data or {}
    rule = hashes.match_input_hash(job.identifier_from_purchaser, data, started.input_hash)
    if rule is not None:
        return rule, None
    computed = hashes.input_hashes(job.identifier_from_purchaser, data)
    return None, (
        f"input hash mismatch: the agent sent {started.input_hash!r}, MIP-004 gives "
        f"{computed['sdk']!r} (the SDK's canonical JSON)"
        + (f" or {computed['jcs']!r} (RFC 8785)" if "jcs" in computed else "")
        + "; nothing was bought"
    )


def _payment(
    job: Job, raw: Mapping[str, Any], rule: str, settings: Settings
) -> tuple[dict[str, Any] | None, str | None]:
    """The job's payment record: the contract's times, the seller's identity, its signed
    payment source and amounts (or why they cannot be used)."""
    pay_by, submit = unix_ms(raw.get("payByTime")), unix_ms(raw.get("submitResultTime"))
    if pay_by is None or submit is None:
        return None, "payByTime and submitResultTime must be Unix milliseconds"
    unlock = unix_ms(raw.get("unlockTime")) or submit + 6 * HOUR_MS
    dispute = unix_ms(raw.get("externalDisputeUnlockTime")) or submit + 12 * HOUR_MS
    source, problem = signed_source_fields(raw)
    amounts: list[dict[str, str]] | None = None
    if problem is None:
        amounts, problem = signed_amounts(raw)
    if problem is not None:
        return None, f"the agent's /start_job answer: {problem}"
    payment: dict[str, Any] = {
        **(job.payment or {}),
        "network": settings.masumi.network,
        "agentIdentifier": str(raw["agentIdentifier"]),
        "sellerVKey": str(raw["sellerVKey"]),
        "payByTime": pay_by,
        "submitResultTime": submit,
        "unlockTime": unlock,
        "externalDisputeUnlockTime": dispute,
        "inputHashRule": rule,
        "purchased": False,
    }
    if source:
        payment["source"] = source  # V2: inside the seller's signature, forwarded unchanged
    if amounts is not None:
        payment["amounts"] = amounts  # the seller's signed amounts: the purchase's Amounts
    return payment, None


def dynamic_charge(
    job: Job, amounts: list[dict[str, str]] | None, settings: Settings
) -> tuple[tuple[int, int] | None, str | None]:
    """A Dynamic-priced job: what the seller's signed amounts cost in credits (the agent's
    part, rounded up, plus the marketplace fee), refused above the ceiling the buyer
    accepted (``job.price``, the amount held)."""
    if not amounts:
        return None, "the Dynamic-priced agent answered without its signed amounts"
    per_credit = settings.masumi.units_per_credit
    if per_credit <= 0:
        return None, (
            "a Dynamic-priced agent cannot be priced in credits: "
            "AGORA_MASUMI_UNITS_PER_CREDIT is not set; nothing was bought"
        )
    unit = _unit(settings.masumi.price_unit)
    others = sorted({a["unit"] or "lovelace" for a in amounts if _unit(a["unit"]) != unit})
    if others:
        return None, (
            f"the agent asks to be paid in {', '.join(others)}; Agora prices only "
            f"{settings.masumi.price_unit}; nothing was bought"
        )
    units = sum(int(a["amount"]) for a in amounts)
    agent_part = -(-units // per_credit)  # base credits, rounded up
    fee = fee_for(agent_part, settings.catalogue.marketplace_fee_bps)
    total = agent_part + fee
    if total > job.price:
        return None, (
            f"the agent asks {to_display(total)} credits (fee included), above the "
            f"{to_display(job.price)} you accept; nothing was bought"
        )
    return (total, fee), None
