from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_member_out import EnvelopeAMemberOut
from ...models.role_in import RoleIn
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    org_id: str,
    user_id: str,
    *,
    body: RoleIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/organizations/{org_id}/members/{user_id}".format(
            org_id=quote(str(org_id), safe=""),
            user_id=quote(str(user_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeAMemberOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeAMemberOut.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = SimpleError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = SimpleError.from_dict(response.json())

        return response_415

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EnvelopeAMemberOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    org_id: str,
    user_id: str,
    *,
    client: AuthenticatedClient,
    body: RoleIn,
) -> Response[EnvelopeAMemberOut | SimpleError]:
    """Change Role

     Change a member's role (owners only; the last owner cannot step down).

    Args:
        org_id (str):
        user_id (str):
        body (RoleIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAMemberOut | SimpleError]
    """

    kwargs = _get_kwargs(
        org_id=org_id,
        user_id=user_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    org_id: str,
    user_id: str,
    *,
    client: AuthenticatedClient,
    body: RoleIn,
) -> EnvelopeAMemberOut | SimpleError | None:
    """Change Role

     Change a member's role (owners only; the last owner cannot step down).

    Args:
        org_id (str):
        user_id (str):
        body (RoleIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAMemberOut | SimpleError
    """

    return sync_detailed(
        org_id=org_id,
        user_id=user_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    org_id: str,
    user_id: str,
    *,
    client: AuthenticatedClient,
    body: RoleIn,
) -> Response[EnvelopeAMemberOut | SimpleError]:
    """Change Role

     Change a member's role (owners only; the last owner cannot step down).

    Args:
        org_id (str):
        user_id (str):
        body (RoleIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAMemberOut | SimpleError]
    """

    kwargs = _get_kwargs(
        org_id=org_id,
        user_id=user_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    org_id: str,
    user_id: str,
    *,
    client: AuthenticatedClient,
    body: RoleIn,
) -> EnvelopeAMemberOut | SimpleError | None:
    """Change Role

     Change a member's role (owners only; the last owner cannot step down).

    Args:
        org_id (str):
        user_id (str):
        body (RoleIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAMemberOut | SimpleError
    """

    return (
        await asyncio_detailed(
            org_id=org_id,
            user_id=user_id,
            client=client,
            body=body,
        )
    ).parsed
