from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job_id: str,
    *,
    last_event_id: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/jobs/{job_id}/stream".format(
            job_id=quote(str(job_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
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

    if response.status_code == 404:
        response_404 = SimpleError.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = SimpleError.from_dict(response.json())

        return response_429

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
) -> Response[SimpleError | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job_id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: None | str | Unset = UNSET,
) -> Response[SimpleError | str]:
    """Stream Job Events

     The job's events live (server-sent events), resumable with `Last-Event-ID`. Events
    arrive as they are committed, from any process (PostgreSQL LISTEN/NOTIFY; docs/web.md);
    429 with `Retry-After` when the key (or the user) has too many streams open, 503 with
    `Retry-After` when this server has.

    Args:
        job_id (str):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SimpleError | str]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job_id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: None | str | Unset = UNSET,
) -> SimpleError | str | None:
    """Stream Job Events

     The job's events live (server-sent events), resumable with `Last-Event-ID`. Events
    arrive as they are committed, from any process (PostgreSQL LISTEN/NOTIFY; docs/web.md);
    429 with `Retry-After` when the key (or the user) has too many streams open, 503 with
    `Retry-After` when this server has.

    Args:
        job_id (str):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SimpleError | str
    """

    return sync_detailed(
        job_id=job_id,
        client=client,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    job_id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: None | str | Unset = UNSET,
) -> Response[SimpleError | str]:
    """Stream Job Events

     The job's events live (server-sent events), resumable with `Last-Event-ID`. Events
    arrive as they are committed, from any process (PostgreSQL LISTEN/NOTIFY; docs/web.md);
    429 with `Retry-After` when the key (or the user) has too many streams open, 503 with
    `Retry-After` when this server has.

    Args:
        job_id (str):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SimpleError | str]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job_id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: None | str | Unset = UNSET,
) -> SimpleError | str | None:
    """Stream Job Events

     The job's events live (server-sent events), resumable with `Last-Event-ID`. Events
    arrive as they are committed, from any process (PostgreSQL LISTEN/NOTIFY; docs/web.md);
    429 with `Retry-After` when the key (or the user) has too many streams open, 503 with
    `Retry-After` when this server has.

    Args:
        job_id (str):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SimpleError | str
    """

    return (
        await asyncio_detailed(
            job_id=job_id,
            client=client,
            last_event_id=last_event_id,
        )
    ).parsed
