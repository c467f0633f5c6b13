"""Page/limit paging for list endpoints: ``?page=`` (from 1) and ``?limit=`` (1 to 100, default 20).

Out-of-range values are a 400 (FastAPI validation, rendered by our handlers). The response's
``meta.pagination`` is ``{page, limit, total, hasMore}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

from fastapi import Depends, Query

T = TypeVar("T")

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MAX_PAGE = 100_000


@dataclass(frozen=True)
class PageParams:
    page: int
    limit: int

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.limit

    def meta(self, total: int) -> dict[str, Any]:
        return {
            "page": self.page,
            "limit": self.limit,
            "total": total,
            "hasMore": self.page * self.limit < total,
        }


async def page_params(  # async: a plain def would run in the thread pool
    page: Annotated[int, Query(ge=1, le=MAX_PAGE, description="Page number, from 1")] = 1,
    limit: Annotated[
        int, Query(ge=1, le=MAX_LIMIT, description=f"Items per page (1 to {MAX_LIMIT})")
    ] = DEFAULT_LIMIT,
) -> PageParams:
    return PageParams(page, limit)


PageDep = Annotated[PageParams, Depends(page_params)]


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    total: int
