from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_b_earnings_out import EnvelopeBEarningsOut
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/developer/earnings",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBEarningsOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBEarningsOut.from_dict(response.json())

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
) -> Response[DetailedError | EnvelopeBEarningsOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[DetailedError | EnvelopeBEarningsOut]:
    """Get Earnings

     Your earnings (your organization's, in its workspace): per currency held back (pending),
    payable (less what was paid out) and in all, per agent; the payouts made and the state of
    the Stripe account they go to (`payoutAccount`, in a word and in words).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBEarningsOut]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> DetailedError | EnvelopeBEarningsOut | None:
    """Get Earnings

     Your earnings (your organization's, in its workspace): per currency held back (pending),
    payable (less what was paid out) and in all, per agent; the payouts made and the state of
    the Stripe account they go to (`payoutAccount`, in a word and in words).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBEarningsOut
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[DetailedError | EnvelopeBEarningsOut]:
    """Get Earnings

     Your earnings (your organization's, in its workspace): per currency held back (pending),
    payable (less what was paid out) and in all, per agent; the payouts made and the state of
    the Stripe account they go to (`payoutAccount`, in a word and in words).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBEarningsOut]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> DetailedError | EnvelopeBEarningsOut | None:
    """Get Earnings

     Your earnings (your organization's, in its workspace): per currency held back (pending),
    payable (less what was paid out) and in all, per agent; the payouts made and the state of
    the Stripe account they go to (`payoutAccount`, in a word and in words).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBEarningsOut
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
