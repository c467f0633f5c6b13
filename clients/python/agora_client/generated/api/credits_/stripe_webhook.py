from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.billing_webhook_out import BillingWebhookOut
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/billing/stripe/webhook",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BillingWebhookOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = BillingWebhookOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = SimpleError.from_dict(response.json())

        return response_400

    if response.status_code == 413:
        response_413 = SimpleError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = SimpleError.from_dict(response.json())

        return response_415

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = SimpleError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[BillingWebhookOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[BillingWebhookOut | SimpleError]:
    """Stripe Webhook

     Stripe's webhook (no credentials: the `Stripe-Signature` header is checked with the
    webhook secret). Credits are granted, and taken back, only here; a replayed event changes
    nothing. 400 for a missing or wrong signature.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BillingWebhookOut | SimpleError]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> BillingWebhookOut | SimpleError | None:
    """Stripe Webhook

     Stripe's webhook (no credentials: the `Stripe-Signature` header is checked with the
    webhook secret). Credits are granted, and taken back, only here; a replayed event changes
    nothing. 400 for a missing or wrong signature.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BillingWebhookOut | SimpleError
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[BillingWebhookOut | SimpleError]:
    """Stripe Webhook

     Stripe's webhook (no credentials: the `Stripe-Signature` header is checked with the
    webhook secret). Credits are granted, and taken back, only here; a replayed event changes
    nothing. 400 for a missing or wrong signature.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BillingWebhookOut | SimpleError]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> BillingWebhookOut | SimpleError | None:
    """Stripe Webhook

     Stripe's webhook (no credentials: the `Stripe-Signature` header is checked with the
    webhook secret). Credits are granted, and taken back, only here; a replayed event changes
    nothing. 400 for a missing or wrong signature.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BillingWebhookOut | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
