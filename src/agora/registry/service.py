"""Registry import: read the Masumi registry service's feed, upsert its agents as PENDING,
quarantine what cannot be imported (docs/developer.md, "Registry import").

- A full pass pages registry-entry (Online and Offline entries); every sync then pages
  registry-diff from the feed's stored checkpoint (``registry_checkpoints``: the registry's
  ``statusUpdatedAt`` and ``id`` of the last entry applied), which brings status changes:
  ``Deregistered`` withdraws the agent, ``Online``/``Offline`` are recorded. The first sync of a
  feed does the full pass; later ones only the diff (``full=True`` forces a pass).
- Keyed by ``agentIdentifier`` (unique): a second sync updates, never duplicates.
- A new agent enters PENDING and hidden (review_state ``pending``), owned by nobody; an admin
  approves it like a developer's submission. No agent is called during an import.
- A re-import updates the submitted listing; the admin's overrides stay (developer/listings.py,
  ``publish``). A new base URL or price of an approved agent sends it back to review.
- Links (image, example outputs, legal) are kept as the registry gives them: ``ipfs://`` and
  other non-http(s) values are data, never rendered as links (agents/views.py checks again).
- ``Dynamic`` pricing imports with price 0 and pricing type DYNAMIC; the registry's pricing
  (``listing.pricing``: ``pricingType`` and, for Fixed, the raw ``amounts``) stays on the agent
  for the payment side (docs/payments.md).
- Invalid entries (and those the registry marks ``Invalid``) are kept in ``registry_quarantine``
  with the reason; they never stop the sync. A fixed entry leaves the quarantine. An imported
  agent the registry marks ``Invalid`` goes back to review (hidden).
- Each page is fetched with no transaction open, then written (with the checkpoint it reached)
  in one short transaction: the round is ``registry.worker.sync``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.developer import listings
from agora.kit.errors import BadRequest
from agora.kit.ids import fetch_by_id
from agora.kit.outbound import redact_url
from agora.kit.pagination import PageParams
from agora.kit.timeutil import parse_isoformat, utcnow
from agora.models import Agent, RegistryCheckpoint, RegistryQuarantine
from agora.models.statuses import AgentSource, AgentStatus, PricingType, ReviewState
from agora.registry import repository as repo
from agora.registry.client import RegistryError, iso_z
from agora.registry.entries import (
    MARKED_INVALID,
    MAX_ENTRY_BYTES,
    Entry,
    Invalid,
    entry_key,
    parse_entry,
)
from agora.settings import Settings

log = structlog.get_logger(__name__)


@dataclass
class SyncReport:
    seen: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    deregistered: int = 0
    quarantined: int = 0
    pages: int = 0
    full: bool = False  # a registry-entry pass ran
    checkpoint: str | None = None  # statusUpdatedAfter where the next diff starts
    reasons: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "seen": self.seen,
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "deregistered": self.deregistered,
            "quarantined": self.quarantined,
            "pages": self.pages,
        }


def source_of(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()


def since_text(value: str) -> str:
    """``--since``: an ISO 8601 time as the registry takes it (UTC, ``Z``); Unix times are
    refused, as the registry refuses them."""
    moment = parse_isoformat(value.strip()) if not value.strip().isdigit() else None
    if moment is None:
        raise RegistryError(f"--since {value!r}: give an ISO 8601 time, e.g. 2026-01-31T12:00:00Z")
    return iso_z(moment)


async def checkpoint(session: AsyncSession, url: str, network: str) -> RegistryCheckpoint | None:
    """The stored checkpoint of the feed at ``url`` (None before its first sync)."""
    return await repo.checkpoint(session, source_of(url), network)


async def advance_checkpoint(
    session: AsyncSession,
    url: str,
    network: str,
    position: tuple[str, str | None],
    *,
    full_pass_at: datetime | None = None,
) -> None:
    """Store where the next registry-diff of the feed at ``url`` starts (``statusUpdatedAfter``
    and the cursor id); after a full pass, also when it ran."""
    after, cursor_id = position
    await repo.advance_checkpoint(
        session, source_of(url), network, redact_url(url), after, cursor_id, full_pass_at
    )


async def import_page(
    session: AsyncSession, settings: Settings, url: str, raws: list[Any], report: SyncReport
) -> None:
    """Write one fetched page (DB work only)."""
    source = source_of(url)
    parsed: list[tuple[str, Entry]] = []
    bad: dict[str, tuple[str, Any]] = {}
    for raw in raws:
        report.seen += 1
        key = entry_key(raw)
        try:
            parsed.append((key, parse_entry(raw, settings.registry.unit_credits)))
        except Invalid as exc:
            bad[key] = (str(exc), raw)
    marked_invalid = [
        raw["agentIdentifier"]
        for reason, raw in bad.values()
        if reason == MARKED_INVALID and isinstance(raw.get("agentIdentifier"), str)
    ]
    existing = await repo.agents_by_identifier(
        session, [e.identifier for _, e in parsed] + marked_invalid
    )
    for identifier in marked_invalid:
        invalid = existing.get(identifier)
        if invalid is not None and invalid.source == AgentSource.REGISTRY and _invalid(invalid):
            report.updated += 1
    clean_keys: list[str] = []
    for key, entry in parsed:
        agent = existing.get(entry.identifier)
        if agent is not None and agent.source != AgentSource.REGISTRY:
            bad[key] = ("agentIdentifier already belongs to an agent not imported", entry.listing)
            continue
        clean_keys.append(key)
        if agent is None:
            if entry.status.lower() == "deregistered":
                report.unchanged += 1
                continue
            agent = _new_agent(entry, settings)
            repo.add_agent(session, agent)
            existing[entry.identifier] = agent
            report.created += 1
        elif _apply(agent, entry, settings):
            report.updated += 1
            if (
                agent.review_state == ReviewState.WITHDRAWN
                and entry.status.lower() == "deregistered"
            ):
                report.deregistered += 1
        else:
            report.unchanged += 1
    await repo.release(session, source, clean_keys)
    known = await repo.quarantined(session, source, list(bad))
    for key, (reason, raw) in bad.items():
        report.quarantined += 1
        if len(report.reasons) < 20:
            report.reasons.append(f"{key}: {reason}")
        row = known.get(key)
        body = repo.entry_json(raw)
        if len(json.dumps(body, default=str)) > MAX_ENTRY_BYTES:
            body = {"truncated": True}
        if row is not None and row.dismissed_at is not None:
            if row.reason == reason and row.entry == body:
                report.quarantined -= 1  # dismissed by an operator, and unchanged: left alone
                continue
            row.dismissed_at = row.dismissed_reason = None  # changed: quarantined again
        if row is None:
            repo.add_quarantine(
                session,
                RegistryQuarantine(
                    source=source, source_url=url, entry_key=key, reason=reason, entry=body
                ),
            )
        elif row.reason != reason or row.entry != body:
            row.reason, row.entry = reason, body
    await session.flush()


def _new_agent(entry: Entry, settings: Settings) -> Agent:
    agent = Agent(
        base_url=entry.base_url,
        status=AgentStatus.PENDING,
        source=AgentSource.REGISTRY,
        review_state=ReviewState.PENDING,
        agent_identifier=entry.identifier,
        listing=entry.listing,
        admin_override={},
        name=entry.listing["name"],
    )
    _set_price(agent, entry, settings)
    listings.publish(agent)
    return agent


def _invalid(agent: Agent) -> bool:
    """The registry's health check found another agent (or an unsafe address) at the base URL:
    an imported agent goes back to review; False when nothing changed."""
    listing = agent.listing or {}
    if agent.review_state == ReviewState.WITHDRAWN or listing.get("registryStatus") == "Invalid":
        return False
    agent.listing = {**listing, "registryStatus": "Invalid"}
    if agent.review_state != ReviewState.PENDING:
        listings.back_to_review(agent, f"{MARKED_INVALID}: waiting for review again")
    listings.publish(agent)
    agent.updated_at = utcnow()
    return True


def _set_price(agent: Agent, entry: Entry, settings: Settings) -> None:
    listings.set_price(agent, entry.price, settings)
    if entry.pricing_type == PricingType.DYNAMIC:
        agent.pricing_type = PricingType.DYNAMIC


def _apply(agent: Agent, entry: Entry, settings: Settings) -> bool:
    """Update an imported agent from its entry; False when nothing changed."""
    if entry.status.lower() == "deregistered":
        if agent.review_state == ReviewState.WITHDRAWN:
            return False
        now = utcnow()
        agent.status, agent.revoked_at, agent.withdrawn_at = AgentStatus.REVOKED, now, now
        agent.review_state = ReviewState.WITHDRAWN
        agent.review_note = "Deregistered in the registry"
        agent.listing = entry.listing
        listings.publish(agent)
        return True
    if (
        agent.listing == entry.listing
        and agent.base_url == entry.base_url
        and agent.price == entry.price
        and agent.pricing_type == entry.pricing_type
    ):
        return False
    reasons = []
    if agent.base_url != entry.base_url:
        agent.base_url, agent.input_schema = entry.base_url, None
        reasons.append("base URL")
    if agent.price != entry.price or agent.pricing_type != entry.pricing_type:
        _set_price(agent, entry, settings)
        reasons.append("price")
    agent.listing = entry.listing
    if agent.review_state == ReviewState.WITHDRAWN:
        listings.back_to_review(agent, "Registered again in the registry: waiting for review")
    elif reasons and agent.review_state != ReviewState.PENDING:
        listings.back_to_review(
            agent, f"Registry changed {' and '.join(reasons)}: waiting for review again"
        )
    listings.publish(agent)
    agent.updated_at = utcnow()
    return True


async def quarantine_page(
    session: AsyncSession, params: PageParams
) -> tuple[list[RegistryQuarantine], int]:
    """A page of the quarantine, most recent first."""
    return await repo.quarantine_page(session, offset=params.offset, limit=params.limit)


# ---- the operators' side: inspect, retry, dismiss (admin API and /admin/registry) ---------


async def get_quarantined(
    session: AsyncSession, raw_id: str, *, for_update: bool = False
) -> RegistryQuarantine:
    """One quarantined entry (not dismissed), or 404."""
    return await fetch_by_id(
        raw_id,
        "Quarantined entry",
        lambda row_id: repo.quarantined_by_id(session, row_id, for_update=for_update),
    )


@dataclass(frozen=True)
class Retried:
    imported: bool
    entry_key: str
    reason: str | None  # why it is still quarantined (None: imported)
    agent_id: uuid.UUID | None


async def retry_quarantined(
    session: AsyncSession, settings: Settings, actor: audit.Actor, raw_id: str
) -> Retried:
    """Parse the stored entry again with the current rules (a new credit rate, a fixed rule):
    import it if it passes now (as a sync would: a PENDING agent, reviewed like any other), else
    keep it with the new reason. No registry call: the entry is the one stored."""
    row = await get_quarantined(session, raw_id, for_update=True)
    row_id, key, url, raw = row.id, row.entry_key, row.source_url, row.entry
    reason: str | None = None
    agent_id: uuid.UUID | None = None
    try:
        entry = parse_entry(raw, settings.registry.unit_credits)
    except Invalid as exc:
        reason = str(exc)
    if reason is None:
        report = SyncReport()
        await import_page(session, settings, url, [raw], report)
        if report.quarantined:
            reason = report.reasons[0].split(": ", 1)[-1] if report.reasons else "not imported"
        else:
            await repo.forget_quarantined(session, row_id)
            found = await repo.agents_by_identifier(session, [entry.identifier])
            agent = found.get(entry.identifier)
            agent_id = agent.id if agent is not None else None
    if reason is not None:
        row = await get_quarantined(session, str(row_id))
        row.reason, row.updated_at = reason, utcnow()
    await session.flush()
    await audit.record(
        session,
        "registry.retried",
        actor=actor,
        target_kind="registry_entry",
        target_id=row_id,
        details={
            "entryKey": key,
            "imported": reason is None,
            "reason": reason or "",
            "agentId": agent_id,
        },
    )
    return Retried(reason is None, key, reason, agent_id)


async def dismiss_quarantined(
    session: AsyncSession, actor: audit.Actor, raw_id: str, reason: str
) -> RegistryQuarantine:
    """Take an entry out of the quarantine with a reason. The row stays, marked dismissed, so
    the next sync leaves the same unchanged entry alone; a changed entry is quarantined again."""
    reason = (reason or "").strip()
    if not reason:
        raise BadRequest.field("reason", "say why the entry is dismissed")
    row = await get_quarantined(session, raw_id, for_update=True)
    row.dismissed_at, row.dismissed_reason = utcnow(), reason[:2000]
    await session.flush()
    await audit.record(
        session,
        "registry.dismissed",
        actor=actor,
        target_kind="registry_entry",
        target_id=row.id,
        details={"entryKey": row.entry_key, "reason": reason[:500], "entryReason": row.reason},
    )
    return row
