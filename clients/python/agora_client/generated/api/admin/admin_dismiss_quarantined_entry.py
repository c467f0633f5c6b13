from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.dismiss_in import DismissIn
from ...models.envelope_b_dismissed_out import EnvelopeBDismissedOut
from ...types import Response


def _get_kwargs(
    entry_id: str,
    *,
    body: DismissIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/registry/quarantine/{entry_id}/dismiss".format(
            entry_id=quote(str(entry_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBDismissedOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBDismissedOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = DetailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = DetailedError.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = DetailedError.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = DetailedError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = DetailedError.from_dict(response.json())

        return response_415

    if response.status_code == 500:
        response_500 = DetailedError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DetailedError | EnvelopeBDismissedOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    entry_id: str,
    *,
    client: AuthenticatedClient,
    body: DismissIn,
) -> Response[DetailedError | EnvelopeBDismissedOut]:
    """Dismiss Quarantined

     Take the entry out of the quarantine with a reason; the next sync leaves the same
    unchanged entry alone (a changed one is quarantined again). Audited (``registry.dismissed``).

    Args:
        entry_id (str):
        body (DismissIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBDismissedOut]
    """

    kwargs = _get_kwargs(
        entry_id=entry_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    entry_id: str,
    *,
    client: AuthenticatedClient,
    body: DismissIn,
) -> DetailedError | EnvelopeBDismissedOut | None:
    """Dismiss Quarantined

     Take the entry out of the quarantine with a reason; the next sync leaves the same
    unchanged entry alone (a changed one is quarantined again). Audited (``registry.dismissed``).

    Args:
        entry_id (str):
        body (DismissIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBDismissedOut
    """

    return sync_detailed(
        entry_id=entry_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    entry_id: str,
    *,
    client: AuthenticatedClient,
    body: DismissIn,
) -> Response[DetailedError | EnvelopeBDismissedOut]:
    """Dismiss Quarantined

     Take the entry out of the quarantine with a reason; the next sync leaves the same
    unchanged entry alone (a changed one is quarantined again). Audited (``registry.dismissed``).

    Args:
        entry_id (str):
        body (DismissIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBDismissedOut]
    """

    kwargs = _get_kwargs(
        entry_id=entry_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    entry_id: str,
    *,
    client: AuthenticatedClient,
    body: DismissIn,
) -> DetailedError | EnvelopeBDismissedOut | None:
    """Dismiss Quarantined

     Take the entry out of the quarantine with a reason; the next sync leaves the same
    unchanged entry alone (a changed one is quarantined again). Audited (``registry.dismissed``).

    Args:
        entry_id (str):
        body (DismissIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBDismissedOut
    """

    return (
        await asyncio_detailed(
            entry_id=entry_id,
            client=client,
            body=body,
        )
    ).parsed
