from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_created_invitation_out import EnvelopeACreatedInvitationOut
from ...models.invitation_in import InvitationIn
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    org_id: str,
    *,
    body: InvitationIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/organizations/{org_id}/invitations".format(
            org_id=quote(str(org_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeACreatedInvitationOut | SimpleError | None:
    if response.status_code == 201:
        response_201 = EnvelopeACreatedInvitationOut.from_dict(response.json())

        return response_201

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
) -> Response[EnvelopeACreatedInvitationOut | SimpleError]:
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
    body: InvitationIn,
) -> Response[EnvelopeACreatedInvitationOut | SimpleError]:
    """Create Invitation

     Invite by email (a single-use link mailed to that address; only that account may accept)
    or create a shareable link (no email; ``maxUses`` people may join with it). The token and
    link are in this response only.

    Args:
        org_id (str):
        body (InvitationIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeACreatedInvitationOut | SimpleError]
    """

    kwargs = _get_kwargs(
        org_id=org_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    org_id: str,
    *,
    client: AuthenticatedClient,
    body: InvitationIn,
) -> EnvelopeACreatedInvitationOut | SimpleError | None:
    """Create Invitation

     Invite by email (a single-use link mailed to that address; only that account may accept)
    or create a shareable link (no email; ``maxUses`` people may join with it). The token and
    link are in this response only.

    Args:
        org_id (str):
        body (InvitationIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeACreatedInvitationOut | SimpleError
    """

    return sync_detailed(
        org_id=org_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    org_id: str,
    *,
    client: AuthenticatedClient,
    body: InvitationIn,
) -> Response[EnvelopeACreatedInvitationOut | SimpleError]:
    """Create Invitation

     Invite by email (a single-use link mailed to that address; only that account may accept)
    or create a shareable link (no email; ``maxUses`` people may join with it). The token and
    link are in this response only.

    Args:
        org_id (str):
        body (InvitationIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeACreatedInvitationOut | SimpleError]
    """

    kwargs = _get_kwargs(
        org_id=org_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    org_id: str,
    *,
    client: AuthenticatedClient,
    body: InvitationIn,
) -> EnvelopeACreatedInvitationOut | SimpleError | None:
    """Create Invitation

     Invite by email (a single-use link mailed to that address; only that account may accept)
    or create a shareable link (no email; ``maxUses`` people may join with it). The token and
    link are in this response only.

    Args:
        org_id (str):
        body (InvitationIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeACreatedInvitationOut | SimpleError
    """

    return (
        await asyncio_detailed(
            org_id=org_id,
            client=client,
            body=body,
        )
    ).parsed
