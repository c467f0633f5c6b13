"""Settings from the environment (prefix ``AGORA_``).

The embedded default needs none of them: a SQLite file under ``./data`` and a secret key that is
generated once and kept beside it.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATA_DIR = Path("data")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="AGORA_", extra="ignore")

    data_dir: Path = DEFAULT_DATA_DIR
    database_url: str = ""
    redis_url: str | None = None
    secret_key: str = ""
    public_url: str = "http://127.0.0.1:8000"
    allowed_hosts: list[str] = Field(default_factory=list)

    environment: str = "development"
    log_level: str = "INFO"
    log_json: bool | None = None

    max_body_bytes: int = 1_048_576
    rate_limit_public: str = "120/minute"
    rate_limit_authenticated: str = "600/minute"
    rate_limit_key_prefix: str = "agora-rl"

    # Dispatch
    run_dispatcher: bool = True
    dispatcher_concurrency: int = 16
    lease_seconds: float = 30.0
    agent_timeout_seconds: float = 10.0
    status_poll_initial_seconds: float = 0.05
    status_poll_max_seconds: float = 5.0
    max_agent_attempts: int = 5
    agent_retry_seconds: float = 1.0
    job_deadline_seconds: float = 3600.0

    # Catalogue
    marketplace_fee_bps: int = 500
    verification_lifetime_days: int = 90
    availability_failures_to_expire: int = 3
    availability_check_seconds: float = 300.0

    # Job status notifications (signed webhooks)
    notification_max_attempts: int = 8
    notification_retry_seconds: float = 5.0
    notification_timeout_seconds: float = 10.0

    demo: bool = True
    # When set, GET /metrics requires "Authorization: Bearer <metrics_token>".
    metrics_token: str | None = None

    @field_validator("database_url", mode="before")
    @classmethod
    def _blank_is_default(cls, value: object) -> object:
        return value or ""

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url.startswith("sqlite")

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return normalise_database_url(self.database_url)
        return f"sqlite+aiosqlite:///{(self.data_dir / 'agora.db').as_posix()}"

    @property
    def json_logs(self) -> bool:
        if self.log_json is not None:
            return self.log_json
        return self.environment == "production"

    def resolved_secret_key(self) -> str:
        """The configured secret, or one generated once and kept under the data directory."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret_key"
        if path.exists():
            return path.read_text().strip()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        path.write_text(key)
        path.chmod(0o600)
        return key


def normalise_database_url(url: str) -> str:
    """Accept the plain scheme names people paste and pick the async driver for them."""
    for plain, driver in (
        ("postgres://", "postgresql+asyncpg://"),
        ("postgresql://", "postgresql+asyncpg://"),
        ("sqlite:///", "sqlite+aiosqlite:///"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


@lru_cache
def get_settings() -> Settings:
    return Settings()
