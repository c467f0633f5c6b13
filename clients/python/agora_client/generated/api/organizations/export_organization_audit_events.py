from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    org_id: str,
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
        "url": "/v1/organizations/{org_id}/audit-events/export".format(
            org_id=quote(str(org_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> SimpleError | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = SimpleError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = SimpleError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = SimpleError.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = SimpleError.from_dict(response.json())

        return response_404

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[SimpleError | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    org_id: str,
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
) -> Response[SimpleError | str]:
    """Export Organization

     The organization's audit log as CSV (owners and admins; others 404).

    Args:
        org_id (str):
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SimpleError | str]
    """

    kwargs = _get_kwargs(
        org_id=org_id,
        action=action,
        actor_id=actor_id,
        target_id=target_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    org_id: str,
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
) -> SimpleError | str | None:
    """Export Organization

     The organization's audit log as CSV (owners and admins; others 404).

    Args:
        org_id (str):
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SimpleError | str
    """

    return sync_detailed(
        org_id=org_id,
        client=client,
        action=action,
        actor_id=actor_id,
        target_id=target_id,
    ).parsed


async def asyncio_detailed(
    org_id: str,
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
) -> Response[SimpleError | str]:
    """Export Organization

     The organization's audit log as CSV (owners and admins; others 404).

    Args:
        org_id (str):
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SimpleError | str]
    """

    kwargs = _get_kwargs(
        org_id=org_id,
        action=action,
        actor_id=actor_id,
        target_id=target_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    org_id: str,
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | str | Unset = UNSET,
    target_id: None | str | Unset = UNSET,
) -> SimpleError | str | None:
    """Export Organization

     The organization's audit log as CSV (owners and admins; others 404).

    Args:
        org_id (str):
        action (None | str | Unset): e.g. key.created
        actor_id (None | str | Unset): a user id
        target_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SimpleError | str
    """

    return (
        await asyncio_detailed(
            org_id=org_id,
            client=client,
            action=action,
            actor_id=actor_id,
            target_id=target_id,
        )
    ).parsed
