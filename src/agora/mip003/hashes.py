"""The two MIP-004 hashes and the purchaser identifier rule (reference: masumi-payment.md).

    inputHash  = sha256_hex(identifierFromPurchaser + ";" + canonical(input_data))
    resultHash = sha256_hex(identifierFromPurchaser + ";" + payload(result))

Each has two rules in the wild, and Agora computes both (docs/payments.md, "The two hashes"):

- input, ``sdk``: Matrix canonical JSON — what the official ``masumi`` SDK
  (``helper_functions.create_masumi_input_hash``: ``canonicaljson.encode_canonical_json``) and
  MIP-004's reference code use: keys sorted by code point, no whitespace, UTF-8, floats as
  Python writes them (``1.0``, ``1e+16``, ``1e-07``, ``-0.0``). Agora builds it with the
  standard library exactly as ``canonicaljson`` 2.0 does (one ``json.JSONEncoder``), so no
  extra dependency; ``tests/payments/test_hashes.py`` checks it against the SDK's functions.
- input, ``jcs``: RFC 8785, what MIP-004's text says.
- result, ``sdk``: the JSON string encoding of the result without its quotes
  (``create_masumi_output_hash``).
- result, ``raw``: the raw string, what MIP-004's text (step 2.1) says.

An agent's hash is accepted when it equals either rule's; ``match_*`` says which one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from typing import Any

import rfc8785

_PURCHASER_ID = re.compile(r"^[0-9a-fA-F]{14,26}$")
_HASH = re.compile(r"^[0-9a-f]{64}$")

# canonicaljson 2.0.0's encoder, verbatim (``_canonical_encoder``)
_MATRIX = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, separators=(",", ":"), sort_keys=True
)


def valid_purchaser_identifier(value: str) -> bool:
    """What the payment node accepts: hex, 14-26 characters."""
    return bool(_PURCHASER_ID.fullmatch(value))


def valid_hash(value: str) -> bool:
    return bool(_HASH.fullmatch(value))


def _digest(identifier_from_purchaser: str, payload: str) -> str:
    return hashlib.sha256(f"{identifier_from_purchaser};{payload}".encode()).hexdigest()


def matrix_canonical(input_data: Any) -> str:
    """Matrix canonical JSON (``canonicaljson.encode_canonical_json``), as text."""
    return _MATRIX.encode(input_data)


def jcs_canonical(input_data: Any) -> str:
    """RFC 8785 (JCS), as text."""
    return rfc8785.dumps(input_data).decode("utf-8")


def input_hashes(identifier_from_purchaser: str, input_data: dict[str, Any]) -> dict[str, str]:
    """The input hash under each rule, the SDK's first. RFC 8785 has no form for integers
    beyond 2**53 (``rfc8785`` refuses them): such an input has only the SDK's hash."""
    found = {"sdk": _digest(identifier_from_purchaser, matrix_canonical(input_data))}
    with contextlib.suppress(rfc8785.CanonicalizationError, ValueError, TypeError):
        found["jcs"] = _digest(identifier_from_purchaser, jcs_canonical(input_data))
    return found


def input_hash(identifier_from_purchaser: str, input_data: dict[str, Any]) -> str:
    """The SDK's rule: what SDK-built agents (and Agora's own sellers) produce."""
    return input_hashes(identifier_from_purchaser, input_data)["sdk"]


def match_input_hash(
    identifier_from_purchaser: str, input_data: dict[str, Any], given: str | None
) -> str | None:
    """The rule whose input hash equals ``given`` (``sdk`` before ``jcs``), else None."""
    if not given:
        return None
    for rule, digest in input_hashes(identifier_from_purchaser, input_data).items():
        if digest == given.lower():
            return rule
    return None


def result_hashes(identifier_from_purchaser: str, result: str) -> dict[str, str]:
    """The result hash under each rule, the SDK's first."""
    escaped = json.dumps(result, ensure_ascii=False)[1:-1]
    return {
        "sdk": _digest(identifier_from_purchaser, escaped),
        "raw": _digest(identifier_from_purchaser, result),
    }


def result_hash(identifier_from_purchaser: str, result: str) -> str:
    """The SDK's rule (JSON-escaped)."""
    return result_hashes(identifier_from_purchaser, result)["sdk"]


def match_result_hash(identifier_from_purchaser: str, result: str, given: str | None) -> str | None:
    """The rule whose result hash equals ``given`` (``sdk`` before ``raw``), else None."""
    if not given:
        return None
    for rule, digest in result_hashes(identifier_from_purchaser, result).items():
        if digest == given.lower():
            return rule
    return None
