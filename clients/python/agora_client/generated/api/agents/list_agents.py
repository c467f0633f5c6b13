from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_alist_agent_out import EnvelopeAlistAgentOut
from ...models.envelope_blist_agent_out import EnvelopeBlistAgentOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: None | str | Unset = UNSET,
    page: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    category: list[str] | None | Unset = UNSET,
    q: None | str | Unset = UNSET,
    sort: None | str | Unset = UNSET,
    featured: bool | Unset = False,
    conformant: bool | Unset = False,
    favourites: bool | Unset = False,
    hired_before: bool | Unset = False,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    else:
        json_status = status
    params["status"] = json_status

    json_page: int | None | Unset
    if isinstance(page, Unset):
        json_page = UNSET
    else:
        json_page = page
    params["page"] = json_page

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_category: list[str] | None | Unset
    if isinstance(category, Unset):
        json_category = UNSET
    elif isinstance(category, list):
        json_category = category

    else:
        json_category = category
    params["category"] = json_category

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

    json_sort: None | str | Unset
    if isinstance(sort, Unset):
        json_sort = UNSET
    else:
        json_sort = sort
    params["sort"] = json_sort

    params["featured"] = featured

    params["conformant"] = conformant

    params["favourites"] = favourites

    params["hiredBefore"] = hired_before

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/agents",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeAlistAgentOut | EnvelopeBlistAgentOut | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> EnvelopeAlistAgentOut | EnvelopeBlistAgentOut:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = EnvelopeBlistAgentOut.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = EnvelopeAlistAgentOut.from_dict(data)

            return response_200_type_1

        response_200 = _parse_response_200(response.json())

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

    if response.status_code == 429:
        response_429 = DetailedError.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = DetailedError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DetailedError | EnvelopeAlistAgentOut | EnvelopeBlistAgentOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: None | str | Unset = UNSET,
    page: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    category: list[str] | None | Unset = UNSET,
    q: None | str | Unset = UNSET,
    sort: None | str | Unset = UNSET,
    featured: bool | Unset = False,
    conformant: bool | Unset = False,
    favourites: bool | Unset = False,
    hired_before: bool | Unset = False,
) -> Response[DetailedError | EnvelopeAlistAgentOut | EnvelopeBlistAgentOut]:
    """List Agents

     List agents. Without credentials: the public, rate-limited listing. With Bearer: the
    cursor listing of available agents. With x-api-key: every available agent (Envelope A).

    Args:
        status (None | str | Unset): Public shape: PENDING, VERIFIED (default), REVOKED, EXPIRED
        page (int | None | Unset): Public shape: page
        limit (int | None | Unset): Items per page (default 20)
        cursor (None | str | Unset): Bearer shape: id of the last item
        category (list[str] | None | Unset): Category slugs, repeated or comma-separated;
            'uncategorized' = none
        q (None | str | Unset): Text search in name, description and tags
        sort (None | str | Unset): relevance (needs q), rating (Bayesian average), popularity
            (completed jobs, last 30 days), newest, price (lowest first), featured; default:
            registration
        featured (bool | Unset): Only the operator's featured agents Default: False.
        conformant (bool | Unset): Only agents holding the Conformant badge (docs/agents.md)
            Default: False.
        favourites (bool | Unset): Bearer shape: only your favourites Default: False.
        hired_before (bool | Unset): Bearer shape: only agents you hired before Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeAlistAgentOut | EnvelopeBlistAgentOut]
    """

    kwargs = _get_kwargs(
        status=status,
        page=page,
        limit=limit,
        cursor=cursor,
        category=category,
        q=q,
        sort=sort,
        featured=featured,
        conformant=conformant,
        favourites=favourites,
        hired_before=hired_before,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: None | str | Unset = UNSET,
    page: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    category: list[str] | None | Unset = UNSET,
    q: None | str | Unset = UNSET,
    sort: None | str | Unset = UNSET,
    featured: bool | Unset = False,
    conformant: bool | Unset = False,
    favourites: bool | Unset = False,
    hired_before: bool | Unset = False,
) -> DetailedError | EnvelopeAlistAgentOut | EnvelopeBlistAgentOut | None:
    """List Agents

     List agents. Without credentials: the public, rate-limited listing. With Bearer: the
    cursor listing of available agents. With x-api-key: every available agent (Envelope A).

    Args:
        status (None | str | Unset): Public shape: PENDING, VERIFIED (default), REVOKED, EXPIRED
        page (int | None | Unset): Public shape: page
        limit (int | None | Unset): Items per page (default 20)
        cursor (None | str | Unset): Bearer shape: id of the last item
        category (list[str] | None | Unset): Category slugs, repeated or comma-separated;
            'uncategorized' = none
        q (None | str | Unset): Text search in name, description and tags
        sort (None | str | Unset): relevance (needs q), rating (Bayesian average), popularity
            (completed jobs, last 30 days), newest, price (lowest first), featured; default:
            registration
        featured (bool | Unset): Only the operator's featured agents Default: False.
        conformant (bool | Unset): Only agents holding the Conformant badge (docs/agents.md)
            Default: False.
        favourites (bool | Unset): Bearer shape: only your favourites Default: False.
        hired_before (bool | Unset): Bearer shape: only agents you hired before Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeAlistAgentOut | EnvelopeBlistAgentOut
    """

    return sync_detailed(
        client=client,
        status=status,
        page=page,
        limit=limit,
        cursor=cursor,
        category=category,
        q=q,
        sort=sort,
        featured=featured,
        conformant=conformant,
        favourites=favourites,
        hired_before=hired_before,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: None | str | Unset = UNSET,
    page: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    category: list[str] | None | Unset = UNSET,
    q: None | str | Unset = UNSET,
    sort: None | str | Unset = UNSET,
    featured: bool | Unset = False,
    conformant: bool | Unset = False,
    favourites: bool | Unset = False,
    hired_before: bool | Unset = False,
) -> Response[DetailedError | EnvelopeAlistAgentOut | EnvelopeBlistAgentOut]:
    """List Agents

     List agents. Without credentials: the public, rate-limited listing. With Bearer: the
    cursor listing of available agents. With x-api-key: every available agent (Envelope A).

    Args:
        status (None | str | Unset): Public shape: PENDING, VERIFIED (default), REVOKED, EXPIRED
        page (int | None | Unset): Public shape: page
        limit (int | None | Unset): Items per page (default 20)
        cursor (None | str | Unset): Bearer shape: id of the last item
        category (list[str] | None | Unset): Category slugs, repeated or comma-separated;
            'uncategorized' = none
        q (None | str | Unset): Text search in name, description and tags
        sort (None | str | Unset): relevance (needs q), rating (Bayesian average), popularity
            (completed jobs, last 30 days), newest, price (lowest first), featured; default:
            registration
        featured (bool | Unset): Only the operator's featured agents Default: False.
        conformant (bool | Unset): Only agents holding the Conformant badge (docs/agents.md)
            Default: False.
        favourites (bool | Unset): Bearer shape: only your favourites Default: False.
        hired_before (bool | Unset): Bearer shape: only agents you hired before Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeAlistAgentOut | EnvelopeBlistAgentOut]
    """

    kwargs = _get_kwargs(
        status=status,
        page=page,
        limit=limit,
        cursor=cursor,
        category=category,
        q=q,
        sort=sort,
        featured=featured,
        conformant=conformant,
        favourites=favourites,
        hired_before=hired_before,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: None | str | Unset = UNSET,
    page: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    category: list[str] | None | Unset = UNSET,
    q: None | str | Unset = UNSET,
    sort: None | str | Unset = UNSET,
    featured: bool | Unset = False,
    conformant: bool | Unset = False,
    favourites: bool | Unset = False,
    hired_before: bool | Unset = False,
) -> DetailedError | EnvelopeAlistAgentOut | EnvelopeBlistAgentOut | None:
    """List Agents

     List agents. Without credentials: the public, rate-limited listing. With Bearer: the
    cursor listing of available agents. With x-api-key: every available agent (Envelope A).

    Args:
        status (None | str | Unset): Public shape: PENDING, VERIFIED (default), REVOKED, EXPIRED
        page (int | None | Unset): Public shape: page
        limit (int | None | Unset): Items per page (default 20)
        cursor (None | str | Unset): Bearer shape: id of the last item
        category (list[str] | None | Unset): Category slugs, repeated or comma-separated;
            'uncategorized' = none
        q (None | str | Unset): Text search in name, description and tags
        sort (None | str | Unset): relevance (needs q), rating (Bayesian average), popularity
            (completed jobs, last 30 days), newest, price (lowest first), featured; default:
            registration
        featured (bool | Unset): Only the operator's featured agents Default: False.
        conformant (bool | Unset): Only agents holding the Conformant badge (docs/agents.md)
            Default: False.
        favourites (bool | Unset): Bearer shape: only your favourites Default: False.
        hired_before (bool | Unset): Bearer shape: only agents you hired before Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeAlistAgentOut | EnvelopeBlistAgentOut
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            page=page,
            limit=limit,
            cursor=cursor,
            category=category,
            q=q,
            sort=sort,
            featured=featured,
            conformant=conformant,
            favourites=favourites,
            hired_before=hired_before,
        )
    ).parsed
