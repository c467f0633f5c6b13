"""Registry import: page a Masumi-shaped feed, upsert its agents as PENDING, quarantine the rest.

- Keyed by ``agentIdentifier`` (unique): a second sync updates, never duplicates.
- A new agent enters PENDING and hidden (review_state ``pending``), owned by nobody; an admin
  approves it like a developer's submission. No agent is called during an import.
- A re-import updates the submitted listing; the admin's overrides stay (developer.publish). A new
  base URL or price of an approved agent sends it back to review. ``Deregistered`` withdraws it.
- Invalid entries (and those the registry marks ``Invalid``) are kept in ``registry_quarantine``
  with the reason; they never stop the sync. A fixed entry leaves the quarantine.
- Each page is fetched with no transaction open, then written in one short transaction.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agora.developer import service as developer
from agora.kit.db import Database
from agora.kit.errors import BadRequest
from agora.kit.money import BASE_UNITS_PER_CREDIT
from agora.kit.outbound import OutboundPolicy, redact_url
from agora.kit.pagination import PageParams
from agora.kit.timeutil import utcnow
from agora.mip003.client import validate_base_url
from agora.models import Agent, RegistryQuarantine
from agora.models.statuses import AgentSource, AgentStatus
from agora.registry import repository as repo
from agora.registry.client import RegistryFeed
from agora.settings import Settings

log = structlog.get_logger(__name__)

_IDENTIFIER = re.compile(r"^[A-Za-z0-9._:-]{1,500}$")
_MIME = re.compile(r"^[\w.+-]+/[\w.+-]+$")
MAX_TAGS, MAX_OUTPUTS, MAX_ENTRY_BYTES = 15, 25, 64 * 1024


@dataclass
class SyncReport:
    seen: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    deregistered: int = 0
    quarantined: int = 0
    pages: int = 0
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


def _link(value: Any, what: str) -> str | None:
    text = _text(value, what, 2000)
    if text is None:
        return None
    try:
        return developer.link(what, text)
    except BadRequest as exc:
        raise Invalid(f"{what}: must be an absolute http(s) URL") from exc


def _price(pricing: Any, units: dict[str, float]) -> int:
    if pricing is None:
        return 0
    if not isinstance(pricing, dict):
        raise Invalid("AgentPricing is not an object")
    kind = str(pricing.get("pricingType") or "").lower()
    if kind == "free":
        return 0
    if kind != "fixed":
        raise Invalid(f"AgentPricing.pricingType {pricing.get('pricingType')!r} is not supported")
    fixed = pricing.get("FixedPricing") or pricing.get("fixedPricing") or pricing
    amounts = fixed.get("Amounts") or fixed.get("amounts") if isinstance(fixed, dict) else None
    if not isinstance(amounts, list) or not amounts:
        raise Invalid("AgentPricing: a Fixed price needs Amounts")
    total = Decimal(0)
    for item in amounts:
        if not isinstance(item, dict):
            raise Invalid("AgentPricing.Amounts: an amount is not an object")
        unit = str(item.get("unit") or "")
        if unit not in units:
            raise Invalid(f"AgentPricing: unknown unit {unit!r} (no credit rate configured)")
        try:
            amount = Decimal(str(item.get("amount")))
        except InvalidOperation as exc:
            raise Invalid("AgentPricing: an amount is not a number") from exc
        if not amount.is_finite() or amount < 0:
            raise Invalid("AgentPricing: an amount is negative or not finite")
        total += amount * Decimal(str(units[unit]))
    base = int((total * BASE_UNITS_PER_CREDIT).to_integral_value())
    if base > 1_000_000 * BASE_UNITS_PER_CREDIT:
        raise Invalid("AgentPricing: more than 1000000 credits")
    return base


def parse_entry(raw: Any, units: dict[str, float]) -> Entry:
    """A feed entry as Agora stores it, or ``Invalid`` with the reason."""
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
        raise Invalid("the registry marks this entry Invalid")
    base_url = _text(_get(raw, "apiBaseUrl", "apiUrl"), "apiBaseUrl", 2000, required=True)
    assert base_url is not None
    try:
        base_url = validate_base_url(base_url)
    except ValueError as exc:
        raise Invalid(f"apiBaseUrl: {exc}") from exc
    name = _text(_get(raw, "name"), "name", 200, required=True)
    tags_raw = _get(raw, "Tags", "tags") or []
    if not isinstance(tags_raw, list) or len(tags_raw) > MAX_TAGS:
        raise Invalid(f"Tags must be a list of at most {MAX_TAGS}")
    tags: list[str] = []
    for tag in tags_raw:
        tag = tag.get("name") if isinstance(tag, dict) else tag
        text = _text(tag, "a tag", 50)
        if text and text not in tags:
            tags.append(text)
    outputs_raw = _get(raw, "ExampleOutputs", "exampleOutputs") or []
    if not isinstance(outputs_raw, list) or len(outputs_raw) > MAX_OUTPUTS:
        raise Invalid(f"ExampleOutputs must be a list of at most {MAX_OUTPUTS}")
    outputs = []
    for i, item in enumerate(outputs_raw):
        if not isinstance(item, dict):
            raise Invalid(f"ExampleOutputs.{i} is not an object")
        mime = _text(item.get("mimeType"), f"ExampleOutputs.{i}.mimeType", 200, required=True)
        if not _MIME.match(mime or ""):
            raise Invalid(f"ExampleOutputs.{i}.mimeType is not a MIME type")
        outputs.append(
            {
                "name": _text(item.get("name"), f"ExampleOutputs.{i}.name", 200, required=True),
                "mimeType": mime,
                "url": _link(item.get("url"), f"ExampleOutputs.{i}.url")
                or _missing(f"ExampleOutputs.{i}.url"),
            }
        )
    author_raw = _get(raw, "Author", "author")
    author: dict[str, Any] | None = None
    if isinstance(author_raw, dict):
        author = {
            "name": _text(author_raw.get("name"), "Author.name", 200) or "",
            "contactEmail": _text(author_raw.get("contactEmail"), "Author.contactEmail", 320),
            "organization": _text(author_raw.get("organization"), "Author.organization", 200),
        }
    elif _get(raw, "authorName") is not None:
        author = {
            "name": _text(_get(raw, "authorName"), "authorName", 200) or "",
            "contactEmail": _text(_get(raw, "authorContactEmail"), "authorContactEmail", 320),
            "organization": _text(_get(raw, "authorOrganization"), "authorOrganization", 200),
        }
    legal_raw = _get(raw, "Legal", "legal")
    legal_src = legal_raw if isinstance(legal_raw, dict) else raw
    legal = {
        "privacyPolicy": _link(_get(legal_src, "privacyPolicy"), "Legal.privacyPolicy"),
        "terms": _link(_get(legal_src, "terms", "termsAndCondition"), "Legal.terms"),
        "other": _link(_get(legal_src, "other", "otherLegal"), "Legal.other"),
    }
    listing: dict[str, Any] = {
        "name": name,
        "description": _text(_get(raw, "description"), "description", 10_000) or "",
        "tags": tags,
        "image": _link(_get(raw, "image"), "image"),
        "exampleOutputs": outputs,
        "author": {k: v for k, v in author.items() if v is not None} if author else None,
        "legal": {k: v for k, v in legal.items() if v is not None} or None,
        "registryStatus": status,
    }
    price = _price(_get(raw, "AgentPricing", "agentPricing"), units)
    return Entry(identifier, status, base_url, price, listing)


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
    existing = await repo.agents_by_identifier(session, [e.identifier for _, e in parsed])
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
    developer.set_price(agent, entry.price, settings)
    developer.publish(agent)
    return agent


def _apply(agent: Agent, entry: Entry, settings: Settings) -> bool:
    """Update an imported agent from its entry; False when nothing changed."""
    if entry.status.lower() == "deregistered":
        if agent.review_state == developer.WITHDRAWN:
            return False
        now = utcnow()
        agent.status, agent.revoked_at, agent.withdrawn_at = AgentStatus.REVOKED, now, now
        agent.review_state = developer.WITHDRAWN
        agent.review_note = "Deregistered in the registry"
        developer.publish(agent)
        return True
    if (
        agent.listing == entry.listing
        and agent.base_url == entry.base_url
        and agent.price == entry.price
    ):
        return False
    reasons = []
    if agent.base_url != entry.base_url:
        agent.base_url, agent.input_schema = entry.base_url, None
        reasons.append("base URL")
    if agent.price != entry.price:
        developer.set_price(agent, entry.price, settings)
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


async def sync(
    db: Database, settings: Settings, url: str, *, updated_after: str | None = None
) -> SyncReport:
    """Import every page of the feed at ``url``. Raises RegistryError when the feed fails."""
    report = SyncReport()
    async with RegistryFeed(
        url,
        network=settings.registry_network,
        timeout=settings.registry_timeout_seconds,
        page_size=settings.registry_page_size,
        policy=OutboundPolicy.from_setting(settings.outbound_allow),
    ) as feed:
        async for page in feed.pages(
            max_pages=settings.registry_max_pages, updated_after=updated_after
        ):
            report.pages += 1
            async with db.transaction() as session:  # fetched already: a short write
                await import_page(session, settings, feed.base, page, report)
    log.info("registry_synced", url=redact_url(url), **report.as_dict())
    return report


async def quarantine_page(
    session: AsyncSession, params: PageParams
) -> tuple[list[RegistryQuarantine], int]:
    """A page of the quarantine, most recent first."""
    return await repo.quarantine_page(session, offset=params.offset, limit=params.limit)
