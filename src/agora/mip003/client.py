"""An async MIP-003 client: timeouts on every call, typed results, liberal parsing.

Variations handled (reference/mip003.md): ``job_id`` instead of ``id`` on /start_job, explicit
nulls, a fresh status ``id`` per /status call, 422 for bad input, provide_input errors as 500.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx2
import structlog
from starlette.requests import Request

from agora.kit.outbound import (
    OutboundPolicy,
    OutboundRefused,
    OutboundTimeout,
    OutboundTooLarge,
    OutboundUnreachable,
    guarded_client,
    redact_url,
    send_limited,
)
from agora.mip003.errors import (
    AgentBadResponse,
    AgentError,
    AgentJobNotFound,
    AgentRejectedInput,
    AgentTimeout,
    AgentUnreachable,
)
from agora.mip003.types import Availability, InputSchema, JobStatus, StartedJob
from agora.settings import Settings

log = structlog.get_logger(__name__)

MAX_RESPONSE_BYTES = 5 * 1024 * 1024


def new_identifier_from_purchaser() -> str:
    """26 lowercase hex characters: accepted by every agent implementation seen so far."""
    return secrets.token_hex(13)


def validate_base_url(url: str) -> str:
    """Only absolute http(s) URLs; returned without a trailing slash."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("must be an absolute http(s) URL")
    if "@" in parts.netloc:
        raise ValueError("must not carry credentials (user:password@)")
    if parts.query or parts.fragment:
        raise ValueError("must not have a query or fragment")
    return url.strip().rstrip("/")


USER_AGENT = "agora-marketplace/1 (MIP-003 client)"


class Mip003Client:
    """One per process (it pools connections). Every request goes through the outbound guard
    (``kit.outbound``) with ``policy`` (strict by default); ``local`` maps path prefixes on
    loopback URLs to in-process ASGI apps (the embedded demo's agents). ``transport`` replaces
    the guarded one entirely: only for in-process ASGI apps (``agora serve``'s start-up check)."""

    def __init__(
        self,
        *,
        timeout: float = 10.0,
        transport: httpx2.AsyncBaseTransport | None = None,
        policy: OutboundPolicy | None = None,
        local: Mapping[str, Any] | None = None,
    ) -> None:
        self.timeout = timeout
        if transport is not None:
            self._client = httpx2.AsyncClient(
                timeout=httpx2.Timeout(timeout, connect=min(timeout, 5.0)),
                transport=transport,
                follow_redirects=False,
                headers={"user-agent": USER_AGENT},
            )
        else:
            self._client = guarded_client(
                policy or OutboundPolicy(),
                timeout=timeout,
                connect_timeout=5.0,
                headers={"user-agent": USER_AGENT},
                local=local,
            )

    async def aclose(self) -> None:
        await self._client.aclose()

    async def __aenter__(self) -> Mip003Client:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()

    async def _request(
        self, method: str, url: str, *, json_body: Any = None, params: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        # Errors name the endpoint and say "refused by policy" / "unreachable" / "no answer in
        # time" only: never which step failed (that would make registration a port scanner).
        endpoint = urlsplit(url).path.rsplit("/", 1)[-1] or url
        try:
            answer = await send_limited(
                self._client,
                method,
                url,
                max_bytes=MAX_RESPONSE_BYTES,
                total_seconds=self.timeout,
                json=json_body,
                params=params,
            )
        except OutboundRefused as exc:
            log.info("outbound_refused", url=redact_url(url), reason=exc.detail)
            raise AgentUnreachable(f"/{endpoint}: refused by policy") from exc
        except OutboundTimeout as exc:
            raise AgentTimeout(f"/{endpoint}: no answer in time") from exc
        except OutboundTooLarge as exc:
            raise AgentBadResponse(f"/{endpoint}: response too large") from exc
        except OutboundUnreachable as exc:
            log.info("outbound_unreachable", url=redact_url(url), reason=exc.detail)
            raise AgentUnreachable(f"/{endpoint}: unreachable") from exc
        try:
            payload = json.loads(answer.body) if answer.body else None
        except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
            payload = _NOT_JSON
        return answer.status_code, payload

    async def availability(self, base_url: str) -> Availability:
        status, body = await self._request("GET", f"{base_url}/availability")
        body = _expect_object(status, body, "/availability")
        value = str(body.get("status") or "").lower()
        return Availability(
            available=value == "available",
            type=_opt_str(body.get("type")),
            message=_opt_str(body.get("message")),
        )

    async def input_schema(self, base_url: str) -> InputSchema:
        status, body = await self._request("GET", f"{base_url}/input_schema")
        body = _expect_object(status, body, "/input_schema")
        return parse_input_schema(body)

    async def start_job(
        self, base_url: str, *, identifier_from_purchaser: str, input_data: dict[str, Any]
    ) -> StartedJob:
        status, body = await self._request(
            "POST",
            f"{base_url}/start_job",
            json_body={
                "identifier_from_purchaser": identifier_from_purchaser,
                "input_data": input_data,
            },
        )
        if status in (400, 422):
            raise AgentRejectedInput(
                _error_text(body, "the agent rejected the input"), status_code=status
            )
        body = _expect_object(status, body, "/start_job")
        job_id = body.get("id") or body.get("job_id")
        if not isinstance(job_id, (str, int)) or str(job_id) == "":
            raise AgentBadResponse("/start_job: the answer carries no job id", status_code=status)
        return StartedJob(
            job_id=str(job_id),
            blockchain_identifier=_opt_str(body.get("blockchainIdentifier")),
            # MIP-003 and the masumi SDK 1.2.0 say input_hash; the SDK's next release (pip-masumi
            # bc7e041, models.StartJobResponse) sends inputHash
            input_hash=_opt_str(body.get("input_hash") or body.get("inputHash")),
            agent_identifier=_opt_str(body.get("agentIdentifier")),
            raw=body,
        )

    async def status(self, base_url: str, job_id: str) -> JobStatus:
        status, body = await self._request("GET", f"{base_url}/status", params={"job_id": job_id})
        if status == 404:
            raise AgentJobNotFound(
                f"/status: the agent does not know job {job_id}", status_code=404
            )
        body = _expect_object(status, body, "/status")
        value = body.get("status")
        if not isinstance(value, str) or not value:
            raise AgentBadResponse("/status: the answer carries no status", status_code=status)
        result = body.get("result")
        if result is not None and not isinstance(result, str):
            result = json.dumps(result)
        schema = body.get("input_schema") or body.get("input_data_schema")
        input_schema: dict[str, Any] | None = None
        if isinstance(schema, dict):
            input_schema = parse_input_schema(schema).as_dict()
        elif isinstance(schema, list):
            input_schema = {"input_data": schema}
        return JobStatus(
            status=value.strip().lower(),
            status_id=_opt_str(body.get("id")),
            result=result,
            input_schema=input_schema,
            message=_opt_str(body.get("message")),
            raw=body,
        )

    async def provide_input(
        self, base_url: str, *, job_id: str, status_id: str | None, input_data: dict[str, Any]
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {"job_id": job_id, "input_data": input_data}
        if status_id is not None:
            payload["status_id"] = status_id
        status, body = await self._request("POST", f"{base_url}/provide_input", json_body=payload)
        if status in (400, 422):
            raise AgentRejectedInput(
                _error_text(body, "the agent rejected the input"), status_code=status
            )
        return _expect_object(status, body, "/provide_input")


def client_for(settings: Settings, *, local: Mapping[str, Any] | None = None) -> Mip003Client:
    """The process's agent client: the configured timeout and ``AGORA_OUTBOUND_ALLOW`` policy."""
    return Mip003Client(
        timeout=settings.dispatch.agent_timeout_seconds,
        policy=OutboundPolicy.from_setting(settings.outbound_allow),
        local=local,
    )


class _NotJson:
    pass


_NOT_JSON = _NotJson()


def _expect_object(status: int, body: Any, endpoint: str) -> dict[str, Any]:
    if status >= 500:
        raise AgentBadResponse(f"{endpoint}: the agent answered {status}", status_code=status)
    if not 200 <= status < 300:
        raise AgentBadResponse(f"{endpoint}: unexpected status {status}", status_code=status)
    if not isinstance(body, dict):
        raise AgentBadResponse(f"{endpoint}: the answer is not a JSON object", status_code=status)
    return body


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _error_text(body: Any, default: str) -> str:
    if isinstance(body, dict):
        for key in ("detail", "message", "error"):
            if body.get(key):
                return str(body[key])[:500]
    return default


def parse_input_schema(body: dict[str, Any]) -> InputSchema:
    data, groups = body.get("input_data"), body.get("input_groups")
    if isinstance(data, list) and groups is None:
        return InputSchema(input_data=[f for f in data if isinstance(f, dict)])
    if isinstance(groups, list) and data is None:
        return InputSchema(input_groups=[g for g in groups if isinstance(g, dict)])
    if isinstance(data, list) and isinstance(groups, list):
        raise AgentBadResponse("/input_schema: both input_data and input_groups are present")
    raise AgentBadResponse("/input_schema: neither input_data nor input_groups is a list")


__all__ = [
    "AgentError",
    "Mip003Client",
    "app_client",
    "client_for",
    "new_identifier_from_purchaser",
    "validate_base_url",
]


def app_client(request: Request) -> Mip003Client:
    """The app's one MIP-003 client (``app.state.agent_client``, built in ``create_app``)."""
    client: Mip003Client = request.app.state.agent_client
    return client
