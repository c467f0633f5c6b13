from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_saved_input_out import EnvelopeASavedInputOut
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    agent_id: str,
    saved_input_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/agents/{agent_id}/saved-inputs/{saved_input_id}".format(
            agent_id=quote(str(agent_id), safe=""),
            saved_input_id=quote(str(saved_input_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeASavedInputOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeASavedInputOut.from_dict(response.json())

        return response_200

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

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EnvelopeASavedInputOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    agent_id: str,
    saved_input_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[EnvelopeASavedInputOut | SimpleError]:
    """Delete Saved Input

     Delete one of your saved inputs (schedules made from it keep their own copy).

    Args:
        agent_id (str):
        saved_input_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeASavedInputOut | SimpleError]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        saved_input_id=saved_input_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    agent_id: str,
    saved_input_id: str,
    *,
    client: AuthenticatedClient,
) -> EnvelopeASavedInputOut | SimpleError | None:
    """Delete Saved Input

     Delete one of your saved inputs (schedules made from it keep their own copy).

    Args:
        agent_id (str):
        saved_input_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeASavedInputOut | SimpleError
    """

    return sync_detailed(
        agent_id=agent_id,
        saved_input_id=saved_input_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    agent_id: str,
    saved_input_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[EnvelopeASavedInputOut | SimpleError]:
    """Delete Saved Input

     Delete one of your saved inputs (schedules made from it keep their own copy).

    Args:
        agent_id (str):
        saved_input_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeASavedInputOut | SimpleError]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        saved_input_id=saved_input_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    agent_id: str,
    saved_input_id: str,
    *,
    client: AuthenticatedClient,
) -> EnvelopeASavedInputOut | SimpleError | None:
    """Delete Saved Input

     Delete one of your saved inputs (schedules made from it keep their own copy).

    Args:
        agent_id (str):
        saved_input_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeASavedInputOut | SimpleError
    """

    return (
        await asyncio_detailed(
            agent_id=agent_id,
            saved_input_id=saved_input_id,
            client=client,
        )
    ).parsed
