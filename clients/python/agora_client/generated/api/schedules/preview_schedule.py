import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_occurrences_out import EnvelopeAOccurrencesOut
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cron: None | str | Unset = UNSET,
    interval_seconds: int | None | Unset = UNSET,
    timezone: str | Unset = "UTC",
    starts_at: datetime.datetime | None | Unset = UNSET,
    ends_at: datetime.datetime | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_cron: None | str | Unset
    if isinstance(cron, Unset):
        json_cron = UNSET
    else:
        json_cron = cron
    params["cron"] = json_cron

    json_interval_seconds: int | None | Unset
    if isinstance(interval_seconds, Unset):
        json_interval_seconds = UNSET
    else:
        json_interval_seconds = interval_seconds
    params["intervalSeconds"] = json_interval_seconds

    params["timezone"] = timezone

    json_starts_at: None | str | Unset
    if isinstance(starts_at, Unset):
        json_starts_at = UNSET
    elif isinstance(starts_at, datetime.datetime):
        json_starts_at = starts_at.isoformat()
    else:
        json_starts_at = starts_at
    params["startsAt"] = json_starts_at

    json_ends_at: None | str | Unset
    if isinstance(ends_at, Unset):
        json_ends_at = UNSET
    elif isinstance(ends_at, datetime.datetime):
        json_ends_at = ends_at.isoformat()
    else:
        json_ends_at = ends_at
    params["endsAt"] = json_ends_at

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/schedules/preview",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeAOccurrencesOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeAOccurrencesOut.from_dict(response.json())

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
) -> Response[EnvelopeAOccurrencesOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cron: None | str | Unset = UNSET,
    interval_seconds: int | None | Unset = UNSET,
    timezone: str | Unset = "UTC",
    starts_at: datetime.datetime | None | Unset = UNSET,
    ends_at: datetime.datetime | None | Unset = UNSET,
) -> Response[EnvelopeAOccurrencesOut | SimpleError]:
    """Preview Schedule

     The next five occurrences of a rule, before saving it (nothing is stored).

    Args:
        cron (None | str | Unset):  Example: 0 9 * * MON.
        interval_seconds (int | None | Unset):
        timezone (str | Unset):  Default: 'UTC'.
        starts_at (datetime.datetime | None | Unset):
        ends_at (datetime.datetime | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAOccurrencesOut | SimpleError]
    """

    kwargs = _get_kwargs(
        cron=cron,
        interval_seconds=interval_seconds,
        timezone=timezone,
        starts_at=starts_at,
        ends_at=ends_at,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cron: None | str | Unset = UNSET,
    interval_seconds: int | None | Unset = UNSET,
    timezone: str | Unset = "UTC",
    starts_at: datetime.datetime | None | Unset = UNSET,
    ends_at: datetime.datetime | None | Unset = UNSET,
) -> EnvelopeAOccurrencesOut | SimpleError | None:
    """Preview Schedule

     The next five occurrences of a rule, before saving it (nothing is stored).

    Args:
        cron (None | str | Unset):  Example: 0 9 * * MON.
        interval_seconds (int | None | Unset):
        timezone (str | Unset):  Default: 'UTC'.
        starts_at (datetime.datetime | None | Unset):
        ends_at (datetime.datetime | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAOccurrencesOut | SimpleError
    """

    return sync_detailed(
        client=client,
        cron=cron,
        interval_seconds=interval_seconds,
        timezone=timezone,
        starts_at=starts_at,
        ends_at=ends_at,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cron: None | str | Unset = UNSET,
    interval_seconds: int | None | Unset = UNSET,
    timezone: str | Unset = "UTC",
    starts_at: datetime.datetime | None | Unset = UNSET,
    ends_at: datetime.datetime | None | Unset = UNSET,
) -> Response[EnvelopeAOccurrencesOut | SimpleError]:
    """Preview Schedule

     The next five occurrences of a rule, before saving it (nothing is stored).

    Args:
        cron (None | str | Unset):  Example: 0 9 * * MON.
        interval_seconds (int | None | Unset):
        timezone (str | Unset):  Default: 'UTC'.
        starts_at (datetime.datetime | None | Unset):
        ends_at (datetime.datetime | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAOccurrencesOut | SimpleError]
    """

    kwargs = _get_kwargs(
        cron=cron,
        interval_seconds=interval_seconds,
        timezone=timezone,
        starts_at=starts_at,
        ends_at=ends_at,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cron: None | str | Unset = UNSET,
    interval_seconds: int | None | Unset = UNSET,
    timezone: str | Unset = "UTC",
    starts_at: datetime.datetime | None | Unset = UNSET,
    ends_at: datetime.datetime | None | Unset = UNSET,
) -> EnvelopeAOccurrencesOut | SimpleError | None:
    """Preview Schedule

     The next five occurrences of a rule, before saving it (nothing is stored).

    Args:
        cron (None | str | Unset):  Example: 0 9 * * MON.
        interval_seconds (int | None | Unset):
        timezone (str | Unset):  Default: 'UTC'.
        starts_at (datetime.datetime | None | Unset):
        ends_at (datetime.datetime | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAOccurrencesOut | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
            cron=cron,
            interval_seconds=interval_seconds,
            timezone=timezone,
            starts_at=starts_at,
            ends_at=ends_at,
        )
    ).parsed
