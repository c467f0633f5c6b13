"""The listings' filters and sorts: category values, the search text, the sorts, the person's
filters (favourites, hired before) and featured agents, as the conditions the repository runs
(docs/agents.md, "Sorting")."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import badge_repository
from agora.agents import repository as repo
from agora.kit.errors import BadRequest

UNCATEGORIZED = "uncategorized"

SORT_LABELS = {
    "": "First listed",
    "featured": "Featured first",
    "rating": "Best rated",
    "popularity": "Most hired (30 days)",
    "newest": "Newest",
    "price": "Lowest price",
    "relevance": "Relevance (with a search)",
}


def parse_category_values(values: list[str] | None) -> list[str]:
    """Repeated and comma-separated values, trimmed; an empty value is a 400."""
    slugs: list[str] = []
    for raw in values or []:
        for part in raw.split(","):
            slug = part.strip().lower()
            if not slug:
                raise BadRequest.field("category", "empty category value")
            if slug not in slugs:
                slugs.append(slug)
    return slugs


async def category_condition(session: AsyncSession, slugs: list[str]) -> ColumnElement[bool] | None:
    if not slugs:
        return None
    wanted = [s for s in slugs if s != UNCATEGORIZED]
    found = await repo.categories_by_slug(session, wanted)
    unknown = [s for s in wanted if s not in found]
    if unknown:
        raise BadRequest.field("category", f"unknown category: {', '.join(unknown)}")
    return repo.category_filter([c.id for c in found.values()], UNCATEGORIZED in slugs)


def check_sort(sort: str | None, q: str | None) -> str | None:
    """A ``sort`` value (None: the registration order); 400 naming ``sort`` otherwise."""
    if sort is None:
        return None
    value = sort.strip().lower()
    if value not in repo.SORTS:
        raise BadRequest.field("sort", f"must be one of {', '.join(repo.SORTS)}")
    if value == "relevance" and not (q or "").strip():
        raise BadRequest.field("sort", "relevance needs a search text (q)")
    return value


@dataclass(frozen=True)
class PersonFilters:
    """Filters of the person asking (the Bearer listing, the gallery when signed in)."""

    user_id: uuid.UUID
    favourites: bool = False
    hired_before: bool = False

    def conditions(self) -> list[ColumnElement[bool]]:
        found: list[ColumnElement[bool]] = []
        if self.favourites:
            found.append(repo.favourites_of(self.user_id))
        if self.hired_before:
            found.append(repo.hired_by(self.user_id))
        return found


async def conditions(
    session: AsyncSession,
    categories: list[str],
    q: str | None,
    *,
    featured: bool,
    person: PersonFilters | None,
    conformant: bool = False,
) -> list[ColumnElement[bool]]:
    """Every listing's filters: the categories (any of them), the search text, the featured
    agents, the conformant ones (holding the badge), the person's own."""
    found: list[ColumnElement[bool]] = []
    category = await category_condition(session, categories)
    if category is not None:
        found.append(category)
    text = (q or "").strip()
    if text:
        found.append(repo.text_search(text))
    if featured:
        found.append(repo.featured())
    if conformant:
        found.append(badge_repository.conformant())
    if person is not None:
        found.extend(person.conditions())
    return found
