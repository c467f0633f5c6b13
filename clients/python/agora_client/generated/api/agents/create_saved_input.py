from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.envelope_a_saved_input_out import EnvelopeASavedInputOut
from ...models.saved_input_create import SavedInputCreate
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    agent_id: str,
    *,
    body: SavedInputCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/agents/{agent_id}/saved-inputs".format(
            agent_id=quote(str(agent_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | EnvelopeASavedInputOut | SimpleError | None:
    if response.status_code == 201:
        response_201 = EnvelopeASavedInputOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = SimpleError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = SimpleError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = SimpleError.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = SimpleError.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ConflictError.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = SimpleError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = SimpleError.from_dict(response.json())

        return response_415

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ConflictError | EnvelopeASavedInputOut | SimpleError]:
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
    body: SavedInputCreate,
) -> Response[ConflictError | EnvelopeASavedInputOut | SimpleError]:
    """Create Saved Input

     Save a named input for the agent (checked as the hire form checks it), pinned to a
    version or following the latest compatible one. Use it from the hire form, a schedule
    (`savedInputId`) or MCP's `create_job`.

    Args:
        agent_id (str):
        body (SavedInputCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | EnvelopeASavedInputOut | SimpleError]
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
    body: SavedInputCreate,
) -> ConflictError | EnvelopeASavedInputOut | SimpleError | None:
    """Create Saved Input

     Save a named input for the agent (checked as the hire form checks it), pinned to a
    version or following the latest compatible one. Use it from the hire form, a schedule
    (`savedInputId`) or MCP's `create_job`.

    Args:
        agent_id (str):
        body (SavedInputCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | EnvelopeASavedInputOut | SimpleError
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
    body: SavedInputCreate,
) -> Response[ConflictError | EnvelopeASavedInputOut | SimpleError]:
    """Create Saved Input

     Save a named input for the agent (checked as the hire form checks it), pinned to a
    version or following the latest compatible one. Use it from the hire form, a schedule
    (`savedInputId`) or MCP's `create_job`.

    Args:
        agent_id (str):
        body (SavedInputCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | EnvelopeASavedInputOut | SimpleError]
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
    body: SavedInputCreate,
) -> ConflictError | EnvelopeASavedInputOut | SimpleError | None:
    """Create Saved Input

     Save a named input for the agent (checked as the hire form checks it), pinned to a
    version or following the latest compatible one. Use it from the hire form, a schedule
    (`savedInputId`) or MCP's `create_job`.

    Args:
        agent_id (str):
        body (SavedInputCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | EnvelopeASavedInputOut | SimpleError
    """

    return (
        await asyncio_detailed(
            agent_id=agent_id,
            client=client,
            body=body,
        )
    ).parsed
