"""The Masumi registry service's feed on loopback, as masumi-registry-service 53c29e3 answers it.

Mirrored, file by file (read with ``git show 53c29e3:<file>``):
- src/routes/api/index.ts: ``POST /api/v1/registry-entry`` and ``POST /api/v1/registry-diff``.
- src/utils/middleware/auth-middleware/index.ts: the ``token`` header; 401 "No token provided"
  (absent or empty), "Invalid token" (unknown), "API key is revoked". It runs before the body
  is validated.
- src/routes/api/registry-entry/schemas.ts: the inputs (``network`` Preprod|Mainnet; ``limit``
  coerced to a number, an integer 1 to 50, default 10; ``cursorId`` 1 to 50 characters (75 for
  the diff); ``filter.status`` at most 5; ``statusUpdatedAfter`` required, ``ez.dateIn()``) and
  the output: ``registryEntrySchemaOutput`` (only its fields: zod strips the rest), through
  ``serializeRegistryEntries`` (``agentIdentifier`` = the asset identifier, amounts as
  strings, Free/Dynamic pricing without FixedPricing, ``ExampleOutput`` singular).
- src/services/registry-entry/registry-entry.service.ts: without ``filter.status`` only
  ``Online`` entries; rows fetched ``limit * 2`` at a time and cut to ``limit``
  (``minHealthCheckDate`` would call the agents: not emulated, Agora never sends it). Each
  registry-entry call first awaits ``updateLatestCardanoRegistryEntries()`` (a Blockfrost
  catch-up; src/services/cardano-registry/cardano-registry.service.ts): ``entry_delay``
  seconds here, non-zero by default.
- src/repositories/registry-entry/registry-entry.repository.ts: registry-entry orders by ``id``
  desc with Prisma's inclusive ``cursor`` (rows at or after the cursor row's position, the
  cursor row itself only if it matches the filter; an unknown cursor gives no rows);
  registry-diff has no status filter, orders by ``statusUpdatedAt, id`` asc and takes rows with
  ``statusUpdatedAt > statusUpdatedAfter`` OR (``statusUpdatedAt = statusUpdatedAfter`` AND
  ``id >= cursorId`` when a cursor is given); both throw "Network not found" (500) when no
  registry source serves the network.
- prisma/schema.prisma + prisma/migrations/20251220221738_add_trigger_on_update/migration.sql:
  ``statusUpdatedAt`` is set on insert and moves only when ``status`` changes (NOW(): rows
  written in one transaction share it); millisecond precision; ids are cuids.
- express-zod-api 22.13.2 (src/result-handler.ts ``defaultResultHandler``,
  src/result-helpers.ts, src/common-helpers.ts ``getMessageFromError``, src/date-in-schema.ts)
  and zod 3.24: ``{"status":"success","data":…}`` / ``{"status":"error","error":{"message":…}}``;
  validation messages ``path: message`` joined by ``; ``; a 500 says "Internal Server Error"
  (production); dates as JavaScript's ``toISOString``; ``dateIn`` takes ``YYYY-MM-DD`` or a
  date-time with ``Z`` or without zone (never an offset, never Unix milliseconds).

Tests add rows (``add``), change statuses (``set_status``) and read ``requests``.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.support.server import serve_in_thread

NETWORKS = ("Preprod", "Mainnet")
STATUSES = ("Online", "Offline", "Deregistered", "Invalid")
V1_POLICY = "7e8bdaf2b2b919a3a4b94002cafb50086c0c845fe535d07a77ab7f77"
V2_POLICY = "2e3fc7c3a48d2ec5f8fd3b1e0a5a0f8b0a1f0b6f6f6b6f0e3c1d2a4b"
ADA = ""  # the unit of lovelace in Masumi prices
_DATE = r"\d{4}-\d{2}-\d{2}"
_TIME = r"([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?"
_DATETIME_Z = re.compile(rf"^{_DATE}T{_TIME}Z$")
_DATETIME_LOCAL = re.compile(rf"^{_DATE}T{_TIME}Z?$")


def js_iso(moment: datetime) -> str:
    """JavaScript's ``Date.prototype.toISOString``."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def date_in(value: Any) -> datetime | None:
    """``ez.dateIn()``: z.string().date() | .datetime() | .datetime({local: true}), then
    ``new Date(str)`` (milliseconds; a zone-less time is the server's local time, UTC here)."""
    if not isinstance(value, str):
        return None
    try:
        if re.fullmatch(_DATE, value):
            return datetime.combine(date.fromisoformat(value), datetime.min.time(), UTC)
        if _DATETIME_Z.match(value) or _DATETIME_LOCAL.match(value):
            head, _, fraction = value.rstrip("Z").partition(".")
            moment = datetime.fromisoformat(head).replace(tzinfo=UTC)
            millis = int((fraction + "000")[:3]) if fraction else 0
            return moment + timedelta(milliseconds=millis)
    except ValueError:
        return None
    return None


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class Row:
    """A ``RegistryEntry`` row with its relations (prisma/schema.prisma)."""

    id: str
    asset_identifier: str
    name: str
    api_base_url: str
    status: str
    status_updated_at: datetime
    created_at: datetime
    policy_id: str = V1_POLICY
    network: str = "Preprod"
    description: str | None = None
    author_name: str | None = None
    author_organization: str | None = None
    author_contact_email: str | None = None
    author_contact_other: str | None = None
    image: str = ""
    privacy_policy: str | None = None
    terms_and_condition: str | None = None
    other_legal: str | None = None
    tags: list[str] = field(default_factory=list)
    payment_type: str = "Web3CardanoV1"
    capability: dict[str, str | None] | None = None
    pricing_type: str = "Fixed"
    amounts: list[tuple[int, str]] = field(default_factory=list)
    example_outputs: list[dict[str, str]] = field(default_factory=list)
    metadata_version: int = 1
    uptime_count: int = 1
    uptime_check_count: int = 1

    def serialized(self, source_id: str) -> dict[str, Any]:
        """``serializeRegistryEntries`` then ``registryEntrySchemaOutput.parse``."""
        if self.pricing_type == "Fixed":
            pricing: dict[str, Any] = {
                "pricingType": "Fixed",
                "FixedPricing": {
                    "Amounts": [{"amount": str(a), "unit": u} for a, u in self.amounts]
                },
            }
        else:
            pricing = {"pricingType": self.pricing_type}
        return {
            "id": self.id,
            "name": self.name,
            "createdAt": js_iso(self.created_at),
            "description": self.description,
            "status": self.status,
            "statusUpdatedAt": js_iso(self.status_updated_at),
            "lastUptimeCheck": js_iso(self.created_at),
            "uptimeCount": self.uptime_count,
            "uptimeCheckCount": self.uptime_check_count,
            "apiBaseUrl": self.api_base_url,
            "authorName": self.author_name,
            "authorOrganization": self.author_organization,
            "authorContactEmail": self.author_contact_email,
            "authorContactOther": self.author_contact_other,
            "image": self.image,
            "privacyPolicy": self.privacy_policy,
            "termsAndCondition": self.terms_and_condition,
            "otherLegal": self.other_legal,
            "tags": list(self.tags),
            "agentIdentifier": self.asset_identifier,
            "paymentType": self.payment_type,
            "RegistrySource": {"id": source_id, "policyId": self.policy_id, "url": None},
            "Capability": dict(self.capability) if self.capability else None,
            "AgentPricing": pricing,
            "ExampleOutput": [dict(e) for e in self.example_outputs],
            "metadataVersion": self.metadata_version,
            "updatedAt": js_iso(self.status_updated_at),
        }


@dataclass
class MasumiRegistry:
    base_url: str = ""
    tokens: set[str] = field(default_factory=lambda: {"registry-read-token"})
    revoked: set[str] = field(default_factory=set)
    # (network, policyId) → the RegistrySource id; a network without one answers 500
    sources: dict[tuple[str, str], str] = field(
        default_factory=lambda: {
            ("Preprod", V1_POLICY): "cm9src0v1preprod000000001",
            ("Preprod", V2_POLICY): "cm9src0v2preprod000000002",
        }
    )
    rows: dict[str, Row] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    entry_delay: float = 0.02  # the chain catch-up before every registry-entry answer
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _last: datetime = field(default_factory=lambda: datetime(2000, 1, 1, tzinfo=UTC))

    @property
    def token(self) -> str:
        return next(iter(self.tokens))

    # ---- the database side (what the chain sync and health checks write) -----------------

    def _now(self) -> datetime:
        """NOW() at millisecond precision, strictly later than the previous write."""
        wall = datetime.now(UTC)
        now = wall.replace(microsecond=wall.microsecond // 1000 * 1000)
        self._last = max(now, self._last + timedelta(milliseconds=1))
        return self._last

    def _cuid(self) -> str:
        """Ids that sort like cuids: by creation time, then a counter (25 characters)."""
        return f"cm{int(self._last.timestamp() * 1000):013x}{next(self._ids):010d}"

    def add(self, rows: list[dict[str, Any]]) -> list[Row]:
        """Insert rows in one transaction: they share one NOW() (statusUpdatedAt, createdAt)."""
        with self._lock:
            now = self._now()
            added = []
            for values in rows:
                row = Row(
                    id=self._cuid(),
                    status_updated_at=now,
                    created_at=now,
                    **values,
                )
                assert (row.network, row.policy_id) in self.sources, "no such registry source"
                assert all(r.asset_identifier != row.asset_identifier for r in self.rows.values())
                self.rows[row.id] = row
                added.append(row)
            return added

    def set_status(self, agent_identifiers: list[str], status: str) -> None:
        """One transaction (markAssetDeregistered, a health check): the trigger moves
        statusUpdatedAt to NOW() only for rows whose status changes."""
        assert status in STATUSES
        with self._lock:
            now = self._now()
            for row in self.rows.values():
                if row.asset_identifier in agent_identifiers and row.status != status:
                    row.status, row.status_updated_at = status, now

    def update(self, agent_identifier: str, **values: Any) -> None:
        """A metadata upsert that keeps the status: statusUpdatedAt does not move."""
        with self._lock:
            row = next(r for r in self.rows.values() if r.asset_identifier == agent_identifier)
            for name, value in values.items():
                setattr(row, name, value)

    # ---- the HTTP side ----------------------------------------------------------------------

    def _authenticate(self, request: Request) -> None:
        sent = request.headers.get("token")
        if not sent:
            raise Refused(401, "No token provided")
        if sent in self.revoked:
            raise Refused(401, "API key is revoked")
        if sent not in self.tokens:
            raise Refused(401, "Invalid token")

    def _source_id(self, network: str, policy_id: str | None = None) -> dict[str, str]:
        found = {
            policy: sid
            for (net, policy), sid in self.sources.items()
            if net == network and (policy_id is None or policy == policy_id)
        }
        if not any(net == network for net, _ in self.sources):
            raise Refused(500, "Internal Server Error")  # "Network not found" (production)
        return found

    def registry_entry(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        issues: list[str] = []
        network = _network(body, issues)
        limit = _limit(body, issues)
        cursor = _cursor(body, issues, 50)
        statuses, policy_id = _filter(body, issues)
        if "minHealthCheckDate" in body and date_in(body["minHealthCheckDate"]) is None:
            issues.append("minHealthCheckDate: Invalid input")
        if issues:
            raise Refused(400, "; ".join(issues))
        assert network is not None and limit is not None
        sources = self._source_id(network, policy_id)
        allowed = statuses or ["Online"]  # getFilterParams: the default is Online only
        with self._lock:
            ordered = sorted(self.rows.values(), key=lambda r: r.id, reverse=True)
            if cursor is not None:
                if cursor not in self.rows:
                    return []
                ordered = [r for r in ordered if r.id <= cursor]
            matching = [
                r
                for r in ordered
                if r.status in allowed and r.network == network and r.policy_id in sources
            ]
            taken = matching[: limit * 2][:limit]  # take limit*2, then serialize limit
            return [r.serialized(sources[r.policy_id]) for r in taken]

    def registry_diff(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        issues: list[str] = []
        network = _network(body, issues)
        after = date_in(body.get("statusUpdatedAfter"))
        if after is None:
            issues.append("statusUpdatedAfter: Invalid input")
        limit = _limit(body, issues)
        cursor = _cursor(body, issues, 75)
        policy_id = body.get("policyId")
        if policy_id is not None and not isinstance(policy_id, str):
            issues.append("policyId: Expected string, received " + _type(policy_id))
        elif isinstance(policy_id, str) and not policy_id:
            issues.append("policyId: String must contain at least 1 character(s)")
        elif isinstance(policy_id, str) and len(policy_id) > 250:
            issues.append("policyId: String must contain at most 250 character(s)")
        if issues:
            raise Refused(400, "; ".join(issues))
        assert network is not None and limit is not None and after is not None
        sources = self._source_id(network, policy_id)
        with self._lock:
            chosen = [
                r
                for r in self.rows.values()
                if r.network == network
                and r.policy_id in sources
                and (
                    r.status_updated_at > after
                    or (r.status_updated_at == after and (cursor is None or r.id >= cursor))
                )
            ]
            chosen.sort(key=lambda r: (r.status_updated_at, r.id))
            return [r.serialized(sources[r.policy_id]) for r in chosen[:limit]]


def _type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "string"


def _network(body: dict[str, Any], issues: list[str]) -> str | None:
    value = body.get("network")
    if value is None:
        issues.append("network: Required")
    elif value not in NETWORKS:
        issues.append(
            f"network: Invalid enum value. Expected 'Preprod' | 'Mainnet', received '{value}'"
        )
    else:
        return str(value)
    return None


def _limit(body: dict[str, Any], issues: list[str]) -> int | None:
    """z.number({ coerce: true }).int().min(1).max(50).default(10)"""
    if "limit" not in body:  # .default(10) fills in undefined only
        return 10
    raw = body["limit"]
    if isinstance(raw, bool):  # Number(true) is 1
        number = float(raw)
    elif raw is None or raw == "":  # Number(null) and Number("") are 0
        number = 0.0
    elif isinstance(raw, (int, float, str)):
        try:
            number = float(raw)
        except ValueError:
            number = float("nan")
    else:
        number = float("nan")
    if number != number:
        issues.append("limit: Expected number, received nan")
        return None
    if number != int(number):
        issues.append("limit: Expected integer, received float")
        return None
    if number < 1:
        issues.append("limit: Number must be greater than or equal to 1")
        return None
    if number > 50:
        issues.append("limit: Number must be less than or equal to 50")
        return None
    return int(number)


def _cursor(body: dict[str, Any], issues: list[str], longest: int) -> str | None:
    value = body.get("cursorId")
    if "cursorId" not in body:
        return None
    if not isinstance(value, str):
        issues.append(f"cursorId: Expected string, received {_type(value)}")
    elif len(value) < 1:
        issues.append("cursorId: String must contain at least 1 character(s)")
    elif len(value) > longest:
        issues.append(f"cursorId: String must contain at most {longest} character(s)")
    else:
        return value
    return None


def _filter(body: dict[str, Any], issues: list[str]) -> tuple[list[str], str | None]:
    raw = body.get("filter")
    if raw is None:
        return [], None
    if not isinstance(raw, dict):
        issues.append(f"filter: Expected object, received {_type(raw)}")
        return [], None
    statuses = raw.get("status") or []
    if not isinstance(statuses, list):
        issues.append(f"filter/status: Expected array, received {_type(statuses)}")
        return [], None
    if len(statuses) > 5:
        issues.append("filter/status: Array must contain at most 5 element(s)")
    for i, status in enumerate(statuses):
        if status not in STATUSES:
            issues.append(
                f"filter/status/{i}: Invalid enum value. Expected 'Online' | 'Offline' | "
                f"'Deregistered' | 'Invalid', received '{status}'"
            )
    policy_id = raw.get("policyId")
    return [str(s) for s in statuses], policy_id if isinstance(policy_id, str) else None


def registry_row(n: int, agents_base: str, **values: Any) -> dict[str, Any]:
    """The values of a typical Fixed-priced entry number ``n`` (for ``MasumiRegistry.add``)."""
    row: dict[str, Any] = {
        "asset_identifier": f"{V1_POLICY}{n:064x}",
        "name": f"Registry agent {n}",
        "description": "Imported from the registry",
        "api_base_url": f"{agents_base}/agent-{n}",
        "status": "Online",
        "author_name": "Someone",
        "author_contact_email": "someone@example.com",
        "image": f"https://example.com/{n}.png",
        "terms_and_condition": "https://example.com/terms",
        "tags": ["imported", f"t{n % 7}"],
        "capability": {"name": "text", "version": "1.0.0"},
        "pricing_type": "Fixed",
        "amounts": [(3_000_000, ADA)],
        "example_outputs": [
            {"name": "sample", "mimeType": "text/plain", "url": f"https://example.com/{n}.txt"}
        ],
    }
    row.update(values)
    return row


@contextmanager
def masumi_registry() -> Iterator[MasumiRegistry]:
    registry = MasumiRegistry()

    def route(read: Any) -> Any:
        async def handle(request: Request) -> JSONResponse:
            try:
                body = await request.json()
            except ValueError:
                body = {}
            registry.requests.append(
                {"path": request.url.path, "token": request.headers.get("token"), **body}
            )
            try:
                registry._authenticate(request)  # the middleware, before the input schema
                if not isinstance(body, dict):
                    raise Refused(400, "Expected object, received " + _type(body))
                if request.url.path.endswith("/registry-entry") and registry.entry_delay > 0:
                    await asyncio.sleep(registry.entry_delay)
                entries = read(body)
            except Refused as refused:
                return JSONResponse(
                    {"status": "error", "error": {"message": refused.message}},
                    status_code=refused.status,
                )
            return JSONResponse({"status": "success", "data": {"entries": entries}})

        return handle

    app = Starlette(
        routes=[
            Route("/api/v1/registry-entry", route(registry.registry_entry), methods=["POST"]),
            Route("/api/v1/registry-diff", route(registry.registry_diff), methods=["POST"]),
        ]
    )
    with serve_in_thread(app, "masumi-registry") as base_url:
        registry.base_url = base_url
        yield registry
