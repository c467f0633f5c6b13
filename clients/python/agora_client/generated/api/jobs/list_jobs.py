from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.job_page import JobPage
from ...models.list_jobs_scope import ListJobsScope
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    agent_id: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    scope: ListJobsScope | Unset = "owned",
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_agent_id: None | str | Unset
    if isinstance(agent_id, Unset):
        json_agent_id = UNSET
    else:
        json_agent_id = agent_id
    params["agentId"] = json_agent_id

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    else:
        json_status = status
    params["status"] = json_status

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_scope: str | Unset = UNSET
    if not isinstance(scope, Unset):
        json_scope = scope

    params["scope"] = json_scope

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/jobs",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> JobPage | SimpleError | None:
    if response.status_code == 200:
        response_200 = JobPage.from_dict(response.json())

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
) -> Response[JobPage | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    agent_id: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    scope: ListJobsScope | Unset = "owned",
) -> Response[JobPage | SimpleError]:
    """List Jobs

     The caller's jobs in the current workspace (`scope=workspace`: every member's), newest
    first. Paging: `pagination` beside `data` (send `nextCursor` back as `cursor` while
    `hasMore`).

    Args:
        agent_id (None | str | Unset): Only this agent's jobs.
        status (None | str | Unset): Comma-separated: PENDING, RUNNING, INPUT_REQUIRED, COMPLETED,
            FAILED, CANCELLED.
        cursor (None | str | Unset): `pagination.nextCursor` of the previous page.
        limit (int | None | Unset): Page size (default 20).
        scope (ListJobsScope | Unset): owned (yours, default) or workspace (every member's).
            Default: 'owned'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[JobPage | SimpleError]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        status=status,
        cursor=cursor,
        limit=limit,
        scope=scope,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    agent_id: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    scope: ListJobsScope | Unset = "owned",
) -> JobPage | SimpleError | None:
    """List Jobs

     The caller's jobs in the current workspace (`scope=workspace`: every member's), newest
    first. Paging: `pagination` beside `data` (send `nextCursor` back as `cursor` while
    `hasMore`).

    Args:
        agent_id (None | str | Unset): Only this agent's jobs.
        status (None | str | Unset): Comma-separated: PENDING, RUNNING, INPUT_REQUIRED, COMPLETED,
            FAILED, CANCELLED.
        cursor (None | str | Unset): `pagination.nextCursor` of the previous page.
        limit (int | None | Unset): Page size (default 20).
        scope (ListJobsScope | Unset): owned (yours, default) or workspace (every member's).
            Default: 'owned'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        JobPage | SimpleError
    """

    return sync_detailed(
        client=client,
        agent_id=agent_id,
        status=status,
        cursor=cursor,
        limit=limit,
        scope=scope,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    agent_id: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    scope: ListJobsScope | Unset = "owned",
) -> Response[JobPage | SimpleError]:
    """List Jobs

     The caller's jobs in the current workspace (`scope=workspace`: every member's), newest
    first. Paging: `pagination` beside `data` (send `nextCursor` back as `cursor` while
    `hasMore`).

    Args:
        agent_id (None | str | Unset): Only this agent's jobs.
        status (None | str | Unset): Comma-separated: PENDING, RUNNING, INPUT_REQUIRED, COMPLETED,
            FAILED, CANCELLED.
        cursor (None | str | Unset): `pagination.nextCursor` of the previous page.
        limit (int | None | Unset): Page size (default 20).
        scope (ListJobsScope | Unset): owned (yours, default) or workspace (every member's).
            Default: 'owned'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[JobPage | SimpleError]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        status=status,
        cursor=cursor,
        limit=limit,
        scope=scope,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    agent_id: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    scope: ListJobsScope | Unset = "owned",
) -> JobPage | SimpleError | None:
    """List Jobs

     The caller's jobs in the current workspace (`scope=workspace`: every member's), newest
    first. Paging: `pagination` beside `data` (send `nextCursor` back as `cursor` while
    `hasMore`).

    Args:
        agent_id (None | str | Unset): Only this agent's jobs.
        status (None | str | Unset): Comma-separated: PENDING, RUNNING, INPUT_REQUIRED, COMPLETED,
            FAILED, CANCELLED.
        cursor (None | str | Unset): `pagination.nextCursor` of the previous page.
        limit (int | None | Unset): Page size (default 20).
        scope (ListJobsScope | Unset): owned (yours, default) or workspace (every member's).
            Default: 'owned'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        JobPage | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
            agent_id=agent_id,
            status=status,
            cursor=cursor,
            limit=limit,
            scope=scope,
        )
    ).parsed
