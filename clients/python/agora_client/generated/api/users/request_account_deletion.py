from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.envelope_a_account_deletion_out import EnvelopeAAccountDeletionOut
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/users/me/deletion",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | EnvelopeAAccountDeletionOut | SimpleError | None:
    if response.status_code == 202:
        response_202 = EnvelopeAAccountDeletionOut.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = SimpleError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = SimpleError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = SimpleError.from_dict(response.json())

        return response_403

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
) -> Response[ConflictError | EnvelopeAAccountDeletionOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[ConflictError | EnvelopeAAccountDeletionOut | SimpleError]:
    """Request Account Deletion

     Ask to delete your account: a mail asks you to confirm. 409 while you are the only
    owner of an organization (make another member an owner first).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | EnvelopeAAccountDeletionOut | SimpleError]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> ConflictError | EnvelopeAAccountDeletionOut | SimpleError | None:
    """Request Account Deletion

     Ask to delete your account: a mail asks you to confirm. 409 while you are the only
    owner of an organization (make another member an owner first).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | EnvelopeAAccountDeletionOut | SimpleError
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[ConflictError | EnvelopeAAccountDeletionOut | SimpleError]:
    """Request Account Deletion

     Ask to delete your account: a mail asks you to confirm. 409 while you are the only
    owner of an organization (make another member an owner first).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | EnvelopeAAccountDeletionOut | SimpleError]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> ConflictError | EnvelopeAAccountDeletionOut | SimpleError | None:
    """Request Account Deletion

     Ask to delete your account: a mail asks you to confirm. 409 while you are the only
    owner of an organization (make another member an owner first).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | EnvelopeAAccountDeletionOut | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
