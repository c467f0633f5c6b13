from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.detailed_error import DetailedError
from ...models.report_create import ReportCreate
from ...types import Response


def _get_kwargs(
    rating_id: str,
    *,
    body: ReportCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/ratings/{rating_id}/reports".format(
            rating_id=quote(str(rating_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ConflictError | DetailedError | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | ConflictError | DetailedError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    rating_id: str,
    *,
    client: AuthenticatedClient,
    body: ReportCreate,
) -> Response[Any | ConflictError | DetailedError]:
    """Report Rating

     Report an abusive review to the operator (once per person).

    Args:
        rating_id (str):
        body (ReportCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ConflictError | DetailedError]
    """

    kwargs = _get_kwargs(
        rating_id=rating_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    rating_id: str,
    *,
    client: AuthenticatedClient,
    body: ReportCreate,
) -> Any | ConflictError | DetailedError | None:
    """Report Rating

     Report an abusive review to the operator (once per person).

    Args:
        rating_id (str):
        body (ReportCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ConflictError | DetailedError
    """

    return sync_detailed(
        rating_id=rating_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    rating_id: str,
    *,
    client: AuthenticatedClient,
    body: ReportCreate,
) -> Response[Any | ConflictError | DetailedError]:
    """Report Rating

     Report an abusive review to the operator (once per person).

    Args:
        rating_id (str):
        body (ReportCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ConflictError | DetailedError]
    """

    kwargs = _get_kwargs(
        rating_id=rating_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    rating_id: str,
    *,
    client: AuthenticatedClient,
    body: ReportCreate,
) -> Any | ConflictError | DetailedError | None:
    """Report Rating

     Report an abusive review to the operator (once per person).

    Args:
        rating_id (str):
        body (ReportCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ConflictError | DetailedError
    """

    return (
        await asyncio_detailed(
            rating_id=rating_id,
            client=client,
            body=body,
        )
    ).parsed
