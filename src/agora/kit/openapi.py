"""The published OpenAPI document: FastAPI's 3.1 output rewritten as valid OpenAPI 3.0.3.

Rewrites: anyOf/oneOf with null → nullable; type lists → nullable; const → enum;
examples → example; numeric exclusiveMinimum/Maximum → boolean form; $ref with siblings → allOf.
It also adds the two security schemes, marks protected operations, and documents the error
bodies of each operation's family (FastAPI's 422 is replaced by our 400).
"""

from __future__ import annotations

import copy
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute, iter_route_contexts

from agora.kit.families import Family

ERRORS_KEY = "x-agora-errors"


def errors(*statuses: int) -> dict[str, Any]:
    """A route's error statuses beyond its family's defaults, for its ``openapi_extra``:
    ``@router.get("/x", operation_id="getX", openapi_extra=errors(404, 409))``."""
    return {ERRORS_KEY: list(statuses)}


SECURITY_SCHEMES = {
    "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "Authorization: Bearer <API key>",
    },
    "apiKeyHeader": {"type": "apiKey", "in": "header", "name": "x-api-key"},
    "sessionCookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": "agora_session",
        "description": "Browser session from POST /v1/auth/sign-in (docs/accounts.md); "
        "state-changing requests also need the X-CSRF-Token header",
    },
}
_PROTECTED: list[dict[str, list[str]]] = [
    {"bearerAuth": []},
    {"apiKeyHeader": []},
    {"sessionCookie": []},
]

_ERROR_SCHEMAS: dict[str, Any] = {
    "FieldError": {
        "type": "object",
        "properties": {"field": {"type": "string"}, "reason": {"type": "string"}},
        "required": ["field", "reason"],
    },
    "SimpleError": {
        "type": "object",
        "description": "Error shape of the key family (jobs, users, credits, x-api-key agents).",
        "properties": {
            "error": {"type": "string"},
            "code": {"type": "string", "description": "the HTTP status as a string"},
            "message": {"type": "string"},
            "details": {"type": "array", "items": {"$ref": "#/components/schemas/FieldError"}},
        },
        "required": ["error", "code"],
    },
    "DetailedError": {
        "type": "object",
        "description": "Error shape of the bearer/public family.",
        "properties": {
            "error": {"type": "string"},
            "message": {"type": "string"},
            "details": {"type": "array", "items": {"$ref": "#/components/schemas/FieldError"}},
            "meta": {
                "type": "object",
                "properties": {
                    "timestamp": {"type": "string"},
                    "requestId": {"type": "string"},
                    "path": {"type": "string"},
                    "method": {"type": "string"},
                },
                "required": ["timestamp", "requestId", "path", "method"],
            },
        },
        "required": ["error", "message", "meta"],
    },
    "ConflictError": {
        "type": "object",
        "properties": {
            "error": {"type": "string", "enum": ["Conflict"]},
            "message": {"type": "string"},
        },
        "required": ["error", "message"],
    },
}
_DESCRIPTIONS = {
    "400": "Invalid request parameters (details name the fields)",
    "401": "Missing or invalid credentials",
    "402": "Not enough credits",
    "403": "Authenticated but not allowed (or not a member of the workspace)",
    "404": "Not found (or not visible to the caller)",
    "409": "Conflict",
    "413": "Request body too large",
    "415": "Request body must be JSON",
    "429": "Rate limited; see Retry-After",
    "500": "Unexpected server error",
}


def _uses(dependant: Dependant, name: str) -> bool:
    call = dependant.call
    if call is not None and name in (
        getattr(call, "__name__", ""),
        getattr(call, "agora_authenticates_as", ""),  # auth.dependencies.AUTHENTICATES
    ):
        return True
    return any(_uses(dep, name) for dep in dependant.dependencies)


def _admin_only(dependant: Dependant) -> bool:
    """The route takes the admin permission (auth.dependencies.ACCESS "admin"): a non-admin
    gets 404, never 403 (docs/security.md)."""
    call = dependant.call
    if call is not None and getattr(call, "agora_access", None) == "admin":
        return True
    return any(_admin_only(dep) for dep in dependant.dependencies)


def _error_content(schema: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}


def _decorate_operations(app: FastAPI, doc: dict[str, Any]) -> None:
    # FastAPI keeps included routers lazily; route contexts give each effective route.
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if not isinstance(route, APIRoute) or not context.include_in_schema:
            continue
        path_format = context.path_format or ""
        path_item = doc.get("paths", {}).get(path_format)
        if path_item is None:
            continue
        family = getattr(route, "family", Family.BEARER)
        protected = _uses(route.dependant, "get_principal")
        optional_auth = _uses(route.dependant, "get_optional_principal")
        extra = route.openapi_extra or {}
        statuses = ["400", "500"]
        admin_only = _admin_only(route.dependant)
        if protected or optional_auth or "security" in extra:
            statuses += ["401"] if admin_only else ["401", "403"]
        if "{" in path_format or admin_only:
            statuses.append("404")
        methods = context.methods or set()
        if methods & {"POST", "PUT", "PATCH"}:
            statuses += ["413", "415"]
        statuses += [str(s) for s in extra.get(ERRORS_KEY, [])]
        for method in methods:
            op = path_item.get(method.lower())
            if op is None:
                continue
            op.pop(ERRORS_KEY, None)
            responses = op.setdefault("responses", {})
            responses.pop("422", None)
            for status in statuses:
                if status in responses and "content" in responses[status]:
                    continue
                if status == "409":
                    schema = "ConflictError"
                elif family is Family.KEY:
                    schema = "SimpleError"
                else:
                    schema = "DetailedError"
                responses[status] = {
                    "description": _DESCRIPTIONS.get(status, "Error"),
                    "content": _error_content(schema),
                }
            if "security" in extra:
                op["security"] = extra["security"]
            elif protected:
                op["security"] = _PROTECTED
            elif optional_auth:
                op["security"] = [{}, *_PROTECTED]
            else:
                op["security"] = []


def _to_30(node: Any) -> Any:
    if isinstance(node, list):
        return [_to_30(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _to_30(value) for key, value in node.items()}

    for key in ("anyOf", "oneOf"):
        options = node.get(key)
        if isinstance(options, list) and any(o == {"type": "null"} for o in options):
            rest = [o for o in options if o != {"type": "null"}]
            node.pop(key)
            if len(rest) == 1:
                only = rest[0]
                if "$ref" in only:
                    node.setdefault("allOf", []).append(only)
                else:
                    node.update(only)
            else:
                node[key] = rest
            node["nullable"] = True

    kind = node.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        if len(kinds) != len(kind):
            node["nullable"] = True
        node["type"] = kinds[0] if len(kinds) == 1 else kinds
        if isinstance(node["type"], list):
            node.pop("type")
            node["anyOf"] = [{"type": k} for k in kinds]

    if "const" in node:
        node["enum"] = [node.pop("const")]
    if "examples" in node and isinstance(node["examples"], list):
        examples = node.pop("examples")
        if examples:
            node["example"] = examples[0]
    for bound, plain in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = node.get(bound)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            node[plain] = value
            node[bound] = True
    for unsupported in ("contentMediaType", "contentEncoding", "$schema", "prefixItems"):
        node.pop(unsupported, None)
    if "$ref" in node and len(node) > 1:
        ref = node.pop("$ref")
        node.setdefault("allOf", []).insert(0, {"$ref": ref})
    return node


def _fix_parameter_and_media_examples(doc: dict[str, Any]) -> None:
    """In 3.0, parameters and media types have ``examples`` as a map, never a list."""
    for path_item in doc.get("paths", {}).values():
        for op in path_item.values():
            if not isinstance(op, dict):
                continue
            for param in op.get("parameters", []):
                if isinstance(param.get("examples"), list):
                    param["example"] = param.pop("examples")[0]


def build_openapi(app: FastAPI, *, servers: list[dict[str, str]]) -> dict[str, Any]:
    doc = get_openapi(
        title=app.title,
        version=app.version,
        description=app.description,
        routes=app.routes,
        servers=servers,
    )
    doc = copy.deepcopy(doc)
    components = doc.setdefault("components", {})
    components.setdefault("schemas", {}).update(_ERROR_SCHEMAS)
    components["securitySchemes"] = SECURITY_SCHEMES
    for name in ("HTTPValidationError", "ValidationError"):
        components["schemas"].pop(name, None)
    _decorate_operations(app, doc)
    _fix_parameter_and_media_examples(doc)
    converted: dict[str, Any] = _to_30(doc)
    converted["openapi"] = "3.0.3"
    return converted
