from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_pack_out import EnvelopeAPackOut
from ...models.pack_update import PackUpdate
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    pack_id: str,
    *,
    body: PackUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/admin/credit-packs/{pack_id}".format(
            pack_id=quote(str(pack_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeAPackOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeAPackOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = SimpleError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = SimpleError.from_dict(response.json())

        return response_401

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
) -> Response[EnvelopeAPackOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    pack_id: str,
    *,
    client: AuthenticatedClient,
    body: PackUpdate,
) -> Response[EnvelopeAPackOut | SimpleError]:
    """Admin Update Pack

     Rename a pack, or take it off sale (`active: false`) and back.

    Args:
        pack_id (str):
        body (PackUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAPackOut | SimpleError]
    """

    kwargs = _get_kwargs(
        pack_id=pack_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    pack_id: str,
    *,
    client: AuthenticatedClient,
    body: PackUpdate,
) -> EnvelopeAPackOut | SimpleError | None:
    """Admin Update Pack

     Rename a pack, or take it off sale (`active: false`) and back.

    Args:
        pack_id (str):
        body (PackUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAPackOut | SimpleError
    """

    return sync_detailed(
        pack_id=pack_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    pack_id: str,
    *,
    client: AuthenticatedClient,
    body: PackUpdate,
) -> Response[EnvelopeAPackOut | SimpleError]:
    """Admin Update Pack

     Rename a pack, or take it off sale (`active: false`) and back.

    Args:
        pack_id (str):
        body (PackUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAPackOut | SimpleError]
    """

    kwargs = _get_kwargs(
        pack_id=pack_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    pack_id: str,
    *,
    client: AuthenticatedClient,
    body: PackUpdate,
) -> EnvelopeAPackOut | SimpleError | None:
    """Admin Update Pack

     Rename a pack, or take it off sale (`active: false`) and back.

    Args:
        pack_id (str):
        body (PackUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAPackOut | SimpleError
    """

    return (
        await asyncio_detailed(
            pack_id=pack_id,
            client=client,
            body=body,
        )
    ).parsed
