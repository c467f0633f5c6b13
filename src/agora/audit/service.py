"""``record``: one audit row, in the caller's transaction (a rolled-back action leaves none).

Actor kinds: ``user`` (a browser session), ``key`` (a user's API key), ``coworker`` (a coworker
key), ``admin`` (an admin key, or an operator's console session), ``system`` (workers, webhooks,
the CLI). ``details`` keeps facts (ids, amounts, roles, reasons), never a secret: a detail whose
name says secret (password, token, secret, plaintext, the key itself) is dropped here, whatever
the caller passed.
"""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import repository as repo
from agora.auth import service as auth
from agora.auth.principal import Principal, coworker_of
from agora.kit.csvexport import safe_cell
from agora.kit.errors import NotFound
from agora.kit.ids import parse_uuid
from agora.kit.requestid import current_request
from agora.kit.timeutil import utcnow
from agora.models import AuditEvent
from agora.models.statuses import KeyKind

# Every action the log records (docs/operations.md lists them with where they are written).
ACTIONS = (
    "auth.sign_in",
    "auth.identity_linked",
    "auth.identity_unlinked",
    "signin.failures",
    "key.created",
    "key.revoked",
    "session.revoked",
    "org.role_changed",
    "org.member_added",
    "org.member_removed",
    "org.invitation_sent",
    "org.invitation_accepted",
    "org.sign_in_rule",
    "credits.granted",
    "credits.purchased",
    "credits.refunded",
    "job.refunded",
    "payouts.account_connected",
    "payouts.paid",
    "payouts.failed",
    "payouts.reversed",
    "promotion.created",
    "promotion.changed",
    "cap.changed",
    "agent.submitted",
    "agent.approved",
    "agent.rejected",
    "agent.overridden",
    "webhook.changed",
    "user.suspended",
    "account.export_requested",
    "account.export_downloaded",
    "account.deletion_requested",
    "account.deletion_confirmed",
    "account.deletion_cancelled",
    "account.erased",
    "user.unsuspended",
    "org.suspended",
    "org.unsuspended",
    "registry.retried",
    "registry.dismissed",
    "payment.retried",
    "oauth.client_registered",
    "oauth.consented",
    "oauth.denied",
    "oauth.device_approved",
    "oauth.grant_revoked",
    "passkey.added",
    "passkey.removed",
    "passkey.used",
    "passkey.second_step",
    "recovery_codes.created",
    "recovery_code.used",
)

_SECRET_NAME = re.compile(r"password|secret|token|plaintext|^key$|apikey|credential", re.I)


@dataclass(frozen=True)
class Actor:
    kind: str
    user_id: uuid.UUID | None = None
    key_id: uuid.UUID | None = None


SYSTEM = Actor("system")


def actor_of(principal: Principal, *, operator: bool = False) -> Actor:
    """The actor a principal stands for (``operator``: an admin acting from the console)."""
    if operator or principal.key_kind == KeyKind.ADMIN:
        kind = "admin"
    elif principal.session_id is not None:
        kind = "user"
    elif coworker_of(principal) is not None or principal.key_kind == KeyKind.COWORKER:
        kind = "coworker"
    else:
        kind = "key"
    return Actor(kind, principal.user_id, principal.key_id)


def without_secrets(details: dict[str, Any] | None) -> dict[str, Any]:
    """``details`` without any entry whose name says secret (nested too); ids as text."""
    clean: dict[str, Any] = {}
    for name, value in (details or {}).items():
        if _SECRET_NAME.search(name):
            continue
        if isinstance(value, dict):
            value = without_secrets(value)
        elif isinstance(value, uuid.UUID):
            value = str(value)
        elif isinstance(value, str):
            value = value[:500]
        clean[name] = value
    return clean


async def record(
    session: AsyncSession,
    action: str,
    *,
    actor: Actor | Principal | None,
    target_kind: str = "",
    target_id: object = "",
    workspace_id: uuid.UUID | None = None,
    organization_id: uuid.UUID | None = None,
    details: dict[str, Any] | None = None,
) -> None:
    """Write one audit row in ``session``'s transaction (flushed, never committed here).
    ``actor=None``: the request's authenticated caller, else ``system`` (workers, webhooks)."""
    if action not in ACTIONS:
        raise ValueError(f"unknown audit action {action!r}")
    if organization_id is None and workspace_id is not None:
        workspace = await auth.workspace_by_id(session, workspace_id)
        organization_id = workspace.organization_id if workspace is not None else None
    facts = current_request()
    if actor is None and isinstance(facts.principal, Principal):
        actor = facts.principal  # the request's caller (auth/dependencies.py notes it)
    who = actor_of(actor) if isinstance(actor, Principal) else actor or SYSTEM
    await repo.add(
        session,
        AuditEvent(
            action=action,
            actor_kind=who.kind,
            actor_id=who.user_id,
            actor_key_id=who.key_id,
            target_kind=target_kind,
            target_id=str(target_id or "")[:100],
            workspace_id=workspace_id,
            organization_id=organization_id,
            request_id=facts.request_id,
            client_address=facts.client_address,
            details=without_secrets(details),
        ),
    )


# ---- reading -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Filters:
    action: str | None = None
    actor_id: str | None = None
    target_id: str | None = None
    organization_id: str | None = None


def _actor_uuid(raw: str | None) -> uuid.UUID | None:
    if not raw:
        return None
    found = parse_uuid(raw)
    if found is None:
        # Nothing matches an id that is not one (the interface: ids are opaque).
        return uuid.UUID(int=0)
    return found


async def _search(
    session: AsyncSession,
    organization_id: uuid.UUID | None,
    filters: Filters,
    *,
    limit: int,
    offset: int,
) -> tuple[list[AuditEvent], int]:
    return await repo.search(
        session,
        organization_id=organization_id,
        action=filters.action,
        actor_id=_actor_uuid(filters.actor_id),
        target_id=filters.target_id,
        limit=limit,
        offset=offset,
    )


async def search_all(
    session: AsyncSession, filters: Filters, *, limit: int, offset: int = 0
) -> tuple[list[AuditEvent], int]:
    """Every row (operators)."""
    org_id = _actor_uuid(filters.organization_id)
    return await _search(session, org_id, filters, limit=limit, offset=offset)


# An organization's owners and admins read its part of the log (auth/roles.py: the people who
# manage its members and keys); members and outsiders get 404 (never a hint it exists).
READERS = frozenset({"owner", "admin"})


async def organization_id_for_reader(
    session: AsyncSession, principal: Principal, raw_org_id: str
) -> uuid.UUID:
    org_id = parse_uuid(raw_org_id)
    role = await auth.org_role(session, principal.user_id, org_id) if org_id else None
    if org_id is None or role not in READERS:
        raise NotFound(f"Organization {raw_org_id} not found")
    return org_id


async def search_organization(
    session: AsyncSession,
    principal: Principal,
    raw_org_id: str,
    filters: Filters,
    *,
    limit: int,
    offset: int = 0,
) -> tuple[list[AuditEvent], int]:
    org_id = await organization_id_for_reader(session, principal, raw_org_id)
    return await _search(session, org_id, filters, limit=limit, offset=offset)


EXPORT_LIMIT = 10_000
CSV_COLUMNS = (
    "time",
    "action",
    "actor_kind",
    "actor_id",
    "actor_key_id",
    "target_kind",
    "target_id",
    "workspace_id",
    "organization_id",
    "request_id",
    "client_address",
    "details",
)


def to_csv(rows: list[AuditEvent]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow(
            [
                safe_cell(row.created_at.isoformat()),
                safe_cell(row.action),
                safe_cell(row.actor_kind),
                safe_cell(row.actor_id),
                safe_cell(row.actor_key_id),
                safe_cell(row.target_kind),
                safe_cell(row.target_id),
                safe_cell(row.workspace_id),
                safe_cell(row.organization_id),
                safe_cell(row.request_id),
                safe_cell(row.client_address),
                safe_cell(json.dumps(row.details, sort_keys=True)),
            ]
        )
    return out.getvalue()


async def prune(session: AsyncSession, retention_days: int, limit: int) -> int:
    """Delete at most ``limit`` rows older than the retention (``AGORA_AUDIT_RETENTION_DAYS``;
    0 keeps all), so a long backlog goes in short transactions; how many."""
    if retention_days <= 0:
        return 0
    return await repo.prune(session, utcnow() - timedelta(days=retention_days), limit)
