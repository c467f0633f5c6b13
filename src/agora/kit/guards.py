"""The one app-wide dependency: every route's request checks in one dependency solve.

FastAPI solves each app-wide dependency on every request (``/healthz`` included); three of them
cost three solves. ``request_checks`` runs the same three checks, in the same order (the first
failure answers): the rate limit (a no-op when limits are off or outside ``/v1``), "a body is
JSON", "no NUL in a query value" (docs/performance.md).
"""

from __future__ import annotations

from fastapi import Request

from agora.kit.bodylimit import require_json_body
from agora.kit.ratelimit import enforce_rate_limit
from agora.kit.textinput import reject_nul_in_query


async def request_checks(request: Request) -> None:
    await enforce_rate_limit(request)
    require_json_body(request)
    reject_nul_in_query(request)
