"""Signing in with the OAuth device flow (RFC 8628; docs/accounts.md, "Device flow"): the
program shows a code, the person enters it at ``verification_uri`` in a signed-in browser and
allows it; the program's polls of ``/oauth/token`` turn into tokens, refreshed on their own."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from agora_client._http import Tokens
from agora_client.client import AsyncClient, Client
from agora_client.errors import DeviceFlowError, error_from

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
DEFAULT_SCOPE = "read jobs:write"


@dataclass(frozen=True)
class DeviceCode:
    """What to show the person: go to ``verification_uri`` and enter ``user_code`` (or open
    ``verification_uri_complete``, which carries it)."""

    user_code: str
    verification_uri: str
    verification_uri_complete: str | None
    expires_in: int
    interval: int
    device_code: str
    client_id: str


def _registration(name: str) -> dict[str, Any]:
    return {
        "client_name": name,
        "token_endpoint_auth_method": "none",
        "grant_types": [DEVICE_GRANT, "refresh_token"],
    }


def _checked(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        raise error_from(response.status_code, response.headers, response.content)
    return response.json()


def _code(body: dict[str, Any], client_id: str) -> DeviceCode:
    return DeviceCode(
        user_code=body["user_code"],
        verification_uri=body["verification_uri"],
        verification_uri_complete=body.get("verification_uri_complete"),
        expires_in=int(body.get("expires_in", 600)),
        interval=int(body.get("interval", 5)),
        device_code=body["device_code"],
        client_id=client_id,
    )


def _poll_form(code: DeviceCode) -> dict[str, str]:
    return {
        "grant_type": DEVICE_GRANT,
        "device_code": code.device_code,
        "client_id": code.client_id,
    }


def _outcome(response: httpx.Response, base: str, code: DeviceCode) -> Tokens | int | None:
    """Tokens; or the seconds to add to the interval (0: pending, 5: slow_down); else raise."""
    if response.status_code == 200:
        body = response.json()
        return Tokens(
            body["access_token"], body.get("refresh_token"), code.client_id, f"{base}/oauth/token"
        )
    error = error_from(response.status_code, response.headers, response.content)
    if error.error == "authorization_pending":
        return 0
    if error.error == "slow_down":
        return 5
    raise DeviceFlowError(error.status, error.error, error.message, body=error.body)


def sign_in_with_device(
    base_url: str,
    on_code: Callable[[DeviceCode], None],
    *,
    client_id: str | None = None,
    client_name: str = "agora-client",
    scope: str = DEFAULT_SCOPE,
    timeout: float = 600.0,
    **client_options: Any,
) -> Client:
    """A :class:`Client` signed in by the device flow. Without ``client_id`` the program
    registers itself (``POST /oauth/register``). ``on_code`` is called once, with what to show."""
    base = base_url.rstrip("/")
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=base, timeout=30.0) as http:
        if client_id is None:
            client_id = _checked(http.post("/oauth/register", json=_registration(client_name)))[
                "client_id"
            ]
        started = _checked(
            http.post("/oauth/device_authorization", data={"client_id": client_id, "scope": scope})
        )
        code = _code(started, client_id)
        on_code(code)
        interval = code.interval
        while time.monotonic() < deadline:
            outcome = _outcome(http.post("/oauth/token", data=_poll_form(code)), base, code)
            if isinstance(outcome, Tokens):
                return Client(base, tokens=outcome, **client_options)
            interval += outcome or 0
            time.sleep(min(interval, max(0.0, deadline - time.monotonic())))
    raise DeviceFlowError(0, "expired_token", "the device sign-in was not allowed in time")


async def async_sign_in_with_device(
    base_url: str,
    on_code: Callable[[DeviceCode], Awaitable[None] | None],
    *,
    client_id: str | None = None,
    client_name: str = "agora-client",
    scope: str = DEFAULT_SCOPE,
    timeout: float = 600.0,
    **client_options: Any,
) -> AsyncClient:
    """:func:`sign_in_with_device`, with ``asyncio``: an :class:`AsyncClient`."""
    base = base_url.rstrip("/")
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base, timeout=30.0) as http:
        if client_id is None:
            registered = await http.post("/oauth/register", json=_registration(client_name))
            client_id = _checked(registered)["client_id"]
        started = await http.post(
            "/oauth/device_authorization", data={"client_id": client_id, "scope": scope}
        )
        code = _code(_checked(started), client_id)
        shown = on_code(code)
        if shown is not None:
            await shown
        interval = code.interval
        while time.monotonic() < deadline:
            outcome = _outcome(await http.post("/oauth/token", data=_poll_form(code)), base, code)
            if isinstance(outcome, Tokens):
                return AsyncClient(base, tokens=outcome, **client_options)
            interval += outcome or 0
            await asyncio.sleep(min(interval, max(0.0, deadline - time.monotonic())))
    raise DeviceFlowError(0, "expired_token", "the device sign-in was not allowed in time")
