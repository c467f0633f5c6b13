from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    report_id: str,
    *,
    remove_review: bool | Unset = False,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["removeReview"] = remove_review

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/rating-reports/{report_id}/resolve".format(
            report_id=quote(str(report_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | DetailedError | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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
) -> Response[Any | DetailedError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    report_id: str,
    *,
    client: AuthenticatedClient,
    remove_review: bool | Unset = False,
) -> Response[Any | DetailedError]:
    """Resolve Report

     Close a report; `removeReview=true` also removes the review's text (the stars stay).

    Args:
        report_id (str):
        remove_review (bool | Unset): Also remove the review's text Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | DetailedError]
    """

    kwargs = _get_kwargs(
        report_id=report_id,
        remove_review=remove_review,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    report_id: str,
    *,
    client: AuthenticatedClient,
    remove_review: bool | Unset = False,
) -> Any | DetailedError | None:
    """Resolve Report

     Close a report; `removeReview=true` also removes the review's text (the stars stay).

    Args:
        report_id (str):
        remove_review (bool | Unset): Also remove the review's text Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | DetailedError
    """

    return sync_detailed(
        report_id=report_id,
        client=client,
        remove_review=remove_review,
    ).parsed


async def asyncio_detailed(
    report_id: str,
    *,
    client: AuthenticatedClient,
    remove_review: bool | Unset = False,
) -> Response[Any | DetailedError]:
    """Resolve Report

     Close a report; `removeReview=true` also removes the review's text (the stars stay).

    Args:
        report_id (str):
        remove_review (bool | Unset): Also remove the review's text Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | DetailedError]
    """

    kwargs = _get_kwargs(
        report_id=report_id,
        remove_review=remove_review,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    report_id: str,
    *,
    client: AuthenticatedClient,
    remove_review: bool | Unset = False,
) -> Any | DetailedError | None:
    """Resolve Report

     Close a report; `removeReview=true` also removes the review's text (the stars stay).

    Args:
        report_id (str):
        remove_review (bool | Unset): Also remove the review's text Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | DetailedError
    """

    return (
        await asyncio_detailed(
            report_id=report_id,
            client=client,
            remove_review=remove_review,
        )
    ).parsed
