"""CSV exports: the spreadsheet-formula guard every CSV of Agora writes its cells through, and long
exports streamed page by page in bounded memory.

An ``Export`` says how to read one page of rows after a key (keyset pagination on an index, in
a repository), the key of a row and its cells. ``stream`` reads a page in a short read
transaction of its own, writes it as one chunk and forgets it, then reads the next after the
last key: memory holds one page, no transaction stays open while the client reads (a slow
reader holds no connection), and each page costs one index range scan however deep it is
(docs/billing.md, "Exports": the measured figure). ``first_rows`` is the same export cut short,
for an answer that must fit in one message (an MCP tool).
"""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession
from starlette.responses import StreamingResponse

from agora.kit.db import Database

Row = TypeVar("Row")
Key = TypeVar("Key")

PAGE_ROWS = 1000  # rows read per page (and written per chunk)

# A REST route answering CSV documents it with ``responses=CSV_ANSWER``.
CSV_ANSWER: dict[int | str, dict[str, Any]] = {
    "200": {"content": {"text/csv": {"schema": {"type": "string"}}}}
}

# A cell a spreadsheet would run as a formula (CSV injection, OWASP): = + - @ and the tab and
# carriage return some spreadsheets skip before them.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    """A cell's text, with a leading ``'`` when a spreadsheet would run it as a formula. A number
    (never a bool) is written as itself: ``-500`` is a negative amount, not a formula."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in _FORMULA_STARTS else text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """``rows`` as CSV (RFC 4180 quoting, CRLF line ends), every cell through ``safe_cell``."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()


@dataclass(frozen=True)
class Export(Generic[Row, Key]):
    """One export: its file name, its header, how to read the page after a key (None: the first
    page) with at most ``limit`` rows, the key of a row, and a row's cells."""

    filename: str
    header: Sequence[str]
    page: Callable[[AsyncSession, Key | None, int], Awaitable[Sequence[Row]]]
    key: Callable[[Row], Key]
    cells: Callable[[Row], Sequence[object]]


async def stream(
    db: Database, export: Export[Row, Key], *, page_rows: int = PAGE_ROWS
) -> AsyncIterator[bytes]:
    """The export as CSV chunks: the header, then one chunk per page, each page read in its own
    short read transaction after the previous page's last key."""
    yield csv_text([export.header]).encode()
    after: Key | None = None
    while True:
        async with db.transaction(write=False) as session:
            rows = await export.page(session, after, page_rows)
        if rows:
            yield csv_text(export.cells(row) for row in rows).encode()
        if len(rows) < page_rows:
            return
        after = export.key(rows[-1])


def download(db: Database, export: Export[Row, Key]) -> StreamingResponse:
    """The export streamed as an attachment (``text/csv``)."""
    return StreamingResponse(
        stream(db, export),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{export.filename}"',
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        },
    )


async def first_rows(
    session: AsyncSession, export: Export[Row, Key], limit: int
) -> tuple[str, int, bool]:
    """The export's header and first ``limit`` rows as CSV, read on ``session``: (the text, how
    many rows, whether more were left out)."""
    rows: list[Row] = []
    after: Key | None = None
    while True:
        wanted = min(PAGE_ROWS, limit + 1 - len(rows))
        page = await export.page(session, after, wanted)
        rows += page
        if len(page) < wanted or len(rows) > limit:
            break
        after = export.key(page[-1])
    more = len(rows) > limit
    shown = rows[:limit]
    return csv_text([export.header, *(export.cells(row) for row in shown)]), len(shown), more
