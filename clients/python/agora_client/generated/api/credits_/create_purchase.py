from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_purchase_created_out import EnvelopeAPurchaseCreatedOut
from ...models.purchase_create import PurchaseCreate
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    *,
    body: PurchaseCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/credits/purchases",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeAPurchaseCreatedOut | SimpleError | None:
    if response.status_code == 201:
        response_201 = EnvelopeAPurchaseCreatedOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = SimpleError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = SimpleError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = SimpleError.from_dict(response.json())

        return response_403

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
) -> Response[EnvelopeAPurchaseCreatedOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PurchaseCreate,
) -> Response[EnvelopeAPurchaseCreatedOut | SimpleError]:
    """Create Purchase

     Start buying a credit pack: a Stripe PaymentIntent for the current workspace. Pay it on
    `payUrl`, with Stripe.js and `clientSecret`, or with `POST .../pay`; the credits arrive when
    Stripe's webhook confirms the payment. Organizations: owners and admins only. A
    `promotionCode` adds bonus credits or takes a percentage off; one that is unknown, expired
    or used up is 400 naming `promotionCode`.

    Args:
        body (PurchaseCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAPurchaseCreatedOut | SimpleError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PurchaseCreate,
) -> EnvelopeAPurchaseCreatedOut | SimpleError | None:
    """Create Purchase

     Start buying a credit pack: a Stripe PaymentIntent for the current workspace. Pay it on
    `payUrl`, with Stripe.js and `clientSecret`, or with `POST .../pay`; the credits arrive when
    Stripe's webhook confirms the payment. Organizations: owners and admins only. A
    `promotionCode` adds bonus credits or takes a percentage off; one that is unknown, expired
    or used up is 400 naming `promotionCode`.

    Args:
        body (PurchaseCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAPurchaseCreatedOut | SimpleError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PurchaseCreate,
) -> Response[EnvelopeAPurchaseCreatedOut | SimpleError]:
    """Create Purchase

     Start buying a credit pack: a Stripe PaymentIntent for the current workspace. Pay it on
    `payUrl`, with Stripe.js and `clientSecret`, or with `POST .../pay`; the credits arrive when
    Stripe's webhook confirms the payment. Organizations: owners and admins only. A
    `promotionCode` adds bonus credits or takes a percentage off; one that is unknown, expired
    or used up is 400 naming `promotionCode`.

    Args:
        body (PurchaseCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAPurchaseCreatedOut | SimpleError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PurchaseCreate,
) -> EnvelopeAPurchaseCreatedOut | SimpleError | None:
    """Create Purchase

     Start buying a credit pack: a Stripe PaymentIntent for the current workspace. Pay it on
    `payUrl`, with Stripe.js and `clientSecret`, or with `POST .../pay`; the credits arrive when
    Stripe's webhook confirms the payment. Organizations: owners and admins only. A
    `promotionCode` adds bonus credits or takes a percentage off; one that is unknown, expired
    or used up is 400 naming `promotionCode`.

    Args:
        body (PurchaseCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAPurchaseCreatedOut | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
