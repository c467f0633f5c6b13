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

from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, PlainSerializer
from pydantic.alias_generators import to_camel

from agora.kit.money import to_display
from agora.kit.timeutil import as_utc


class Schema(BaseModel):
    """Base of every response schema: reads attributes of rows, camelCase on the wire."""

    model_config = ConfigDict(
        from_attributes=True,
        alias_generator=to_camel,
        populate_by_name=True,
        serialize_by_alias=True,
    )


def _credits(base_units: int) -> float:
    return float(to_display(base_units))


UtcDateTime = Annotated[datetime, AfterValidator(as_utc)]
Credits = Annotated[int, PlainSerializer(_credits, return_type=float)]


class RowView:
    """Base of the plain objects services return when a response needs more than one row
    (``@dataclass(frozen=True) class SpentTask(RowView): row: Task; credits: int``): the extra
    fields are the dataclass's, every other attribute is read from ``row``."""

    row: Any

    def __getattr__(self, name: str) -> Any:
        if name == "row" or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.row, name)
