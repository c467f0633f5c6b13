from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_file_out import EnvelopeAFileOut
from ...models.simple_error import SimpleError
from ...models.upload_file_body import UploadFileBody
from ...types import Response


def _get_kwargs(
    *,
    body: UploadFileBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/files",
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeAFileOut | SimpleError | None:
    if response.status_code == 201:
        response_201 = EnvelopeAFileOut.from_dict(response.json())

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

    if response.status_code == 408:
        response_408 = SimpleError.from_dict(response.json())

        return response_408

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
) -> Response[EnvelopeAFileOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: UploadFileBody,
) -> Response[EnvelopeAFileOut | SimpleError]:
    """Upload File

     Upload one file (multipart/form-data, part `file`). It streams to storage, bounded per
    file and by the workspace's quota (413); its type is sniffed from its content and must be
    on the operator's allow-list (415). Use its id where an agent's schema says `file`.

    Args:
        body (UploadFileBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAFileOut | SimpleError]
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
    body: UploadFileBody,
) -> EnvelopeAFileOut | SimpleError | None:
    """Upload File

     Upload one file (multipart/form-data, part `file`). It streams to storage, bounded per
    file and by the workspace's quota (413); its type is sniffed from its content and must be
    on the operator's allow-list (415). Use its id where an agent's schema says `file`.

    Args:
        body (UploadFileBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAFileOut | SimpleError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: UploadFileBody,
) -> Response[EnvelopeAFileOut | SimpleError]:
    """Upload File

     Upload one file (multipart/form-data, part `file`). It streams to storage, bounded per
    file and by the workspace's quota (413); its type is sniffed from its content and must be
    on the operator's allow-list (415). Use its id where an agent's schema says `file`.

    Args:
        body (UploadFileBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAFileOut | SimpleError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: UploadFileBody,
) -> EnvelopeAFileOut | SimpleError | None:
    """Upload File

     Upload one file (multipart/form-data, part `file`). It streams to storage, bounded per
    file and by the workspace's quota (413); its type is sniffed from its content and must be
    on the operator's allow-list (415). Use its id where an agent's schema says `file`.

    Args:
        body (UploadFileBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAFileOut | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
