from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_override import AdminOverride
from ...models.detailed_error import DetailedError
from ...models.envelope_b_admin_agent_out import EnvelopeBAdminAgentOut
from ...types import Response


def _get_kwargs(
    agent_id: str,
    *,
    body: AdminOverride,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/admin/agents/{agent_id}/override".format(
            agent_id=quote(str(agent_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBAdminAgentOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBAdminAgentOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = DetailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = DetailedError.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = DetailedError.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = DetailedError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = DetailedError.from_dict(response.json())

        return response_415

    if response.status_code == 500:
        response_500 = DetailedError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DetailedError | EnvelopeBAdminAgentOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: AdminOverride,
) -> Response[DetailedError | EnvelopeBAdminAgentOut]:
    """Override Agent

     Override the published name, description, tags, image or visibility (`null` clears an
    override). Overrides survive developer edits, re-probes and registry re-imports.

    Args:
        agent_id (str):
        body (AdminOverride): Fields an admin fixes on the published listing. ``null`` removes
            that override.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBAdminAgentOut]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: AdminOverride,
) -> DetailedError | EnvelopeBAdminAgentOut | None:
    """Override Agent

     Override the published name, description, tags, image or visibility (`null` clears an
    override). Overrides survive developer edits, re-probes and registry re-imports.

    Args:
        agent_id (str):
        body (AdminOverride): Fields an admin fixes on the published listing. ``null`` removes
            that override.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBAdminAgentOut
    """

    return sync_detailed(
        agent_id=agent_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: AdminOverride,
) -> Response[DetailedError | EnvelopeBAdminAgentOut]:
    """Override Agent

     Override the published name, description, tags, image or visibility (`null` clears an
    override). Overrides survive developer edits, re-probes and registry re-imports.

    Args:
        agent_id (str):
        body (AdminOverride): Fields an admin fixes on the published listing. ``null`` removes
            that override.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBAdminAgentOut]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: AdminOverride,
) -> DetailedError | EnvelopeBAdminAgentOut | None:
    """Override Agent

     Override the published name, description, tags, image or visibility (`null` clears an
    override). Overrides survive developer edits, re-probes and registry re-imports.

    Args:
        agent_id (str):
        body (AdminOverride): Fields an admin fixes on the published listing. ``null`` removes
            that override.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBAdminAgentOut
    """

    return (
        await asyncio_detailed(
            agent_id=agent_id,
            client=client,
            body=body,
        )
    ).parsed
