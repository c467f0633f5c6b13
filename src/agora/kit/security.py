"""API key material: random, prefixed, shown once, stored as SHA-256, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

KEY_PREFIX = "agora"
KIND_TAGS = {"user": "usr", "coworker": "cow", "admin": "adm"}
_DISPLAY_CHARS = 14


@dataclass(frozen=True)
class NewKey:
    plaintext: str
    prefix: str
    key_hash: str


def hash_key(plaintext: str) -> str:
    # The secret has 256 bits of entropy, so a fast unsalted hash is safe and indexable.
    return hashlib.sha256(plaintext.encode("utf-8")).hexdigest()


def generate_key(kind: str) -> NewKey:
    plaintext = f"{KEY_PREFIX}_{KIND_TAGS[kind]}_{secrets.token_urlsafe(32)}"
    return NewKey(plaintext, plaintext[:_DISPLAY_CHARS], hash_key(plaintext))


def hashes_match(stored: str, presented_hash: str) -> bool:
    return hmac.compare_digest(stored.encode(), presented_hash.encode())


def new_token() -> tuple[str, str]:
    """A random URL-safe secret (256 bits) and its SHA-256 for storage."""
    plaintext = secrets.token_urlsafe(32)
    return plaintext, hash_key(plaintext)


def csrf_token(secret_key: str, session_token: str) -> str:
    """The CSRF token bound to one browser session (HMAC of the session secret): nothing to
    store, and it changes whenever the session is rotated."""
    mac = hmac.new(secret_key.encode(), b"csrf:" + session_token.encode(), hashlib.sha256)
    return mac.hexdigest()


def csrf_matches(secret_key: str, session_token: str, presented: str | None) -> bool:
    if not presented:
        return False
    return hmac.compare_digest(csrf_token(secret_key, session_token).encode(), presented.encode())
