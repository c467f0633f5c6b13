"""MIP-003 input validation: every field type and validation rule, each problem named."""

from __future__ import annotations

from typing import Any

import pytest

from agora.mip003.validation import validate_input


def field(ftype: str, *validations: tuple[str, str], **data: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": "f", "type": ftype, "name": "F"}
    if validations:
        out["validations"] = [{"validation": v, "value": x} for v, x in validations]
    if data:
        out["data"] = data
    return out


def problems(schema_field: dict[str, Any], value: Any) -> list[str]:
    data = {} if value is ... else {"f": value}
    return [p.reason for p in validate_input({"input_data": [schema_field]}, data)]


@pytest.mark.parametrize(
    ("schema_field", "value", "expected"),
    [
        (field("string"), ..., ["is required"]),
        (field("string", ("optional", "true")), ..., []),
        (field("string"), "", ["is required"]),
        (field("string"), 5, ["must be a string (type string)"]),
        (
            field("text", ("min", "3")),
            "ab",
            ["must be at least 3 characters long (validation min)"],
        ),
        (
            field("textarea", ("max", "2")),
            "abc",
            ["must be at most 2 characters long (validation max)"],
        ),
        (
            field("string", ("format", "email")),
            "nope",
            ["must be an email address (validation format=email)"],
        ),
        (
            field("string", ("format", "url")),
            "x",
            ["must be an http(s) URL (validation format=url)"],
        ),
        (
            field("string", ("format", "nonempty")),
            "  ",
            ["must not be empty (validation format=nonempty)"],
        ),
        (
            field("string", ("format", "integer")),
            "1.5",
            ["must be an integer (validation format=integer)"],
        ),
        (
            field("tel", ("format", "tel_pattern")),
            "call me",
            ["must be a telephone number (validation format=tel-pattern)"],
        ),
        (field("tel", ("format", "tel-pattern")), "+49 30 1234567", []),
        (field("email"), "a@b.co", []),
        (field("email"), "ab.co", ["must be an email address (type email)"]),
        (field("url"), "https://x.org", []),
        (
            field("file"),
            "not a url",
            ["must be an uploaded file's id or an http(s) URL (type file)"],
        ),
        (field("date"), "2026-02-30", ["is not a valid date value (type date)"]),
        (field("date"), "2026-02-28", []),
        (field("datetime-local"), "2026-02-28T10:00", []),
        (field("time"), "25:00", ["is not a valid time value (type time)"]),
        (field("month"), "2026-13", ["is not a valid month value (type month)"]),
        (field("week"), "2026-W05", []),
        (field("color"), "#12ab9F", []),
        (field("color"), "red", ["is not a valid color value (type color)"]),
        (
            field("password", ("min", "8")),
            "short",
            ["must be at least 8 characters long (validation min)"],
        ),
        (field("search"), "q", []),
        (field("hidden", value="x"), ..., []),
        (field("none"), ..., []),
        (field("number"), "ten", ["must be a number (type number)"]),
        (field("number"), True, ["must be a number (type number)"]),
        (field("number", ("min", "1"), ("max", "10")), 11, ["must be at most 10 (validation max)"]),
        (field("number", ("min", "1")), 0, ["must be at least 1 (validation min)"]),
        (
            field("number", ("format", "integer")),
            2.5,
            ["must be an integer (validation format=integer)"],
        ),
        (field("number"), "2.5", []),
        (field("range", min=0, max=10, step=2), 4, []),
        (field("range", min=0, max=10, step=2), 3, ["must be a multiple of 2 from 0 (range step)"]),
        (field("range", min=0, max=10), 12, ["must be at most 10 (validation max)"]),
        (field("boolean"), "true", ["must be true or false (type boolean)"]),
        (field("boolean"), False, []),
        (field("checkbox"), True, []),
        (field("option", values=["a", "b"]), "a", []),
        (field("option", values=["a", "b"]), ["a", "b"], []),
        (field("option", values=["a", "b"]), [1], []),
        (field("option", values=["a", "b"]), "c", ["'c' is not one of a, b (type option)"]),
        (
            field("option", ("max", "1"), values=["a", "b"]),
            ["a", "b"],
            ["must pick at most 1 choices (validation max)"],
        ),
        (
            field("option", ("min", "2"), values=["a", "b"]),
            ["a"],
            ["must pick at least 2 choices (validation min)"],
        ),
        (field("radio", values=["a", "b"]), ["a"], ["must be a single choice (type radio)"]),
        (field("multiselect", values=[{"value": "x"}, {"value": "y"}]), ["y"], []),
        (field("checkbox", values=["x", "y"]), ["z"], ["'z' is not one of x, y (type checkbox)"]),
        (
            field("future-type"),
            {"a": 1},
            ["must be a string, number, boolean or list (type future-type)"],
        ),
    ],
)
def test_field_rules(schema_field: dict[str, Any], value: Any, expected: list[str]) -> None:
    assert problems(schema_field, value) == expected


def test_unknown_ids_groups_and_repeated_validations() -> None:
    schema = {
        "input_groups": [
            {
                "id": "g",
                "title": "G",
                "input_data": [field("string", ("min", "2"), ("format", "email"))],
            }
        ]
    }
    found = validate_input(schema, {"f": "x", "other": 1})
    assert [(p.field, p.reason) for p in found] == [
        ("other", "is not a field of this agent's input schema"),
        ("f", "must be at least 2 characters long (validation min)"),
        ("f", "must be an email address (validation format=email)"),
    ]
