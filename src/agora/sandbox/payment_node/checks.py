"""The local payment node's checks of a request body, with the real node's rules and messages
(express-zod-api schemas and the route handlers of masumi-payment-service aca3833)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from agora.sandbox.payment_node.state import MINUTE_MS, NETWORKS, NodeError

# ez.dateIn() (express-zod-api): an ISO date, or a date-time with Z or no zone
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?)?$")


def check_times(now: int, pay_by: int, submit: int, unlock: int, dispute: int) -> None:
    """The real rules and messages (payments/index.ts, purchases/shared.ts), in their order."""
    if pay_by > submit - 5 * MINUTE_MS:
        raise NodeError(400, "Pay by time must be before submit result time (min. 5 minutes)")
    if pay_by < now - 5 * MINUTE_MS:
        raise NodeError(400, "Pay by time must be in the future (max. 5 minutes)")
    if dispute < unlock + 15 * MINUTE_MS:
        raise NodeError(
            400,
            "External dispute unlock time must be after unlock time (min. 15 minutes difference)",
        )
    if submit < now + 15 * MINUTE_MS:
        raise NodeError(400, "Submit result time must be in the future (min. 15 minutes)")
    if submit > unlock - 15 * MINUTE_MS:
        raise NodeError(
            400,
            "Submit result time must be before unlock time with at least 15 minutes difference",
        )


def network(body: dict[str, Any]) -> str:
    network = body.get("network")
    if network not in NETWORKS:
        raise NodeError(400, "network: Invalid enum value. Expected 'Preprod' | 'Mainnet'")
    return str(network)


def text(body: dict[str, Any], name: str, low: int, high: int) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise NodeError(400, f"{name}: a string of {low}-{high} characters is required")
    return value


def date(body: dict[str, Any], name: str, default: int) -> int:
    """``ez.dateIn()``: an ISO 8601 date string; Unix milliseconds are refused."""
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, str) or not _ISO_DATE.fullmatch(value):
        raise NodeError(400, f"{name}: Invalid date, expected an ISO 8601 string")
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise NodeError(400, f"{name}: Invalid date, expected an ISO 8601 string") from exc
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return int(parsed.timestamp() * 1000)


def ms_text(body: dict[str, Any], name: str) -> int:
    """``POST /purchase`` times: Unix milliseconds as a string (``BigInt(input.x)``)."""
    value = body.get(name)
    if not isinstance(value, str):
        raise NodeError(400, f"{name}: Expected string, received {type(value).__name__}")
    if not value.isdigit():
        raise NodeError(400, f"Cannot convert {value} to a BigInt")
    return int(value)


def node_unit(unit: str) -> str:
    """utils/shared/transformers.ts normalizePurchaseUnit: lovelace is the empty unit."""
    return "" if unit.lower() == "lovelace" else unit


def unit_totals(funds: list[dict[str, str]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for amount in funds:
        unit = node_unit(amount["unit"])
        totals[unit] = totals.get(unit, 0) + int(amount["amount"])
    return totals


def amounts(value: Any, name: str) -> list[dict[str, str]]:
    if not isinstance(value, list) or len(value) > 7:
        raise NodeError(400, f"{name}: a list of at most 7 {{amount, unit}} is required")
    out = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("unit"), str):
            raise NodeError(400, f"{name}: each amount needs a unit and an amount")
        amount = item.get("amount")
        if not isinstance(amount, str) or not amount.isdigit() or len(amount) > 25:
            raise NodeError(400, f"{name}: amount must be a whole number, as a string")
        out.append({"amount": amount, "unit": item["unit"]})
    return out
