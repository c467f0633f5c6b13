from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_alist_payout_out import EnvelopeAlistPayoutOut
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: None | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    else:
        json_status = status
    params["status"] = json_status

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/payouts",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeAlistPayoutOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeAlistPayoutOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = SimpleError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = SimpleError.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = SimpleError.from_dict(response.json())

        return response_404

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EnvelopeAlistPayoutOut | SimpleError]:
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
    limit: int | Unset = 100,
) -> Response[EnvelopeAlistPayoutOut | SimpleError]:
    """Admin List Payouts

     Payouts to sellers, newest first: pending (claimed, Stripe not yet answered), paid,
    failed (Stripe refused: the amount is back in the seller's balance) or reversed.

    Args:
        status (None | str | Unset): Only these
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAlistPayoutOut | SimpleError]
    """

    kwargs = _get_kwargs(
        status=status,
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
    limit: int | Unset = 100,
) -> EnvelopeAlistPayoutOut | SimpleError | None:
    """Admin List Payouts

     Payouts to sellers, newest first: pending (claimed, Stripe not yet answered), paid,
    failed (Stripe refused: the amount is back in the seller's balance) or reversed.

    Args:
        status (None | str | Unset): Only these
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAlistPayoutOut | SimpleError
    """

    return sync_detailed(
        client=client,
        status=status,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: None | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[EnvelopeAlistPayoutOut | SimpleError]:
    """Admin List Payouts

     Payouts to sellers, newest first: pending (claimed, Stripe not yet answered), paid,
    failed (Stripe refused: the amount is back in the seller's balance) or reversed.

    Args:
        status (None | str | Unset): Only these
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAlistPayoutOut | SimpleError]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: None | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> EnvelopeAlistPayoutOut | SimpleError | None:
    """Admin List Payouts

     Payouts to sellers, newest first: pending (claimed, Stripe not yet answered), paid,
    failed (Stripe refused: the amount is back in the seller's balance) or reversed.

    Args:
        status (None | str | Unset): Only these
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAlistPayoutOut | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            limit=limit,
        )
    ).parsed
