from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_a_job_out import EnvelopeAJobOut
from ...models.job_share_request import JobShareRequest
from ...models.simple_error import SimpleError
from ...types import Response


def _get_kwargs(
    job_id: str,
    *,
    body: JobShareRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/jobs/{job_id}/share".format(
            job_id=quote(str(job_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeAJobOut | SimpleError | None:
    if response.status_code == 200:
        response_200 = EnvelopeAJobOut.from_dict(response.json())

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
) -> Response[EnvelopeAJobOut | SimpleError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job_id: str,
    *,
    client: AuthenticatedClient,
    body: JobShareRequest,
) -> Response[EnvelopeAJobOut | SimpleError]:
    """Share Job

     Share an existing job (as `jobShareRequest` at creation): a public link and/or one for an
    organization you belong to. Sharing a shared job again keeps its link (`share.url`) and
    changes who may open it.

    Args:
        job_id (str):
        body (JobShareRequest): Share the job: a public link (default) and/or a recipient
            organization.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAJobOut | SimpleError]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job_id: str,
    *,
    client: AuthenticatedClient,
    body: JobShareRequest,
) -> EnvelopeAJobOut | SimpleError | None:
    """Share Job

     Share an existing job (as `jobShareRequest` at creation): a public link and/or one for an
    organization you belong to. Sharing a shared job again keeps its link (`share.url`) and
    changes who may open it.

    Args:
        job_id (str):
        body (JobShareRequest): Share the job: a public link (default) and/or a recipient
            organization.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAJobOut | SimpleError
    """

    return sync_detailed(
        job_id=job_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    job_id: str,
    *,
    client: AuthenticatedClient,
    body: JobShareRequest,
) -> Response[EnvelopeAJobOut | SimpleError]:
    """Share Job

     Share an existing job (as `jobShareRequest` at creation): a public link and/or one for an
    organization you belong to. Sharing a shared job again keeps its link (`share.url`) and
    changes who may open it.

    Args:
        job_id (str):
        body (JobShareRequest): Share the job: a public link (default) and/or a recipient
            organization.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAJobOut | SimpleError]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job_id: str,
    *,
    client: AuthenticatedClient,
    body: JobShareRequest,
) -> EnvelopeAJobOut | SimpleError | None:
    """Share Job

     Share an existing job (as `jobShareRequest` at creation): a public link and/or one for an
    organization you belong to. Sharing a shared job again keeps its link (`share.url`) and
    changes who may open it.

    Args:
        job_id (str):
        body (JobShareRequest): Share the job: a public link (default) and/or a recipient
            organization.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAJobOut | SimpleError
    """

    return (
        await asyncio_detailed(
            job_id=job_id,
            client=client,
            body=body,
        )
    ).parsed
