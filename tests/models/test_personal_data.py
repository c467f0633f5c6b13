"""The declaration of personal data (models/personal_data.py) covers every table, every column
that can hold text (string, text, JSON) and every column referring to ``users``: a table added
later fails here until its author says what the export writes and what the erasure does."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, String, Text

from agora.models import Base
from agora.models.personal_data import BY_NAME, TABLES, Fate, Treat


def _texty(column: Any) -> bool:
    return isinstance(column.type, String | Text | JSON) or "JSON" in type(column.type).__name__


def _refers_to_users(column: Any) -> bool:
    return any(fk.column.table.name == "users" for fk in column.foreign_keys)


def test_every_table_is_declared_once() -> None:
    assert len(BY_NAME) == len(TABLES)
    assert set(Base.metadata.tables) - set(BY_NAME) == set(), "tables not declared"
    assert set(BY_NAME) - set(Base.metadata.tables) == set(), "declared tables that do not exist"


def test_every_text_column_is_classified() -> None:
    missing = [
        f"{table.name}.{column.name}"
        for table in Base.metadata.sorted_tables
        for column in table.columns
        if _texty(column) and column.name not in BY_NAME[table.name].columns
    ]
    assert missing == [], f"text/JSON columns with no treatment: {missing}"


def test_every_column_referring_to_users_is_declared() -> None:
    missing = [
        f"{table.name}.{column.name}"
        for table in Base.metadata.sorted_tables
        for column in table.columns
        if _refers_to_users(column) and column.name not in BY_NAME[table.name].users
    ]
    assert missing == [], f"columns referring to users not declared: {missing}"


def test_a_table_referring_to_users_says_how_its_rows_are_found_or_why_not() -> None:
    for spec in TABLES:
        if spec.users and not spec.reach:
            raise AssertionError(f"{spec.name} refers to users but has no reach")
        if not spec.reach or spec.fate is not Fate.DELETE:
            assert spec.why, f"{spec.name}: keeping rows (or reaching none) needs a why"


def test_declared_columns_exist_and_kept_ones_say_why() -> None:
    for spec in TABLES:
        table = Base.metadata.tables[spec.name]
        for name, col in spec.columns.items():
            assert name in table.c, f"{spec.name}.{name} does not exist"
            if col.treat is Treat.KEEP:
                assert col.why, f"{spec.name}.{name} is kept without a why"
            if col.treat is Treat.ANONYMISE:
                assert col.value is not None, f"{spec.name}.{name}: anonymised to nothing"
        for users_column in spec.users:
            assert users_column in table.c, f"{spec.name}.{users_column} does not exist"


def test_reaches_name_real_columns_and_parents() -> None:
    kinds = {"user", "workspace", "user_text", "mentions", "parent"}
    for spec in TABLES:
        table = Base.metadata.tables[spec.name]
        for reach in (*spec.reach, *spec.erase_reach):
            assert reach.kind in kinds
            assert reach.column in table.c, f"{spec.name}: reach on {reach.column}"
            if reach.kind == "parent":
                assert BY_NAME[reach.parent].reach, f"{spec.name}: parent {reach.parent}"


def test_a_scrubbed_table_changes_something() -> None:
    for spec in TABLES:
        if spec.fate is Fate.SCRUB:
            assert any(c.treat in (Treat.ERASE, Treat.ANONYMISE) for c in spec.columns.values())
