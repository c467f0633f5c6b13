"""Is an input schema one Agora can render and validate, and a valid input for it.

The rules are those of Agora's hire forms: the field types and validations that
``mip003.validation`` checks and ``web.forms`` renders (reference/mip003.md, "Fields"). A schema
that breaks them renders a form buyers cannot fill, or one Agora refuses on submit.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from agora.mip003.validation import (
    BOOLEAN_TYPES,
    CHOICE_TYPES,
    DISPLAY_TYPES,
    NUMBER_TYPES,
    TEXT_TYPES,
    schema_fields,
    validate_input,
)
from agora.web.forms import groups

KNOWN_TYPES = TEXT_TYPES | NUMBER_TYPES | BOOLEAN_TYPES | CHOICE_TYPES | DISPLAY_TYPES
KNOWN_VALIDATIONS = frozenset({"min", "max", "format", "accept", "optional"})
KNOWN_FORMATS = frozenset({"email", "url", "nonempty", "integer", "tel-pattern", "tel_pattern"})

# A value of each text type that Agora's validation accepts (``mip003.validation._check_text``)
_TEXT_SAMPLES = {
    "email": "builder@example.com",
    "url": "https://example.com/",
    "file": "https://example.com/input.txt",
    "tel": "+41 44 555 01 00",
    "date": "2026-01-15",
    "datetime-local": "2026-01-15T10:30",
    "time": "10:30",
    "month": "2026-01",
    "week": "2026-W03",
    "color": "#336699",
}
_FORMAT_SAMPLES = {
    "email": "builder@example.com",
    "url": "https://example.com/",
    "integer": "42",
    "tel-pattern": "+41 44 555 01 00",
    "tel_pattern": "+41 44 555 01 00",
}


def _decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool):
        return None
    try:
        return Decimal(str(value).strip())
    except InvalidOperation:
        return None


def _rules(field: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        (str(v.get("validation", "")).strip().lower(), v.get("value"))
        for v in field.get("validations") or []
        if isinstance(v, dict)
    ]


def _validation_problems(fid: str, field: dict[str, Any]) -> list[str]:
    validations = field.get("validations")
    if validations is None:
        return []
    if not isinstance(validations, list):
        return [f"field {fid!r}: validations must be a list"]
    problems = []
    bounds: dict[str, Decimal] = {}
    for item in validations:
        if not isinstance(item, dict) or not item.get("validation"):
            problems.append(f"field {fid!r}: each validation is {{validation, value}}")
            continue
        name, value = str(item["validation"]).strip().lower(), item.get("value")
        if name not in KNOWN_VALIDATIONS:
            problems.append(f"field {fid!r}: unknown validation {name!r}")
        elif name in ("min", "max"):
            number = _decimal(value)
            if number is None:
                problems.append(f"field {fid!r}: validation {name} needs a number, not {value!r}")
            else:
                bounds[name] = number
        elif name == "format" and str(value).strip().lower() not in KNOWN_FORMATS:
            problems.append(f"field {fid!r}: unknown format {value!r}")
        elif name == "optional" and str(value).strip().lower() not in ("true", "false"):
            problems.append(f'field {fid!r}: optional is "true" or "false", not {value!r}')
    if "min" in bounds and "max" in bounds and bounds["min"] > bounds["max"]:
        problems.append(f"field {fid!r}: min {bounds['min']} is above max {bounds['max']}")
    return problems


def _field_problems(field: dict[str, Any], seen: set[str]) -> list[str]:
    fid = field.get("id")
    if not isinstance(fid, str) or not fid.strip():
        return [f"a field has no id (each field needs a non-empty string id): {field!r:.120}"]
    problems = []
    if fid in seen:
        problems.append(f"field {fid!r}: the id is used twice")
    seen.add(fid)
    ftype = str(field.get("type") or "").strip().lower()
    if ftype not in KNOWN_TYPES:
        problems.append(f"field {fid!r}: type {field.get('type')!r} is not one Agora renders")
    if not isinstance(field.get("name"), str) or not field["name"].strip():
        problems.append(f"field {fid!r}: no name (the label buyers see)")
    if field.get("data") is not None and not isinstance(field["data"], dict):
        problems.append(f"field {fid!r}: data must be an object")
    data = _data(field)
    if ftype in CHOICE_TYPES:
        values = data.get("values")
        if not isinstance(values, list) or not values:
            problems.append(f"field {fid!r}: type {ftype} needs data.values (the choices)")
    if ftype == "range":
        for key in ("min", "max", "step"):
            if data.get(key) is not None and _decimal(data[key]) is None:
                problems.append(f"field {fid!r}: data.{key} must be a number")
    return problems + _validation_problems(fid, field)


def schema_problems(schema: dict[str, Any]) -> list[str]:
    """What keeps Agora from rendering ``schema`` as a hire form (empty: none)."""
    problems: list[str] = []
    if isinstance(schema.get("input_groups"), list):
        for group in schema["input_groups"]:
            if not isinstance(group, dict) or not isinstance(group.get("input_data"), list):
                problems.append("each input_groups entry needs an input_data list")
    raw_fields = (
        schema.get("input_data")
        if isinstance(schema.get("input_data"), list)
        else [f for g in schema.get("input_groups") or [] if isinstance(g, dict)
              for f in g.get("input_data") or []]
    )  # fmt: skip
    seen: set[str] = set()
    for field in raw_fields or []:
        if not isinstance(field, dict):
            problems.append(f"a field is not an object: {field!r:.80}")
            continue
        problems.extend(_field_problems(field, seen))
    if not problems:
        groups(schema)  # the hire form builds (raises on a shape it cannot render)
    return problems


def _text_sample(ftype: str, field: dict[str, Any]) -> str:
    value = _TEXT_SAMPLES.get(ftype, "Agora conformance check")
    rules = _rules(field)
    for name, rule in rules:
        if name == "format" and str(rule).strip().lower() in _FORMAT_SAMPLES:
            value = _FORMAT_SAMPLES[str(rule).strip().lower()]
    low = next((_decimal(v) for n, v in rules if n == "min"), None)
    high = next((_decimal(v) for n, v in rules if n == "max"), None)
    if low is not None and len(value) < low:
        value = value + "x" * int(low - len(value))
    if high is not None and len(value) > high:
        value = value[: max(int(high), 1)]
    return value


def _data(field: dict[str, Any]) -> dict[str, Any]:
    data = field.get("data")
    return data if isinstance(data, dict) else {}


def _number_sample(ftype: str, field: dict[str, Any]) -> int | float:
    lows = [_decimal(v) for n, v in _rules(field) if n == "min"]
    if ftype == "range" and _data(field).get("min") is not None:
        lows.append(_decimal(_data(field)["min"]))
    found = [low for low in lows if low is not None]
    value = max(found) if found else Decimal(1)
    return int(value) if value == value.to_integral() else float(value)


def _choice_sample(ftype: str, field: dict[str, Any]) -> Any:
    choices = []
    for item in _data(field).get("values") or []:
        if isinstance(item, dict):
            item = item.get("value", item.get("id", item.get("label")))
        choices.append(str(item))
    low = next((_decimal(v) for n, v in _rules(field) if n == "min"), None)
    count = max(int(low), 1) if low is not None else 1
    if ftype in ("multiselect", "checkbox") or count > 1:
        return choices[:count]
    return choices[0] if choices else "a"


def _optional(field: dict[str, Any]) -> bool:
    return ("optional", "true") in [(n, str(v).strip().lower()) for n, v in _rules(field)]


def required_ids(schema: dict[str, Any]) -> list[str]:
    """The fields a buyer must fill in (not optional, not hidden, not display-only)."""
    return [
        str(f.get("id"))
        for f in schema_fields(schema)
        if not _optional(f)
        and str(f.get("type") or "string").strip().lower() not in DISPLAY_TYPES | {"hidden"}
    ]


def sample_input(schema: dict[str, Any]) -> dict[str, Any]:
    """An input for ``schema``'s required fields (optional ones left out) and the value of each
    hidden field, as a hire form sends them."""
    out: dict[str, Any] = {}
    for field in schema_fields(schema):
        ftype = str(field.get("type") or "string").strip().lower()
        fid = str(field.get("id"))
        if ftype == "hidden" and _data(field).get("value") is not None:
            out[fid] = str(_data(field)["value"])  # what the hire form sends
            continue
        if ftype in DISPLAY_TYPES or _optional(field):
            continue
        if ftype in NUMBER_TYPES:
            out[fid] = _number_sample(ftype, field)
        elif ftype in CHOICE_TYPES or (ftype == "checkbox" and _data(field).get("values")):
            out[fid] = _choice_sample(ftype, field)
        elif ftype in BOOLEAN_TYPES:
            out[fid] = True
        else:
            out[fid] = _text_sample(ftype, field)
    return out


def sample_problems(schema: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """Agora's own validation of ``data`` (the input a hire form would send)."""
    return [f"{p.field}: {p.reason}" for p in validate_input(schema, data)]
