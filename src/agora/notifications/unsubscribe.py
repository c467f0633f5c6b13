"""Signed one-click unsubscribe links (RFC 8058): a token names a person and a kind, is signed
with the app's secret key and works without sign-in; it never expires (an old mail's link must
keep working) and does nothing but turn that kind's mail off."""

from __future__ import annotations

import hashlib
import uuid

from itsdangerous import BadData, URLSafeSerializer

from agora.kit.errors import BadRequest

PATH = "/notifications/unsubscribe"
# The digest mail's link names this instead of one kind: it turns off the mail of every kind
# the digest gathers (the digest spans kinds, and one click must stop the mail it came in).
DIGEST = "digest"


def _serializer(secret: str) -> URLSafeSerializer:
    return URLSafeSerializer(
        secret, salt="agora.unsubscribe", signer_kwargs={"digest_method": hashlib.sha256}
    )


def make_token(secret: str, user_id: str, kind: str) -> str:
    return str(_serializer(secret).dumps([user_id, kind]))


def read_token(secret: str, token: str) -> tuple[uuid.UUID, str]:
    try:
        found = _serializer(secret).loads(token)
        user_id, kind = uuid.UUID(str(found[0])), str(found[1])
    except (BadData, ValueError, TypeError, IndexError, KeyError) as exc:
        raise BadRequest.field("token", "is not a valid unsubscribe link") from exc
    return user_id, kind


def url(public_url: str, token: str) -> str:
    return f"{public_url.rstrip('/')}{PATH}?token={token}"


def headers(unsubscribe_url: str) -> tuple[tuple[str, str], ...]:
    """RFC 8058's pair: the link, and the promise that a POST to it is the whole unsubscribe."""
    return (
        ("List-Unsubscribe", f"<{unsubscribe_url}>"),
        ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
    )
