"""Response schemas that read rows: the base class and the wire types every domain shares.

- ``Schema``: built from ORM rows or plain objects (``from_attributes``); snake_case in Python,
  camelCase on the wire (``alias_generator=to_camel``, serialised by alias everywhere, so MCP
  tools and HTTP responses agree).
- ``UtcDateTime``: a ``datetime`` read as UTC (SQLite hands back naive values) and written as
  ISO 8601 with a trailing ``Z`` — the format ``kit.timeutil.isoformat`` has always produced
  (fraction only when the microseconds are not zero). OpenAPI: ``format: date-time``.
- ``Credits``: base units inside, display units on the wire — the one credit serializer. The
  published JSON has always carried credits as JSON floats (``0.0``, ``2.1``), so it stays a float.
- Ids are typed ``uuid.UUID`` in the schemas (OpenAPI ``format: uuid``); on the wire the usual
  hyphenated lower-case string.
"""

from __future__ import annotations

import dataclasses
import functools
from datetime import datetime
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    AliasGenerator,
    BaseModel,
    ConfigDict,
    PlainSerializer,
    model_validator,
)
from pydantic.alias_generators import to_camel

from agora.kit.money import BASE_UNITS_PER_CREDIT
from agora.kit.timeutil import as_utc

CAMEL_ON_THE_WIRE = ConfigDict(
    alias_generator=AliasGenerator(serialization_alias=to_camel), serialize_by_alias=True
)
"""The wire's names for a ``TypedDict`` value shape (``@with_config(CAMEL_ON_THE_WIRE)``)."""


class Schema(BaseModel):
    """Base of every response schema: reads attributes of rows, camelCase on the wire."""

    model_config = ConfigDict(
        from_attributes=True,
        alias_generator=to_camel,
        populate_by_name=True,
        serialize_by_alias=True,
    )

    @model_validator(mode="before")
    @classmethod
    def _read_views_as_dicts(cls, value: Any) -> Any:
        """A plain row (a lean read's named tuple, a Core ``Row``) and a ``RowView`` over one
        are read as a dict (``RowView.schema_input``): pydantic reads dicts several times
        faster than attributes."""
        if isinstance(value, RowView):
            return value.schema_input(_read_names(cls))
        as_dict = getattr(value, "_asdict", None)
        return as_dict() if as_dict is not None and not isinstance(value, BaseModel) else value


def wire_credits(base_units: int) -> float:
    # The float of base units ÷ 10**6: int / int is correctly rounded, so it is the same float
    # as float(to_display(...)) (tests/kit/test_money.py checks) at a fifth of the cost — once
    # per credit value in every listed item.
    return base_units / BASE_UNITS_PER_CREDIT


UtcDateTime = Annotated[datetime, AfterValidator(as_utc)]
Credits = Annotated[int, PlainSerializer(wire_credits, return_type=float)]


class RowView:
    """Base of the plain objects services return when a response needs more than one row
    (``@dataclass(frozen=True) class SpentTask(RowView): row: Task; credits: int``): the extra
    fields are the dataclass's, every other attribute is read from ``row``."""

    row: Any

    def __getattr__(self, name: str) -> Any:
        if name == "row" or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.row, name)

    def schema_input(self, names: frozenset[str]) -> Any:
        """What a schema that reads ``names`` gets: for a plain row (a lean read's named tuple,
        a Core ``Row``), one dict of its columns overlaid with those of this view's fields and
        properties — pydantic reads a dict about five times faster than attributes through
        ``__getattr__`` (40 µs → 7 µs for a job: docs/performance.md); for an ORM entity, the
        view itself (read by attributes)."""
        as_dict = getattr(self.row, "_asdict", None)
        if as_dict is None:
            return self
        values: dict[str, Any] = as_dict()
        for name in _own_names(type(self)):
            if name in names:
                values[name] = getattr(self, name)
        return values


@functools.cache
def _read_names(schema: type[BaseModel]) -> frozenset[str]:
    """The names a schema reads its fields from (each field's name and validation alias)."""
    names = set()
    for name, field in schema.model_fields.items():
        names.add(name)
        if isinstance(field.validation_alias, str):
            names.add(field.validation_alias)
    return frozenset(names)


_OWN_NAMES: dict[type[RowView], tuple[str, ...]] = {}


def _own_names(view: type[RowView]) -> tuple[str, ...]:
    """A view class's own fields and properties (what it adds to, or changes of, its row)."""
    found = _OWN_NAMES.get(view)
    if found is None:
        names = [f.name for f in dataclasses.fields(view) if f.name != "row"]  # type: ignore[arg-type]
        for klass in view.__mro__:
            if klass is RowView:
                break
            names += [n for n, v in vars(klass).items() if isinstance(v, property)]
        found = _OWN_NAMES[view] = tuple(dict.fromkeys(names))
    return found
