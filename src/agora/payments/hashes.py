"""The two MIP-004 hashes and the purchaser identifier rule (reference: masumi-payment.md).

    inputHash  = sha256_hex(identifierFromPurchaser + ";" + JCS(input_data))   (RFC 8785)
    resultHash = sha256_hex(identifierFromPurchaser + ";" + escaped(result))

``escaped`` is the JSON string encoding of the result without its surrounding quotes (what the
official SDK hashes).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import rfc8785

_PURCHASER_ID = re.compile(r"^[0-9a-fA-F]{14,26}$")
_HASH = re.compile(r"^[0-9a-f]{64}$")


def valid_purchaser_identifier(value: str) -> bool:
    """What the payment node accepts: hex, 14-26 characters."""
    return bool(_PURCHASER_ID.fullmatch(value))


def valid_hash(value: str) -> bool:
    return bool(_HASH.fullmatch(value))


def input_hash(identifier_from_purchaser: str, input_data: dict[str, Any]) -> str:
    canonical = rfc8785.dumps(input_data).decode("utf-8")
    return hashlib.sha256(f"{identifier_from_purchaser};{canonical}".encode()).hexdigest()


def result_hash(identifier_from_purchaser: str, result: str) -> str:
    escaped = json.dumps(result, ensure_ascii=False)[1:-1]
    return hashlib.sha256(f"{identifier_from_purchaser};{escaped}".encode()).hexdigest()
