from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_blist_coworker_out import EnvelopeBlistCoworkerOut
from ...models.list_coworkers_capability_type_0_item import (
    ListCoworkersCapabilityType0Item,
)
from ...models.list_coworkers_scope import ListCoworkersScope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    scope: ListCoworkersScope | Unset = "whitelisted",
    capability: list[ListCoworkersCapabilityType0Item] | None | Unset = UNSET,
    q: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_scope: str | Unset = UNSET
    if not isinstance(scope, Unset):
        json_scope = scope

    params["scope"] = json_scope

    json_capability: list[str] | None | Unset
    if isinstance(capability, Unset):
        json_capability = UNSET
    elif isinstance(capability, list):
        json_capability = []
        for capability_type_0_item_data in capability:
            capability_type_0_item: str = capability_type_0_item_data
            json_capability.append(capability_type_0_item)

    else:
        json_capability = capability
    params["capability"] = json_capability

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

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
        "url": "/v1/coworkers",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBlistCoworkerOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBlistCoworkerOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = DetailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = DetailedError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = DetailedError.from_dict(response.json())

        return response_403

    if response.status_code == 500:
        response_500 = DetailedError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DetailedError | EnvelopeBlistCoworkerOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    scope: ListCoworkersScope | Unset = "whitelisted",
    capability: list[ListCoworkersCapabilityType0Item] | None | Unset = UNSET,
    q: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
) -> Response[DetailedError | EnvelopeBlistCoworkerOut]:
    """List Coworkers

     Coworkers, oldest first; any of the given capabilities.

    Args:
        scope (ListCoworkersScope | Unset): whitelisted (default), all (also your own), archived
            Default: 'whitelisted'.
        capability (list[ListCoworkersCapabilityType0Item] | None | Unset): chat and/or tasks
            (repeat the parameter)
        q (None | str | Unset): Name contains
        limit (int | None | Unset): Page size (default 20).
        cursor (None | str | Unset): `nextCursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistCoworkerOut]
    """

    kwargs = _get_kwargs(
        scope=scope,
        capability=capability,
        q=q,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    scope: ListCoworkersScope | Unset = "whitelisted",
    capability: list[ListCoworkersCapabilityType0Item] | None | Unset = UNSET,
    q: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
) -> DetailedError | EnvelopeBlistCoworkerOut | None:
    """List Coworkers

     Coworkers, oldest first; any of the given capabilities.

    Args:
        scope (ListCoworkersScope | Unset): whitelisted (default), all (also your own), archived
            Default: 'whitelisted'.
        capability (list[ListCoworkersCapabilityType0Item] | None | Unset): chat and/or tasks
            (repeat the parameter)
        q (None | str | Unset): Name contains
        limit (int | None | Unset): Page size (default 20).
        cursor (None | str | Unset): `nextCursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistCoworkerOut
    """

    return sync_detailed(
        client=client,
        scope=scope,
        capability=capability,
        q=q,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    scope: ListCoworkersScope | Unset = "whitelisted",
    capability: list[ListCoworkersCapabilityType0Item] | None | Unset = UNSET,
    q: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
) -> Response[DetailedError | EnvelopeBlistCoworkerOut]:
    """List Coworkers

     Coworkers, oldest first; any of the given capabilities.

    Args:
        scope (ListCoworkersScope | Unset): whitelisted (default), all (also your own), archived
            Default: 'whitelisted'.
        capability (list[ListCoworkersCapabilityType0Item] | None | Unset): chat and/or tasks
            (repeat the parameter)
        q (None | str | Unset): Name contains
        limit (int | None | Unset): Page size (default 20).
        cursor (None | str | Unset): `nextCursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistCoworkerOut]
    """

    kwargs = _get_kwargs(
        scope=scope,
        capability=capability,
        q=q,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    scope: ListCoworkersScope | Unset = "whitelisted",
    capability: list[ListCoworkersCapabilityType0Item] | None | Unset = UNSET,
    q: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
) -> DetailedError | EnvelopeBlistCoworkerOut | None:
    """List Coworkers

     Coworkers, oldest first; any of the given capabilities.

    Args:
        scope (ListCoworkersScope | Unset): whitelisted (default), all (also your own), archived
            Default: 'whitelisted'.
        capability (list[ListCoworkersCapabilityType0Item] | None | Unset): chat and/or tasks
            (repeat the parameter)
        q (None | str | Unset): Name contains
        limit (int | None | Unset): Page size (default 20).
        cursor (None | str | Unset): `nextCursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistCoworkerOut
    """

    return (
        await asyncio_detailed(
            client=client,
            scope=scope,
            capability=capability,
            q=q,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
