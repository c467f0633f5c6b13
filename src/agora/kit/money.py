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


# Money (what people pay with a card) is an integer in the currency's minor units, as Stripe
# takes it: "Supported currencies", https://docs.stripe.com/currencies#zero-decimal and
# #three-decimal (the `stripe` SDK 16.1.0 links them from every `amount`). Every other currency
# is two-decimal, the special cases (#special-cases) included: Stripe keeps ISK two-decimal
# (amounts ending in 00), HUF and TWD differ only for payouts, UGX is in the zero-decimal list.
ZERO_DECIMAL = frozenset(
    ["bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga",
     "pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"]
)  # fmt: skip
THREE_DECIMAL = frozenset(["bhd", "jod", "kwd", "omr", "tnd"])


def currency_exponent(currency: str) -> int:
    """Digits after the point of ``currency``'s minor unit, as Stripe counts them: 0 (JPY), 3
    (KWD) or 2 (EUR and the rest)."""
    code = currency.lower()
    return 0 if code in ZERO_DECIMAL else 3 if code in THREE_DECIMAL else 2


def shown_price(price: int, currency: str) -> str:
    """An amount in minor units as people read it, for every door (pages, API, MCP, CLI):
    1000 "eur" → "10.00 EUR", 1000 "jpy" → "1000 JPY", 1500 "kwd" → "1.500 KWD"."""
    exponent = currency_exponent(currency)
    return f"{Decimal(price).scaleb(-exponent):.{exponent}f} {currency.upper()}"
