from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.envelope_a_message_out import EnvelopeAMessageOut
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    passkey_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/auth/passkeys/{passkey_id}".format(
            passkey_id=quote(str(passkey_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | EnvelopeAMessageOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeAMessageOut.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = ConflictError.from_dict(response.json())

        return response_409

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ConflictError | EnvelopeAMessageOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    passkey_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[ConflictError | EnvelopeAMessageOut | SimpleError]:
    """Remove Passkey

     Remove one of your passkeys: it signs in no more. Your last one while the second step is
    on → 409.

    Args:
        passkey_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | EnvelopeAMessageOut | SimpleError]
    """

    kwargs = _get_kwargs(
        passkey_id=passkey_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    passkey_id: str,
    *,
    client: AuthenticatedClient,
) -> ConflictError | EnvelopeAMessageOut | SimpleError | None:
    """Remove Passkey

     Remove one of your passkeys: it signs in no more. Your last one while the second step is
    on → 409.

    Args:
        passkey_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | EnvelopeAMessageOut | SimpleError
    """

    return sync_detailed(
        passkey_id=passkey_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    passkey_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[ConflictError | EnvelopeAMessageOut | SimpleError]:
    """Remove Passkey

     Remove one of your passkeys: it signs in no more. Your last one while the second step is
    on → 409.

    Args:
        passkey_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | EnvelopeAMessageOut | SimpleError]
    """

    kwargs = _get_kwargs(
        passkey_id=passkey_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    passkey_id: str,
    *,
    client: AuthenticatedClient,
) -> ConflictError | EnvelopeAMessageOut | SimpleError | None:
    """Remove Passkey

     Remove one of your passkeys: it signs in no more. Your last one while the second step is
    on → 409.

    Args:
        passkey_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | EnvelopeAMessageOut | SimpleError
    """

    return (
        await asyncio_detailed(
            passkey_id=passkey_id,
            client=client,
        )
    ).parsed
