from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.entrant_page import EntrantPage
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    entrant_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/arena/entrants/{entrant_id}".format(
            entrant_id=quote(str(entrant_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EntrantPage | Problem | None:
    if response.status_code == 200:
        response_200 = EntrantPage.from_dict(response.json())

        return response_200

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EntrantPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    entrant_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[EntrantPage | Problem]:
    """GetEntrant

     An entrant's page: its ratings by game and table size, and its recent matches (of
    finished sets only). `standing`: one of the house's own entrants (`House`, `Random`).

    Args:
        entrant_id (str): The entrant's id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EntrantPage | Problem]
    """

    kwargs = _get_kwargs(
        entrant_id=entrant_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    entrant_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> EntrantPage | Problem | None:
    """GetEntrant

     An entrant's page: its ratings by game and table size, and its recent matches (of
    finished sets only). `standing`: one of the house's own entrants (`House`, `Random`).

    Args:
        entrant_id (str): The entrant's id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EntrantPage | Problem
    """

    return sync_detailed(
        entrant_id=entrant_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    entrant_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[EntrantPage | Problem]:
    """GetEntrant

     An entrant's page: its ratings by game and table size, and its recent matches (of
    finished sets only). `standing`: one of the house's own entrants (`House`, `Random`).

    Args:
        entrant_id (str): The entrant's id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EntrantPage | Problem]
    """

    kwargs = _get_kwargs(
        entrant_id=entrant_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    entrant_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> EntrantPage | Problem | None:
    """GetEntrant

     An entrant's page: its ratings by game and table size, and its recent matches (of
    finished sets only). `standing`: one of the house's own entrants (`House`, `Random`).

    Args:
        entrant_id (str): The entrant's id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EntrantPage | Problem
    """

    return (
        await asyncio_detailed(
            entrant_id=entrant_id,
            client=client,
        )
    ).parsed
