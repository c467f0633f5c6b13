"""A software authenticator for HTTP-level passkey tests: what a platform authenticator and the
browser produce for ``navigator.credentials.create/get``, built byte for byte after WebAuthn
Level 2 (W3C Recommendation, 2021-04-08): client data (§5.8.1), authenticator data (§6.1),
attested credential data (§6.5.1), the ``none`` attestation (§8.7), an ES256 COSE key
(RFC 9053 §7.1.1, COSE key type EC2 = 2, alg -7, crv P-256 = 1) and the assertion signature
over ``authData || SHA-256(clientDataJSON)`` (§6.3.3). The browser tests use Chromium's own
virtual authenticator instead (tests/web/test_browser_passkeys.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass
class SoftAuthenticator:
    origin: str
    rp_id: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    credential_id: bytes = field(default_factory=lambda: os.urandom(32))
    sign_count: int = 0
    user_handle: str = ""

    def _client_data(self, kind: str, challenge: str) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}
        ).encode()

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    def create(self, public_key: dict[str, Any]) -> dict[str, Any]:
        """The browser's JSON of ``navigator.credentials.create({publicKey})``."""
        self.user_handle = public_key["user"]["id"]
        client_data = self._client_data("webauthn.create", public_key["challenge"])
        auth_data = (
            hashlib.sha256(self.rp_id.encode()).digest()
            + bytes([UP | UV | AT])
            + self.sign_count.to_bytes(4, "big")
            + bytes(16)  # AAGUID: none
            + len(self.credential_id).to_bytes(2, "big")
            + self.credential_id
            + self._cose_key()
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(
        self, public_key: dict[str, Any], *, challenge: str | None = None, advance: int = 1
    ) -> dict[str, Any]:
        """The browser's JSON of ``navigator.credentials.get({publicKey})`` (``challenge``:
        another one than the options'; ``advance``: how far the counter moves, 0 or less for
        a copied authenticator)."""
        self.sign_count += advance
        client_data = self._client_data("webauthn.get", challenge or public_key["challenge"])
        auth_data = (
            hashlib.sha256(self.rp_id.encode()).digest()
            + bytes([UP | UV])
            + max(self.sign_count, 0).to_bytes(4, "big")
        )
        signature = self.key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": self.user_handle,
            },
            "clientExtensionResults": {},
        }
