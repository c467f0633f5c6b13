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
- A re-import updates the submitted listing; the admin's overrides stay (developer.publish). A new
  base URL or price of an approved agent sends it back to review.
- Links (image, example outputs, legal) are kept as the registry gives them: ``ipfs://`` and
  other non-http(s) values are data, never rendered as links (web/service.py checks again).
- ``Dynamic`` pricing imports with price 0 and pricing type DYNAMIC; the registry's pricing
  (``listing.pricing``: ``pricingType`` and, for Fixed, the raw ``amounts``) stays on the agent
  for the payment side (docs/payments.md).
- Invalid entries (and those the registry marks ``Invalid``) are kept in ``registry_quarantine``
  with the reason; they never stop the sync. A fixed entry leaves the quarantine. An imported
  agent the registry marks ``Invalid`` goes back to review (hidden).
- Each page is fetched with no transaction open, then written (with the checkpoint it reached)
  in one short transaction.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.developer import service as developer
from agora.kit.db import Database
from agora.kit.errors import BadRequest, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.money import BASE_UNITS_PER_CREDIT
from agora.kit.outbound import OutboundPolicy, redact_url
from agora.kit.pagination import PageParams
from agora.kit.timeutil import as_utc, parse_isoformat, utcnow
from agora.mip003.client import validate_base_url
from agora.models import Agent, RegistryQuarantine
from agora.models.statuses import AgentSource, AgentStatus, PricingType
from agora.registry import repository as repo
from agora.registry.client import RegistryError, RegistryFeed, iso_z
from agora.settings import Settings

log = structlog.get_logger(__name__)

_IDENTIFIER = re.compile(r"^[A-Za-z0-9._:-]{1,500}$")
MARKED_INVALID = "the registry marks this entry Invalid"
MAX_TAGS, MAX_OUTPUTS, MAX_ENTRY_BYTES = 15, 25, 64 * 1024
# After a full pass, registry-diff starts this long before the registry's clock said the pass
# began: a change made while the pass ran is seen again (applying an entry twice changes
# nothing), never missed.
DIFF_OVERLAP = timedelta(minutes=15)
# A full pass at least this often: metadata changes that keep an entry's status do not move its
# statusUpdatedAt, so registry-diff never brings them.
FULL_PASS_EVERY = timedelta(hours=24)


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


class Invalid(Exception):
    pass


@dataclass(frozen=True)
class Entry:
    identifier: str
    status: str
    base_url: str
    price: int
    pricing_type: PricingType
    listing: dict[str, Any]


def _get(entry: dict[str, Any], *names: str) -> Any:
    for name in names:
        if name in entry and entry[name] is not None:
            return entry[name]
    return None


def _text(value: Any, what: str, max_length: int, *, required: bool = False) -> str | None:
    if value is None:
        if required:
            raise Invalid(f"{what} is missing")
        return None
    if not isinstance(value, str):
        raise Invalid(f"{what} is not a string")
    value = value.strip()
    if required and not value:
        raise Invalid(f"{what} is empty")
    if len(value) > max_length:
        raise Invalid(f"{what} is longer than {max_length} characters")
    return value or None


def _data_link(value: Any, what: str) -> str | None:
    """A link kept as the registry gives it (``https://``, ``ipfs://``, anything): data. Only
    http(s) values are ever rendered as links (web/service.py ``_web_link``)."""
    return _text(value, what, 2000)


def _amounts(pricing: dict[str, Any]) -> list[dict[str, str]]:
    fixed = _get(pricing, "FixedPricing", "fixedPricing")
    if isinstance(fixed, dict):
        amounts = _get(fixed, "Amounts", "amounts")
    else:  # the payment node's spelling (POST /registry): AgentPricing.Pricing, or a list
        amounts = fixed if isinstance(fixed, list) else _get(pricing, "Pricing", "Amounts")
    if not isinstance(amounts, list) or not amounts:
        raise Invalid("AgentPricing: a Fixed price needs Amounts")
    out = []
    for item in amounts:
        if not isinstance(item, dict):
            raise Invalid("AgentPricing.Amounts: an amount is not an object")
        unit, amount = item.get("unit"), item.get("amount")
        if not isinstance(unit, str) or not isinstance(amount, (str, int)) or len(unit) > 250:
            raise Invalid("AgentPricing.Amounts: an amount needs a unit and an amount")
        out.append({"amount": str(amount), "unit": unit})
    return out


def _price(pricing: Any, units: dict[str, float]) -> tuple[int, PricingType, dict[str, Any]]:
    """(price in credit base units, pricing type, the registry's pricing as kept in listing)."""
    if pricing is None:
        return 0, PricingType.FREE, {"pricingType": "Free"}
    if not isinstance(pricing, dict):
        raise Invalid("AgentPricing is not an object")
    kind = str(pricing.get("pricingType") or "").lower()
    if kind == "free":
        return 0, PricingType.FREE, {"pricingType": "Free"}
    if kind == "dynamic":  # the agent signs its amounts per job (/start_job)
        return 0, PricingType.DYNAMIC, {"pricingType": "Dynamic"}
    if kind != "fixed":
        raise Invalid(f"AgentPricing.pricingType {pricing.get('pricingType')!r} is not supported")
    amounts = _amounts(pricing)
    total = Decimal(0)
    for item in amounts:
        unit = item["unit"]
        if unit not in units:
            raise Invalid(f"AgentPricing: unknown unit {unit!r} (no credit rate configured)")
        try:
            amount = Decimal(item["amount"])
        except InvalidOperation as exc:
            raise Invalid("AgentPricing: an amount is not a number") from exc
        if not amount.is_finite() or amount < 0:
            raise Invalid("AgentPricing: an amount is negative or not finite")
        total += amount * Decimal(str(units[unit]))
    base = int((total * BASE_UNITS_PER_CREDIT).to_integral_value())
    if base > 1_000_000 * BASE_UNITS_PER_CREDIT:
        raise Invalid("AgentPricing: more than 1000000 credits")
    kept = {"pricingType": "Fixed", "amounts": amounts}
    return base, PricingType.FIXED if base else PricingType.FREE, kept


def _example_outputs(raw: dict[str, Any]) -> list[dict[str, Any]]:
    # The registry service's name is ExampleOutput (singular); the payment node's POST /registry
    # says ExampleOutputs.
    outputs_raw = _get(raw, "ExampleOutput", "ExampleOutputs", "exampleOutputs") or []
    if not isinstance(outputs_raw, list) or len(outputs_raw) > MAX_OUTPUTS:
        raise Invalid(f"ExampleOutput must be a list of at most {MAX_OUTPUTS}")
    outputs = []
    for i, item in enumerate(outputs_raw):
        if not isinstance(item, dict):
            raise Invalid(f"ExampleOutput.{i} is not an object")
        outputs.append(
            {
                "name": _text(item.get("name"), f"ExampleOutput.{i}.name", 200, required=True),
                "mimeType": _text(
                    _get(item, "mimeType", "mime_type"), f"ExampleOutput.{i}.mimeType", 200
                )
                or "",
                "url": _data_link(item.get("url"), f"ExampleOutput.{i}.url")
                or _missing(f"ExampleOutput.{i}.url"),
            }
        )
    return outputs


def _author(raw: dict[str, Any]) -> dict[str, Any] | None:
    author_raw = _get(raw, "Author", "author")
    if isinstance(author_raw, dict):
        author = {
            "name": _text(author_raw.get("name"), "Author.name", 200) or "",
            "contactEmail": _text(author_raw.get("contactEmail"), "Author.contactEmail", 320),
            "contactOther": _text(author_raw.get("contactOther"), "Author.contactOther", 500),
            "organization": _text(author_raw.get("organization"), "Author.organization", 200),
        }
    elif _get(raw, "authorName") is not None:
        author = {
            "name": _text(_get(raw, "authorName"), "authorName", 200) or "",
            "contactEmail": _text(_get(raw, "authorContactEmail"), "authorContactEmail", 320),
            "contactOther": _text(_get(raw, "authorContactOther"), "authorContactOther", 500),
            "organization": _text(_get(raw, "authorOrganization"), "authorOrganization", 200),
        }
    else:
        return None
    return {k: v for k, v in author.items() if v is not None}


def _registry_facts(raw: dict[str, Any]) -> dict[str, Any]:
    """What the registry says about the entry beyond its text: kept, not interpreted."""
    source = raw.get("RegistrySource")
    capability = raw.get("Capability")
    facts = {
        "id": _text(_get(raw, "id"), "id", 100) if isinstance(raw.get("id"), str) else None,
        "paymentType": _text(_get(raw, "paymentType"), "paymentType", 50),
        "policyId": _text(source.get("policyId"), "RegistrySource.policyId", 250)
        if isinstance(source, dict)
        else None,
        "capability": {
            "name": _text(capability.get("name"), "Capability.name", 150),
            "version": _text(capability.get("version"), "Capability.version", 150),
        }
        if isinstance(capability, dict)
        else None,
        "metadataVersion": raw.get("metadataVersion")
        if isinstance(raw.get("metadataVersion"), int)
        else None,
    }
    return {k: v for k, v in facts.items() if v is not None}


def parse_entry(raw: Any, units: dict[str, float]) -> Entry:
    """A feed entry as Agora stores it, or ``Invalid`` with the reason.

    Read with the registry service's names (``tags``, ``ExampleOutput``, ``authorName``…,
    ``privacyPolicy``/``termsAndCondition``/``otherLegal``, ``image``) and the payment node's
    (``Tags``, ``ExampleOutputs``, ``Author``, ``Legal``) alike.
    """
    if not isinstance(raw, dict):
        raise Invalid("the entry is not an object")
    if len(json.dumps(raw, default=str)) > MAX_ENTRY_BYTES:
        raise Invalid(f"the entry is larger than {MAX_ENTRY_BYTES} bytes")
    identifier = _text(_get(raw, "agentIdentifier"), "agentIdentifier", 500, required=True)
    assert identifier is not None
    if not _IDENTIFIER.match(identifier):
        raise Invalid("agentIdentifier has characters other than letters, digits and ._:-")
    status = str(_get(raw, "status") or "Online")
    if status.lower() == "invalid":
        raise Invalid(MARKED_INVALID)
    base_url = _text(_get(raw, "apiBaseUrl", "apiUrl"), "apiBaseUrl", 2000, required=True)
    assert base_url is not None
    try:
        base_url = validate_base_url(base_url)
    except ValueError as exc:
        raise Invalid(f"apiBaseUrl: {exc}") from exc
    name = _text(_get(raw, "name"), "name", 200, required=True)
    tags_raw = _get(raw, "tags", "Tags") or []
    if not isinstance(tags_raw, list) or len(tags_raw) > MAX_TAGS:
        raise Invalid(f"tags must be a list of at most {MAX_TAGS}")
    tags: list[str] = []
    for tag in tags_raw:
        tag = tag.get("name") if isinstance(tag, dict) else tag
        text = _text(tag, "a tag", 50)
        if text and text not in tags:
            tags.append(text)
    outputs = _example_outputs(raw)
    author = _author(raw)
    legal_raw = _get(raw, "Legal", "legal")
    legal_src = legal_raw if isinstance(legal_raw, dict) else raw
    legal = {
        "privacyPolicy": _data_link(_get(legal_src, "privacyPolicy"), "privacyPolicy"),
        "terms": _data_link(_get(legal_src, "termsAndCondition", "terms"), "termsAndCondition"),
        "other": _data_link(_get(legal_src, "otherLegal", "other"), "otherLegal"),
    }
    price, pricing_type, pricing = _price(_get(raw, "AgentPricing", "agentPricing"), units)
    listing: dict[str, Any] = {
        "name": name,
        "description": _text(_get(raw, "description"), "description", 10_000) or "",
        "tags": tags,
        "image": _data_link(_get(raw, "image"), "image"),
        "exampleOutputs": outputs,
        "author": author or None,
        "legal": {k: v for k, v in legal.items() if v is not None} or None,
        "registryStatus": status,
        "pricing": pricing,
        "registry": _registry_facts(raw),
    }
    return Entry(identifier, status, base_url, price, pricing_type, listing)


def _missing(what: str) -> str:
    raise Invalid(f"{what} is missing")


def entry_key(raw: Any) -> str:
    """What identifies an entry in the quarantine: its agentIdentifier, its id, or a digest."""
    if isinstance(raw, dict):
        for name in ("agentIdentifier", "id"):
            value = raw.get(name)
            if isinstance(value, (str, int)) and 0 < len(str(value)) <= 500:
                return f"{name}:{value}"
    digest = hashlib.sha256(json.dumps(raw, sort_keys=True, default=str).encode()).hexdigest()
    return f"sha256:{digest}"


def source_of(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()


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
            parsed.append((key, parse_entry(raw, settings.registry_unit_credits)))
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
            if agent.review_state == developer.WITHDRAWN and entry.status.lower() == "deregistered":
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
        review_state=developer.PENDING,
        agent_identifier=entry.identifier,
        listing=entry.listing,
        admin_override={},
        name=entry.listing["name"],
    )
    _set_price(agent, entry, settings)
    developer.publish(agent)
    return agent


def _invalid(agent: Agent) -> bool:
    """The registry's health check found another agent (or an unsafe address) at the base URL:
    an imported agent goes back to review; False when nothing changed."""
    listing = agent.listing or {}
    if agent.review_state == developer.WITHDRAWN or listing.get("registryStatus") == "Invalid":
        return False
    agent.listing = {**listing, "registryStatus": "Invalid"}
    if agent.review_state != developer.PENDING:
        developer.back_to_review(agent, f"{MARKED_INVALID}: waiting for review again")
    developer.publish(agent)
    agent.updated_at = utcnow()
    return True


def _set_price(agent: Agent, entry: Entry, settings: Settings) -> None:
    developer.set_price(agent, entry.price, settings)
    if entry.pricing_type == PricingType.DYNAMIC:
        agent.pricing_type = PricingType.DYNAMIC


def _apply(agent: Agent, entry: Entry, settings: Settings) -> bool:
    """Update an imported agent from its entry; False when nothing changed."""
    if entry.status.lower() == "deregistered":
        if agent.review_state == developer.WITHDRAWN:
            return False
        now = utcnow()
        agent.status, agent.revoked_at, agent.withdrawn_at = AgentStatus.REVOKED, now, now
        agent.review_state = developer.WITHDRAWN
        agent.review_note = "Deregistered in the registry"
        agent.listing = entry.listing
        developer.publish(agent)
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
    if agent.review_state == developer.WITHDRAWN:
        developer.back_to_review(agent, "Registered again in the registry: waiting for review")
    elif reasons and agent.review_state != developer.PENDING:
        developer.back_to_review(
            agent, f"Registry changed {' and '.join(reasons)}: waiting for review again"
        )
    developer.publish(agent)
    agent.updated_at = utcnow()
    return True


def since_text(value: str) -> str:
    """``--since``: an ISO 8601 time as the registry takes it (UTC, ``Z``); Unix times are
    refused, as the registry refuses them."""
    moment = parse_isoformat(value.strip()) if not value.strip().isdigit() else None
    if moment is None:
        raise RegistryError(f"--since {value!r}: give an ISO 8601 time, e.g. 2026-01-31T12:00:00Z")
    return iso_z(moment)


async def sync(
    db: Database,
    settings: Settings,
    url: str,
    *,
    updated_after: str | None = None,
    full: bool = False,
) -> SyncReport:
    """Import the feed at ``url``: a full registry-entry pass when the feed has no checkpoint
    yet, its last pass is ``FULL_PASS_EVERY`` old, or ``full``; then registry-diff from the
    checkpoint, which advances with each page.
    ``updated_after`` pages registry-diff from that time only and leaves the checkpoint alone.
    Raises RegistryError when the feed fails (pages already written stay written)."""
    report = SyncReport()
    network = settings.registry_network
    since = since_text(updated_after) if updated_after is not None else None
    async with RegistryFeed(
        url,
        network=network,
        token=settings.registry_token,
        timeout=settings.registry_timeout_seconds,
        page_size=settings.registry_page_size,
        policy=OutboundPolicy.from_setting(settings.outbound_allow),
    ) as feed:
        source = source_of(feed.base)
        if since is not None:
            start: tuple[str, str | None] = (since, None)
        else:
            async with db.transaction(write=False) as session:
                stored = await repo.checkpoint(session, source, network)
            # no checkpoint yet: the full pass below sets the start
            start = (stored.status_updated_after, stored.cursor_id) if stored else ("", None)
            last_full = as_utc(stored.full_pass_at) if stored and stored.full_pass_at else None
            if full or last_full is None or utcnow() - last_full >= FULL_PASS_EVERY:
                report.full = True
                async for page in feed.entries(max_pages=settings.registry_max_pages):
                    report.pages += 1
                    async with db.transaction() as session:  # fetched already: a short write
                        await import_page(session, settings, feed.base, page, report)
                began = feed.first_answer_at or utcnow()
                if stored is None:
                    start = (iso_z(began - DIFF_OVERLAP), None)
                async with db.transaction() as session:
                    await repo.advance_checkpoint(
                        session, source, network, redact_url(feed.base), *start, utcnow()
                    )
        report.checkpoint = start[0]
        async for diff in feed.diff(
            status_updated_after=start[0],
            cursor_id=start[1],
            max_pages=settings.registry_max_pages,
        ):
            report.pages += 1
            async with db.transaction() as session:
                await import_page(session, settings, feed.base, diff.entries, report)
                if since is None:
                    await repo.advance_checkpoint(
                        session,
                        source,
                        network,
                        redact_url(feed.base),
                        diff.status_updated_after,
                        diff.cursor_id,
                    )
            report.checkpoint = diff.status_updated_after
    log.info(
        "registry_synced",
        url=redact_url(url),
        full=report.full,
        checkpoint=report.checkpoint,
        **report.as_dict(),
    )
    return report


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
    row_id = parse_uuid(raw_id)
    row = await repo.quarantined_by_id(session, row_id, for_update=for_update) if row_id else None
    if row is None:
        raise NotFound(f"Quarantined entry {raw_id} not found")
    return row


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
        entry = parse_entry(raw, settings.registry_unit_credits)
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
