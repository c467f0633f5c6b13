"""A developer's credential for their A2A agent, sealed at rest (AES-256-GCM under a key derived
from the app's secret key, as the web's flash messages are), opened only by the dispatcher for
the call it makes; never shown, never logged (docs/a2a.md, "Credentials")."""

from __future__ import annotations

import base64
import hashlib
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PREFIX = "v1:"


def _cipher(secret_key: str) -> AESGCM:
    return AESGCM(hashlib.sha256(b"agora a2a credential\0" + secret_key.encode()).digest())


def seal(secret_key: str, agent_id: str, credential: str) -> str:
    """The stored form (bound to the agent: a sealed value copied to another row won't open)."""
    nonce = os.urandom(12)
    sealed = _cipher(secret_key).encrypt(nonce, credential.encode(), agent_id.encode())
    return PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode()


def open_sealed(secret_key: str, agent_id: str, stored: str | None) -> str | None:
    """The credential, or None when there is none or it cannot be opened (a changed secret
    key: the developer sets it again)."""
    if not stored or not stored.startswith(PREFIX):
        return None
    raw = base64.urlsafe_b64decode(stored[len(PREFIX) :].encode())
    try:
        return _cipher(secret_key).decrypt(raw[:12], raw[12:], agent_id.encode()).decode()
    except (InvalidTag, ValueError):
        return None
