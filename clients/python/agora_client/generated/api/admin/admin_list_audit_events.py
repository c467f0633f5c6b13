from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detailed_error import DetailedError
from ...models.envelope_blist_audit_event_out import EnvelopeBlistAuditEventOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
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

    params["page"] = page

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/audit-events",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetailedError | EnvelopeBlistAuditEventOut | None:
    if response.status_code == 200:
        response_200 = EnvelopeBlistAuditEventOut.from_dict(response.json())

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
) -> Response[DetailedError | EnvelopeBlistAuditEventOut]:
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
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> Response[DetailedError | EnvelopeBlistAuditEventOut]:
    """List All

     The whole audit log, newest first.

    Args:
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistAuditEventOut]
    """

    kwargs = _get_kwargs(
        action=action,
        actor_id=actor_id,
        target_id=target_id,
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
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> DetailedError | EnvelopeBlistAuditEventOut | None:
    """List All

     The whole audit log, newest first.

    Args:
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistAuditEventOut
    """

    return sync_detailed(
        client=client,
        action=action,
        actor_id=actor_id,
        target_id=target_id,
        page=page,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> Response[DetailedError | EnvelopeBlistAuditEventOut]:
    """List All

     The whole audit log, newest first.

    Args:
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetailedError | EnvelopeBlistAuditEventOut]
    """

    kwargs = _get_kwargs(
        action=action,
        actor_id=actor_id,
        target_id=target_id,
        page=page,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    limit: int | Unset = 20,
) -> DetailedError | EnvelopeBlistAuditEventOut | None:
    """List All

     The whole audit log, newest first.

    Args:
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):
        page (int | Unset): Page number, from 1 Default: 1.
        limit (int | Unset): Items per page (1 to 100) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetailedError | EnvelopeBlistAuditEventOut
    """

    return (
        await asyncio_detailed(
            client=client,
            action=action,
            actor_id=actor_id,
            target_id=target_id,
            page=page,
            limit=limit,
        )
    ).parsed
