"""The registry emulation (tests/support/masumi_registry.py) answers as masumi-registry-service
53c29e3 does: one test per behaviour the import relies on, each naming the file it mirrors.
No database: these talk HTTP to the emulation only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from tests.support.masumi_registry import (
    V2_POLICY,
    MasumiRegistry,
    masumi_registry,
    registry_row,
)

NOWHERE = "http://127.0.0.1:9"


@pytest.fixture(scope="module")
def registry() -> Iterator[MasumiRegistry]:
    with masumi_registry() as served:
        served.add([registry_row(n, NOWHERE) for n in range(6)])
        served.add([registry_row(n, NOWHERE, status="Offline") for n in range(6, 8)])
        served.add([registry_row(8, NOWHERE, policy_id=V2_POLICY, pricing_type="Dynamic")])
        yield served


def _post(
    registry: MasumiRegistry, path: str, body: Any, *, token: str | None = "default"
) -> httpx2.Response:
    headers = {} if token is None else {"token": registry.token if token == "default" else token}
    return httpx2.post(f"{registry.base_url}/api/v1/{path}", json=body, headers=headers)


def test_no_token_invalid_token_revoked_token_answer_401(registry: MasumiRegistry) -> None:
    """src/utils/middleware/auth-middleware/index.ts: checked before the body."""
    for token, message in ((None, "No token provided"), ("", "No token provided"),
                           ("guess", "Invalid token")):  # fmt: skip
        answer = _post(registry, "registry-entry", {"limit": 999}, token=token)
        assert answer.status_code == 401
        assert answer.json() == {"status": "error", "error": {"message": message}}
    registry.tokens.add("old")
    registry.revoked.add("old")
    try:
        answer = _post(registry, "registry-diff", {}, token="old")
        assert (answer.status_code, answer.json()["error"]["message"]) == (
            401,
            "API key is revoked",
        )
    finally:
        registry.tokens.discard("old")


def test_limit_is_an_integer_from_1_to_50_default_10(registry: MasumiRegistry) -> None:
    """src/routes/api/registry-entry/schemas.ts: z.number({coerce}).int().min(1).max(50)."""
    too_many = _post(registry, "registry-entry", {"network": "Preprod", "limit": 51})
    assert too_many.status_code == 400
    assert too_many.json()["error"]["message"] == "limit: Number must be less than or equal to 50"
    zero = _post(registry, "registry-entry", {"network": "Preprod", "limit": 0})
    assert zero.json()["error"]["message"] == "limit: Number must be greater than or equal to 1"
    half = _post(registry, "registry-diff", {"network": "Preprod", "limit": 2.5,
                                              "statusUpdatedAfter": "2020-01-01"})  # fmt: skip
    assert half.json()["error"]["message"] == "limit: Expected integer, received float"
    default = _post(registry, "registry-entry", {"network": "Preprod"})
    assert default.status_code == 200 and len(default.json()["data"]["entries"]) == 7
    as_text = _post(registry, "registry-entry", {"network": "Preprod", "limit": "2"})
    assert len(as_text.json()["data"]["entries"]) == 2  # coerced


def test_network_is_required_and_an_unserved_network_is_a_500(registry: MasumiRegistry) -> None:
    """schemas.ts (nativeEnum Network); registry-entry.repository.ts ("Network not found")."""
    missing = _post(registry, "registry-entry", {})
    assert missing.json()["error"]["message"] == "network: Required"
    mainnet = _post(registry, "registry-entry", {"network": "Mainnet"})
    assert mainnet.status_code == 500
    assert mainnet.json() == {"status": "error", "error": {"message": "Internal Server Error"}}


def test_registry_entry_default_filter_is_online_only(registry: MasumiRegistry) -> None:
    """src/services/registry-entry/registry-entry.service.ts getFilterParams."""
    online = _post(registry, "registry-entry", {"network": "Preprod", "limit": 50})
    statuses = {e["status"] for e in online.json()["data"]["entries"]}
    assert statuses == {"Online"}
    listed = {"network": "Preprod", "limit": 50, "filter": {"status": ["Online", "Offline"]}}
    both = _post(registry, "registry-entry", listed)
    assert len(both.json()["data"]["entries"]) == 9


def test_registry_entry_orders_by_id_desc_with_an_inclusive_cursor(
    registry: MasumiRegistry,
) -> None:
    """registry-entry.repository.ts: orderBy id desc, Prisma cursor (inclusive)."""
    first = _post(registry, "registry-entry", {"network": "Preprod", "limit": 3}).json()
    ids = [e["id"] for e in first["data"]["entries"]]
    assert ids == sorted(ids, reverse=True)
    second = _post(registry, "registry-entry",
                   {"network": "Preprod", "limit": 3, "cursorId": ids[-1]}).json()  # fmt: skip
    assert second["data"]["entries"][0]["id"] == ids[-1]  # the cursor entry comes back
    unknown = _post(registry, "registry-entry",
                    {"network": "Preprod", "cursorId": "cm-no-such-id"}).json()  # fmt: skip
    assert unknown["data"]["entries"] == []


def test_registry_diff_pages_by_status_time_then_id(registry: MasumiRegistry) -> None:
    """registry-entry.repository.ts getRegistryDiffEntries; the cursorId description in
    schemas.ts ("always use statusUpdatedAt of the last item + its cursorId")."""
    body = {"network": "Preprod", "limit": 4, "statusUpdatedAfter": "2020-01-01T00:00:00Z"}
    page = _post(registry, "registry-diff", body).json()["data"]["entries"]
    assert [e["statusUpdatedAt"] for e in page] == sorted(e["statusUpdatedAt"] for e in page)
    assert len({e["statusUpdatedAt"] for e in page}) == 1  # one transaction, one NOW()
    last = page[-1]
    follow = {**body, "statusUpdatedAfter": last["statusUpdatedAt"], "cursorId": last["id"]}
    nxt = _post(registry, "registry-diff", follow).json()["data"]["entries"]
    assert nxt[0]["id"] == last["id"]  # inclusive
    assert {e["id"] for e in nxt[1:]}.isdisjoint({e["id"] for e in page})
    # the cursor alone (time not advanced) starts over: everything after the old time
    stale = {**body, "cursorId": last["id"]}
    assert _post(registry, "registry-diff", stale).json()["data"]["entries"] == page
    statuses = {
        e["status"]
        for e in _post(registry, "registry-diff", {**body, "limit": 50}).json()["data"]["entries"]
    }
    assert statuses == {"Online", "Offline"}  # every status, no default filter


def test_status_updated_after_takes_iso_dates_only(registry: MasumiRegistry) -> None:
    """express-zod-api 22.13.2 src/date-in-schema.ts (date | datetime Z | local datetime)."""
    base = {"network": "Preprod"}
    for good in ("2020-01-01", "2020-01-01T00:00:00Z", "2020-01-01T00:00:00.123Z",
                 "2020-01-01T00:00"):  # fmt: skip
        answer = _post(registry, "registry-diff", {**base, "statusUpdatedAfter": good})
        assert answer.status_code == 200, good
    for bad in ("1763900000000", "2020-01-01T00:00:00+00:00", "yesterday", 1763900000000):
        answer = _post(registry, "registry-diff", {**base, "statusUpdatedAfter": bad})
        assert answer.status_code == 400, bad
        assert answer.json()["error"]["message"] == "statusUpdatedAfter: Invalid input"
    missing = _post(registry, "registry-diff", base)
    assert missing.json()["error"]["message"] == "statusUpdatedAfter: Invalid input"


def test_entry_shape_is_the_real_one(registry: MasumiRegistry) -> None:
    """schemas.ts registryEntrySchemaOutput through serializeRegistryEntries."""
    body = {"network": "Preprod", "limit": 50, "statusUpdatedAfter": "2020-01-01"}
    entries = _post(registry, "registry-diff", body).json()["data"]["entries"]
    fixed = next(e for e in entries if e["AgentPricing"]["pricingType"] == "Fixed")
    assert set(fixed) == {
        "id", "name", "createdAt", "description", "status", "statusUpdatedAt",
        "lastUptimeCheck", "uptimeCount", "uptimeCheckCount", "apiBaseUrl", "authorName",
        "authorOrganization", "authorContactEmail", "authorContactOther", "image",
        "privacyPolicy", "termsAndCondition", "otherLegal", "tags", "agentIdentifier",
        "paymentType", "RegistrySource", "Capability", "AgentPricing", "ExampleOutput",
        "metadataVersion", "updatedAt",
    }  # fmt: skip
    assert fixed["AgentPricing"] == {
        "pricingType": "Fixed",
        "FixedPricing": {"Amounts": [{"amount": "3000000", "unit": ""}]},
    }
    assert fixed["statusUpdatedAt"].endswith("Z") and len(fixed["statusUpdatedAt"]) == 24
    dynamic = next(e for e in entries if e["AgentPricing"]["pricingType"] == "Dynamic")
    assert dynamic["AgentPricing"] == {"pricingType": "Dynamic"}
    assert dynamic["RegistrySource"]["policyId"] == V2_POLICY


def test_status_time_moves_only_when_the_status_changes(registry: MasumiRegistry) -> None:
    """prisma/migrations/20251220221738_add_trigger_on_update/migration.sql."""
    row = next(r for r in registry.rows.values() if r.status == "Online")
    before = row.status_updated_at
    registry.update(row.asset_identifier, name="Renamed")
    registry.set_status([row.asset_identifier], "Online")
    assert row.status_updated_at == before
    registry.set_status([row.asset_identifier], "Offline")
    assert row.status_updated_at > before
    registry.set_status([row.asset_identifier], "Online")
