"""Credits on the wire: the schemas' serializer (``kit.schemas.Credits``) writes base units as
the same JSON float as ``float(kit.money.to_display(...))``, the published rule, for every
amount (the serializer divides directly, which is faster; int / int is correctly rounded)."""

from __future__ import annotations

from typing import Annotated

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, PlainSerializer

from agora.kit.money import BASE_UNITS_PER_CREDIT, to_display
from agora.kit.schemas import Credits


class _Amount(BaseModel):
    credits: Credits


class _ByTheRule(BaseModel):
    credits: Annotated[
        int, PlainSerializer(lambda units: float(to_display(units)), return_type=float)
    ]


@settings(max_examples=3000, deadline=None)
@given(
    st.one_of(
        st.integers(min_value=-(10**12), max_value=10**12),
        st.integers(min_value=0, max_value=10**18),
        st.integers(min_value=0, max_value=10**7).map(lambda n: n * BASE_UNITS_PER_CREDIT),
    )
)
def test_credits_serialise_as_the_display_rule_says(base_units: int) -> None:
    written = _Amount(credits=base_units).model_dump_json()
    assert written == _ByTheRule(credits=base_units).model_dump_json()
    assert _Amount(credits=base_units).model_dump()["credits"] == float(to_display(base_units))
