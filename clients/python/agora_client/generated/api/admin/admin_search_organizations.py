from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_blist_admin_organization_out import EnvelopeBlistAdminOrganizationOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    q: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

    params["page"] = page

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/organizations",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBlistAdminOrganizationOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBlistAdminOrganizationOut.from_dict(response.json())

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

    if response.status_code == 500:
        response_500 = DetailedError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DetailedError | EnvelopeBlistAdminOrganizationOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> Response[DetailedError | EnvelopeBlistAdminOrganizationOut]:
    """Search Organizations

     Organizations by id, name or slug (newest first).

    Args:
        q (None | str | Unset): id, or part of name/slug
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistAdminOrganizationOut]
    """

    kwargs = _get_kwargs(
        q=q,
        page=page,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> DetailedError | EnvelopeBlistAdminOrganizationOut | None:
    """Search Organizations

     Organizations by id, name or slug (newest first).

    Args:
        q (None | str | Unset): id, or part of name/slug
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistAdminOrganizationOut
    """

    return sync_detailed(
        client=client,
        q=q,
        page=page,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> Response[DetailedError | EnvelopeBlistAdminOrganizationOut]:
    """Search Organizations

     Organizations by id, name or slug (newest first).

    Args:
        q (None | str | Unset): id, or part of name/slug
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistAdminOrganizationOut]
    """

    kwargs = _get_kwargs(
        q=q,
        page=page,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> DetailedError | EnvelopeBlistAdminOrganizationOut | None:
    """Search Organizations

     Organizations by id, name or slug (newest first).

    Args:
        q (None | str | Unset): id, or part of name/slug
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistAdminOrganizationOut
    """

    return (
        await asyncio_detailed(
            client=client,
            q=q,
            page=page,
            limit=limit,
        )
    ).parsed
