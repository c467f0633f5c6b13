"""What Stripe can charge: the currencies a credit pack may be priced in, each one's minimum charge,
and the amounts a three-decimal currency refuses (docs/billing.md, "Currencies").

Sources: Stripe's "Supported currencies" page, https://docs.stripe.com/currencies —
"Minimum and maximum charge amounts" (#minimum-and-maximum-charge-amounts) and "Three-decimal
currencies" (#three-decimal); the `stripe` SDK 16.1.0 (``params/_payment_intent_create_params.py``,
``amount``): "The minimum amount is $0.50 US or equivalent in charge currency. The amount value
supports up to eight digits". The exponent and the formatting are ``kit.money``'s.
"""

from __future__ import annotations

from agora.kit.money import THREE_DECIMAL, shown_price

# Stripe's "Minimum and maximum charge amounts" table, in minor units.
STRIPE_MINIMUM: dict[str, int] = {
    "usd": 50, "aed": 200, "aud": 50, "bgn": 100, "brl": 50, "cad": 50, "chf": 50,
    "czk": 1500, "dkk": 250, "eur": 50, "gbp": 30, "hkd": 400, "huf": 17500, "inr": 50,
    "jpy": 50, "mxn": 1000, "myr": 200, "nok": 300, "nzd": 50, "pln": 200, "ron": 200,
    "sek": 300, "sgd": 50, "thb": 1000,
}  # fmt: skip
# Currencies outside that table are charged if they are worth "$0.50 US or equivalent" at the
# day's rate, which Agora cannot know offline. Agora sells the three-decimal currencies with a
# floor of its own, about USD 0.65 (30 % above Stripe's rule, room for the rate to move), and
# refuses every other currency outside the table rather than let buyers meet Stripe's 400.
AGORA_FLOOR: dict[str, int] = {"bhd": 250, "jod": 500, "kwd": 200, "omr": 250, "tnd": 2000}
MINIMUM: dict[str, int] = {**STRIPE_MINIMUM, **AGORA_FLOOR}
# "The amount value supports up to eight digits" (the SDK's ``amount``).
MAXIMUM = 99_999_999


def minimum_charge(currency: str) -> int | None:
    """The smallest price, in minor units, Agora sells in ``currency`` (None: not sold)."""
    return MINIMUM.get(currency.lower())


def price_problem(price: int, currency: str) -> tuple[str, str] | None:
    """Why Stripe would refuse to charge ``price`` minor units of ``currency``, as (field,
    rule in words), or None when it can be charged."""
    code = currency.lower()
    least = minimum_charge(code)
    if least is None:
        sold = ", ".join(sorted(MINIMUM))
        return "currency", (
            f"{code} is not sold: Agora knows the minimum charge of these currencies only "
            f"(Stripe's table and Agora's floors, docs/billing.md): {sold}"
        )
    if not least <= price <= MAXIMUM:
        whose = (
            "the least Stripe charges in"
            if code in STRIPE_MINIMUM
            else "Agora's floor (Stripe charges at least USD 0.50 or the equivalent) for"
        )
        return "price", (
            f"must be from {shown_price(least, code)} ({least}) to {MAXIMUM} minor units: "
            f"{shown_price(least, code)} is {whose} {code.upper()}"
        )
    if code in THREE_DECIMAL and price % 10:
        return "price", (
            f"must end in 0: Stripe charges {code.upper()} (three decimals) in steps of "
            f"{shown_price(10, code)}, so {price} minor units cannot be charged"
        )
    return None
