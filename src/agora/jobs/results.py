"""A job's result as a download: Markdown (the text as the agent gave it: the default), JSON or CSV
(docs/jobs.md, "Structured results"). A result is JSON when its text is a JSON object or array:
an agent that answers a JSON value has it stored as its JSON text (mip003/client.py), so the value
is kept, and so is the text the MIP-004 result hash covers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.jobs.views import visible_job
from agora.kit.csvexport import csv_text
from agora.kit.errors import BadRequest, Conflict

FORMATS = ("markdown", "json", "csv")


@dataclass(frozen=True)
class ResultFile:
    body: str
    media_type: str
    filename: str


def structured(result: str | None) -> Any | None:
    """The result's JSON value when its text is a JSON object or array, else None."""
    text = (result or "").strip()
    if not text or text[0] not in "[{":
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


def _cell(value: Any) -> Any:
    """A scalar as itself; a nested object or list as its JSON text."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _records(value: dict[str, Any] | list[Any]) -> list[Any]:
    """The rows a JSON value makes: a list is one row per item; an object is one row, unless it
    holds exactly one list of objects (``{"items": [...]}``), whose items are the rows."""
    if isinstance(value, dict):
        lists = [v for v in value.values() if isinstance(v, list)]
        if len(value) == 1 and lists and all(isinstance(i, dict) for i in lists[0]):
            return list(lists[0])
        return [value]
    return list(value)


def as_csv(value: dict[str, Any] | list[Any]) -> str:
    """A JSON value as CSV: objects give the columns (their keys, in the order first met),
    anything else is one ``value`` column; nested values are JSON text; every cell through the
    spreadsheet-formula guard."""
    records = _records(value)
    columns: dict[str, None] = {}
    for record in records:
        if isinstance(record, dict):
            columns.update(dict.fromkeys(str(k) for k in record))
        else:
            columns.setdefault("value", None)
    header = list(columns)
    rows = [
        [
            _cell(record.get(c) if isinstance(record, dict) else (record if c == "value" else None))
            for c in header
        ]
        for record in records
    ]
    return csv_text([header, *rows])


async def result_file(
    session: AsyncSession, principal: Principal, job_id: str, format: str
) -> ResultFile:
    """The caller's own job's result in ``format``: 409 while it has none, and for CSV when it
    is not JSON."""
    if format not in FORMATS:
        raise BadRequest.field("format", f"must be one of {', '.join(FORMATS)}")
    job = await visible_job(session, principal, job_id)
    if job.result is None:
        raise Conflict(f"Job {job.id} has no result (status {job.status})")
    name = f"job-{job.id}"
    value = structured(job.result)
    if format == "markdown":
        return ResultFile(job.result, "text/markdown; charset=utf-8", f"{name}.md")
    if format == "json":
        body = json.dumps(value if value is not None else job.result, ensure_ascii=False)
        return ResultFile(body, "application/json", f"{name}.json")
    if value is None:
        raise Conflict(f"The result of job {job.id} is not JSON: ask format=markdown or json")
    return ResultFile(as_csv(value), "text/csv; charset=utf-8", f"{name}.csv")
