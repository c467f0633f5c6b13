from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_passkey_out import EnvelopeAPasskeyOut
from ...models.passkey_name_in import PasskeyNameIn
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    passkey_id: str,
    *,
    body: PasskeyNameIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/auth/passkeys/{passkey_id}".format(
            passkey_id=quote(str(passkey_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeAPasskeyOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeAPasskeyOut.from_dict(response.json())

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
) -> Response[EnvelopeAPasskeyOut | SimpleError]:
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
    body: PasskeyNameIn,
) -> Response[EnvelopeAPasskeyOut | SimpleError]:
    """Rename Passkey

     Rename one of your passkeys.

    Args:
        passkey_id (str):
        body (PasskeyNameIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAPasskeyOut | SimpleError]
    """

    kwargs = _get_kwargs(
        passkey_id=passkey_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    passkey_id: str,
    *,
    client: AuthenticatedClient,
    body: PasskeyNameIn,
) -> EnvelopeAPasskeyOut | SimpleError | None:
    """Rename Passkey

     Rename one of your passkeys.

    Args:
        passkey_id (str):
        body (PasskeyNameIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAPasskeyOut | SimpleError
    """

    return sync_detailed(
        passkey_id=passkey_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    passkey_id: str,
    *,
    client: AuthenticatedClient,
    body: PasskeyNameIn,
) -> Response[EnvelopeAPasskeyOut | SimpleError]:
    """Rename Passkey

     Rename one of your passkeys.

    Args:
        passkey_id (str):
        body (PasskeyNameIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAPasskeyOut | SimpleError]
    """

    kwargs = _get_kwargs(
        passkey_id=passkey_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    passkey_id: str,
    *,
    client: AuthenticatedClient,
    body: PasskeyNameIn,
) -> EnvelopeAPasskeyOut | SimpleError | None:
    """Rename Passkey

     Rename one of your passkeys.

    Args:
        passkey_id (str):
        body (PasskeyNameIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAPasskeyOut | SimpleError
    """

    return (
        await asyncio_detailed(
            passkey_id=passkey_id,
            client=client,
            body=body,
        )
    ).parsed
