"""A person's toolbox changed (a favourite or an "add to my assistant" added or removed): the
wake-up topic, keyed by the user id, that the MCP server turns into
``notifications/tools/list_changed`` on that person's connected sessions (docs/mcp.md, "Your
toolbox"). On PostgreSQL it is ``NOTIFY agora_toolbox, '<user id>'``, which every process's
listener delivers (the MCP session may be held by another process); on SQLite in-process."""

from __future__ import annotations

import uuid

from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit import background

TOOLBOX_CHANGED = "agora_toolbox"


async def toolbox_changed(session: AsyncSession, user_id: uuid.UUID) -> None:
    """Tell ``user_id``'s MCP sessions once this transaction commits (never on rollback)."""
    await background.signal(session, TOOLBOX_CHANGED, key=str(user_id), listened=True)
