from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_notification_page import EnvelopeANotificationPage
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    unread: bool | Unset = False,
    kind: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["unread"] = unread

    json_kind: None | str | Unset
    if isinstance(kind, Unset):
        json_kind = UNSET
    else:
        json_kind = kind
    params["kind"] = json_kind

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/notifications",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeANotificationPage | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeANotificationPage.from_dict(response.json())

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
) -> Response[EnvelopeANotificationPage | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    unread: bool | Unset = False,
    kind: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[EnvelopeANotificationPage | SimpleError]:
    """List Notifications

     Your notifications, newest first (cursor-paged), with the unread count.

    Args:
        unread (bool | Unset): Only unread ones. Default: False.
        kind (None | str | Unset): Kinds, comma-separated.
        cursor (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeANotificationPage | SimpleError]
    """

    kwargs = _get_kwargs(
        unread=unread,
        kind=kind,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    unread: bool | Unset = False,
    kind: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> EnvelopeANotificationPage | SimpleError | None:
    """List Notifications

     Your notifications, newest first (cursor-paged), with the unread count.

    Args:
        unread (bool | Unset): Only unread ones. Default: False.
        kind (None | str | Unset): Kinds, comma-separated.
        cursor (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeANotificationPage | SimpleError
    """

    return sync_detailed(
        client=client,
        unread=unread,
        kind=kind,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    unread: bool | Unset = False,
    kind: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[EnvelopeANotificationPage | SimpleError]:
    """List Notifications

     Your notifications, newest first (cursor-paged), with the unread count.

    Args:
        unread (bool | Unset): Only unread ones. Default: False.
        kind (None | str | Unset): Kinds, comma-separated.
        cursor (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeANotificationPage | SimpleError]
    """

    kwargs = _get_kwargs(
        unread=unread,
        kind=kind,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    unread: bool | Unset = False,
    kind: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> EnvelopeANotificationPage | SimpleError | None:
    """List Notifications

     Your notifications, newest first (cursor-paged), with the unread count.

    Args:
        unread (bool | Unset): Only unread ones. Default: False.
        kind (None | str | Unset): Kinds, comma-separated.
        cursor (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeANotificationPage | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
            unread=unread,
            kind=kind,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
