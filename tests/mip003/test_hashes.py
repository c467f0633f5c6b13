"""The MIP-004 hashes against the official SDK's own functions (``masumi`` 1.2.0,
``masumi/helper_functions.py``: ``create_masumi_input_hash``, ``create_masumi_output_hash``) and
MIP-004's text (masumi-improvement-proposals ``MIPs/MIP-004/MIP-004.md``: JCS for the input,
the raw string for the output)."""

from __future__ import annotations

import hashlib
import warnings
from typing import Any

import pytest
import rfc8785

from agora.mip003 import hashes

with warnings.catch_warnings():  # the SDK's package uses pydantic class Config and on_event
    warnings.simplefilter("ignore", DeprecationWarning)
    from masumi.helper_functions import create_masumi_input_hash, create_masumi_output_hash

PURCHASER = "0123456789abcdef0123"

INPUTS: list[tuple[str, dict[str, Any]]] = [
    ("empty", {}),
    ("one point zero", {"n": 1.0}),
    ("two point zero", {"n": 2.0}),
    ("1e16", {"n": 1e16}),
    ("1e-7", {"n": 1e-7}),
    ("negative zero", {"n": -0.0}),
    ("non-BMP keys", {"\U0001f600": 1, "\uffff": 2, "a": 3}),
    ("unicode values", {"text": "héllo wörld — 日本語 😀", "sep": "\u2028\u2029"}),
    ("escapes", {"q": 'say "hi"\n\t\\', "ctl": "\x00\x1f"}),
    ("nesting", {"z": {"b": [1, 2.5, {"y": None, "x": True}], "a": {}}, "a": []}),
    ("integers", {"big": 2**53 - 1, "neg": -7, "zero": 0}),
]
# The inputs where the two canonical forms differ (the SDK's is the one agents produce).
DIFFERENT = {"one point zero", "two point zero", "1e16", "1e-7", "negative zero", "non-BMP keys"}


@pytest.mark.parametrize(("name", "data"), INPUTS, ids=[n for n, _ in INPUTS])
def test_the_input_hash_is_the_sdks_and_the_rfc_8785_one_is_computed_too(
    name: str, data: dict[str, Any]
) -> None:
    sdk = create_masumi_input_hash(data, PURCHASER)
    jcs = hashlib.sha256(f"{PURCHASER};{rfc8785.dumps(data).decode()}".encode()).hexdigest()
    both = hashes.input_hashes(PURCHASER, data)
    assert both == {"sdk": sdk, "jcs": jcs}
    assert hashes.input_hash(PURCHASER, data) == sdk
    assert hashes.match_input_hash(PURCHASER, data, sdk) == "sdk"
    assert (sdk != jcs) is (name in DIFFERENT)
    if sdk != jcs:
        assert hashes.match_input_hash(PURCHASER, data, jcs) == "jcs"
    assert hashes.match_input_hash(PURCHASER, data, "0" * 64) is None
    assert hashes.match_input_hash(PURCHASER, data, None) is None


def test_an_integer_beyond_rfc_8785s_domain_still_has_the_sdks_hash() -> None:
    data = {"big": 2**53 + 1}
    sdk = create_masumi_input_hash(data, PURCHASER)
    assert hashes.input_hashes(PURCHASER, data) == {"sdk": sdk}
    assert hashes.match_input_hash(PURCHASER, data, sdk) == "sdk"


RESULTS = [
    ("plain", "HELLO"),
    ("empty", ""),
    ("newline and quotes", 'line one\nline "two"\t\\end'),
    ("unicode", "héllo 😀 \u2028"),
    ("control", "\x00\x07"),
]
ESCAPED_DIFFERS = {"newline and quotes", "control"}


@pytest.mark.parametrize(("name", "result"), RESULTS, ids=[n for n, _ in RESULTS])
def test_the_result_hash_accepts_the_sdks_escaped_rule_and_mip_004s_raw_rule(
    name: str, result: str
) -> None:
    sdk = create_masumi_output_hash(result, PURCHASER)
    raw = hashlib.sha256(f"{PURCHASER};{result}".encode()).hexdigest()  # MIP-004 step 2.1
    assert hashes.result_hashes(PURCHASER, result) == {"sdk": sdk, "raw": raw}
    assert hashes.result_hash(PURCHASER, result) == sdk
    assert hashes.match_result_hash(PURCHASER, result, sdk) == "sdk"
    assert hashes.match_result_hash(PURCHASER, result, raw) == ("raw" if raw != sdk else "sdk")
    assert (sdk != raw) is (name in ESCAPED_DIFFERS)
    assert hashes.match_result_hash(PURCHASER, result, "f" * 64) is None
