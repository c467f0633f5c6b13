"""A submitted listing: its fields' rules, its publication (the catalogue's columns derived from
the listing and an operator's overrides) and how its developer, or an operator, sees it. The
registry's imports publish through the same rules (registry/service.py)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import filters
from agora.agents import service as agents
from agora.developer.schemas import PriceOut, PublishedOut, ReviewOut
from agora.kit.errors import BadRequest
from agora.kit.fields import trimmed
from agora.kit.money import fee_for
from agora.kit.schemas import RowView
from agora.models import Agent
from agora.models.statuses import AgentStatus, PricingType, ReviewState
from agora.settings import Settings

OVERRIDABLE = ("name", "description", "tags", "image", "hidden")


# ---- validation -----------------------------------------------------------------------------


def link(field: str, value: str | None) -> str | None:
    """An optional absolute http(s) link (shown to users, never fetched by Agora)."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BadRequest.field(field, "must be an absolute http(s) URL")
    return value


def clean_tags(field: str, tags: list[str]) -> list[str]:
    out: list[str] = []
    for tag in tags:
        tag = tag.strip()
        if tag and tag not in out:
            out.append(tag)
    if any(len(t) > 50 for t in out):
        raise BadRequest.field(field, "a tag is at most 50 characters")
    return out


MAX_PRICE = 1_000_000  # credits per job


def clean_price(value: float | int | str) -> int:
    return agents.parse_price(value, at_most=MAX_PRICE)


async def category_ids(session: AsyncSession, values: list[str]) -> list[uuid.UUID]:
    """Curated categories only (``GET /v1/categories``)."""
    try:
        slugs = filters.parse_category_values(values)
    except BadRequest as exc:
        raise BadRequest.field("categories", "empty category value") from exc
    return await agents.category_ids(session, slugs, hint="see GET /v1/categories")


def listing_text(given: dict[str, Any]) -> dict[str, Any]:
    """The submitted listing fields of a (validated) body, cleaned, as stored in ``listing``."""
    out: dict[str, Any] = {}
    if "name" in given:
        out["name"] = trimmed("name", given["name"], 200)
    if "description" in given:
        out["description"] = given["description"].strip()
    if "tags" in given:
        out["tags"] = clean_tags("tags", given["tags"])
    if "image" in given:
        out["image"] = link("image", given["image"])
    if "exampleOutputs" in given:
        outputs = []
        for i, item in enumerate(given["exampleOutputs"]):
            url = link(f"exampleOutputs.{i}.url", item["url"])
            outputs.append({"name": item["name"].strip(), "mimeType": item["mimeType"], "url": url})
        out["exampleOutputs"] = outputs
    if "author" in given:
        author = given["author"]
        if author is not None:
            author = {k: v for k, v in author.items() if v is not None}
            if "website" in author:
                author["website"] = link("author.website", author["website"])
        out["author"] = author
    if "legal" in given:
        legal = given["legal"]
        if legal is not None:
            legal = {k: link(f"legal.{k}", v) for k, v in legal.items() if v is not None}
        out["legal"] = legal
    return out


def submission_problems(given: dict[str, Any]) -> dict[str, str]:
    """Every problem of a submission's (or edit's) fields at once, by the API's field names
    (``baseUrl``, ``price``, ``author.website`` …): the rules ``submit``/``update`` apply, for a
    form that reports them all together. Categories are checked by ``category_ids``."""
    found: dict[str, str] = {}
    checks: list[tuple[str, Any]] = []
    if "baseUrl" in given:
        checks.append(("baseUrl", lambda: agents.check_base_url(given["baseUrl"])))
    if "price" in given:
        checks.append(("price", lambda: clean_price(given["price"])))
    for key in ("name", "tags", "image", "author", "legal", "exampleOutputs"):
        if key in given:
            checks.append((key, lambda key=key: listing_text({key: given[key]})))
    for key, check in checks:
        try:
            check()
        except BadRequest as exc:
            for detail in exc.details or ():
                found.setdefault(detail.field, detail.reason)
            if not exc.details:
                found.setdefault(key, exc.message)
    return found


# ---- publishing -----------------------------------------------------------------------------


def publish(agent: Agent) -> None:
    """Derive the published columns from the listing and the admin's overrides."""
    listing, override = agent.listing or {}, agent.admin_override or {}
    agent.name = override.get("name") or listing.get("name") or agent.name
    agent.description = str(override.get("description", listing.get("description", "")))
    tags = override.get("tags", listing.get("tags", []))
    agent.tags = [{"name": t} for t in tags]
    agent.image = override.get("image", listing.get("image"))
    hidden = bool(override.get("hidden", listing.get("hidden", False)))
    agent.is_shown = agent.review_state in (None, ReviewState.APPROVED) and not hidden


def set_price(agent: Agent, price: int, settings: Settings) -> None:
    agent.price = price
    agent.fee = fee_for(price, settings.catalogue.marketplace_fee_bps)
    agent.pricing_type = PricingType.FIXED if price else PricingType.FREE


def back_to_review(agent: Agent, why: str) -> None:
    agent.status = AgentStatus.PENDING
    agent.review_state = ReviewState.PENDING
    agent.review_note = why
    agent.verified_at = None
    agent.verification_expires_at = None


def snapshot(agent: Agent) -> dict[str, Any]:
    """An operator-registered agent has no listing yet: its published values become one."""
    return {
        "name": agent.name,
        "description": agent.description,
        "tags": [str(t.get("name", "")) for t in agent.tags if isinstance(t, dict)],
        "image": agent.image,
        "hidden": not agent.is_shown,
    }


# ---- how its developer (or an operator) sees it (read through developer/schemas.py) ---------


def review_of(agent: Agent) -> ReviewOut:
    return ReviewOut(
        state=agent.review_state, note=agent.review_note, reviewed_at=agent.reviewed_at
    )


@dataclass(frozen=True)
class ListedAgent(RowView):
    """An agent row as its developer (or an admin) sees it: the submitted listing beside the
    published columns. Read by ``DeveloperAgentOut`` / ``AdminAgentOut``; other attributes come
    from the row."""

    row: Agent
    categories: list[str]

    @property
    def _listing(self) -> dict[str, Any]:
        return self.row.listing or {}

    @property
    def review(self) -> ReviewOut:
        return review_of(self.row)

    @property
    def name(self) -> str:
        return str(self._listing.get("name", self.row.name))

    @property
    def description(self) -> str:
        return str(self._listing.get("description", self.row.description))

    @property
    def tags(self) -> list[str]:
        return list(self._listing.get("tags", []))

    @property
    def example_outputs(self) -> list[dict[str, Any]]:
        return list(self._listing.get("exampleOutputs", []))  # camelCase keys: the aliases

    @property
    def author(self) -> dict[str, Any] | None:
        return self._listing.get("author") or None

    @property
    def legal(self) -> dict[str, Any] | None:
        return self._listing.get("legal") or None

    @property
    def image(self) -> str | None:
        return self._listing.get("image")

    @property
    def price(self) -> PriceOut:
        return PriceOut(credits=self.row.price + self.row.fee, included_fee=self.row.fee)

    @property
    def published(self) -> PublishedOut:
        agent = self.row
        return PublishedOut(
            name=agent.name,
            description=agent.description,
            tags=[str(t.get("name", "")) for t in agent.tags if isinstance(t, dict)],
            image=agent.image,
            is_shown=agent.is_shown,
            overridden=sorted(agent.admin_override or {}),
        )

    @property
    def admin_override(self) -> dict[str, Any]:
        return self.row.admin_override or {}


async def listed(session: AsyncSession, rows: list[Agent]) -> list[ListedAgent]:
    slugs = await agents.category_slugs(session, rows)
    return [ListedAgent(a, slugs[a.id]) for a in rows]


async def listed_one(session: AsyncSession, agent: Agent) -> ListedAgent:
    return (await listed(session, [agent]))[0]
