from http import HTTPStatus
from io import BytesIO
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.simple_error import SimpleError
from ...types import UNSET, File, Response


def _get_kwargs(
    file_id: str,
    *,
    expires: int,
    signature: str,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["expires"] = expires

    params["signature"] = signature

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/files/{file_id}/signed".format(
            file_id=quote(str(file_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> File | SimpleError | None:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

        return response_200

    if response.status_code == 400:
        response_400 = SimpleError.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = SimpleError.from_dict(response.json())

        return response_404

    if response.status_code == 416:
        response_416 = SimpleError.from_dict(response.json())

        return response_416

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[File | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    file_id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    signature: str,
) -> Response[File | SimpleError]:
    """Download Signed File

     The file a signed, expiring URL names (what agents receive for a `file` input; the web
    app's previews). A wrong or expired signature answers 404.

    Args:
        file_id (str):
        expires (int):
        signature (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | SimpleError]
    """

    kwargs = _get_kwargs(
        file_id=file_id,
        expires=expires,
        signature=signature,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    file_id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    signature: str,
) -> File | SimpleError | None:
    """Download Signed File

     The file a signed, expiring URL names (what agents receive for a `file` input; the web
    app's previews). A wrong or expired signature answers 404.

    Args:
        file_id (str):
        expires (int):
        signature (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | SimpleError
    """

    return sync_detailed(
        file_id=file_id,
        client=client,
        expires=expires,
        signature=signature,
    ).parsed


async def asyncio_detailed(
    file_id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    signature: str,
) -> Response[File | SimpleError]:
    """Download Signed File

     The file a signed, expiring URL names (what agents receive for a `file` input; the web
    app's previews). A wrong or expired signature answers 404.

    Args:
        file_id (str):
        expires (int):
        signature (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | SimpleError]
    """

    kwargs = _get_kwargs(
        file_id=file_id,
        expires=expires,
        signature=signature,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    file_id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    signature: str,
) -> File | SimpleError | None:
    """Download Signed File

     The file a signed, expiring URL names (what agents receive for a `file` input; the web
    app's previews). A wrong or expired signature answers 404.

    Args:
        file_id (str):
        expires (int):
        signature (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | SimpleError
    """

    return (
        await asyncio_detailed(
            file_id=file_id,
            client=client,
            expires=expires,
            signature=signature,
        )
    ).parsed
