from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.set_page import SetPage
from ...types import Response


def _get_kwargs(
    set_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/arena/sets/{set_id}".format(
            set_id=quote(str(set_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SetPage | None:
    if response.status_code == 200:
        response_200 = SetPage.from_dict(response.json())

        return response_200

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SetPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    set_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | SetPage]:
    """GetSet

     A finished set: its tables (their records open now), each hand position's ranking and
    the rating changes. 409 `set_in_play` until every table of the set finished.

    Args:
        set_id (str): The set's id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SetPage]
    """

    kwargs = _get_kwargs(
        set_id=set_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    set_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Problem | SetPage | None:
    """GetSet

     A finished set: its tables (their records open now), each hand position's ranking and
    the rating changes. 409 `set_in_play` until every table of the set finished.

    Args:
        set_id (str): The set's id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SetPage
    """

    return sync_detailed(
        set_id=set_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    set_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | SetPage]:
    """GetSet

     A finished set: its tables (their records open now), each hand position's ranking and
    the rating changes. 409 `set_in_play` until every table of the set finished.

    Args:
        set_id (str): The set's id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SetPage]
    """

    kwargs = _get_kwargs(
        set_id=set_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    set_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Problem | SetPage | None:
    """GetSet

     A finished set: its tables (their records open now), each hand position's ranking and
    the rating changes. 409 `set_in_play` until every table of the set finished.

    Args:
        set_id (str): The set's id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SetPage
    """

    return (
        await asyncio_detailed(
            set_id=set_id,
            client=client,
        )
    ).parsed
