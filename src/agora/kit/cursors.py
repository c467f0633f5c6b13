"""Opaque, signed, expiring cursors bound to what they page through (DESIGN §3).

A cursor carries a position and a binding (a hash of the caller and the filters). It is signed
with HMAC-SHA256 (itsdangerous) and dated, so a tampered, expired, or re-used-elsewhere cursor is
refused with a 400 that tells the client to restart from the first page.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from itsdangerous import BadData, URLSafeTimedSerializer

from agora.kit.errors import BadRequest

RESTART = (
    "is not valid here (tampered, expired or from another query); "
    "restart from the first page without a cursor"
)


def binding_of(*parts: Any) -> str:
    """A short, stable fingerprint of the caller and the normalised filters."""
    encoded = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(encoded.encode()).hexdigest()[:32]


class CursorSigner:
    def __init__(self, secret: str, *, purpose: str, max_age_seconds: int) -> None:
        self._serializer = URLSafeTimedSerializer(
            secret, salt=f"agora.cursor.{purpose}", signer_kwargs={"digest_method": hashlib.sha256}
        )
        self.max_age_seconds = max_age_seconds

    def encode(self, position: list[Any], binding: str) -> str:
        return str(self._serializer.dumps({"p": position, "b": binding}))

    def decode(self, token: str, binding: str, *, field: str = "cursor") -> list[Any]:
        try:
            payload = self._serializer.loads(token, max_age=self.max_age_seconds)
        except BadData as exc:
            raise BadRequest.field(field, RESTART) from exc
        if not isinstance(payload, dict) or payload.get("b") != binding:
            raise BadRequest.field(field, RESTART)
        position = payload.get("p")
        if not isinstance(position, list):
            raise BadRequest.field(field, RESTART)
        return position
