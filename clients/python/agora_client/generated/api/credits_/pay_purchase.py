from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.envelope_a_payment_out import EnvelopeAPaymentOut
from ...models.purchase_pay import PurchasePay
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    purchase_id: str,
    *,
    body: PurchasePay,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/credits/purchases/{purchase_id}/pay".format(
            purchase_id=quote(str(purchase_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | EnvelopeAPaymentOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeAPaymentOut.from_dict(response.json())

        return response_200

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

    if response.status_code == 503:
        response_503 = SimpleError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ConflictError | EnvelopeAPaymentOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    purchase_id: str,
    *,
    client: AuthenticatedClient,
    body: PurchasePay,
) -> Response[ConflictError | EnvelopeAPaymentOut | SimpleError]:
    """Pay Purchase

     Pay an open purchase with a PaymentMethod from Stripe.js (`createPaymentMethod`): the
    PaymentIntent is confirmed with it. A card that needs 3-D Secure answers `nextAction`
    (`redirect_to_url`: send the buyer to `redirectUrl`). A declined card answers 200 with the
    purchase `failed` and Stripe's words in `failureMessage` (the attempt was made and is
    recorded; a declined purchase is final). The credits arrive only with Stripe's webhook.

    Args:
        purchase_id (str):
        body (PurchasePay):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | EnvelopeAPaymentOut | SimpleError]
    """

    kwargs = _get_kwargs(
        purchase_id=purchase_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    purchase_id: str,
    *,
    client: AuthenticatedClient,
    body: PurchasePay,
) -> ConflictError | EnvelopeAPaymentOut | SimpleError | None:
    """Pay Purchase

     Pay an open purchase with a PaymentMethod from Stripe.js (`createPaymentMethod`): the
    PaymentIntent is confirmed with it. A card that needs 3-D Secure answers `nextAction`
    (`redirect_to_url`: send the buyer to `redirectUrl`). A declined card answers 200 with the
    purchase `failed` and Stripe's words in `failureMessage` (the attempt was made and is
    recorded; a declined purchase is final). The credits arrive only with Stripe's webhook.

    Args:
        purchase_id (str):
        body (PurchasePay):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | EnvelopeAPaymentOut | SimpleError
    """

    return sync_detailed(
        purchase_id=purchase_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    purchase_id: str,
    *,
    client: AuthenticatedClient,
    body: PurchasePay,
) -> Response[ConflictError | EnvelopeAPaymentOut | SimpleError]:
    """Pay Purchase

     Pay an open purchase with a PaymentMethod from Stripe.js (`createPaymentMethod`): the
    PaymentIntent is confirmed with it. A card that needs 3-D Secure answers `nextAction`
    (`redirect_to_url`: send the buyer to `redirectUrl`). A declined card answers 200 with the
    purchase `failed` and Stripe's words in `failureMessage` (the attempt was made and is
    recorded; a declined purchase is final). The credits arrive only with Stripe's webhook.

    Args:
        purchase_id (str):
        body (PurchasePay):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | EnvelopeAPaymentOut | SimpleError]
    """

    kwargs = _get_kwargs(
        purchase_id=purchase_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    purchase_id: str,
    *,
    client: AuthenticatedClient,
    body: PurchasePay,
) -> ConflictError | EnvelopeAPaymentOut | SimpleError | None:
    """Pay Purchase

     Pay an open purchase with a PaymentMethod from Stripe.js (`createPaymentMethod`): the
    PaymentIntent is confirmed with it. A card that needs 3-D Secure answers `nextAction`
    (`redirect_to_url`: send the buyer to `redirectUrl`). A declined card answers 200 with the
    purchase `failed` and Stripe's words in `failureMessage` (the attempt was made and is
    recorded; a declined purchase is final). The credits arrive only with Stripe's webhook.

    Args:
        purchase_id (str):
        body (PurchasePay):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | EnvelopeAPaymentOut | SimpleError
    """

    return (
        await asyncio_detailed(
            purchase_id=purchase_id,
            client=client,
            body=body,
        )
    ).parsed
