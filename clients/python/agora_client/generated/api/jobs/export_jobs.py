from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.export_jobs_scope import ExportJobsScope
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    agent_id: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    scope: ExportJobsScope | Unset = "owned",
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

    json_scope: str | Unset = UNSET
    if not isinstance(scope, Unset):
        json_scope = scope

    params["scope"] = json_scope

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/jobs/export",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> SimpleError | str | None:
    if response.status_code == 200:
        response_200 = response.text
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
) -> Response[SimpleError | str]:
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
    scope: ExportJobsScope | Unset = "owned",
) -> Response[SimpleError | str]:
    """Export Jobs

     Every job of the list (`GET /v1/jobs`'s filters and order) as CSV, streamed: one line per
    job, its price, fee, refund and net credits; cells a spreadsheet would run as a formula are
    prefixed with `'` (docs/jobs.md, "Exports").

    Args:
        agent_id (None | str | Unset): Only this agent's jobs.
        status (None | str | Unset): Comma-separated: PENDING, RUNNING, INPUT_REQUIRED, COMPLETED,
            FAILED, CANCELLED.
        scope (ExportJobsScope | Unset): owned (yours, default) or workspace (every member's).
            Default: 'owned'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SimpleError | str]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        status=status,
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
    scope: ExportJobsScope | Unset = "owned",
) -> SimpleError | str | None:
    """Export Jobs

     Every job of the list (`GET /v1/jobs`'s filters and order) as CSV, streamed: one line per
    job, its price, fee, refund and net credits; cells a spreadsheet would run as a formula are
    prefixed with `'` (docs/jobs.md, "Exports").

    Args:
        agent_id (None | str | Unset): Only this agent's jobs.
        status (None | str | Unset): Comma-separated: PENDING, RUNNING, INPUT_REQUIRED, COMPLETED,
            FAILED, CANCELLED.
        scope (ExportJobsScope | Unset): owned (yours, default) or workspace (every member's).
            Default: 'owned'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SimpleError | str
    """

    return sync_detailed(
        client=client,
        agent_id=agent_id,
        status=status,
        scope=scope,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    agent_id: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    scope: ExportJobsScope | Unset = "owned",
) -> Response[SimpleError | str]:
    """Export Jobs

     Every job of the list (`GET /v1/jobs`'s filters and order) as CSV, streamed: one line per
    job, its price, fee, refund and net credits; cells a spreadsheet would run as a formula are
    prefixed with `'` (docs/jobs.md, "Exports").

    Args:
        agent_id (None | str | Unset): Only this agent's jobs.
        status (None | str | Unset): Comma-separated: PENDING, RUNNING, INPUT_REQUIRED, COMPLETED,
            FAILED, CANCELLED.
        scope (ExportJobsScope | Unset): owned (yours, default) or workspace (every member's).
            Default: 'owned'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SimpleError | str]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        status=status,
        scope=scope,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    agent_id: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    scope: ExportJobsScope | Unset = "owned",
) -> SimpleError | str | None:
    """Export Jobs

     Every job of the list (`GET /v1/jobs`'s filters and order) as CSV, streamed: one line per
    job, its price, fee, refund and net credits; cells a spreadsheet would run as a formula are
    prefixed with `'` (docs/jobs.md, "Exports").

    Args:
        agent_id (None | str | Unset): Only this agent's jobs.
        status (None | str | Unset): Comma-separated: PENDING, RUNNING, INPUT_REQUIRED, COMPLETED,
            FAILED, CANCELLED.
        scope (ExportJobsScope | Unset): owned (yours, default) or workspace (every member's).
            Default: 'owned'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SimpleError | str
    """

    return (
        await asyncio_detailed(
            client=client,
            agent_id=agent_id,
            status=status,
            scope=scope,
        )
    ).parsed
