from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.detailed_error import DetailedError
from ...models.envelope_b_job_out import EnvelopeBJobOut
from ...models.task_job_create import TaskJobCreate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    task_id: str,
    *,
    body: TaskJobCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tasks/{task_id}/jobs".format(
            task_id=quote(str(task_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | DetailedError | EnvelopeBJobOut | None:
    if response.status_code == 201:
        response_201 = EnvelopeBJobOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = DetailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = DetailedError.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = DetailedError.from_dict(response.json())

        return response_402

    if response.status_code == 403:
        response_403 = DetailedError.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = DetailedError.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ConflictError.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = DetailedError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = DetailedError.from_dict(response.json())

        return response_415

    if response.status_code == 500:
        response_500 = DetailedError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ConflictError | DetailedError | EnvelopeBJobOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    task_id: str,
    *,
    client: AuthenticatedClient,
    body: TaskJobCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[ConflictError | DetailedError | EnvelopeBJobOut]:
    """Create Job

     Hire an agent inside the task (as `POST /v1/agents/{id}/jobs`, plus `agentId`).

    Args:
        task_id (str):
        idempotency_key (None | str | Unset):
        body (TaskJobCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBJobOut]
    """

    kwargs = _get_kwargs(
        task_id=task_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    task_id: str,
    *,
    client: AuthenticatedClient,
    body: TaskJobCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> ConflictError | DetailedError | EnvelopeBJobOut | None:
    """Create Job

     Hire an agent inside the task (as `POST /v1/agents/{id}/jobs`, plus `agentId`).

    Args:
        task_id (str):
        idempotency_key (None | str | Unset):
        body (TaskJobCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBJobOut
    """

    return sync_detailed(
        task_id=task_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    task_id: str,
    *,
    client: AuthenticatedClient,
    body: TaskJobCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[ConflictError | DetailedError | EnvelopeBJobOut]:
    """Create Job

     Hire an agent inside the task (as `POST /v1/agents/{id}/jobs`, plus `agentId`).

    Args:
        task_id (str):
        idempotency_key (None | str | Unset):
        body (TaskJobCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBJobOut]
    """

    kwargs = _get_kwargs(
        task_id=task_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    task_id: str,
    *,
    client: AuthenticatedClient,
    body: TaskJobCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> ConflictError | DetailedError | EnvelopeBJobOut | None:
    """Create Job

     Hire an agent inside the task (as `POST /v1/agents/{id}/jobs`, plus `agentId`).

    Args:
        task_id (str):
        idempotency_key (None | str | Unset):
        body (TaskJobCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBJobOut
    """

    return (
        await asyncio_detailed(
            task_id=task_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
