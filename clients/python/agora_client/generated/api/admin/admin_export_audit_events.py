from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_action: None | str | Unset
    if isinstance(action, Unset):
        json_action = UNSET
    else:
        json_action = action
    params["action"] = json_action

    json_actor_id: None | str | Unset
    if isinstance(actor_id, Unset):
        json_actor_id = UNSET
    else:
        json_actor_id = actor_id
    params["actorId"] = json_actor_id

    json_target_id: None | str | Unset
    if isinstance(target_id, Unset):
        json_target_id = UNSET
    else:
        json_target_id = target_id
    params["targetId"] = json_target_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/audit-events/export",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | str | None:
    if response.status_code == 200:
        response_200 = response.text
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
) -> Response[DetailedError | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
) -> Response[DetailedError | str]:
    """Export All

     The audit log as CSV (newest first, at most 10,000 rows).

    Args:
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | str]
    """

    kwargs = _get_kwargs(
        action=action,
        actor_id=actor_id,
        target_id=target_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
) -> DetailedError | str | None:
    """Export All

     The audit log as CSV (newest first, at most 10,000 rows).

    Args:
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | str
    """

    return sync_detailed(
        client=client,
        action=action,
        actor_id=actor_id,
        target_id=target_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
) -> Response[DetailedError | str]:
    """Export All

     The audit log as CSV (newest first, at most 10,000 rows).

    Args:
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | str]
    """

    kwargs = _get_kwargs(
        action=action,
        actor_id=actor_id,
        target_id=target_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
) -> DetailedError | str | None:
    """Export All

     The audit log as CSV (newest first, at most 10,000 rows).

    Args:
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | str
    """

    return (
        await asyncio_detailed(
            client=client,
            action=action,
            actor_id=actor_id,
            target_id=target_id,
        )
    ).parsed
