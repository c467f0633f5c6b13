"""The cheap Argon2 profile is the test suite's only: the app applies the setting, production
refuses it, and either profile verifies the other's hashes."""

from __future__ import annotations

import httpx2
import pytest
from pydantic import ValidationError
from sqlalchemy import select

from agora.kit import passwords
from agora.kit.db import Database
from agora.models import User
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD


def test_production_refuses_the_test_profile() -> None:
    with pytest.raises(ValidationError, match="PASSWORD_HASH_PROFILE"):
        Settings(environment="production", password_hash_profile="test")
    assert Settings(environment="production").password_hash_profile == "default"
    with pytest.raises(ValidationError, match="password_hash_profile"):
        Settings(password_hash_profile="cheap")


async def test_the_app_hashes_with_the_configured_profile(
    client: httpx2.AsyncClient, db: Database
) -> None:
    signed_up = await client.post(
        "/v1/auth/sign-up",
        json={"email": "ada@example.com", "password": STRONG_PASSWORD, "name": "Ada"},
    )
    assert signed_up.status_code == 201, signed_up.text
    async with db.transaction(write=False) as session:
        stored = await session.scalar(select(User.password_hash))
    assert stored is not None
    assert stored.startswith("$argon2id$v=19$m=64,t=1,p=1$")


def test_each_profile_verifies_the_others_hashes() -> None:
    try:
        passwords.use_profile("default")
        strong = passwords.hash_password(STRONG_PASSWORD)
        assert strong.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
        passwords.use_profile("test")
        assert passwords.verify_password(strong, STRONG_PASSWORD)
        assert passwords.needs_rehash(strong)
        cheap = passwords.hash_password(STRONG_PASSWORD)
        passwords.use_profile("default")
        assert passwords.verify_password(cheap, STRONG_PASSWORD)
        assert passwords.needs_rehash(cheap)
        assert not passwords.verify_password(None, STRONG_PASSWORD)
    finally:
        passwords.use_profile("test")
