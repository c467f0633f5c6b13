"""A month's earnings statement as a CSV download (the REST route and the developer's page):
one line per earnings entry, every cell through the formula guard (kit/csvexport.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from starlette.responses import StreamingResponse

from agora.developer import earnings
from agora.kit.csvexport import csv_text

CHUNK_LINES = 500


def statement_csv(found: earnings.Statement) -> StreamingResponse:
    """The statement's entries as a CSV attachment, written in chunks of ``CHUNK_LINES`` lines."""
    rows = earnings.csv_rows(found)

    async def chunks() -> AsyncIterator[bytes]:
        yield csv_text([earnings.CSV_HEADER]).encode()
        for start in range(0, len(rows), CHUNK_LINES):
            yield csv_text(rows[start : start + CHUNK_LINES]).encode()

    return StreamingResponse(
        chunks(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="earnings-{found.period}.csv"'},
    )
