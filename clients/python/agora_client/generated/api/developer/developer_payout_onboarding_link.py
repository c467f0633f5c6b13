from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.detailed_error import DetailedError
from ...models.envelope_b_onboarding_link_out import EnvelopeBOnboardingLinkOut
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/developer/payout-account/onboarding-link",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | DetailedError | EnvelopeBOnboardingLinkOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBOnboardingLinkOut.from_dict(response.json())

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

    if response.status_code == 503:
        response_503 = DetailedError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ConflictError | DetailedError | EnvelopeBOnboardingLinkOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[ConflictError | DetailedError | EnvelopeBOnboardingLinkOut]:
    """Onboarding Link

     A single-use link to Stripe's onboarding of your Stripe Connect Express account (made
    the first time; your organization's in its workspace). Stripe sends you back to
    `/developer/payouts/return` (or `/developer/payouts/refresh` when the link expired); the
    account's state arrives with Stripe's `account.updated` webhook. 409 when the operator has
    not configured Stripe.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBOnboardingLinkOut]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> ConflictError | DetailedError | EnvelopeBOnboardingLinkOut | None:
    """Onboarding Link

     A single-use link to Stripe's onboarding of your Stripe Connect Express account (made
    the first time; your organization's in its workspace). Stripe sends you back to
    `/developer/payouts/return` (or `/developer/payouts/refresh` when the link expired); the
    account's state arrives with Stripe's `account.updated` webhook. 409 when the operator has
    not configured Stripe.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBOnboardingLinkOut
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[ConflictError | DetailedError | EnvelopeBOnboardingLinkOut]:
    """Onboarding Link

     A single-use link to Stripe's onboarding of your Stripe Connect Express account (made
    the first time; your organization's in its workspace). Stripe sends you back to
    `/developer/payouts/return` (or `/developer/payouts/refresh` when the link expired); the
    account's state arrives with Stripe's `account.updated` webhook. 409 when the operator has
    not configured Stripe.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBOnboardingLinkOut]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> ConflictError | DetailedError | EnvelopeBOnboardingLinkOut | None:
    """Onboarding Link

     A single-use link to Stripe's onboarding of your Stripe Connect Express account (made
    the first time; your organization's in its workspace). Stripe sends you back to
    `/developer/payouts/return` (or `/developer/payouts/refresh` when the link expired); the
    account's state arrives with Stripe's `account.updated` webhook. 409 when the operator has
    not configured Stripe.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBOnboardingLinkOut
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
