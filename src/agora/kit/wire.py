"""Long lists written to JSON from their views, with their schemas kept as the contract.

A listed item costs pydantic a model per item and per nested value: validation from the row,
then the dump, with Python hooks on the way (computed fields, before-validators) — 20 to 50 µs
for a task with its events and jobs, most of a list's CPU (docs/performance.md, eighth round).
The lists with many items per page (agents, jobs, tasks) write each item with a plain function
beside its schema (``agents.schemas.agent_item``): the schema's keys in the schema's order, the
same values from the same view, helpers shared with the schema where a value is computed; orjson
writes ids, timestamps (UTC, ``Z``) and enums as pydantic does.

The schema stays the route's ``response_model`` (OpenAPI, the contract tests) and the answer of
the single-item routes. ``CHECK`` (on in the test suite, tests/conftest.py, and in its server
processes, ``AGORA_WIRE_CHECK``) builds every such answer the schema's way too and raises on
the first difference — a key, its place, a value or its JSON type — so an item writer cannot
drift from its schema unnoticed.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import orjson
from pydantic import BaseModel
from starlette.responses import Response

OPTIONS = orjson.OPT_UTC_Z | orjson.OPT_NAIVE_UTC  # SQLite's naive timestamps are UTC


def _other(value: Any) -> str:
    # asyncpg's UUID (a uuid.UUID subclass orjson does not take as one)
    if isinstance(value, uuid.UUID):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not written to JSON")


CHECK = False


class WireMismatch(AssertionError):
    """An item writer answered differently from its schema (only raised when ``CHECK``)."""


def answer(content: dict[str, Any], by_schema: Callable[[], BaseModel]) -> Response:
    """``content`` as the JSON response; ``by_schema`` builds the same answer through the
    route's schema (called only when ``CHECK``, to compare)."""
    body = orjson.dumps(content, default=_other, option=OPTIONS)
    if CHECK:
        expected = by_schema()
        same(orjson.loads(expected.model_dump_json(by_alias=True)), orjson.loads(body))
    return Response(body, media_type="application/json")


def same(expected: Any, written: Any, path: str = "$") -> None:
    """Raise ``WireMismatch`` unless ``written`` is ``expected``: keys in the same order, values
    of the same JSON type (``1`` is not ``1.0``)."""
    if type(expected) is not type(written):
        raise WireMismatch(f"{path}: {written!r} written, the schema says {expected!r}")
    if isinstance(expected, dict):
        if list(expected) != list(written):
            raise WireMismatch(f"{path}: keys {list(written)}, the schema's {list(expected)}")
        for key, value in expected.items():
            same(value, written[key], f"{path}.{key}")
    elif isinstance(expected, list):
        if len(expected) != len(written):
            raise WireMismatch(f"{path}: {len(written)} items, the schema's {len(expected)}")
        for index, (one, other) in enumerate(zip(expected, written, strict=True)):
            same(one, other, f"{path}[{index}]")
    elif expected != written:
        raise WireMismatch(f"{path}: {written!r} written, the schema says {expected!r}")


def model_json(model: type[BaseModel], value: Any) -> Any:
    """A rare nested value (a share, a job's links) written through its own schema: the exact
    answer, at the schema's cost, where a page seldom has one."""
    return model.model_validate(value).model_dump(mode="json", by_alias=True)
