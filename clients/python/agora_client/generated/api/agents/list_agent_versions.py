from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_blist_agent_version_out import EnvelopeBlistAgentVersionOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    agent_id: str,
    *,
    page: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

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

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/agents/{agent_id}/versions".format(
            agent_id=quote(str(agent_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBlistAgentVersionOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBlistAgentVersionOut.from_dict(response.json())

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
) -> Response[DetailedError | EnvelopeBlistAgentVersionOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient | Client,
    page: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> Response[DetailedError | EnvelopeBlistAgentVersionOut]:
    """List Agent Versions

     The agent's versions, newest first: number, changelog, created, price and input schema
    (no authentication; docs/developer.md, "Versions").

    Args:
        agent_id (str):
        page (int | None | Unset): Public shape: page
        limit (int | None | Unset): Items per page (default 20)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistAgentVersionOut]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        page=page,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    agent_id: str,
    *,
    client: AuthenticatedClient | Client,
    page: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> DetailedError | EnvelopeBlistAgentVersionOut | None:
    """List Agent Versions

     The agent's versions, newest first: number, changelog, created, price and input schema
    (no authentication; docs/developer.md, "Versions").

    Args:
        agent_id (str):
        page (int | None | Unset): Public shape: page
        limit (int | None | Unset): Items per page (default 20)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistAgentVersionOut
    """

    return sync_detailed(
        agent_id=agent_id,
        client=client,
        page=page,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient | Client,
    page: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> Response[DetailedError | EnvelopeBlistAgentVersionOut]:
    """List Agent Versions

     The agent's versions, newest first: number, changelog, created, price and input schema
    (no authentication; docs/developer.md, "Versions").

    Args:
        agent_id (str):
        page (int | None | Unset): Public shape: page
        limit (int | None | Unset): Items per page (default 20)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistAgentVersionOut]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        page=page,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    agent_id: str,
    *,
    client: AuthenticatedClient | Client,
    page: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> DetailedError | EnvelopeBlistAgentVersionOut | None:
    """List Agent Versions

     The agent's versions, newest first: number, changelog, created, price and input schema
    (no authentication; docs/developer.md, "Versions").

    Args:
        agent_id (str):
        page (int | None | Unset): Public shape: page
        limit (int | None | Unset): Items per page (default 20)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistAgentVersionOut
    """

    return (
        await asyncio_detailed(
            agent_id=agent_id,
            client=client,
            page=page,
            limit=limit,
        )
    ).parsed
