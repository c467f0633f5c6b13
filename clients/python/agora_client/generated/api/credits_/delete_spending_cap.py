from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    cap_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/credits/caps/{cap_id}".format(
            cap_id=quote(str(cap_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | SimpleError | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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
) -> Response[Any | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    cap_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Any | SimpleError]:
    """Delete Cap

     Remove a cap (owners only).

    Args:
        cap_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | SimpleError]
    """

    kwargs = _get_kwargs(
        cap_id=cap_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    cap_id: str,
    *,
    client: AuthenticatedClient,
) -> Any | SimpleError | None:
    """Delete Cap

     Remove a cap (owners only).

    Args:
        cap_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | SimpleError
    """

    return sync_detailed(
        cap_id=cap_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    cap_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Any | SimpleError]:
    """Delete Cap

     Remove a cap (owners only).

    Args:
        cap_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | SimpleError]
    """

    kwargs = _get_kwargs(
        cap_id=cap_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    cap_id: str,
    *,
    client: AuthenticatedClient,
) -> Any | SimpleError | None:
    """Delete Cap

     Remove a cap (owners only).

    Args:
        cap_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | SimpleError
    """

    return (
        await asyncio_detailed(
            cap_id=cap_id,
            client=client,
        )
    ).parsed
