"""The MCP connector's search (``search`` tool): available agents whose name, description or tags
contain every word of a query, read page by page from the Bearer listing, at most
``SEARCH_PAGES`` pages of 100."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents.schemas import tag_list
from agora.agents.service import ListedAgent, cursor_listing

SEARCH_PAGES = 10  # search reads at most 1 000 agents
MAX_WORDS = 10


def _text(agent: ListedAgent) -> str:
    row = agent.row
    tags = [t["name"] for t in tag_list(row.tags)]
    return " ".join([row.name, row.description, *tags]).lower()


async def every_word(session: AsyncSession, query: str, *, wanted: int = 20) -> list[ListedAgent]:
    """Up to ``wanted`` available agents (by id) whose text contains every word of ``query``
    (its first ``MAX_WORDS`` words)."""
    words = [w for w in query.lower().split() if w][:MAX_WORDS]
    found: list[ListedAgent] = []
    cursor: str | None = None
    for _ in range(SEARCH_PAGES):
        page = await cursor_listing(session, cursor=cursor, limit=100, categories=[])
        found.extend(a for a in page.agents if all(w in _text(a) for w in words))
        if not page.has_more or page.next_cursor is None or len(found) >= wanted:
            break
        cursor = page.next_cursor
    return found[:wanted]
