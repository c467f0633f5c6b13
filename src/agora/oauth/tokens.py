"""OAuth token material: prefixed random secrets (Authlib's generator), stored as SHA-256, and
the lifetimes (docs/accounts.md, "Connecting a client by OAuth")."""

from __future__ import annotations

import secrets
from datetime import timedelta

from agora.auth.service import ACCESS_PREFIX
from agora.kit.security import hash_key
from agora.oauth.rfc import generate_token

__all__ = ["ACCESS_PREFIX", "generate_token"]

REFRESH_PREFIX = "agora_ort_"
CODE_PREFIX = "agora_oac_"
CLIENT_ID_PREFIX = "agora_ocl_"
CLIENT_SECRET_PREFIX = "agora_ocs_"

ACCESS_LIFETIME = timedelta(minutes=10)  # short: a leaked access token is good for minutes
REFRESH_LIFETIME = timedelta(days=30)  # rotated on every use
CODE_LIFETIME = timedelta(minutes=1)
DEVICE_LIFETIME = timedelta(minutes=10)
DEVICE_INTERVAL_SECONDS = 5

# RFC 8628 §6.1: user codes from 20 consonants (no vowels: no words), 8 characters shown as
# XXXX-XXXX, about 34 bits; guessing is bounded by the code's lifetime and the sign-in.
USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"


def new_secret(prefix: str) -> tuple[str, str]:
    """A random secret (48 characters from Authlib's generator, ~285 bits) and its SHA-256."""
    plaintext = prefix + generate_token(48)
    return plaintext, hash_key(plaintext)


def new_user_code() -> str:
    return "".join(secrets.choice(USER_CODE_ALPHABET) for _ in range(8))


def normalize_user_code(value: str) -> str:
    """What a person typed → the stored form (case, dashes and spaces do not matter)."""
    return "".join(c for c in value.upper() if c.isalnum())[:16]


def show_user_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"
