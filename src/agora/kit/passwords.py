"""Passwords: Argon2id hashing (argon2-cffi) and the rules a user can read.

Rules (``PASSWORD_RULES``, also served by ``GET /v1/auth/password-rules``):
- 10 to 128 characters;
- not a common password, word, name, date, keyboard pattern or repetition, and not built from
  the account's email or name: zxcvbn (its shipped frequency lists of breached passwords, words
  and names) must rate it at least 3 of 4 ("safely unguessable").

zxcvbn refuses to rate more than 72 characters (``ValueError``); Argon2 has no such limit. A
longer password (73 to 128 characters) is rated on its first 72 and on its last 72 characters
and is accepted when either window is strong: a guesser has to find the whole password, which
contains that strong window, so the whole is at least as strong (docs/security.md).
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn

MIN_LENGTH = 10
MAX_LENGTH = 128
MIN_SCORE = 3
RATED_LENGTH = 72  # the most zxcvbn rates
PASSWORD_RULES = [
    f"at least {MIN_LENGTH} and at most {MAX_LENGTH} characters",
    "not a common or breached password, word, name, date, keyboard pattern or repetition",
    "not built from your email address or your name",
]

# Argon2id profiles (``AGORA_PASSWORD_HASH_PROFILE``). "default": argon2-cffi's defaults, RFC 9106's
# low-memory profile (64 MiB, 3 passes, 4 lanes: about 50 ms a hash). "test": one pass over
# 64 KiB (well under a millisecond), for the test suite only — Settings refuses it when
# AGORA_ENVIRONMENT=production. A hash records its own parameters, so either profile verifies
# the other's hashes (and ``needs_rehash`` says when a stored hash is of the other one).
PROFILES: dict[str, PasswordHasher] = {
    "default": PasswordHasher(),
    "test": PasswordHasher(time_cost=1, memory_cost=64, parallelism=1),
}
_DUMMY_PASSWORD = "agora-no-such-account-placeholder"
_hasher = PROFILES["default"]
# Verified against when the account does not exist, so both answers take the same time (made on
# first use, in the profile in use then).
_dummy_hashes: dict[str, str] = {}
_profile = "default"


def use_profile(name: str) -> None:
    """Hash new passwords with profile ``name`` (``create_app`` applies the setting)."""
    global _hasher, _profile
    _hasher, _profile = PROFILES[name], name


def _dummy_hash() -> str:
    found = _dummy_hashes.get(_profile)
    if found is None:
        found = _dummy_hashes[_profile] = _hasher.hash(_DUMMY_PASSWORD)
    return found


def password_problem(password: str, *, email: str = "", name: str = "") -> str | None:
    """Why ``password`` is refused (a sentence for the user), or None when it is acceptable."""
    if len(password) < MIN_LENGTH:
        return f"must be at least {MIN_LENGTH} characters"
    if len(password) > MAX_LENGTH:
        return f"must be at most {MAX_LENGTH} characters"
    inputs = [part for part in (email, email.split("@")[0], name, "agora") if part]
    windows = [password[:RATED_LENGTH]]
    if len(password) > RATED_LENGTH:
        windows.append(password[-RATED_LENGTH:])
    results = [zxcvbn(window, user_inputs=inputs) for window in windows]
    result = max(results, key=lambda rated: int(rated["score"]))
    if int(result["score"]) < MIN_SCORE:
        feedback = result.get("feedback") or {}
        warning = str(feedback.get("warning") or "").strip()
        reason = "is too easy to guess (common, breached or built from a pattern or your details)"
        return f"{reason}: {warning.rstrip('.')}" if warning else reason
    return None


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Constant work whether or not there is a stored hash."""
    try:
        return _hasher.verify(stored or _dummy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return _hasher.check_needs_rehash(stored)
