"""Validate ``input_data`` against a MIP-003 input schema (reference/mip003.md, "Fields").

Every field is required unless it carries ``optional: "true"``; repeated validations all apply;
``min``/``max`` bound the length of text, the value of numbers and the count of choices.
Ids that the schema does not define are rejected. Each problem names the field and the rule.
"""

from __future__ import annotations

import math
import re
import uuid
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any
from urllib.parse import urlsplit

TEXT_TYPES = frozenset(
    {
        "string",
        "text",
        "textarea",
        "email",
        "password",
        "tel",
        "url",
        "search",
        "hidden",
        "date",
        "datetime-local",
        "time",
        "month",
        "week",
        "color",
        "file",
    }
)
NUMBER_TYPES = frozenset({"number", "range"})
BOOLEAN_TYPES = frozenset({"boolean", "checkbox"})
CHOICE_TYPES = frozenset({"option", "radio", "multiselect"})
DISPLAY_TYPES = frozenset({"none"})

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_TEL = re.compile(r"^\+?[0-9 ()./-]{3,30}$")
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
_WEEK = re.compile(r"^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$")


@dataclass(frozen=True)
class InputProblem:
    field: str  # the field id
    reason: str


def _is_file_id(value: str) -> bool:
    """An Agora file id (``POST /v1/files``; docs/jobs.md, "Files as inputs")."""
    try:
        uuid.UUID(value.strip())
    except ValueError:
        return False
    return True


def file_fields(schema: dict[str, Any] | None) -> list[str]:
    """The ids of the schema's ``file`` fields."""
    return [
        str(f["id"])
        for f in schema_fields(schema)
        if str(f.get("type", "")).lower() == "file" and f.get("id")
    ]


def schema_fields(schema: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The fields of ``{input_data: [...]}`` or ``{input_groups: [{input_data: [...]}]}``."""
    if not schema:
        return []
    if isinstance(schema.get("input_data"), list):
        return [f for f in schema["input_data"] if isinstance(f, dict)]
    out: list[dict[str, Any]] = []
    for group in schema.get("input_groups") or []:
        if isinstance(group, dict):
            out.extend(f for f in group.get("input_data") or [] if isinstance(f, dict))
    return out


def _validations(field: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for item in field.get("validations") or []:
        if isinstance(item, dict) and item.get("validation"):
            out.append(
                (str(item["validation"]).strip().lower(), str(item.get("value", "")).strip())
            )
    return out


def _is_optional(field: dict[str, Any]) -> bool:
    return any(
        name == "optional" and value.lower() == "true" for name, value in _validations(field)
    )


def _number(value: Any) -> Decimal | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return Decimal(str(value))
    if isinstance(value, str):
        try:
            parsed = Decimal(value.strip())
        except InvalidOperation:
            return None
        return parsed if parsed.is_finite() else None
    return None


def _is_url(value: str) -> bool:
    parts = urlsplit(value)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _parses(value: str, kind: str) -> bool:
    try:
        if kind == "date":
            date.fromisoformat(value)
        elif kind == "datetime-local":
            datetime.fromisoformat(value)
        elif kind == "time":
            time.fromisoformat(value)
        elif kind == "month":
            return bool(_MONTH.match(value))
        elif kind == "week":
            return bool(_WEEK.match(value))
        elif kind == "color":
            return bool(_COLOR.match(value))
    except ValueError:
        return False
    return True


def _choices(field: dict[str, Any]) -> list[str]:
    data = field.get("data") if isinstance(field.get("data"), dict) else {}
    values = (data or {}).get("values") or []
    out = []
    for item in values:
        if isinstance(item, dict):
            item = item.get("value", item.get("id", item.get("label")))
        out.append(str(item))
    return out


def _format_problem(rule: str, value: str) -> str | None:
    """The reason ``value`` fails ``format: rule``, or None."""
    rule = rule.replace("_", "-")
    if rule == "email" and not _EMAIL.match(value):
        return "must be an email address (validation format=email)"
    if rule == "url" and not _is_url(value):
        return "must be an http(s) URL (validation format=url)"
    if rule == "nonempty" and not value.strip():
        return "must not be empty (validation format=nonempty)"
    if rule == "integer" and not re.fullmatch(r"[+-]?\d+", value.strip()):
        return "must be an integer (validation format=integer)"
    if rule == "tel-pattern" and not _TEL.match(value):
        return "must be a telephone number (validation format=tel-pattern)"
    return None


def _check_text(ftype: str, field: dict[str, Any], value: Any) -> list[str]:
    if not isinstance(value, str):
        return [f"must be a string (type {ftype})"]
    problems = []
    if ftype == "email" and not _EMAIL.match(value):
        problems.append("must be an email address (type email)")
    if ftype == "url" and not _is_url(value):
        problems.append("must be an http(s) URL (type url)")
    if ftype == "file" and not (_is_url(value) or _is_file_id(value)):
        problems.append("must be an uploaded file's id or an http(s) URL (type file)")
    if ftype in ("date", "datetime-local", "time", "month", "week", "color") and not _parses(
        value, ftype
    ):
        problems.append(f"is not a valid {ftype} value (type {ftype})")
    for name, rule in _validations(field):
        limit = _number(rule)
        if name == "min" and limit is not None and len(value) < limit:
            problems.append(f"must be at least {rule} characters long (validation min)")
        elif name == "max" and limit is not None and len(value) > limit:
            problems.append(f"must be at most {rule} characters long (validation max)")
        elif name == "format":
            problem = _format_problem(rule.lower(), value)
            if problem:
                problems.append(problem)
    return problems


def _check_number(ftype: str, field: dict[str, Any], value: Any) -> list[str]:
    number = _number(value)
    if number is None:
        return [f"must be a number (type {ftype})"]
    problems = []
    bounds = list(_validations(field))
    data = field.get("data") if isinstance(field.get("data"), dict) else None
    if ftype == "range" and data:
        bounds += [(k, str(data[k])) for k in ("min", "max") if data.get(k) is not None]
        step = _number(data.get("step"))
        low = _number(data.get("min")) or Decimal(0)
        if step and step > 0 and (number - low) % step != 0:
            problems.append(f"must be a multiple of {data['step']} from {low} (range step)")
    for name, rule in bounds:
        limit = _number(rule)
        if name == "min" and limit is not None and number < limit:
            problems.append(f"must be at least {rule} (validation min)")
        elif name == "max" and limit is not None and number > limit:
            problems.append(f"must be at most {rule} (validation max)")
        elif name == "format" and rule.lower() == "integer" and number != number.to_integral():
            problems.append("must be an integer (validation format=integer)")
    return problems


def _check_choice(ftype: str, field: dict[str, Any], value: Any) -> list[str]:
    picked = value if isinstance(value, list) else [value]
    if ftype == "radio" and isinstance(value, list):
        return ["must be a single choice (type radio)"]
    choices = _choices(field)
    problems = []
    for item in picked:
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            problems.append(f"choices must be strings or indexes (type {ftype})")
            break
        if not choices:
            continue
        index_ok = isinstance(item, int) and 0 <= item < len(choices)
        if not index_ok and str(item) not in choices:
            problems.append(f"{item!r} is not one of {', '.join(choices)} (type {ftype})")
    for name, rule in _validations(field):
        limit = _number(rule)
        if name == "min" and limit is not None and len(picked) < limit:
            problems.append(f"must pick at least {rule} choices (validation min)")
        elif name == "max" and limit is not None and len(picked) > limit:
            problems.append(f"must pick at most {rule} choices (validation max)")
    return problems


def _check_boolean(ftype: str, field: dict[str, Any], value: Any) -> list[str]:
    if ftype == "checkbox" and _choices(field):  # a checkbox group is a multi-choice
        return _check_choice(ftype, field, value)
    return [] if isinstance(value, bool) else [f"must be true or false (type {ftype})"]


def _is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value == "") or value == []


def validate_input(schema: dict[str, Any] | None, data: dict[str, Any]) -> list[InputProblem]:
    """Every problem of ``data`` against ``schema`` (empty list = valid)."""
    fields = schema_fields(schema)
    problems: list[InputProblem] = []
    known = {str(f.get("id")) for f in fields}
    for key in data:
        if key not in known:
            problems.append(InputProblem(key, "is not a field of this agent's input schema"))
    for field in fields:
        fid = str(field.get("id"))
        ftype = str(field.get("type") or "string").strip().lower()
        if ftype in DISPLAY_TYPES:
            continue
        value = data.get(fid)
        if _is_blank(value):
            has_default = ftype == "hidden" and isinstance(field.get("data"), dict)
            if not _is_optional(field) and not has_default:
                problems.append(InputProblem(fid, "is required"))
            continue
        if ftype in TEXT_TYPES:
            reasons = _check_text(ftype, field, value)
        elif ftype in NUMBER_TYPES:
            reasons = _check_number(ftype, field, value)
        elif ftype in BOOLEAN_TYPES:
            reasons = _check_boolean(ftype, field, value)
        elif ftype in CHOICE_TYPES:
            reasons = _check_choice(ftype, field, value)
        else:  # a type from the future: accept plain JSON values
            ok = isinstance(value, (str, int, float, bool, list))
            reasons = [] if ok else [f"must be a string, number, boolean or list (type {ftype})"]
        problems.extend(InputProblem(fid, reason) for reason in reasons)
    return problems
