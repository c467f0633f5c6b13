"""Settings are grouped per integration (settings.stripe.secret_key), and every environment
variable and constructor keyword of the flat settings still reaches its field (issue 42)."""

from __future__ import annotations

import json
import os
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from agora.settings import Settings

# Every flat setting as it was before the groups (Settings.model_fields, generated once) ->
# where it lives now. AGORA_<NAME upper-cased> and Settings(<name>=…) both reach it.
FLAT = {
    "otel_endpoint": "otel_endpoint",
    "data_dir": "data_dir",
    "database_url": "database_url",
    "redis_url": "redis_url",
    "redis_fanout_channel": "redis_fanout_channel",
    "database_pool_size": "database.pool_size",
    "database_max_overflow": "database.max_overflow",
    "database_pool_timeout_seconds": "database.pool_timeout_seconds",
    "database_pool_recycle_seconds": "database.pool_recycle_seconds",
    "database_read_pool_size": "database.read_pool_size",
    "database_pgbouncer": "database.pgbouncer",
    "database_listen_url": "database.listen_url",
    "secret_key": "secret_key",
    "public_url": "public_url",
    "allowed_hosts": "allowed_hosts",
    "environment": "environment",
    "password_hash_profile": "password_hash_profile",
    "log_level": "log_level",
    "log_json": "log_json",
    "wire_check": "wire_check",
    "max_body_bytes": "http.max_body_bytes",
    "body_timeout_seconds": "http.body_timeout_seconds",
    "trusted_proxies": "http.trusted_proxies",
    "header_timeout_seconds": "http.header_timeout_seconds",
    "keep_alive_timeout_seconds": "http.keep_alive_timeout_seconds",
    "rate_limit_public": "rate_limit.public",
    "rate_limit_authenticated": "rate_limit.authenticated",
    "rate_limit_key_prefix": "rate_limit.key_prefix",
    "rate_limit_failed_auth": "rate_limit.failed_auth",
    "run_dispatcher": "dispatch.enabled",
    "dispatcher_concurrency": "dispatch.concurrency",
    "lease_seconds": "dispatch.lease_seconds",
    "agent_timeout_seconds": "dispatch.agent_timeout_seconds",
    "status_poll_initial_seconds": "dispatch.status_poll_initial_seconds",
    "status_poll_max_seconds": "dispatch.status_poll_max_seconds",
    "max_agent_attempts": "dispatch.max_agent_attempts",
    "agent_retry_seconds": "dispatch.agent_retry_seconds",
    "job_deadline_seconds": "dispatch.job_deadline_seconds",
    "job_stream_fallback_seconds": "streams.fallback_seconds",
    "job_stream_max": "streams.max",
    "job_stream_max_per_key": "streams.max_per_key",
    "job_stream_max_per_user": "streams.max_per_user",
    "job_stream_max_per_address": "streams.max_per_address",
    "marketplace_fee_bps": "catalogue.marketplace_fee_bps",
    "verification_lifetime_days": "catalogue.verification_lifetime_days",
    "availability_failures_to_expire": "catalogue.availability_failures_to_expire",
    "availability_check_seconds": "catalogue.availability_check_seconds",
    "certification_seconds": "catalogue.certification_seconds",
    "certification_batch": "catalogue.certification_batch",
    "certification_grace_days": "catalogue.certification_grace_days",
    "certification_job_seconds": "catalogue.certification_job_seconds",
    "notification_retry_schedule_seconds": "notifications.retry_schedule_seconds",
    "notification_retry_jitter": "notifications.retry_jitter",
    "notification_retry_after_max_seconds": "notifications.retry_after_max_seconds",
    "notification_timeout_seconds": "notifications.timeout_seconds",
    "notification_disable_after_days": "notifications.disable_after_days",
    "welcome_credits": "accounts.welcome_credits",
    "session_days": "accounts.session_days",
    "session_cookie": "accounts.session_cookie",
    "api_keys_per_user": "accounts.api_keys_per_user",
    "verify_token_hours": "accounts.verify_token_hours",
    "reset_token_minutes": "accounts.reset_token_minutes",
    "magic_link_minutes": "accounts.magic_link_minutes",
    "key_reauth_minutes": "accounts.key_reauth_minutes",
    "admin_reauth_minutes": "accounts.admin_reauth_minutes",
    "audit_retention_days": "accounts.audit_retention_days",
    "housekeeping_seconds": "accounts.housekeeping_seconds",
    "expired_rows_keep_days": "accounts.expired_rows_keep_days",
    "invitation_days": "accounts.invitation_days",
    "auth_attempts_per_account": "accounts.auth_attempts_per_account",
    "auth_attempts_per_address": "accounts.auth_attempts_per_address",
    "auth_mails_per_account": "accounts.auth_mails_per_account",
    "oauth_registrations_per_address": "accounts.oauth_registrations_per_address",
    "oauth_unused_client_days": "accounts.oauth_unused_client_days",
    "passkey_rp_id": "passkeys.rp_id",
    "passkey_rp_name": "passkeys.rp_name",
    "passkey_origin": "passkeys.origin",
    "passkey_challenge_seconds": "passkeys.challenge_seconds",
    "passkey_max_per_user": "passkeys.max_per_user",
    "passkey_recovery_codes": "passkeys.recovery_codes",
    "account_deletion_grace_days": "accounts.account_deletion_grace_days",
    "data_export_link_hours": "accounts.data_export_link_hours",
    "privacy_seconds": "accounts.privacy_seconds",
    "idp_google_client_id": "idp.google_client_id",
    "idp_google_client_secret": "idp.google_client_secret",
    "idp_microsoft_client_id": "idp.microsoft_client_id",
    "idp_microsoft_client_secret": "idp.microsoft_client_secret",
    "idp_microsoft_tenant": "idp.microsoft_tenant",
    "idp_oidc_issuer": "idp.oidc_issuer",
    "idp_oidc_client_id": "idp.oidc_client_id",
    "idp_oidc_client_secret": "idp.oidc_client_secret",
    "idp_oidc_name": "idp.oidc_name",
    "idp_github_client_id": "idp.github_client_id",
    "idp_github_client_secret": "idp.github_client_secret",
    "idp_github_url": "idp.github_url",
    "idp_github_api_url": "idp.github_api_url",
    "idp_flow_minutes": "idp.flow_minutes",
    "idp_timeout_seconds": "idp.timeout_seconds",
    "mail_backend": "mail.backend",
    "mail_from": "mail.sender",
    "smtp_host": "mail.smtp_host",
    "smtp_port": "mail.smtp_port",
    "smtp_username": "mail.smtp_username",
    "smtp_password": "mail.smtp_password",
    "smtp_starttls": "mail.smtp_starttls",
    "smtp_tls": "mail.smtp_tls",
    "smtp_timeout_seconds": "mail.smtp_timeout_seconds",
    "registry_url": "registry.url",
    "registry_token": "registry.token",
    "registry_network": "registry.network",
    "registry_sync_seconds": "registry.sync_seconds",
    "registry_page_size": "registry.page_size",
    "registry_max_pages": "registry.max_pages",
    "registry_timeout_seconds": "registry.timeout_seconds",
    "registry_unit_credits": "registry.unit_credits",
    "payment_backend": "payments.backend",
    "masumi_payment_url": "masumi.payment_url",
    "masumi_payment_token": "masumi.payment_token",
    "masumi_network": "masumi.network",
    "masumi_timeout_seconds": "masumi.timeout_seconds",
    "masumi_max_node_attempts": "masumi.max_node_attempts",
    "masumi_follow_seconds": "masumi.follow_seconds",
    "masumi_units_per_credit": "masumi.units_per_credit",
    "masumi_price_unit": "masumi.price_unit",
    "payment_node_embedded": "payments.node_embedded",
    "payment_node_chain_delay_ms": "payments.node_chain_delay_ms",
    "demo_seller_node_url": "demo_seller.node_url",
    "demo_seller_token": "demo_seller.token",
    "demo_seller_agent_identifier": "demo_seller.agent_identifier",
    "demo_seller_vkey": "demo_seller.vkey",
    "stripe_secret_key": "stripe.secret_key",
    "stripe_publishable_key": "stripe.publishable_key",
    "stripe_webhook_secret": "stripe.webhook_secret",
    "stripe_connect_webhook_secret": "stripe.connect_webhook_secret",
    "stripe_api_base": "stripe.api_base",
    "stripe_timeout_seconds": "stripe.timeout_seconds",
    "payouts_currency": "payouts.currency",
    "payouts_credit_value": "payouts.credit_value",
    "payouts_holdback_days": "payouts.holdback_days",
    "payouts_minimum": "payouts.minimum",
    "payouts_run_day": "payouts.run_day",
    "storage_url": "storage.url",
    "storage_s3_endpoint": "storage.s3_endpoint",
    "storage_s3_region": "storage.s3_region",
    "storage_s3_access_key": "storage.s3_access_key",
    "storage_s3_secret_key": "storage.s3_secret_key",
    "storage_s3_presign_seconds": "storage.s3_presign_seconds",
    "files_max_bytes": "files.max_bytes",
    "files_workspace_quota_bytes": "files.workspace_quota_bytes",
    "files_upload_timeout_seconds": "files.upload_timeout_seconds",
    "files_allowed_types": "files.allowed_types",
    "files_preview_types": "files.preview_types",
    "files_public_url": "files.public_url",
    "files_url_seconds": "files.url_seconds",
    "files_output_max_bytes": "files.output_max_bytes",
    "files_output_timeout_seconds": "files.output_timeout_seconds",
    "files_outputs_per_job": "files.outputs_per_job",
    "demo": "demo",
    "outbound_allow": "outbound_allow",
    "metrics_token": "metrics.token",
    "metrics_public": "metrics.public",
    "database_replica_url": "replica.url",
    "database_replica_max_lag_seconds": "replica.max_lag_seconds",
    "database_replica_check_seconds": "replica.check_seconds",
    "database_replica_read_your_writes_seconds": "replica.read_your_writes_seconds",
}


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("AGORA_"):
            monkeypatch.delenv(name)


def _get(settings: Settings, path: str) -> Any:
    value: Any = settings
    for part in path.split("."):
        value = getattr(value, part)
    return value


def _annotation(path: str) -> Any:
    model: type[BaseModel] = Settings
    *groups, name = path.split(".")
    for group in groups:
        model = model.model_fields[group].annotation  # type: ignore[assignment]
    return model.model_fields[name].annotation


def _sample(path: str) -> tuple[str, Any]:
    """A value unlike the default: as the environment writes it, and as the field holds it."""
    annotation = _annotation(path)
    if annotation == list[float]:
        return "[1.5, 60]", [1.5, 60.0]
    options = [a for a in typing.get_args(annotation) if a is not type(None)]
    kind = options[0] if options and typing.get_origin(annotation) is not dict else annotation
    if typing.get_origin(annotation) is typing.Literal:
        return "test", "test"
    if kind is bool:
        flipped = not _get(Settings(), path)
        return ("true" if flipped else "false"), flipped
    if kind is int:
        return "7", 7
    if kind is float:
        return ("0.5", 0.5) if path.endswith("_jitter") else ("7.5", 7.5)
    if kind is Path:
        return "/tmp/agora-elsewhere", Path("/tmp/agora-elsewhere")
    if typing.get_origin(annotation) is list:
        return '["a.example"]', ["a.example"]
    if typing.get_origin(annotation) is dict:
        return json.dumps({"lovelace": 2.0}), {"lovelace": 2.0}
    return f"value-of-{path}", f"value-of-{path}"


def test_the_table_names_every_setting_once() -> None:
    leaves = []
    for name, field in Settings.model_fields.items():
        group = field.annotation
        if isinstance(group, type) and issubclass(group, BaseModel):
            leaves += [f"{name}.{inner}" for inner in group.model_fields]
        else:
            leaves.append(name)
    assert sorted(FLAT.values()) == sorted(leaves)


@pytest.mark.parametrize(("flat", "path"), FLAT.items())
def test_the_environment_name_reaches_the_grouped_field(
    monkeypatch: pytest.MonkeyPatch, flat: str, path: str
) -> None:
    written, held = _sample(path)
    assert _get(Settings(), path) != held
    monkeypatch.setenv(f"AGORA_{flat.upper()}", written)
    assert _get(Settings(), path) == held


@pytest.mark.parametrize(("flat", "path"), FLAT.items())
def test_the_flat_keyword_reaches_the_grouped_field_and_wins_over_the_environment(
    monkeypatch: pytest.MonkeyPatch, flat: str, path: str
) -> None:
    written, held = _sample(path)
    default = _get(Settings(), path)
    assert _get(Settings(**{flat: held}), path) == held
    assert _get(Settings().with_changes(**{flat: held}), path) == held
    monkeypatch.setenv(f"AGORA_{flat.upper()}", written)
    assert _get(Settings(**{flat: default}), path) == default


def test_groups_may_be_given_nested_and_flat_names_win() -> None:
    settings = Settings(stripe={"secret_key": "sk_nested", "timeout_seconds": 3})
    assert (settings.stripe.secret_key, settings.stripe.timeout_seconds) == ("sk_nested", 3.0)
    both = Settings(stripe={"secret_key": "sk_nested"}, stripe_secret_key="sk_flat")
    assert both.stripe.secret_key == "sk_flat"


def test_a_nested_keyword_wins_over_the_environment_field_by_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AGORA_STRIPE_SECRET_KEY", "sk_env")
    monkeypatch.setenv("AGORA_STRIPE_TIMEOUT_SECONDS", "5")
    settings = Settings(stripe={"secret_key": "sk_init"})
    assert (settings.stripe.secret_key, settings.stripe.timeout_seconds) == ("sk_init", 5.0)


def test_unknown_and_misspelt_names_are_ignored_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGORA_STRIPE_SECRET_KEYS", "sk_misspelt")
    monkeypatch.setenv("AGORA_STRIPE_SECRETKEY", "sk_misspelt")
    monkeypatch.setenv("AGORA_STRIPE", "not json, and not a setting")
    monkeypatch.setenv("AGORA_NO_SUCH_SETTING", "1")
    settings = Settings(no_such_setting=1, stripe={"no_such_key": 1}, strpe_secret_key="x")
    assert settings.stripe.secret_key == ""
    assert settings == Settings()
    assert settings.with_changes(no_such_setting=2, stripe={"no_such_key": 2}) == settings


def test_groups_are_frozen() -> None:
    with pytest.raises(ValidationError, match="frozen"):
        Settings().stripe.secret_key = "sk_live"  # type: ignore[misc]


def test_with_changes_validates_and_keeps_the_rest() -> None:
    settings = Settings(stripe_secret_key="sk_1", public_url="https://a.example")
    changed = settings.with_changes(stripe_api_base="http://stripe.test", run_dispatcher=False)
    assert changed.stripe.secret_key == "sk_1"
    assert changed.stripe.js_url == "http://stripe.test/js.stripe.com/v3/"
    assert (changed.dispatch.enabled, changed.public_url) == (False, "https://a.example")
    assert settings.dispatch.enabled and settings.stripe.api_base == ""
    assert settings.with_changes(dispatch={"concurrency": 2}).dispatch.enabled
    with pytest.raises(ValidationError, match="AGORA_REGISTRY_PAGE_SIZE"):
        settings.with_changes(registry_page_size=51)
    with pytest.raises(ValidationError, match="PASSWORD_HASH_PROFILE"):
        settings.with_changes(environment="production", password_hash_profile="test")


def test_with_changes_does_not_read_the_environment_again(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings()
    monkeypatch.setenv("AGORA_STRIPE_SECRET_KEY", "sk_env")
    monkeypatch.setenv("AGORA_PUBLIC_URL", "https://env.example")
    changed = settings.with_changes(log_level="DEBUG")
    assert (changed.stripe.secret_key, changed.public_url) == ("", settings.public_url)
