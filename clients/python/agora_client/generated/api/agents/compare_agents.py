from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_blist_compared_agent_out import EnvelopeBlistComparedAgentOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    ids: list[str] | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_ids: list[str] | None | Unset
    if isinstance(ids, Unset):
        json_ids = UNSET
    elif isinstance(ids, list):
        json_ids = ids

    else:
        json_ids = ids
    params["ids"] = json_ids

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/agents/compare",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBlistComparedAgentOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBlistComparedAgentOut.from_dict(response.json())

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
) -> Response[DetailedError | EnvelopeBlistComparedAgentOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    ids: list[str] | None | Unset = UNSET,
) -> Response[DetailedError | EnvelopeBlistComparedAgentOut]:
    """Compare Agents

     Agents side by side: price, rating, p50 duration, failure rate, completed jobs in the last
    30 days, availability (the latest check) and input fields (no authentication).

    Args:
        ids (list[str] | None | Unset): 1 to 3 agent ids, repeated or comma-separated

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistComparedAgentOut]
    """

    kwargs = _get_kwargs(
        ids=ids,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    ids: list[str] | None | Unset = UNSET,
) -> DetailedError | EnvelopeBlistComparedAgentOut | None:
    """Compare Agents

     Agents side by side: price, rating, p50 duration, failure rate, completed jobs in the last
    30 days, availability (the latest check) and input fields (no authentication).

    Args:
        ids (list[str] | None | Unset): 1 to 3 agent ids, repeated or comma-separated

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistComparedAgentOut
    """

    return sync_detailed(
        client=client,
        ids=ids,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    ids: list[str] | None | Unset = UNSET,
) -> Response[DetailedError | EnvelopeBlistComparedAgentOut]:
    """Compare Agents

     Agents side by side: price, rating, p50 duration, failure rate, completed jobs in the last
    30 days, availability (the latest check) and input fields (no authentication).

    Args:
        ids (list[str] | None | Unset): 1 to 3 agent ids, repeated or comma-separated

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistComparedAgentOut]
    """

    kwargs = _get_kwargs(
        ids=ids,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    ids: list[str] | None | Unset = UNSET,
) -> DetailedError | EnvelopeBlistComparedAgentOut | None:
    """Compare Agents

     Agents side by side: price, rating, p50 duration, failure rate, completed jobs in the last
    30 days, availability (the latest check) and input fields (no authentication).

    Args:
        ids (list[str] | None | Unset): 1 to 3 agent ids, repeated or comma-separated

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistComparedAgentOut
    """

    return (
        await asyncio_detailed(
            client=client,
            ids=ids,
        )
    ).parsed
