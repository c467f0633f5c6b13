from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: None | str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    else:
        json_from_ = from_
    params["from"] = json_from_

    json_to: None | str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    else:
        json_to = to
    params["to"] = json_to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/credits/spend/export",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> SimpleError | str | None:
    if response.status_code == 200:
        response_200 = response.text
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

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[SimpleError | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
) -> Response[SimpleError | str]:
    """Export Spend

     A period's spend as CSV, streamed: every credit captured for a job and every usage
    charge between `from` and `to` (this calendar month, UTC, when neither is given).

    Args:
        from_ (None | str | Unset): Start of the period (inclusive): a date (UTC midnight) or ISO
            8601 time.
        to (None | str | Unset): End of the period (exclusive): a date (UTC midnight) or ISO 8601
            time.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SimpleError | str]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
) -> SimpleError | str | None:
    """Export Spend

     A period's spend as CSV, streamed: every credit captured for a job and every usage
    charge between `from` and `to` (this calendar month, UTC, when neither is given).

    Args:
        from_ (None | str | Unset): Start of the period (inclusive): a date (UTC midnight) or ISO
            8601 time.
        to (None | str | Unset): End of the period (exclusive): a date (UTC midnight) or ISO 8601
            time.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SimpleError | str
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
) -> Response[SimpleError | str]:
    """Export Spend

     A period's spend as CSV, streamed: every credit captured for a job and every usage
    charge between `from` and `to` (this calendar month, UTC, when neither is given).

    Args:
        from_ (None | str | Unset): Start of the period (inclusive): a date (UTC midnight) or ISO
            8601 time.
        to (None | str | Unset): End of the period (exclusive): a date (UTC midnight) or ISO 8601
            time.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SimpleError | str]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
) -> SimpleError | str | None:
    """Export Spend

     A period's spend as CSV, streamed: every credit captured for a job and every usage
    charge between `from` and `to` (this calendar month, UTC, when neither is given).

    Args:
        from_ (None | str | Unset): Start of the period (inclusive): a date (UTC midnight) or ISO
            8601 time.
        to (None | str | Unset): End of the period (exclusive): a date (UTC midnight) or ISO 8601
            time.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SimpleError | str
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
        )
    ).parsed
