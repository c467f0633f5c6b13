"""A MIP-003 input schema as a JSON Schema (draft 2020-12 subset): what an agent's own MCP tool
takes as arguments (docs/mcp.md, "Your toolbox"). The same rules ``validation`` checks, stated
for a client: types, required fields (everything not ``optional``), choices as ``enum``,
``min``/``max`` as lengths, bounds or item counts, formats. The admission still validates the
input with ``validation`` (the schema is a guide, never the guard)."""

from __future__ import annotations

from typing import Any

from agora.mip003.validation import (
    BOOLEAN_TYPES,
    CHOICE_TYPES,
    DISPLAY_TYPES,
    NUMBER_TYPES,
    schema_fields,
)

_FORMATS = {
    "email": "email",
    "url": "uri",
    "date": "date",
    "datetime-local": "date-time",
    "time": "time",
}
_PATTERNS = {"color": "^#[0-9a-fA-F]{6}$", "month": r"^\d{4}-(0[1-9]|1[0-2])$"}


def _validations(field: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        (str(item["validation"]).strip().lower(), str(item.get("value", "")).strip())
        for item in field.get("validations") or []
        if isinstance(item, dict) and item.get("validation")
    ]


def _number(text: str) -> int | float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return int(value) if value.is_integer() else value


def _choices(field: dict[str, Any]) -> list[str]:
    data = field.get("data") if isinstance(field.get("data"), dict) else {}
    out = []
    for item in (data or {}).get("values") or []:
        if isinstance(item, dict):
            item = item.get("value", item.get("id", item.get("label")))
        out.append(str(item))
    return out


def _bounds(prop: dict[str, Any], rules: list[tuple[str, str]], low: str, high: str) -> None:
    for name, rule in rules:
        limit = _number(rule)
        if limit is not None and name in ("min", "max"):
            prop[low if name == "min" else high] = limit if low == "minimum" else max(0, int(limit))


def _property(field: dict[str, Any]) -> dict[str, Any] | None:
    ftype = str(field.get("type", "string")).lower()
    rules = _validations(field)
    prop: dict[str, Any] = {}
    title = field.get("name")
    if isinstance(title, str) and title:
        prop["title"] = title[:200]
    data = field.get("data") if isinstance(field.get("data"), dict) else {}
    description = (data or {}).get("description") or (data or {}).get("placeholder")
    if isinstance(description, str) and description:
        prop["description"] = description[:500]
    if ftype in DISPLAY_TYPES:
        return None
    choices = _choices(field)
    if ftype in CHOICE_TYPES or (ftype == "checkbox" and choices):
        item = {"type": "string", "enum": choices} if choices else {"type": "string"}
        if ftype == "radio" or (ftype == "option" and not any(n == "max" for n, _ in rules)):
            prop.update(item)
        else:
            prop.update(type="array", items=item)
            _bounds(prop, rules, "minItems", "maxItems")
        return prop
    if ftype in BOOLEAN_TYPES:
        prop["type"] = "boolean"
        return prop
    if ftype in NUMBER_TYPES:
        integer = any(n == "format" and v.lower() == "integer" for n, v in rules)
        prop["type"] = "integer" if integer else "number"
        _bounds(prop, rules, "minimum", "maximum")
        for key, name in (("min", "minimum"), ("max", "maximum")):
            value = _number(str((data or {}).get(key, ""))) if ftype == "range" else None
            if value is not None:
                prop[name] = value
        return prop
    prop["type"] = "string"
    if ftype == "file":
        prop["description"] = (
            prop.get("description", "") + " An uploaded file's id (upload_file) or an http(s) URL."
        ).strip()
    if ftype in _FORMATS:
        prop["format"] = _FORMATS[ftype]
    if ftype in _PATTERNS:
        prop["pattern"] = _PATTERNS[ftype]
    _bounds(prop, rules, "minLength", "maxLength")
    for name, rule in rules:
        if name == "format" and rule.lower() in ("email", "url"):
            prop["format"] = _FORMATS[rule.lower()]
        elif name == "format" and rule.lower() == "integer":
            prop["pattern"] = r"^[+-]?\d+$"
        elif name == "format" and rule.lower() == "nonempty":
            prop["minLength"] = max(1, prop.get("minLength", 0))
    return prop


def to_json_schema(schema: dict[str, Any] | None) -> dict[str, Any]:
    """The JSON Schema of an input: one property per field, required unless optional, no
    property the schema does not define."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for field in schema_fields(schema):
        field_id = field.get("id")
        if not isinstance(field_id, str) or not field_id:
            continue
        prop = _property(field)
        if prop is None:
            continue
        properties[field_id] = prop
        if not any(n == "optional" and v.lower() == "true" for n, v in _validations(field)):
            required.append(field_id)
    out: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        out["required"] = required
    return out
