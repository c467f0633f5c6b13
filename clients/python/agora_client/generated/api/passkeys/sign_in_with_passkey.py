from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_signed_in_out import EnvelopeASignedInOut
from ...models.passkey_assertion_in import PasskeyAssertionIn
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    *,
    body: PasskeyAssertionIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/auth/passkeys/sign-in",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeASignedInOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeASignedInOut.from_dict(response.json())

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
) -> Response[EnvelopeASignedInOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PasskeyAssertionIn,
) -> Response[EnvelopeASignedInOut | SimpleError]:
    """Sign In With Passkey

     Finish a passkey sign-in with the browser's answer: sets the cookies like
    ``POST /v1/auth/sign-in``. A spent or unknown challenge → 400 naming ``challenge``; a
    passkey not registered here, a bad signature or a counter that went back → 401.

    Args:
        body (PasskeyAssertionIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeASignedInOut | SimpleError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: PasskeyAssertionIn,
) -> EnvelopeASignedInOut | SimpleError | None:
    """Sign In With Passkey

     Finish a passkey sign-in with the browser's answer: sets the cookies like
    ``POST /v1/auth/sign-in``. A spent or unknown challenge → 400 naming ``challenge``; a
    passkey not registered here, a bad signature or a counter that went back → 401.

    Args:
        body (PasskeyAssertionIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeASignedInOut | SimpleError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PasskeyAssertionIn,
) -> Response[EnvelopeASignedInOut | SimpleError]:
    """Sign In With Passkey

     Finish a passkey sign-in with the browser's answer: sets the cookies like
    ``POST /v1/auth/sign-in``. A spent or unknown challenge → 400 naming ``challenge``; a
    passkey not registered here, a bad signature or a counter that went back → 401.

    Args:
        body (PasskeyAssertionIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeASignedInOut | SimpleError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: PasskeyAssertionIn,
) -> EnvelopeASignedInOut | SimpleError | None:
    """Sign In With Passkey

     Finish a passkey sign-in with the browser's answer: sets the cookies like
    ``POST /v1/auth/sign-in``. A spent or unknown challenge → 400 naming ``challenge``; a
    passkey not registered here, a bad signature or a counter that went back → 401.

    Args:
        body (PasskeyAssertionIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeASignedInOut | SimpleError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
