from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_blist_stuck_payment_out import EnvelopeBlistStuckPaymentOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    older_than_minutes: float | Unset = 60.0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["olderThanMinutes"] = older_than_minutes

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/payments/stuck",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBlistStuckPaymentOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBlistStuckPaymentOut.from_dict(response.json())

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
) -> Response[DetailedError | EnvelopeBlistStuckPaymentOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    older_than_minutes: float | Unset = 60.0,
) -> Response[DetailedError | EnvelopeBlistStuckPaymentOut]:
    """List Stuck

     Unsettled node-paid jobs stuck in the Masumi flow (a refund the node refused for good,
    a purchase waiting for the node's operator, or a payment state unchanged too long), oldest
    first, with the state, its age and the last error.

    Args:
        older_than_minutes (float | Unset): A payment state unchanged this long counts as stuck
            (default 60) Default: 60.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistStuckPaymentOut]
    """

    kwargs = _get_kwargs(
        older_than_minutes=older_than_minutes,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    older_than_minutes: float | Unset = 60.0,
) -> DetailedError | EnvelopeBlistStuckPaymentOut | None:
    """List Stuck

     Unsettled node-paid jobs stuck in the Masumi flow (a refund the node refused for good,
    a purchase waiting for the node's operator, or a payment state unchanged too long), oldest
    first, with the state, its age and the last error.

    Args:
        older_than_minutes (float | Unset): A payment state unchanged this long counts as stuck
            (default 60) Default: 60.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistStuckPaymentOut
    """

    return sync_detailed(
        client=client,
        older_than_minutes=older_than_minutes,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    older_than_minutes: float | Unset = 60.0,
) -> Response[DetailedError | EnvelopeBlistStuckPaymentOut]:
    """List Stuck

     Unsettled node-paid jobs stuck in the Masumi flow (a refund the node refused for good,
    a purchase waiting for the node's operator, or a payment state unchanged too long), oldest
    first, with the state, its age and the last error.

    Args:
        older_than_minutes (float | Unset): A payment state unchanged this long counts as stuck
            (default 60) Default: 60.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistStuckPaymentOut]
    """

    kwargs = _get_kwargs(
        older_than_minutes=older_than_minutes,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    older_than_minutes: float | Unset = 60.0,
) -> DetailedError | EnvelopeBlistStuckPaymentOut | None:
    """List Stuck

     Unsettled node-paid jobs stuck in the Masumi flow (a refund the node refused for good,
    a purchase waiting for the node's operator, or a payment state unchanged too long), oldest
    first, with the state, its age and the last error.

    Args:
        older_than_minutes (float | Unset): A payment state unchanged this long counts as stuck
            (default 60) Default: 60.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistStuckPaymentOut
    """

    return (
        await asyncio_detailed(
            client=client,
            older_than_minutes=older_than_minutes,
        )
    ).parsed
