"""The row shapes (models/rows.py) say what their tables hold: each member is a column with
the model's own type, a full-table shape names every column, and a lean statement that lacks
one of its shape's columns is refused when it is built."""

from __future__ import annotations

import inspect
import re

import pytest
from sqlalchemy import bindparam, select

from agora.kit.reads import Prepared, shape_names
from agora.kit.writes import RowInsert
from agora.models import Agent, Category, Job, LedgerEntry, User, rows

SHAPES = [
    (rows.JobColumns, Job, True),
    (rows.UserColumns, User, True),
    (rows.LedgerEntryColumns, LedgerEntry, True),
    (rows.CategoryColumns, Category, True),
    (rows.ListedAgentColumns, Agent, False),
    (rows.AgentForJob, Agent, False),
]


def _mapped_type(model: type, name: str) -> str:
    for klass in model.__mro__:
        annotation = getattr(klass, "__annotations__", {}).get(name)
        if annotation is not None:
            found = re.fullmatch(r"Mapped\[(.*)\]", str(annotation))
            assert found, (model.__name__, name, annotation)
            return found.group(1)
    raise AssertionError(f"{model.__name__} has no column {name}")


def _returns(shape: type, name: str) -> str:
    prop = inspect.getattr_static(shape, name)
    assert isinstance(prop, property), (shape.__name__, name)
    return str(prop.fget.__annotations__["return"])  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("shape", "model", "whole"), SHAPES, ids=lambda v: getattr(v, "__name__", "")
)
def test_each_member_is_a_column_of_the_models_type(shape: type, model: type, whole: bool) -> None:
    columns = {column.key for column in model.__table__.columns}  # type: ignore[attr-defined]
    names = shape_names(shape)
    assert names <= columns, names - columns
    if whole:
        assert names == columns, columns - names
    for name in names:
        assert _returns(shape, name) == _mapped_type(model, name), name


def test_a_statement_without_a_shapes_column_is_refused() -> None:
    with pytest.raises(TypeError, match=r"no \['input_schema'\] of AgentForJob"):
        Prepared(
            select(Agent.id, Agent.name, Agent.status, Agent.is_shown, Agent.price)
            .add_columns(Agent.fee, Agent.pricing_type, Agent.base_url, Agent.current_version)
            .where(Agent.id == bindparam("agent_id")),
            shape=rows.AgentForJob,
        )
    with pytest.raises(TypeError, match="RowInsert"):
        RowInsert(User.__table__, shape=rows.JobColumns)  # type: ignore[arg-type]
    assert Prepared(select(Job.__table__), shape=rows.JobColumns).shape is rows.JobColumns
    assert shape_names(rows.AgentCategory) == shape_names(rows.CategoryColumns) | {"agent_id"}
