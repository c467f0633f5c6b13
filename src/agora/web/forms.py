"""HTML forms generated from MIP-003 input schemas, and submitted forms back to ``inputData``.

The fields and their validations are those of reference/mip003.md (mip003/validation.py decides
what is valid; the page shows its problems on their fields). Grouped inputs (``input_groups``)
become fieldsets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starlette.datastructures import FormData

from agora.mip003.validation import (
    BOOLEAN_TYPES,
    CHOICE_TYPES,
    DISPLAY_TYPES,
    NUMBER_TYPES,
    schema_fields,
)

PREFIX = "in."  # form names of schema fields (never clash with csrf, maxCredits, …)
_HTML_TYPES = {
    "string": "text", "text": "text", "email": "email", "password": "password", "tel": "tel",
    "url": "url", "search": "search", "hidden": "hidden", "date": "date",
    "datetime-local": "datetime-local", "time": "time", "month": "month", "week": "week",
    "color": "color", "file": "text", "number": "number", "range": "range",
}  # fmt: skip


@dataclass
class Field:
    id: str
    name: str
    type: str  # the MIP-003 type
    widget: str  # input | textarea | select | radio | yesno | checkbox | checkboxes | none
    html_type: str = "text"
    description: str = ""
    placeholder: str = ""
    required: bool = True
    multiple: bool = False
    choices: list[str] = field(default_factory=list)
    attrs: dict[str, str] = field(default_factory=dict)
    value: Any = None
    error: str = ""

    @property
    def form_name(self) -> str:
        return PREFIX + self.id

    @property
    def anchor(self) -> str:
        """The id of the element an error summary links to (the first control of the field)."""
        return "f-" + self.id


@dataclass
class Group:
    title: str
    fields: list[Field]
    description: str = ""


def _validations(raw: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for item in raw.get("validations") or []:
        if isinstance(item, dict):
            out.append((str(item.get("validation", "")).lower(), str(item.get("value", ""))))
    return out


def _choices(raw: dict[str, Any]) -> list[str]:
    data = raw.get("data") if isinstance(raw.get("data"), dict) else {}
    out = []
    for item in (data or {}).get("values") or []:
        if isinstance(item, dict):
            item = item.get("value", item.get("id", item.get("label")))
        out.append(str(item))
    return out


def make_field(raw: dict[str, Any]) -> Field:
    ftype = str(raw.get("type") or "string").strip().lower()
    data = raw.get("data") if isinstance(raw.get("data"), dict) else {}
    data = data or {}
    rules = _validations(raw)
    out = Field(
        id=str(raw.get("id")),
        name=str(raw.get("name") or raw.get("id")),
        type=ftype,
        widget="input",
        description=str(data.get("description") or ""),
        placeholder=str(data.get("placeholder") or ""),
        required=("optional", "true") not in rules,
    )
    out.choices = _choices(raw)
    if ftype in DISPLAY_TYPES:
        out.widget = "none"
    elif ftype == "textarea":
        out.widget = "textarea"
    elif ftype in ("option", "multiselect"):
        out.widget = "select"
        out.multiple = ftype == "multiselect"
    elif ftype == "radio":
        out.widget = "radio"
    elif ftype in BOOLEAN_TYPES and out.choices:
        out.widget = "checkboxes"
    elif ftype in BOOLEAN_TYPES:
        # A required yes/no is two radio buttons with nothing chosen (unless the agent gives a
        # ``default``): an unchecked checkbox would answer "no" without the person deciding.
        # An optional one is a checkbox (unchecked: false).
        out.widget = "yesno" if out.required else "checkbox"
        default = data.get("default")
        if isinstance(default, bool):
            out.value = default
        elif isinstance(default, str) and default.lower() in ("true", "false"):
            out.value = default.lower() == "true"
    else:
        out.html_type = _HTML_TYPES.get(ftype, "text")
        if ftype == "file":  # an upload's id (the page's file picker fills it) or a URL
            out.widget = "file"
        if ftype == "hidden" and data.get("value") is not None:
            out.value = str(data["value"])
    for name, value in rules:  # hints for the browser; the server decides (novalidate form)
        if name in ("min", "max"):
            if ftype in NUMBER_TYPES:
                out.attrs[name] = value
            elif ftype not in CHOICE_TYPES and ftype not in BOOLEAN_TYPES:
                out.attrs[f"{name}length"] = value
    if ftype == "range":
        for key in ("min", "max", "step"):
            if data.get(key) is not None:
                out.attrs[key] = str(data[key])
    elif ftype == "number":
        out.attrs.setdefault("step", "any")
    return out


def groups(schema: dict[str, Any] | None) -> list[Group]:
    """The form's fieldsets: one per ``input_groups`` entry, or one untitled group."""
    if not schema:
        return []
    if isinstance(schema.get("input_data"), list) or not schema.get("input_groups"):
        return [Group("", [make_field(f) for f in schema_fields(schema)])]
    out = []
    for raw in schema.get("input_groups") or []:
        if isinstance(raw, dict):
            items = [f for f in raw.get("input_data") or [] if isinstance(f, dict)]
            title = str(raw.get("title") or raw.get("name") or raw.get("id") or "")
            description = raw.get("description")
            out.append(
                Group(
                    title,
                    [make_field(f) for f in items],
                    description if isinstance(description, str) else "",
                )
            )
    return out


def _number(text: str) -> int | float | str:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text  # the validation names the problem


def input_data(schema: dict[str, Any] | None, form: FormData) -> dict[str, Any]:
    """The submitted form as ``inputData`` (blank optional fields are left out)."""
    data: dict[str, Any] = {}
    for group in groups(schema):
        for f in group.fields:
            name = f.form_name
            if f.widget == "none":
                continue
            if f.widget == "checkbox":
                data[f.id] = form.get(name) is not None
            elif f.widget == "yesno":
                answer = form.get(name)
                if answer in ("true", "false"):
                    data[f.id] = answer == "true"
                elif isinstance(answer, str) and answer:
                    data[f.id] = answer  # the validation names the problem
            elif f.multiple or f.widget == "checkboxes":
                picked = [str(v) for v in form.getlist(name)]
                if picked:
                    data[f.id] = picked
            else:
                raw = form.get(name)
                text = raw if isinstance(raw, str) else ""
                if text == "":
                    continue
                data[f.id] = _number(text) if f.type in NUMBER_TYPES else text
    return data


def fill(found: list[Group], values: dict[str, Any], errors: dict[str, str]) -> list[Group]:
    """Put the submitted values and each field's problem back on the form."""
    for group in found:
        for f in group.fields:
            if f.id in values:
                f.value = values[f.id]
            f.error = errors.get(f.id, "")
    return found


def summary(found: list[Group]) -> list[tuple[str, str]]:
    """The error summary's entries for the fields with a problem: (the element to link to, the
    sentence naming the field)."""
    return [
        (f.anchor, f"{f.name}: {f.error}")
        for group in found
        for f in group.fields
        if f.error and f.widget != "none"
    ]
