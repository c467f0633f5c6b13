"""OAuth 2.1 (docs/accounts.md, "Connecting a client by OAuth"): registered clients, the grants
people gave them (one grant = one refresh-token family), the codes and tokens issued under a
grant (only their SHA-256 stored), and device-authorization requests (RFC 8628)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, JSONType, Timestamp, created_at_column, foreign_key, id_column


class OAuthClient(Base):
    """A client registered dynamically (RFC 7591). Public clients (``auth_method`` "none") have
    no secret; confidential ones a secret of which only the SHA-256 is kept."""

    __tablename__ = "oauth_clients"

    id: Mapped[uuid.UUID] = id_column()
    client_id: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    secret_hash: Mapped[str | None] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    client_uri: Mapped[str] = mapped_column(String(500), nullable=False, default="")
    redirect_uris: Mapped[list[str]] = mapped_column(JSONType, nullable=False, default=list)
    grant_types: Mapped[list[str]] = mapped_column(JSONType, nullable=False, default=list)
    auth_method: Mapped[str] = mapped_column(String(30), nullable=False)
    created_at: Mapped[datetime] = created_at_column()


class OAuthGrant(Base):
    """What a person allowed a client: scopes in one workspace. Its tokens (a refresh-token
    family) die with it: revoking the grant, or a reused refresh token, revokes them all."""

    __tablename__ = "oauth_grants"

    id: Mapped[uuid.UUID] = id_column()
    client_pk: Mapped[uuid.UUID] = foreign_key(
        "oauth_clients.id", "CASCADE", nullable=False, index=True
    )
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False, index=True)
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    scopes: Mapped[list[str]] = mapped_column(JSONType, nullable=False, default=list)
    created_at: Mapped[datetime] = created_at_column()
    last_used_at: Mapped[datetime | None] = mapped_column(Timestamp)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp)
    # why: "revoked" (the person, or RFC 7009), "refresh_reuse", "code_reuse"
    revoked_reason: Mapped[str] = mapped_column(String(30), nullable=False, default="")


class OAuthToken(Base):
    """An authorization code, access token or refresh token of a grant (``kind``). Only the
    SHA-256 of the secret is stored. ``used_at``: a code exchanged, a refresh token rotated (a
    second use of either revokes the grant)."""

    __tablename__ = "oauth_tokens"

    id: Mapped[uuid.UUID] = id_column()
    grant_id: Mapped[uuid.UUID] = foreign_key(
        "oauth_grants.id", "CASCADE", nullable=False, index=True
    )
    kind: Mapped[str] = mapped_column(String(10), nullable=False)  # code | access | refresh
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    created_at: Mapped[datetime] = created_at_column()
    expires_at: Mapped[datetime] = mapped_column(Timestamp, nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(Timestamp)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp)
    # codes only: the PKCE S256 challenge and the redirect URI the code was sent to
    code_challenge: Mapped[str | None] = mapped_column(String(128))
    redirect_uri: Mapped[str | None] = mapped_column(String(2000))


class OAuthDeviceCode(Base):
    """A device-authorization request (RFC 8628): the device polls with ``device_code`` (its
    SHA-256 stored) while the person enters ``user_code`` in the web app and approves."""

    __tablename__ = "oauth_device_codes"

    id: Mapped[uuid.UUID] = id_column()
    client_pk: Mapped[uuid.UUID] = foreign_key(
        "oauth_clients.id", "CASCADE", nullable=False, index=True
    )
    device_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    user_code: Mapped[str] = mapped_column(String(16), unique=True, nullable=False)
    scopes: Mapped[list[str]] = mapped_column(JSONType, nullable=False, default=list)
    interval: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = created_at_column()
    expires_at: Mapped[datetime] = mapped_column(Timestamp, nullable=False)
    last_polled_at: Mapped[datetime | None] = mapped_column(Timestamp)
    # approved: the grant made; denied_at: refused; used_at: the device got its tokens
    grant_id: Mapped[uuid.UUID | None] = foreign_key("oauth_grants.id", "CASCADE")
    denied_at: Mapped[datetime | None] = mapped_column(Timestamp)
    used_at: Mapped[datetime | None] = mapped_column(Timestamp)
