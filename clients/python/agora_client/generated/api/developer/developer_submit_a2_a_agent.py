from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.a2a_agent_submission import A2AAgentSubmission
from ...models.conflict_error import ConflictError
from ...models.detailed_error import DetailedError
from ...models.envelope_b_developer_agent_out import EnvelopeBDeveloperAgentOut
from ...types import Response


def _get_kwargs(
    *,
    body: A2AAgentSubmission,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/developer/agents/a2a",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | DetailedError | EnvelopeBDeveloperAgentOut | None:
    if response.status_code == 201:
        response_201 = EnvelopeBDeveloperAgentOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = DetailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = DetailedError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = DetailedError.from_dict(response.json())

        return response_403

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
    *,
    client: AuthenticatedClient,
    body: A2AAgentSubmission,
) -> Response[ConflictError | DetailedError | EnvelopeBDeveloperAgentOut]:
    """Submit A2A Agent

     Submit an A2A agent by its Agent Card URL (docs/a2a.md): the card is read and checked
    live; the agent enters PENDING, not listed, until an admin approves it.

    Args:
        body (A2AAgentSubmission): An A2A agent submitted by its Agent Card (docs/a2a.md): name
            and description default to
            the card's; ``credential`` (optional) is what Agora sends the agent (an API key in the
            card's API-key header, else a bearer token), sealed at rest and never shown.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBDeveloperAgentOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: A2AAgentSubmission,
) -> ConflictError | DetailedError | EnvelopeBDeveloperAgentOut | None:
    """Submit A2A Agent

     Submit an A2A agent by its Agent Card URL (docs/a2a.md): the card is read and checked
    live; the agent enters PENDING, not listed, until an admin approves it.

    Args:
        body (A2AAgentSubmission): An A2A agent submitted by its Agent Card (docs/a2a.md): name
            and description default to
            the card's; ``credential`` (optional) is what Agora sends the agent (an API key in the
            card's API-key header, else a bearer token), sealed at rest and never shown.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBDeveloperAgentOut
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: A2AAgentSubmission,
) -> Response[ConflictError | DetailedError | EnvelopeBDeveloperAgentOut]:
    """Submit A2A Agent

     Submit an A2A agent by its Agent Card URL (docs/a2a.md): the card is read and checked
    live; the agent enters PENDING, not listed, until an admin approves it.

    Args:
        body (A2AAgentSubmission): An A2A agent submitted by its Agent Card (docs/a2a.md): name
            and description default to
            the card's; ``credential`` (optional) is what Agora sends the agent (an API key in the
            card's API-key header, else a bearer token), sealed at rest and never shown.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBDeveloperAgentOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: A2AAgentSubmission,
) -> ConflictError | DetailedError | EnvelopeBDeveloperAgentOut | None:
    """Submit A2A Agent

     Submit an A2A agent by its Agent Card URL (docs/a2a.md): the card is read and checked
    live; the agent enters PENDING, not listed, until an admin approves it.

    Args:
        body (A2AAgentSubmission): An A2A agent submitted by its Agent Card (docs/a2a.md): name
            and description default to
            the card's; ``credential`` (optional) is what Agora sends the agent (an API key in the
            card's API-key header, else a bearer token), sealed at rest and never shown.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBDeveloperAgentOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
