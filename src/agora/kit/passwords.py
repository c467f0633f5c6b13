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

# argon2-cffi's defaults are RFC 9106's low-memory profile of Argon2id.
_hasher = PasswordHasher()
# Verified against when the account does not exist, so both answers take the same time.
_DUMMY_HASH = _hasher.hash("agora-no-such-account-placeholder")


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
        return _hasher.verify(stored or _DUMMY_HASH, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return _hasher.check_needs_rehash(stored)
