from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_alist_delivery_out import EnvelopeAlistDeliveryOut
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 20,
    channel: str | Unset = "webhook",
    job_id: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["channel"] = channel

    json_job_id: None | str | Unset
    if isinstance(job_id, Unset):
        json_job_id = UNSET
    else:
        json_job_id = job_id
    params["jobId"] = json_job_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/notifications/deliveries",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeAlistDeliveryOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeAlistDeliveryOut.from_dict(response.json())

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
) -> Response[EnvelopeAlistDeliveryOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    channel: str | Unset = "webhook",
    job_id: None | str | Unset = UNSET,
) -> Response[EnvelopeAlistDeliveryOut | SimpleError]:
    """List Deliveries

     The delivery log: each notification, its attempts and outcome.

    Args:
        limit (int | Unset): How many, newest first. Default: 20.
        channel (str | Unset): webhook (account and per-job) | mail Default: 'webhook'.
        job_id (None | str | Unset): One job's deliveries.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAlistDeliveryOut | SimpleError]
    """

    kwargs = _get_kwargs(
        limit=limit,
        channel=channel,
        job_id=job_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    channel: str | Unset = "webhook",
    job_id: None | str | Unset = UNSET,
) -> EnvelopeAlistDeliveryOut | SimpleError | None:
    """List Deliveries

     The delivery log: each notification, its attempts and outcome.

    Args:
        limit (int | Unset): How many, newest first. Default: 20.
        channel (str | Unset): webhook (account and per-job) | mail Default: 'webhook'.
        job_id (None | str | Unset): One job's deliveries.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAlistDeliveryOut | SimpleError
    """

    return sync_detailed(
        client=client,
        limit=limit,
        channel=channel,
        job_id=job_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    channel: str | Unset = "webhook",
    job_id: None | str | Unset = UNSET,
) -> Response[EnvelopeAlistDeliveryOut | SimpleError]:
    """List Deliveries

     The delivery log: each notification, its attempts and outcome.

    Args:
        limit (int | Unset): How many, newest first. Default: 20.
        channel (str | Unset): webhook (account and per-job) | mail Default: 'webhook'.
        job_id (None | str | Unset): One job's deliveries.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAlistDeliveryOut | SimpleError]
    """

    kwargs = _get_kwargs(
        limit=limit,
        channel=channel,
        job_id=job_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    channel: str | Unset = "webhook",
    job_id: None | str | Unset = UNSET,
) -> EnvelopeAlistDeliveryOut | SimpleError | None:
    """List Deliveries

     The delivery log: each notification, its attempts and outcome.

    Args:
        limit (int | Unset): How many, newest first. Default: 20.
        channel (str | Unset): webhook (account and per-job) | mail Default: 'webhook'.
        job_id (None | str | Unset): One job's deliveries.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAlistDeliveryOut | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            channel=channel,
            job_id=job_id,
        )
    ).parsed
