from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_blist_admin_listed_job_out import EnvelopeBlistAdminListedJobOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    q: None | str | Unset = UNSET,
    agent: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

    json_agent: None | str | Unset
    if isinstance(agent, Unset):
        json_agent = UNSET
    else:
        json_agent = agent
    params["agent"] = json_agent

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    else:
        json_status = status
    params["status"] = json_status

    json_workspace: None | str | Unset
    if isinstance(workspace, Unset):
        json_workspace = UNSET
    else:
        json_workspace = workspace
    params["workspace"] = json_workspace

    params["page"] = page

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/jobs",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBlistAdminListedJobOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBlistAdminListedJobOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = DetailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = DetailedError.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = DetailedError.from_dict(response.json())

        return response_404

    if response.status_code == 500:
        response_500 = DetailedError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DetailedError | EnvelopeBlistAdminListedJobOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    agent: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> Response[DetailedError | EnvelopeBlistAdminListedJobOut]:
    """Search Jobs

     Jobs of every workspace by id, agent, status and workspace (newest first).

    Args:
        q (None | str | Unset): A job id
        agent (None | str | Unset): An agent id, registry identifier or part of its name
        status (None | str | Unset): A job status
        workspace (None | str | Unset): A workspace id
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistAdminListedJobOut]
    """

    kwargs = _get_kwargs(
        q=q,
        agent=agent,
        status=status,
        workspace=workspace,
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
    q: None | str | Unset = UNSET,
    agent: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> DetailedError | EnvelopeBlistAdminListedJobOut | None:
    """Search Jobs

     Jobs of every workspace by id, agent, status and workspace (newest first).

    Args:
        q (None | str | Unset): A job id
        agent (None | str | Unset): An agent id, registry identifier or part of its name
        status (None | str | Unset): A job status
        workspace (None | str | Unset): A workspace id
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistAdminListedJobOut
    """

    return sync_detailed(
        client=client,
        q=q,
        agent=agent,
        status=status,
        workspace=workspace,
        page=page,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    agent: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> Response[DetailedError | EnvelopeBlistAdminListedJobOut]:
    """Search Jobs

     Jobs of every workspace by id, agent, status and workspace (newest first).

    Args:
        q (None | str | Unset): A job id
        agent (None | str | Unset): An agent id, registry identifier or part of its name
        status (None | str | Unset): A job status
        workspace (None | str | Unset): A workspace id
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistAdminListedJobOut]
    """

    kwargs = _get_kwargs(
        q=q,
        agent=agent,
        status=status,
        workspace=workspace,
        page=page,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    agent: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> DetailedError | EnvelopeBlistAdminListedJobOut | None:
    """Search Jobs

     Jobs of every workspace by id, agent, status and workspace (newest first).

    Args:
        q (None | str | Unset): A job id
        agent (None | str | Unset): An agent id, registry identifier or part of its name
        status (None | str | Unset): A job status
        workspace (None | str | Unset): A workspace id
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistAdminListedJobOut
    """

    return (
        await asyncio_detailed(
            client=client,
            q=q,
            agent=agent,
            status=status,
            workspace=workspace,
            page=page,
            limit=limit,
        )
    ).parsed
