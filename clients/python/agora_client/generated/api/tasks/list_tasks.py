from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_blist_task_out import EnvelopeBlistTaskOut
from ...models.list_tasks_archived import ListTasksArchived
from ...models.list_tasks_scope import ListTasksScope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: None | str | Unset = UNSET,
    project_id: None | str | Unset = UNSET,
    archived: ListTasksArchived | Unset = "false",
    q: None | str | Unset = UNSET,
    scope: ListTasksScope | Unset = "owned",
    coworker_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    assignee_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

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

    json_archived: str | Unset = UNSET
    if not isinstance(archived, Unset):
        json_archived = archived

    params["archived"] = json_archived

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

    json_scope: str | Unset = UNSET
    if not isinstance(scope, Unset):
        json_scope = scope

    params["scope"] = json_scope

    json_coworker_id: None | str | Unset
    if isinstance(coworker_id, Unset):
        json_coworker_id = UNSET
    else:
        json_coworker_id = coworker_id
    params["coworkerId"] = json_coworker_id

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_assignee_id: None | str | Unset
    if isinstance(assignee_id, Unset):
        json_assignee_id = UNSET
    else:
        json_assignee_id = assignee_id
    params["assigneeId"] = json_assignee_id

    params["page"] = page

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tasks",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBlistTaskOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBlistTaskOut.from_dict(response.json())

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
) -> Response[DetailedError | EnvelopeBlistTaskOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: None | str | Unset = UNSET,
    project_id: None | str | Unset = UNSET,
    archived: ListTasksArchived | Unset = "false",
    q: None | str | Unset = UNSET,
    scope: ListTasksScope | Unset = "owned",
    coworker_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    assignee_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> Response[DetailedError | EnvelopeBlistTaskOut]:
    """List Tasks

     Tasks of the workspace, most recently updated first. Page with `page` or `cursor`.
    A coworker key sees only the tasks assigned to it. Job results in the snapshots are
    previews (see JobOut.resultTruncated).

    Args:
        status (None | str | Unset): Comma-separated statuses (either case)
        project_id (None | str | Unset): A project id, or null for unassigned
        archived (ListTasksArchived | Unset): false (default), true (only archived) or all
            Default: 'false'.
        q (None | str | Unset): Name contains
        scope (ListTasksScope | Unset): owned (created by you, default) or workspace Default:
            'owned'.
        coworker_id (None | str | Unset): Only tasks assigned to this coworker
        cursor (None | str | Unset): `nextCursor` of the previous page
        assignee_id (None | str | Unset): Only tasks assigned to this member (`me`: to you; any
            creator, whatever the scope)
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistTaskOut]
    """

    kwargs = _get_kwargs(
        status=status,
        project_id=project_id,
        archived=archived,
        q=q,
        scope=scope,
        coworker_id=coworker_id,
        cursor=cursor,
        assignee_id=assignee_id,
        page=page,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: None | str | Unset = UNSET,
    project_id: None | str | Unset = UNSET,
    archived: ListTasksArchived | Unset = "false",
    q: None | str | Unset = UNSET,
    scope: ListTasksScope | Unset = "owned",
    coworker_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    assignee_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> DetailedError | EnvelopeBlistTaskOut | None:
    """List Tasks

     Tasks of the workspace, most recently updated first. Page with `page` or `cursor`.
    A coworker key sees only the tasks assigned to it. Job results in the snapshots are
    previews (see JobOut.resultTruncated).

    Args:
        status (None | str | Unset): Comma-separated statuses (either case)
        project_id (None | str | Unset): A project id, or null for unassigned
        archived (ListTasksArchived | Unset): false (default), true (only archived) or all
            Default: 'false'.
        q (None | str | Unset): Name contains
        scope (ListTasksScope | Unset): owned (created by you, default) or workspace Default:
            'owned'.
        coworker_id (None | str | Unset): Only tasks assigned to this coworker
        cursor (None | str | Unset): `nextCursor` of the previous page
        assignee_id (None | str | Unset): Only tasks assigned to this member (`me`: to you; any
            creator, whatever the scope)
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistTaskOut
    """

    return sync_detailed(
        client=client,
        status=status,
        project_id=project_id,
        archived=archived,
        q=q,
        scope=scope,
        coworker_id=coworker_id,
        cursor=cursor,
        assignee_id=assignee_id,
        page=page,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: None | str | Unset = UNSET,
    project_id: None | str | Unset = UNSET,
    archived: ListTasksArchived | Unset = "false",
    q: None | str | Unset = UNSET,
    scope: ListTasksScope | Unset = "owned",
    coworker_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    assignee_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> Response[DetailedError | EnvelopeBlistTaskOut]:
    """List Tasks

     Tasks of the workspace, most recently updated first. Page with `page` or `cursor`.
    A coworker key sees only the tasks assigned to it. Job results in the snapshots are
    previews (see JobOut.resultTruncated).

    Args:
        status (None | str | Unset): Comma-separated statuses (either case)
        project_id (None | str | Unset): A project id, or null for unassigned
        archived (ListTasksArchived | Unset): false (default), true (only archived) or all
            Default: 'false'.
        q (None | str | Unset): Name contains
        scope (ListTasksScope | Unset): owned (created by you, default) or workspace Default:
            'owned'.
        coworker_id (None | str | Unset): Only tasks assigned to this coworker
        cursor (None | str | Unset): `nextCursor` of the previous page
        assignee_id (None | str | Unset): Only tasks assigned to this member (`me`: to you; any
            creator, whatever the scope)
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistTaskOut]
    """

    kwargs = _get_kwargs(
        status=status,
        project_id=project_id,
        archived=archived,
        q=q,
        scope=scope,
        coworker_id=coworker_id,
        cursor=cursor,
        assignee_id=assignee_id,
        page=page,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: None | str | Unset = UNSET,
    project_id: None | str | Unset = UNSET,
    archived: ListTasksArchived | Unset = "false",
    q: None | str | Unset = UNSET,
    scope: ListTasksScope | Unset = "owned",
    coworker_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    assignee_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> DetailedError | EnvelopeBlistTaskOut | None:
    """List Tasks

     Tasks of the workspace, most recently updated first. Page with `page` or `cursor`.
    A coworker key sees only the tasks assigned to it. Job results in the snapshots are
    previews (see JobOut.resultTruncated).

    Args:
        status (None | str | Unset): Comma-separated statuses (either case)
        project_id (None | str | Unset): A project id, or null for unassigned
        archived (ListTasksArchived | Unset): false (default), true (only archived) or all
            Default: 'false'.
        q (None | str | Unset): Name contains
        scope (ListTasksScope | Unset): owned (created by you, default) or workspace Default:
            'owned'.
        coworker_id (None | str | Unset): Only tasks assigned to this coworker
        cursor (None | str | Unset): `nextCursor` of the previous page
        assignee_id (None | str | Unset): Only tasks assigned to this member (`me`: to you; any
            creator, whatever the scope)
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistTaskOut
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            project_id=project_id,
            archived=archived,
            q=q,
            scope=scope,
            coworker_id=coworker_id,
            cursor=cursor,
            assignee_id=assignee_id,
            page=page,
            limit=limit,
        )
    ).parsed
