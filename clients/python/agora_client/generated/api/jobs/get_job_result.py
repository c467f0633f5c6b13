from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.conflict_error import ConflictError
from ...models.get_job_result_format import GetJobResultFormat
from ...models.simple_error import SimpleError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job_id: str,
    *,
    format_: GetJobResultFormat | Unset = "markdown",
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_

    params["format"] = json_format_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/jobs/{job_id}/result".format(
            job_id=quote(str(job_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ConflictError | SimpleError | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
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

    if response.status_code == 409:
        response_409 = ConflictError.from_dict(response.json())

        return response_409

    if response.status_code == 500:
        response_500 = SimpleError.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | ConflictError | SimpleError]:
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
    format_: GetJobResultFormat | Unset = "markdown",
) -> Response[Any | ConflictError | SimpleError]:
    """Get Job Result

     The job's result as a download. A result that is a JSON object or array is kept as JSON:
    `format=json` answers it as JSON (another result: the text as a JSON string), `format=csv`
    as CSV (409 when the result is not JSON). 409 while the job has no result.

    Args:
        job_id (str):
        format_ (GetJobResultFormat | Unset): markdown (default: the text as the agent gave it),
            json or csv. Default: 'markdown'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ConflictError | SimpleError]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        format_=format_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job_id: str,
    *,
    client: AuthenticatedClient,
    format_: GetJobResultFormat | Unset = "markdown",
) -> Any | ConflictError | SimpleError | None:
    """Get Job Result

     The job's result as a download. A result that is a JSON object or array is kept as JSON:
    `format=json` answers it as JSON (another result: the text as a JSON string), `format=csv`
    as CSV (409 when the result is not JSON). 409 while the job has no result.

    Args:
        job_id (str):
        format_ (GetJobResultFormat | Unset): markdown (default: the text as the agent gave it),
            json or csv. Default: 'markdown'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ConflictError | SimpleError
    """

    return sync_detailed(
        job_id=job_id,
        client=client,
        format_=format_,
    ).parsed


async def asyncio_detailed(
    job_id: str,
    *,
    client: AuthenticatedClient,
    format_: GetJobResultFormat | Unset = "markdown",
) -> Response[Any | ConflictError | SimpleError]:
    """Get Job Result

     The job's result as a download. A result that is a JSON object or array is kept as JSON:
    `format=json` answers it as JSON (another result: the text as a JSON string), `format=csv`
    as CSV (409 when the result is not JSON). 409 while the job has no result.

    Args:
        job_id (str):
        format_ (GetJobResultFormat | Unset): markdown (default: the text as the agent gave it),
            json or csv. Default: 'markdown'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ConflictError | SimpleError]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        format_=format_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job_id: str,
    *,
    client: AuthenticatedClient,
    format_: GetJobResultFormat | Unset = "markdown",
) -> Any | ConflictError | SimpleError | None:
    """Get Job Result

     The job's result as a download. A result that is a JSON object or array is kept as JSON:
    `format=json` answers it as JSON (another result: the text as a JSON string), `format=csv`
    as CSV (409 when the result is not JSON). 409 while the job has no result.

    Args:
        job_id (str):
        format_ (GetJobResultFormat | Unset): markdown (default: the text as the agent gave it),
            json or csv. Default: 'markdown'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ConflictError | SimpleError
    """

    return (
        await asyncio_detailed(
            job_id=job_id,
            client=client,
            format_=format_,
        )
    ).parsed
