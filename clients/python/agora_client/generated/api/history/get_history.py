from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.history_page import HistoryPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    scope: str | Unset = "owned",
    types: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    project_id: None | str | Unset = UNSET,
    q: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params["limit"] = limit

    params["scope"] = scope

    json_types: None | str | Unset
    if isinstance(types, Unset):
        json_types = UNSET
    else:
        json_types = types
    params["types"] = json_types

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    else:
        json_status = status
    params["status"] = json_status

    json_project_id: None | str | Unset
    if isinstance(project_id, Unset):
        json_project_id = UNSET
    else:
        json_project_id = project_id
    params["projectId"] = json_project_id

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/history",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | HistoryPage | None:
    if response.status_code == 200:
        response_200 = HistoryPage.from_dict(response.json())

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
) -> Response[DetailedError | HistoryPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    scope: str | Unset = "owned",
    types: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    project_id: None | str | Unset = UNSET,
    q: None | str | Unset = UNSET,
) -> Response[DetailedError | HistoryPage]:
    """Get History

     One time-ordered page across tasks, jobs and conversations (newest change first).

    Args:
        cursor (None | str | Unset): Opaque cursor from the previous page
        limit (int | Unset): Items per page (1 to 100) Default: 20.
        scope (str | Unset): owned (items you created) or workspace (conversations stay yours)
            Default: 'owned'.
        types (None | str | Unset): Comma-separated: task, job, conversation
        status (None | str | Unset): Comma-separated task/job statuses and/or conversation states
            (active, archived); conversations appear only when a state is named
        project_id (None | str | Unset): A project id, or 'null' for unassigned
        q (None | str | Unset): Case-insensitive search in title/description

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | HistoryPage]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        scope=scope,
        types=types,
        status=status,
        project_id=project_id,
        q=q,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    scope: str | Unset = "owned",
    types: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    project_id: None | str | Unset = UNSET,
    q: None | str | Unset = UNSET,
) -> DetailedError | HistoryPage | None:
    """Get History

     One time-ordered page across tasks, jobs and conversations (newest change first).

    Args:
        cursor (None | str | Unset): Opaque cursor from the previous page
        limit (int | Unset): Items per page (1 to 100) Default: 20.
        scope (str | Unset): owned (items you created) or workspace (conversations stay yours)
            Default: 'owned'.
        types (None | str | Unset): Comma-separated: task, job, conversation
        status (None | str | Unset): Comma-separated task/job statuses and/or conversation states
            (active, archived); conversations appear only when a state is named
        project_id (None | str | Unset): A project id, or 'null' for unassigned
        q (None | str | Unset): Case-insensitive search in title/description

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | HistoryPage
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        limit=limit,
        scope=scope,
        types=types,
        status=status,
        project_id=project_id,
        q=q,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    scope: str | Unset = "owned",
    types: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    project_id: None | str | Unset = UNSET,
    q: None | str | Unset = UNSET,
) -> Response[DetailedError | HistoryPage]:
    """Get History

     One time-ordered page across tasks, jobs and conversations (newest change first).

    Args:
        cursor (None | str | Unset): Opaque cursor from the previous page
        limit (int | Unset): Items per page (1 to 100) Default: 20.
        scope (str | Unset): owned (items you created) or workspace (conversations stay yours)
            Default: 'owned'.
        types (None | str | Unset): Comma-separated: task, job, conversation
        status (None | str | Unset): Comma-separated task/job statuses and/or conversation states
            (active, archived); conversations appear only when a state is named
        project_id (None | str | Unset): A project id, or 'null' for unassigned
        q (None | str | Unset): Case-insensitive search in title/description

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | HistoryPage]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        scope=scope,
        types=types,
        status=status,
        project_id=project_id,
        q=q,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    scope: str | Unset = "owned",
    types: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    project_id: None | str | Unset = UNSET,
    q: None | str | Unset = UNSET,
) -> DetailedError | HistoryPage | None:
    """Get History

     One time-ordered page across tasks, jobs and conversations (newest change first).

    Args:
        cursor (None | str | Unset): Opaque cursor from the previous page
        limit (int | Unset): Items per page (1 to 100) Default: 20.
        scope (str | Unset): owned (items you created) or workspace (conversations stay yours)
            Default: 'owned'.
        types (None | str | Unset): Comma-separated: task, job, conversation
        status (None | str | Unset): Comma-separated task/job statuses and/or conversation states
            (active, archived); conversations appear only when a state is named
        project_id (None | str | Unset): A project id, or 'null' for unassigned
        q (None | str | Unset): Case-insensitive search in title/description

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | HistoryPage
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            limit=limit,
            scope=scope,
            types=types,
            status=status,
            project_id=project_id,
            q=q,
        )
    ).parsed
