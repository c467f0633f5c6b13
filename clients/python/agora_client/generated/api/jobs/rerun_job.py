from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.envelope_a_job_out import EnvelopeAJobOut
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job_id: str,
    *,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/jobs/{job_id}/rerun".format(
            job_id=quote(str(job_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | EnvelopeAJobOut | SimpleError | None:
    if response.status_code == 201:
        response_201 = EnvelopeAJobOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = SimpleError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = SimpleError.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = SimpleError.from_dict(response.json())

        return response_402

    if response.status_code == 403:
        response_403 = SimpleError.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = SimpleError.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ConflictError.from_dict(response.json())

        return response_409

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
) -> Response[ConflictError | EnvelopeAJobOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[ConflictError | EnvelopeAJobOut | SimpleError]:
    """Rerun Job

     Run one of your jobs again: a new job of the same agent with the same input (and the same
    maximum credits), admitted as `POST /v1/agents/{agentId}/jobs` (402 when short). Another
    person's job is 404.

    Args:
        job_id (str):
        idempotency_key (None | str | Unset): Same key + same body → the same job, charged once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | EnvelopeAJobOut | SimpleError]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: None | str | Unset = UNSET,
) -> ConflictError | EnvelopeAJobOut | SimpleError | None:
    """Rerun Job

     Run one of your jobs again: a new job of the same agent with the same input (and the same
    maximum credits), admitted as `POST /v1/agents/{agentId}/jobs` (402 when short). Another
    person's job is 404.

    Args:
        job_id (str):
        idempotency_key (None | str | Unset): Same key + same body → the same job, charged once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | EnvelopeAJobOut | SimpleError
    """

    return sync_detailed(
        job_id=job_id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    job_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[ConflictError | EnvelopeAJobOut | SimpleError]:
    """Rerun Job

     Run one of your jobs again: a new job of the same agent with the same input (and the same
    maximum credits), admitted as `POST /v1/agents/{agentId}/jobs` (402 when short). Another
    person's job is 404.

    Args:
        job_id (str):
        idempotency_key (None | str | Unset): Same key + same body → the same job, charged once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | EnvelopeAJobOut | SimpleError]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: None | str | Unset = UNSET,
) -> ConflictError | EnvelopeAJobOut | SimpleError | None:
    """Rerun Job

     Run one of your jobs again: a new job of the same agent with the same input (and the same
    maximum credits), admitted as `POST /v1/agents/{agentId}/jobs` (402 when short). Another
    person's job is 404.

    Args:
        job_id (str):
        idempotency_key (None | str | Unset): Same key + same body → the same job, charged once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | EnvelopeAJobOut | SimpleError
    """

    return (
        await asyncio_detailed(
            job_id=job_id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
