from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.agent_update import AgentUpdate
from ...models.conflict_error import ConflictError
from ...models.detailed_error import DetailedError
from ...models.envelope_b_developer_agent_out import EnvelopeBDeveloperAgentOut
from ...types import Response


def _get_kwargs(
    agent_id: str,
    *,
    body: AgentUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/developer/agents/{agent_id}".format(
            agent_id=quote(str(agent_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | DetailedError | EnvelopeBDeveloperAgentOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBDeveloperAgentOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = DetailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = DetailedError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = DetailedError.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = DetailedError.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ConflictError.from_dict(response.json())

        return response_409

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
) -> Response[ConflictError | DetailedError | EnvelopeBDeveloperAgentOut]:
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
    body: AgentUpdate,
) -> Response[ConflictError | DetailedError | EnvelopeBDeveloperAgentOut]:
    """Update Agent

     Edit your agent. A new baseUrl (checked live) or price sends a verified agent back to
    review; text edits do not.

    Args:
        agent_id (str):
        body (AgentUpdate): PATCH: only the fields sent change. A new baseUrl or price of a
            verified agent sends it
            back to review; text edits do not.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBDeveloperAgentOut]
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
    body: AgentUpdate,
) -> ConflictError | DetailedError | EnvelopeBDeveloperAgentOut | None:
    """Update Agent

     Edit your agent. A new baseUrl (checked live) or price sends a verified agent back to
    review; text edits do not.

    Args:
        agent_id (str):
        body (AgentUpdate): PATCH: only the fields sent change. A new baseUrl or price of a
            verified agent sends it
            back to review; text edits do not.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBDeveloperAgentOut
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
    body: AgentUpdate,
) -> Response[ConflictError | DetailedError | EnvelopeBDeveloperAgentOut]:
    """Update Agent

     Edit your agent. A new baseUrl (checked live) or price sends a verified agent back to
    review; text edits do not.

    Args:
        agent_id (str):
        body (AgentUpdate): PATCH: only the fields sent change. A new baseUrl or price of a
            verified agent sends it
            back to review; text edits do not.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBDeveloperAgentOut]
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
    body: AgentUpdate,
) -> ConflictError | DetailedError | EnvelopeBDeveloperAgentOut | None:
    """Update Agent

     Edit your agent. A new baseUrl (checked live) or price sends a verified agent back to
    review; text edits do not.

    Args:
        agent_id (str):
        body (AgentUpdate): PATCH: only the fields sent change. A new baseUrl or price of a
            verified agent sends it
            back to review; text edits do not.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBDeveloperAgentOut
    """

    return (
        await asyncio_detailed(
            agent_id=agent_id,
            client=client,
            body=body,
        )
    ).parsed
