"""CSV cells a spreadsheet will not run: the formula guard every CSV of Agora writes its cells
through (the audit export, the earnings statement). A cell starting with = + - @ (or a tab or
carriage return, which some spreadsheets skip first) gets a leading ``'`` (CSV injection);
numbers Agora computed are written as numbers."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

# A REST route answering CSV documents it with ``responses=CSV_ANSWER``.
CSV_ANSWER: dict[int | str, dict[str, Any]] = {
    "200": {"content": {"text/csv": {"schema": {"type": "string"}}}}
}

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    """A cell's text, with a leading ``'`` when a spreadsheet would run it as a formula. A number
    (never a bool) is written as itself: ``-500`` is a negative amount, not a formula."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in _FORMULA_STARTS else text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """``rows`` as CSV, every cell through ``safe_cell``."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()
