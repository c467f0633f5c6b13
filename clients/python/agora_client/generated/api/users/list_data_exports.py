from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_alist_data_export_out import EnvelopeAlistDataExportOut
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/me/data-exports",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeAlistDataExportOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeAlistDataExportOut.from_dict(response.json())

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

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EnvelopeAlistDataExportOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[EnvelopeAlistDataExportOut | SimpleError]:
    """List Data Exports

     Your latest data exports, newest first.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAlistDataExportOut | SimpleError]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> EnvelopeAlistDataExportOut | SimpleError | None:
    """List Data Exports

     Your latest data exports, newest first.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAlistDataExportOut | SimpleError
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[EnvelopeAlistDataExportOut | SimpleError]:
    """List Data Exports

     Your latest data exports, newest first.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAlistDataExportOut | SimpleError]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> EnvelopeAlistDataExportOut | SimpleError | None:
    """List Data Exports

     Your latest data exports, newest first.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAlistDataExportOut | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
