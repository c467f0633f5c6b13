from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_low_balance_out import EnvelopeALowBalanceOut
from ...models.low_balance_set import LowBalanceSet
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    *,
    body: LowBalanceSet,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/credits/low-balance",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeALowBalanceOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeALowBalanceOut.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = SimpleError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = SimpleError.from_dict(response.json())

        return response_415

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EnvelopeALowBalanceOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: LowBalanceSet,
) -> Response[EnvelopeALowBalanceOut | SimpleError]:
    """Set Low Balance

     The current workspace's low-balance threshold: below it the web app shows a banner and
    the payer gets one mail per fall below it. Those who buy the workspace's credits set it.

    Args:
        body (LowBalanceSet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeALowBalanceOut | SimpleError]
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
    body: LowBalanceSet,
) -> EnvelopeALowBalanceOut | SimpleError | None:
    """Set Low Balance

     The current workspace's low-balance threshold: below it the web app shows a banner and
    the payer gets one mail per fall below it. Those who buy the workspace's credits set it.

    Args:
        body (LowBalanceSet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeALowBalanceOut | SimpleError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: LowBalanceSet,
) -> Response[EnvelopeALowBalanceOut | SimpleError]:
    """Set Low Balance

     The current workspace's low-balance threshold: below it the web app shows a banner and
    the payer gets one mail per fall below it. Those who buy the workspace's credits set it.

    Args:
        body (LowBalanceSet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeALowBalanceOut | SimpleError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: LowBalanceSet,
) -> EnvelopeALowBalanceOut | SimpleError | None:
    """Set Low Balance

     The current workspace's low-balance threshold: below it the web app shows a banner and
    the payer gets one mail per fall below it. Those who buy the workspace's credits set it.

    Args:
        body (LowBalanceSet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeALowBalanceOut | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
