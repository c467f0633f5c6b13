"""Credits: integers in base units inside, display units (a number) in the API.

One display credit is 10**CREDIT_DECIMALS base units. Never use floats for arithmetic.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

CREDIT_DECIMALS = 6
BASE_UNITS_PER_CREDIT: int = 10**CREDIT_DECIMALS
# Every amount is stored in a 64-bit integer column: a trillion credits is the ceiling.
MAX_CREDITS = 10**12


def to_display(base_units: int) -> float | int:
    """Base units as a JSON number in display units (an int when whole)."""
    if base_units % BASE_UNITS_PER_CREDIT == 0:
        return int(base_units // BASE_UNITS_PER_CREDIT)
    return float(Decimal(base_units) / Decimal(BASE_UNITS_PER_CREDIT))


def to_base(display: float | int | str | Decimal) -> int:
    """Display credits to base units; more precision than the base unit is rejected."""
    try:
        value = Decimal(str(display))
    except InvalidOperation as exc:
        raise ValueError("not a number") from exc
    if not value.is_finite():
        raise ValueError("not a finite number")
    if abs(value) > MAX_CREDITS:
        raise ValueError(f"at most {MAX_CREDITS} credits")
    scaled = value * BASE_UNITS_PER_CREDIT
    if scaled != scaled.to_integral_value():
        raise ValueError(f"at most {CREDIT_DECIMALS} decimal places")
    return int(scaled.to_integral_value(ROUND_HALF_EVEN))


def fee_for(price: int, fee_bps: int) -> int:
    """Marketplace fee on a base price, in base units, rounded half-even."""
    return int((Decimal(price) * fee_bps / 10_000).to_integral_value(ROUND_HALF_EVEN))


def shown_price(price: int, currency: str) -> str:
    """1000, "eur" → "10.00 EUR" (two-decimal currencies; docs/billing.md)."""
    return f"{Decimal(price) / 100:.2f} {currency.upper()}"
