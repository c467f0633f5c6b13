"""Settings from the environment (prefix ``AGORA_``).

The embedded default needs none of them: a SQLite file under ``./data`` and a secret key that is
generated once and kept beside it.

The process-wide settings are fields of ``Settings``; each integration's are a frozen group
(``settings.stripe.secret_key``). The environment names are the flat ones they always were: a
group's field is read from ``AGORA_<group env_prefix><FIELD>`` (``AGORA_STRIPE_SECRET_KEY``), or
from the old name in ``ALIASES`` where that rule does not give it. The constructor and
``Settings.with_changes`` take the same flat names (``run_dispatcher=False``) or nested groups.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from agora.kit.db import PoolOptions

DEFAULT_DATA_DIR = Path("data")
# The registry service's `limit` is 1 to 50 (masumi-registry-service 53c29e3,
# src/routes/api/registry-entry/schemas.ts); Agora needs 2 so that registry-diff's inclusive
# cursor (the previous page's last entry comes back first) leaves room to move on.
REGISTRY_MIN_PAGE, REGISTRY_MAX_PAGE = 2, 50


class Group(BaseModel):
    """One integration's settings: its flat (environment) names are ``env_prefix + field``."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    env_prefix: ClassVar[str] = ""


class HttpSettings(Group):
    max_body_bytes: int = 1_048_576
    # A request body must arrive within this time, before any database work (kit/units.py).
    body_timeout_seconds: float = 10.0
    # Deployment (docs/production.md, "Deployment"): the peers whose X-Forwarded-For and
    # X-Forwarded-Proto are believed (comma-separated CIDRs or addresses; empty: none), the
    # seconds a connection has to finish its request headers, and an idle keep-alive's seconds.
    trusted_proxies: str = "127.0.0.1/32,::1/128"
    header_timeout_seconds: float = 10.0
    keep_alive_timeout_seconds: float = 5.0


class RateLimitSettings(Group):
    env_prefix = "rate_limit_"
    public: str = "120/minute"
    authenticated: str = "600/minute"
    key_prefix: str = "agora-rl"
    # Invalid or malformed credentials, per client address (stricter: key guessing).
    failed_auth: str = "30/minute"


class DispatchSettings(Group):
    enabled: bool = True  # AGORA_RUN_DISPATCHER
    concurrency: int = 16  # AGORA_DISPATCHER_CONCURRENCY
    lease_seconds: float = 30.0
    agent_timeout_seconds: float = 10.0
    status_poll_initial_seconds: float = 0.05
    status_poll_max_seconds: float = 5.0
    max_agent_attempts: int = 5
    agent_retry_seconds: float = 1.0
    job_deadline_seconds: float = 3600.0


class DatabaseSettings(Group):
    # The connections one process holds (docs/operations.md, "Running at scale"): the session
    # engine's pool and overflow, how long a request waits for a pooled connection, how old a
    # connection may get; the lean reads' own pool (kit/reads.py). PostgreSQL only.
    env_prefix = "database_"
    pool_size: int = Field(default=16, ge=1, le=1000)
    max_overflow: int = Field(default=4, ge=0, le=1000)
    pool_timeout_seconds: float = Field(default=30.0, gt=0, le=3600)
    pool_recycle_seconds: float = Field(default=1800.0, ge=-1)  # -1: never
    read_pool_size: int = Field(default=8, ge=1, le=1000)
    # Behind PgBouncer in transaction mode: no server-side statement cache, uniquely named
    # prepared statements; LISTEN then needs a direct connection (listen_url).
    pgbouncer: bool = False
    # The one LISTEN connection per process (wake-ups, live streams); empty: AGORA_DATABASE_URL.
    # Not used when AGORA_REDIS_URL is set (fan-out through Redis, kit/fanout.py).
    listen_url: str = ""

    def pool(self) -> PoolOptions:
        return PoolOptions(
            size=self.pool_size,
            max_overflow=self.max_overflow,
            timeout_seconds=self.pool_timeout_seconds,
            recycle_seconds=self.pool_recycle_seconds,
            read_size=self.read_pool_size,
            pgbouncer=self.pgbouncer,
        )


class StreamSettings(Group):
    # Job streams (GET /v1/jobs/{id}/stream, docs/web.md): the poll while no notification can
    # arrive (PostgreSQL listener down; SQLite), and the open streams one process serves
    env_prefix = "job_stream_"
    fallback_seconds: float = 2.0
    max: int = 1000
    # … and per caller (docs/security.md, "Limits"): beyond these, that caller gets 429
    max_per_key: int = 10
    max_per_user: int = 25
    max_per_address: int = 10


class CatalogueSettings(Group):
    marketplace_fee_bps: int = 500
    verification_lifetime_days: int = 90
    availability_failures_to_expire: int = 3
    availability_check_seconds: float = 300.0
    # Certified listings (docs/developer.md, "Certification"): the conformance suite runs over
    # listed agents every this many seconds (0: never), at most this many agents a round; a
    # listing failing for this many days loses its "Conformant" badge.
    certification_seconds: float = 86400.0
    certification_batch: int = Field(default=20, ge=1, le=500)
    certification_grace_days: float = 3.0
    certification_job_seconds: float = Field(default=30.0, gt=0, le=600)  # the suite's job limit


class NotificationSettings(Group):
    # Webhooks and notification mail (docs/notifications.md, "Delivery, retries, limits").
    env_prefix = "notification_"
    # The waits before each retry (the first attempt is at once): the Standard Webhooks spec
    # 1.0.0, "Deliverability and reliability", its example retry schedule (5 s, 5 min, 30 min,
    # 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: 10 attempts over 75 h 35 min 5 s), with jitter.
    retry_schedule_seconds: list[float] = Field(
        default_factory=lambda: [
            5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 50400.0, 72000.0, 86400.0,
        ]
    )  # fmt: skip
    retry_jitter: float = Field(default=0.1, ge=0.0, lt=1.0)  # each wait ± this fraction
    # A receiver's Retry-After (429, 503) delays the next attempt, up to this many seconds.
    retry_after_max_seconds: float = 36000.0
    # One attempt's whole exchange; the spec asks for 15 to 30 s.
    timeout_seconds: float = Field(default=15.0, ge=1.0)
    # An endpoint whose every delivery failed for this many days is disabled (as hosted
    # webhook services do); a 410 Gone disables it at once.
    disable_after_days: float = 5.0

    @field_validator("retry_schedule_seconds")
    @classmethod
    def _schedule(cls, value: list[float]) -> list[float]:
        if not value or len(value) > 20 or any(not 0 <= wait <= 7 * 86400 for wait in value):
            raise ValueError(
                "AGORA_NOTIFICATION_RETRY_SCHEDULE_SECONDS must list 1 to 20 waits of 0 to "
                "604800 seconds (JSON, e.g. [5, 300, 1800])"
            )
        return value


class AccountSettings(Group):
    # Accounts (docs/accounts.md): sign-up, sessions, tokens
    welcome_credits: int = 0  # base units granted to a new personal workspace at sign-up
    session_days: float = 14.0
    session_cookie: str = "agora_session"
    api_keys_per_user: int = 25  # active (not revoked, not expired) keys a user may hold
    verify_token_hours: float = 48.0
    reset_token_minutes: float = 30.0
    magic_link_minutes: float = 15.0
    # A browser session creates API keys only this long after its last password (or magic-link)
    # proof; later it re-enters the password (POST /v1/auth/reauthenticate). docs/accounts.md.
    key_reauth_minutes: float = 10.0
    # The operator's console: an admin action from a browser session needs a password or
    # magic-link proof this recent (docs/operations.md, "The operator's console").
    admin_reauth_minutes: float = 10.0
    # The audit log keeps rows this many days (`agora audit prune`; 0: forever).
    audit_retention_days: int = 400
    # Housekeeping (ops/worker.py), in every dispatching process: every this many seconds
    # (0: never) delete what has expired more than `expired_rows_keep_days` ago — sessions,
    # one-time links, OAuth tokens and device codes — popularity counters past their window,
    # and audit rows past `audit_retention_days`.
    housekeeping_seconds: float = 3600.0
    expired_rows_keep_days: int = Field(default=30, ge=1)
    invitation_days: float = 7.0
    auth_attempts_per_account: str = "20/15minutes"  # wrong passwords, then 429
    auth_attempts_per_address: str = "100/15minutes"
    auth_mails_per_account: str = "5/hour"  # reset and magic-link mails to one address
    # OAuth (docs/security.md, "OAuth clients"): dynamic registrations (POST /oauth/register)
    # per client address ("off": none), and the days a client that never got a grant or a
    # device code is kept before the oauth worker deletes it (0: kept for ever).
    oauth_registrations_per_address: str = "20/hour"
    oauth_unused_client_days: int = Field(default=30, ge=0)
    # A person's data (docs/accounts.md, "Your data", "Deleting your account"): a confirmed
    # account deletion is carried out this many days later (signing in before cancels it); a
    # data export's mailed link works this many hours; the privacy worker looks for due work
    # every `privacy_seconds` (0: never; new exports wake it at once).
    account_deletion_grace_days: float = Field(default=14.0, ge=0)
    data_export_link_hours: float = Field(default=72.0, gt=0)
    privacy_seconds: float = Field(default=300.0, ge=0)


class PasskeySettings(Group):
    # Passkeys (WebAuthn; docs/accounts.md, "Passkeys"). The relying party: its id (a domain),
    # the name authenticators show, and the origin the browser reports. Empty: derived from
    # `public_url` (its host; "Agora"; its scheme, host and port).
    env_prefix = "passkey_"
    rp_id: str = ""
    rp_name: str = ""
    origin: str = ""
    # A ceremony's challenge (one-time token store) and the password step's wait for its
    # second step expire after this many seconds.
    challenge_seconds: float = Field(default=300.0, gt=0, le=3600)
    max_per_user: int = Field(default=10, ge=1, le=100)  # passkeys one person may register
    recovery_codes: int = Field(default=10, ge=1, le=50)  # codes in one set


class SignInProviderSettings(Group):
    # Sign in with an identity provider (docs/accounts.md, "Identity providers"): a provider is
    # offered when its client id and secret are set. Redirect URI to register at the provider:
    # `{AGORA_PUBLIC_URL}/sign-in/<google|microsoft|oidc|github>/callback`.
    env_prefix = "idp_"
    google_client_id: str = ""
    google_client_secret: str = ""
    microsoft_client_id: str = ""
    microsoft_client_secret: str = ""
    # The Microsoft identity platform tenant: common | organizations | consumers | a tenant id.
    microsoft_tenant: str = "common"
    # Any OpenID Connect issuer (Okta, Keycloak, Entra ID of one tenant …), found by discovery
    # at `{issuer}/.well-known/openid-configuration`; `oidc_name` labels its button.
    oidc_issuer: str = ""
    oidc_client_id: str = ""
    oidc_client_secret: str = ""
    oidc_name: str = "Single sign-on"
    github_client_id: str = ""
    github_client_secret: str = ""
    # GitHub's web and API hosts (GitHub Enterprise Server, or a test double on loopback).
    github_url: str = "https://github.com"
    github_api_url: str = "https://api.github.com"
    # How long a started sign-in may take at the provider, and each call to the provider.
    flow_minutes: float = 10.0
    timeout_seconds: float = 10.0


class MailSettings(Group):
    # Accounts' mail (docs/accounts.md)
    backend: str = "folder"  # AGORA_MAIL_BACKEND: folder (offline: log + data_dir/mail) | smtp
    sender: str = "Agora <no-reply@agora.local>"  # AGORA_MAIL_FROM
    smtp_host: str = "127.0.0.1"
    smtp_port: int = 587
    smtp_username: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = True
    smtp_tls: bool = False  # implicit TLS (port 465)
    smtp_timeout_seconds: float = 10.0


class RegistrySettings(Group):
    # Registry import (registry/, docs/developer.md): the Masumi registry service's feed, synced
    # every registry_sync_seconds when registry_url is set; prices converted with the unit table
    # (credits per unit; 1 ADA = 1 000 000 lovelace = 1 credit by default). The service answers
    # 401 without its `token` header and 400 for a page size above 50.
    env_prefix = "registry_"
    url: str | None = None
    token: str = ""
    network: str = "Preprod"
    sync_seconds: float = 3600.0
    page_size: int = 50
    max_pages: int = 1000
    timeout_seconds: float = 30.0
    unit_credits: dict[str, float] = Field(
        default_factory=lambda: {"": 0.000001, "lovelace": 0.000001}
    )

    @field_validator("page_size")
    @classmethod
    def _page_size(cls, value: int) -> int:
        if not REGISTRY_MIN_PAGE <= value <= REGISTRY_MAX_PAGE:
            raise ValueError(
                f"AGORA_REGISTRY_PAGE_SIZE must be between {REGISTRY_MIN_PAGE} and "
                f"{REGISTRY_MAX_PAGE} (got {value}): the Masumi registry service answers 400 to "
                f"a limit above {REGISTRY_MAX_PAGE}, and registry-diff repeats one entry per page"
            )
        return value


class PaymentSettings(Group):
    # Payments (docs/payments.md): "credits" (Agora's ledger only) or "masumi" (a buyer payment
    # node locks funds on chain; credits are captured when the seller is paid)
    env_prefix = "payment_"
    backend: str = "credits"
    # Serve the local payment node in this process at /payment-node (the embedded demo): the
    # masumi backend buys there unless masumi_payment_url is set; the paid demo agent sells there
    node_embedded: bool = False
    # How long the local node's "chain" takes before an action shows (funds lock, a result or a
    # refund request lands): the real node batches, then waits for confirmations (minutes)
    node_chain_delay_ms: int = 1000


class MasumiSettings(Group):
    env_prefix = "masumi_"
    payment_url: str = ""  # the purchasing node, up to /api/v1
    payment_token: str = ""  # its `token` header (pay right)
    network: str = "Preprod"
    timeout_seconds: float = 10.0
    max_node_attempts: int = 6
    follow_seconds: float = 30.0  # how often a settling job's purchase is re-read
    # Amounts sent with a purchase (price-drift guard): the agent's price in credit base units
    # times this, in masumi_price_unit; 0 sends no Amounts
    units_per_credit: int = 0
    price_unit: str = "lovelace"


class DemoSellerSettings(Group):
    # The paid demo agent's seller side on another node (a real masumi-payment-service): its
    # URL up to /api/v1, a key with the pay right, the registered agentIdentifier and the
    # selling wallet's key hash. Unset: it sells on the embedded node.
    env_prefix = "demo_seller_"
    node_url: str = ""
    token: str = ""
    agent_identifier: str = ""
    vkey: str = ""


class StripeSettings(Group):
    # Billing with Stripe (docs/billing.md). Without a secret key, buying credits is switched off.
    env_prefix = "stripe_"
    secret_key: str = ""
    publishable_key: str = ""
    webhook_secret: str = ""
    # The signing secret of a second, Connect webhook endpoint ("events on connected accounts":
    # account.updated of sellers' accounts); empty: one endpoint, webhook_secret, gets them all.
    connect_webhook_secret: str = ""
    # Empty: Stripe itself (https://api.stripe.com, Stripe.js from https://js.stripe.com/v3/).
    # Set (tests, the offline demo): a localstripe server; Stripe.js is its /js.stripe.com/v3/.
    api_base: str = ""
    timeout_seconds: float = 20.0

    @property
    def enabled(self) -> bool:
        return bool(self.secret_key)

    @property
    def js_url(self) -> str:
        base = self.api_base.rstrip("/")
        return f"{base}/js.stripe.com/v3/" if base else "https://js.stripe.com/v3/"


class PayoutSettings(Group):
    # Paying sellers (docs/billing.md, "Paying sellers"): what one whole credit is worth in the
    # payout currency (its minor units: 100 EUR minor units = 1.00 EUR), stored with each
    # earnings entry; earnings become payable this many days after the capture (the holdback).
    env_prefix = "payouts_"
    currency: str = "eur"  # ISO 4217, lower case; checked when a dispatcher starts
    credit_value: int = Field(default=100, ge=0)
    holdback_days: float = Field(default=14.0, ge=0, le=365)
    # Payout runs (Stripe Connect): a seller is paid when their payable balance reaches this
    # many minor units of its currency; the monthly run starts on this day of the month (UTC;
    # 0: no automatic run, `agora payouts run` only).
    minimum: int = Field(default=1000, ge=1)
    run_day: int = Field(default=1, ge=0, le=28)


class StorageSettings(Group):
    # Files (docs/files.md): storage (empty: <data_dir>/files; file:///path; s3://bucket/prefix
    # with the endpoint, region and credentials below)
    env_prefix = "storage_"
    url: str = ""
    s3_endpoint: str = ""
    s3_region: str = "us-east-1"
    s3_access_key: str = ""
    s3_secret_key: str = ""
    # Downloads from S3 (docs/operations.md, "Downloads from S3"): GET /v1/files/{id}/content
    # answers 307 to a presigned URL valid this long (SigV4 allows up to 7 days)
    s3_presign_seconds: int = Field(default=60, ge=1, le=604800)


class FileSettings(Group):
    # Files (docs/files.md): limits, types, signed URLs
    env_prefix = "files_"
    max_bytes: int = 100 * 1024 * 1024  # one upload
    workspace_quota_bytes: int = 1024 * 1024 * 1024  # every file a workspace holds
    upload_timeout_seconds: float = 600.0
    # Types (sniffed from the content) a workspace may store, and those served inline
    allowed_types: str = (
        "image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain,text/csv,"
        "text/markdown,application/json,application/zip,audio/mpeg,audio/wav,video/mp4"
    )
    preview_types: str = "image/png,image/jpeg,image/gif,image/webp"
    # Signed URLs agents fetch inputs from: this base (empty: public_url) and their lifetime
    public_url: str = ""
    url_seconds: float = 86400.0
    # Output files fetched from a job's result: per file, and how many per job
    output_max_bytes: int = 50 * 1024 * 1024
    output_timeout_seconds: float = 60.0
    outputs_per_job: int = 20


class MetricsSettings(Group):
    # GET /metrics requires "Authorization: Bearer <metrics_token>"; without a token it answers
    # 401 unless the operator opens it explicitly with AGORA_METRICS_PUBLIC=true.
    env_prefix = "metrics_"
    token: str | None = None
    public: bool = False


class ReplicaSettings(Group):
    # A streaming read replica (docs/operations.md, "Read replica"): read units of work read it,
    # except a person's reads within ``read_your_writes_seconds`` of their own write, and while it
    # lags more than ``max_lag_seconds`` (measured at most every ``check_seconds``) or fails.
    env_prefix = "database_replica_"
    url: str | None = None
    max_lag_seconds: float = Field(default=5.0, gt=0)
    check_seconds: float = Field(default=2.0, gt=0)
    read_your_writes_seconds: float = Field(default=5.0, ge=0)

    @property
    def resolved_url(self) -> str | None:
        return normalise_database_url(self.url) if self.url else None


# The flat (environment, constructor) names that are not `<group env_prefix><field>`.
ALIASES: dict[str, tuple[str, str]] = {
    "run_dispatcher": ("dispatch", "enabled"),
    "dispatcher_concurrency": ("dispatch", "concurrency"),
    "mail_backend": ("mail", "backend"),
    "mail_from": ("mail", "sender"),
}


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="AGORA_", extra="ignore")

    data_dir: Path = DEFAULT_DATA_DIR
    database_url: str = ""
    redis_url: str | None = None
    # With Redis: the one pub/sub channel that carries every process's wake-ups (kit/fanout.py).
    redis_fanout_channel: str = "agora-fanout"
    secret_key: str = ""
    public_url: str = "http://127.0.0.1:8000"
    allowed_hosts: list[str] = Field(default_factory=list)

    environment: str = "development"
    # Argon2id strength (kit/passwords.py): "test" is cheap and refused in production.
    password_hash_profile: Literal["default", "test"] = "default"
    log_level: str = "INFO"
    log_json: bool | None = None
    # Every list written without its schema is built the schema's way too and compared, a
    # mismatch failing the request (kit/wire.py): slower; for the tests' server processes.
    wire_check: bool = False
    demo: bool = True
    # Outbound guard (kit/outbound.py): comma-separated CIDR ranges exempt from the
    # private/loopback/metadata refusal for agents, webhooks and fetches. Empty: none.
    outbound_allow: str = ""
    # OpenTelemetry (kit/telemetry.py, docs/operations.md "Traces and metrics"): the OTLP/HTTP
    # collector's base URL; empty: off, unless the standard OTEL_EXPORTER_OTLP_* are set
    otel_endpoint: str = ""

    http: HttpSettings = HttpSettings()
    database: DatabaseSettings = DatabaseSettings()
    rate_limit: RateLimitSettings = RateLimitSettings()
    dispatch: DispatchSettings = DispatchSettings()
    streams: StreamSettings = StreamSettings()
    catalogue: CatalogueSettings = CatalogueSettings()
    notifications: NotificationSettings = NotificationSettings()
    accounts: AccountSettings = AccountSettings()
    idp: SignInProviderSettings = SignInProviderSettings()
    mail: MailSettings = MailSettings()
    passkeys: PasskeySettings = PasskeySettings()
    registry: RegistrySettings = RegistrySettings()
    payments: PaymentSettings = PaymentSettings()
    masumi: MasumiSettings = MasumiSettings()
    demo_seller: DemoSellerSettings = DemoSellerSettings()
    stripe: StripeSettings = StripeSettings()
    payouts: PayoutSettings = PayoutSettings()
    storage: StorageSettings = StorageSettings()
    files: FileSettings = FileSettings()
    metrics: MetricsSettings = MetricsSettings()
    replica: ReplicaSettings = ReplicaSettings()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The environment is read by the flat names; constructor keywords still win over it.
        assert isinstance(env_settings, EnvSettingsSource)
        return init_settings, FlatEnvSource(env_settings), dotenv_settings, file_secret_settings

    @model_validator(mode="before")
    @classmethod
    def _flat_names_into_groups(cls, data: Any) -> Any:
        return regroup(data) if isinstance(data, Mapping) else data

    @field_validator("database_url", mode="before")
    @classmethod
    def _blank_is_default(cls, value: object) -> object:
        return value or ""

    @model_validator(mode="after")
    def _no_test_hashing_in_production(self) -> Settings:
        if self.environment == "production" and self.password_hash_profile != "default":
            raise ValueError(
                "AGORA_PASSWORD_HASH_PROFILE=test is for the test suite only, "
                "not for AGORA_ENVIRONMENT=production"
            )
        return self

    def with_changes(self, **changes: Any) -> Settings:
        """A validated copy with `changes` (flat names, or groups given as mappings) applied."""
        data = self.model_dump()
        for key, value in regroup(changes).items():
            if key in GROUPS and isinstance(value, Mapping):
                data[key] = {**data[key], **value}
            else:
                data[key] = value
        return type(self).model_validate(data)

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


def _groups() -> dict[str, type[Group]]:
    groups: dict[str, type[Group]] = {}
    for name, field in Settings.model_fields.items():
        if isinstance(field.annotation, type) and issubclass(field.annotation, Group):
            groups[name] = field.annotation
    return groups


def _flat_names() -> dict[str, tuple[str, str]]:
    """Every grouped field's flat name -> (group, field); a clash is a mistake in this file."""
    aliased = {place: flat for flat, place in ALIASES.items()}
    names: dict[str, tuple[str, str]] = {}
    for group, model in GROUPS.items():
        for field in model.model_fields:
            flat = aliased.get((group, field), model.env_prefix + field)
            if flat in names or flat in Settings.model_fields:
                raise RuntimeError(f"settings: the flat name {flat!r} is taken twice")
            names[flat] = (group, field)
    return names


GROUPS = _groups()
# Old flat name -> (group, field), e.g. "stripe_secret_key" -> ("stripe", "secret_key").
FLAT_NAMES = _flat_names()


def regroup(data: Mapping[str, Any]) -> dict[str, Any]:
    """`data` with each flat grouped name moved into its group; flat names win over nested."""
    out = dict(data)
    for flat in [key for key in out if key in FLAT_NAMES]:
        group, field = FLAT_NAMES[flat]
        current = out.get(group)
        nested = current.model_dump() if isinstance(current, BaseModel) else dict(current or {})
        nested[field] = out.pop(flat)
        out[group] = nested
    return out


class _FlatBase(BaseSettings):
    model_config = Settings.model_config


def _flat_model() -> type[BaseSettings]:
    """A settings class with every flat name as a field: what the environment is read by."""
    fields: dict[str, Any] = {
        name: (field.annotation, None)
        for name, field in Settings.model_fields.items()
        if name not in GROUPS
    }
    for flat, (group, field) in FLAT_NAMES.items():
        fields[flat] = (GROUPS[group].model_fields[field].annotation, None)
    return create_model("FlatSettings", __base__=_FlatBase, **fields)


_FLAT_MODEL = _flat_model()


class FlatEnvSource(EnvSettingsSource):
    """`AGORA_<flat name>` from the environment, parsed as pydantic-settings always has, grouped."""

    def __init__(self, env: EnvSettingsSource) -> None:
        super().__init__(
            _FLAT_MODEL,
            case_sensitive=env.case_sensitive,
            env_prefix=env.env_prefix,
            env_ignore_empty=env.env_ignore_empty,
            env_parse_none_str=env.env_parse_none_str,
            env_parse_enums=env.env_parse_enums,
        )

    def __call__(self) -> dict[str, Any]:
        return regroup(super().__call__())


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
