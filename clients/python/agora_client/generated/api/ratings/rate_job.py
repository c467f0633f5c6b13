from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.detailed_error import DetailedError
from ...models.envelope_b_rating_out import EnvelopeBRatingOut
from ...models.rating_create import RatingCreate
from ...types import Response


def _get_kwargs(
    *,
    body: RatingCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/ratings",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConflictError | DetailedError | EnvelopeBRatingOut | None:
    if response.status_code == 201:
        response_201 = EnvelopeBRatingOut.from_dict(response.json())

        return response_201

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
) -> Response[ConflictError | DetailedError | EnvelopeBRatingOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: RatingCreate,
) -> Response[ConflictError | DetailedError | EnvelopeBRatingOut]:
    """Rate Job

     Rate the agent that ran one of your jobs, once it ended COMPLETED or FAILED: 1-5 stars and
    an optional review. One rating per person per agent: the first is created (201); rating it
    again from a later job replaces yours (200); from the same or an earlier job: 409. Another
    person's job is a 404.

    Args:
        body (RatingCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBRatingOut]
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
    body: RatingCreate,
) -> ConflictError | DetailedError | EnvelopeBRatingOut | None:
    """Rate Job

     Rate the agent that ran one of your jobs, once it ended COMPLETED or FAILED: 1-5 stars and
    an optional review. One rating per person per agent: the first is created (201); rating it
    again from a later job replaces yours (200); from the same or an earlier job: 409. Another
    person's job is a 404.

    Args:
        body (RatingCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBRatingOut
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RatingCreate,
) -> Response[ConflictError | DetailedError | EnvelopeBRatingOut]:
    """Rate Job

     Rate the agent that ran one of your jobs, once it ended COMPLETED or FAILED: 1-5 stars and
    an optional review. One rating per person per agent: the first is created (201); rating it
    again from a later job replaces yours (200); from the same or an earlier job: 409. Another
    person's job is a 404.

    Args:
        body (RatingCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConflictError | DetailedError | EnvelopeBRatingOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: RatingCreate,
) -> ConflictError | DetailedError | EnvelopeBRatingOut | None:
    """Rate Job

     Rate the agent that ran one of your jobs, once it ended COMPLETED or FAILED: 1-5 stars and
    an optional review. One rating per person per agent: the first is created (201); rating it
    again from a later job replaces yours (200); from the same or an earlier job: 409. Another
    person's job is a 404.

    Args:
        body (RatingCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConflictError | DetailedError | EnvelopeBRatingOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
