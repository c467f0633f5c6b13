from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_b_payout_account_out import EnvelopeBPayoutAccountOut
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/developer/payout-account/refresh",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBPayoutAccountOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBPayoutAccountOut.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = DetailedError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = DetailedError.from_dict(response.json())

        return response_415

    if response.status_code == 500:
        response_500 = DetailedError.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = DetailedError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DetailedError | EnvelopeBPayoutAccountOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[DetailedError | EnvelopeBPayoutAccountOut]:
    """Refresh

     Read your Stripe account's state from Stripe now (details submitted, payouts enabled,
    requirements due), in a word and in words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBPayoutAccountOut]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> DetailedError | EnvelopeBPayoutAccountOut | None:
    """Refresh

     Read your Stripe account's state from Stripe now (details submitted, payouts enabled,
    requirements due), in a word and in words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBPayoutAccountOut
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[DetailedError | EnvelopeBPayoutAccountOut]:
    """Refresh

     Read your Stripe account's state from Stripe now (details submitted, payouts enabled,
    requirements due), in a word and in words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBPayoutAccountOut]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> DetailedError | EnvelopeBPayoutAccountOut | None:
    """Refresh

     Read your Stripe account's state from Stripe now (details submitted, payouts enabled,
    requirements due), in a word and in words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBPayoutAccountOut
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
