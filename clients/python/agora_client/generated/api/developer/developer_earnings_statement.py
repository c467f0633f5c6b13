from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_b_statement_out import EnvelopeBStatementOut
from ...types import Response


def _get_kwargs(
    period: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/developer/earnings/statements/{period}".format(
            period=quote(str(period), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBStatementOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBStatementOut.from_dict(response.json())

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
) -> Response[DetailedError | EnvelopeBStatementOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    period: str,
    *,
    client: AuthenticatedClient,
) -> Response[DetailedError | EnvelopeBStatementOut]:
    """Get Statement

     A month's statement (UTC): per agent the earnings, refunds, marketplace fees and net;
    the payouts made that month.

    Args:
        period (str): A UTC month, YYYY-MM

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBStatementOut]
    """

    kwargs = _get_kwargs(
        period=period,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    period: str,
    *,
    client: AuthenticatedClient,
) -> DetailedError | EnvelopeBStatementOut | None:
    """Get Statement

     A month's statement (UTC): per agent the earnings, refunds, marketplace fees and net;
    the payouts made that month.

    Args:
        period (str): A UTC month, YYYY-MM

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBStatementOut
    """

    return sync_detailed(
        period=period,
        client=client,
    ).parsed


async def asyncio_detailed(
    period: str,
    *,
    client: AuthenticatedClient,
) -> Response[DetailedError | EnvelopeBStatementOut]:
    """Get Statement

     A month's statement (UTC): per agent the earnings, refunds, marketplace fees and net;
    the payouts made that month.

    Args:
        period (str): A UTC month, YYYY-MM

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBStatementOut]
    """

    kwargs = _get_kwargs(
        period=period,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    period: str,
    *,
    client: AuthenticatedClient,
) -> DetailedError | EnvelopeBStatementOut | None:
    """Get Statement

     A month's statement (UTC): per agent the earnings, refunds, marketplace fees and net;
    the payouts made that month.

    Args:
        period (str): A UTC month, YYYY-MM

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBStatementOut
    """

    return (
        await asyncio_detailed(
            period=period,
            client=client,
        )
    ).parsed
