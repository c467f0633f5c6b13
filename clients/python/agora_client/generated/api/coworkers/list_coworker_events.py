from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_blist_task_event_out import EnvelopeBlistTaskEventOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/coworkers/me/events",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBlistTaskEventOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBlistTaskEventOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = DetailedError.from_dict(response.json())

        return response_400

    if response.status_code == 500:
        response_500 = DetailedError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DetailedError | EnvelopeBlistTaskEventOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
) -> Response[DetailedError | EnvelopeBlistTaskEventOut]:
    """My Events

     Events of the tasks assigned to this coworker (not its own), oldest first. Poll with
    `cursor` = the previous `nextCursor` (it stays valid when there is nothing new).

    Args:
        limit (int | None | Unset): Page size (default 20).
        cursor (None | str | Unset): `nextCursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistTaskEventOut]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
) -> DetailedError | EnvelopeBlistTaskEventOut | None:
    """My Events

     Events of the tasks assigned to this coworker (not its own), oldest first. Poll with
    `cursor` = the previous `nextCursor` (it stays valid when there is nothing new).

    Args:
        limit (int | None | Unset): Page size (default 20).
        cursor (None | str | Unset): `nextCursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistTaskEventOut
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
) -> Response[DetailedError | EnvelopeBlistTaskEventOut]:
    """My Events

     Events of the tasks assigned to this coworker (not its own), oldest first. Poll with
    `cursor` = the previous `nextCursor` (it stays valid when there is nothing new).

    Args:
        limit (int | None | Unset): Page size (default 20).
        cursor (None | str | Unset): `nextCursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistTaskEventOut]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
) -> DetailedError | EnvelopeBlistTaskEventOut | None:
    """My Events

     Events of the tasks assigned to this coworker (not its own), oldest first. Poll with
    `cursor` = the previous `nextCursor` (it stays valid when there is nothing new).

    Args:
        limit (int | None | Unset): Page size (default 20).
        cursor (None | str | Unset): `nextCursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistTaskEventOut
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
