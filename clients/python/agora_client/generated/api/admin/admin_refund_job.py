from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.detailed_error import DetailedError
from ...models.envelope_b_admin_job_detail_out import EnvelopeBAdminJobDetailOut
from ...models.refund_in import RefundIn
from ...types import Response


def _get_kwargs(
    job_id: str,
    *,
    body: RefundIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/jobs/{job_id}/refund".format(
            job_id=quote(str(job_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | DetailedError | EnvelopeBAdminJobDetailOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBAdminJobDetailOut.from_dict(response.json())

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
) -> Response[ConflictError | DetailedError | EnvelopeBAdminJobDetailOut]:
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
    body: RefundIn,
) -> Response[ConflictError | DetailedError | EnvelopeBAdminJobDetailOut]:
    """Refund Job

     Refund a completed job paid with credits, with a required reason: the buyer's credits
    back, the seller's earning reversed (their earnings may go below zero). Once per job (409).

    Args:
        job_id (str):
        body (RefundIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBAdminJobDetailOut]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job_id: str,
    *,
    client: AuthenticatedClient,
    body: RefundIn,
) -> ConflictError | DetailedError | EnvelopeBAdminJobDetailOut | None:
    """Refund Job

     Refund a completed job paid with credits, with a required reason: the buyer's credits
    back, the seller's earning reversed (their earnings may go below zero). Once per job (409).

    Args:
        job_id (str):
        body (RefundIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBAdminJobDetailOut
    """

    return sync_detailed(
        job_id=job_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    job_id: str,
    *,
    client: AuthenticatedClient,
    body: RefundIn,
) -> Response[ConflictError | DetailedError | EnvelopeBAdminJobDetailOut]:
    """Refund Job

     Refund a completed job paid with credits, with a required reason: the buyer's credits
    back, the seller's earning reversed (their earnings may go below zero). Once per job (409).

    Args:
        job_id (str):
        body (RefundIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBAdminJobDetailOut]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job_id: str,
    *,
    client: AuthenticatedClient,
    body: RefundIn,
) -> ConflictError | DetailedError | EnvelopeBAdminJobDetailOut | None:
    """Refund Job

     Refund a completed job paid with credits, with a required reason: the buyer's credits
    back, the seller's earning reversed (their earnings may go below zero). Once per job (409).

    Args:
        job_id (str):
        body (RefundIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBAdminJobDetailOut
    """

    return (
        await asyncio_detailed(
            job_id=job_id,
            client=client,
            body=body,
        )
    ).parsed
