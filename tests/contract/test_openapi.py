"""The published OpenAPI document is valid 3.0, describes every route, both security schemes and
the error bodies; the docs page is served from bundled assets."""

from __future__ import annotations

import httpx2
from fastapi import FastAPI
from fastapi.routing import APIRoute, iter_route_contexts
from openapi_spec_validator import validate


async def test_openapi_is_valid_30_and_public(client: httpx2.AsyncClient) -> None:
    response = await client.get("/v1/openapi")
    assert response.status_code == 200
    doc = response.json()
    assert doc["openapi"] == "3.0.3"
    validate(doc)
    assert set(doc["components"]["securitySchemes"]) == {
        "bearerAuth",
        "apiKeyHeader",
        "sessionCookie",
    }
    assert (await client.get("/api/v1/openapi")).json() == doc


async def test_every_v1_route_is_documented_with_error_bodies(
    client: httpx2.AsyncClient, app: FastAPI
) -> None:
    doc = (await client.get("/v1/openapi")).json()
    documented = {(path, method.upper()) for path, item in doc["paths"].items() for method in item}
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        path = context.path_format or ""
        if not isinstance(route, APIRoute) or not path.startswith("/v1/"):
            continue
        for method in context.methods or ():
            assert (path, method) in documented, (
                f"{method} {path} missing from the OpenAPI document"
            )
    for path, item in doc["paths"].items():
        for method, op in item.items():
            responses = op["responses"]
            assert "422" not in responses, f"{method} {path} still documents FastAPI's 422"
            assert "400" in responses and "500" in responses
            if op.get("security") and {} not in op["security"]:
                assert "401" in responses, f"{method} {path} is protected but has no 401"


async def test_docs_page_uses_bundled_assets(client: httpx2.AsyncClient) -> None:
    page = await client.get("/docs")
    assert page.status_code == 200
    assert "/docs/assets/swagger-ui-bundle.js" in page.text
    assert "cdn" not in page.text.lower()
    asset = await client.get("/docs/assets/swagger-ui-bundle.js")
    assert asset.status_code == 200
    assert len(asset.content) > 100_000
    assert (await client.get("/docs/assets/swagger-ui.css")).status_code == 200


async def test_response_schemas_type_ids_and_timestamps(client: httpx2.AsyncClient) -> None:
    """Response schemas read rows with typed fields: ids are `format: uuid`, timestamps
    `format: date-time`, credits numbers, statuses their enum; names stay camelCase."""
    schemas = (await client.get("/v1/openapi")).json()["components"]["schemas"]

    def prop(model: str, name: str) -> dict[str, object]:
        found: dict[str, object] = schemas[model]["properties"][name]
        return found

    for model in ("JobOut", "AgentOut", "ProjectOut", "TaskOut", "ConversationOut", "UserOut"):
        assert prop(model, "id")["format"] == "uuid", model
        assert prop(model, "createdAt")["format"] == "date-time", model
        assert prop(model, "updatedAt")["format"] == "date-time", model
    assert prop("JobOut", "agentId")["format"] == "uuid"
    assert prop("JobOut", "completedAt")["format"] == "date-time"
    assert prop("JobOut", "completedAt")["nullable"] is True
    assert prop("LedgerEntryOut", "amount")["type"] == "number"
    assert prop("Price", "includedFee")["type"] == "number"
    assert set(prop("JobOut", "price")) >= {"$ref"} or "allOf" in prop("JobOut", "price")
    job_status = schemas["JobStatus"]
    assert job_status["enum"] == [
        "PENDING",
        "RUNNING",
        "INPUT_REQUIRED",
        "COMPLETED",
        "FAILED",
        "CANCELLED",
    ]
    for hidden in ("charged", "fee", "refunded", "refundFee", "basePrice"):
        assert hidden not in schemas["JobOut"]["properties"]
        assert hidden not in schemas["AgentOut"]["properties"]
    assert "jobStatusSettled" in schemas["JobOut"]["required"]
