from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_games_kind import ListGamesKind
from ...models.list_games_status import ListGamesStatus
from ...models.lobby import Lobby
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    kind: ListGamesKind | Unset = UNSET,
    status: ListGamesStatus | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Lobby | Problem | None:
    if response.status_code == 200:
        response_200 = Lobby.from_dict(response.json())

        return response_200

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Lobby | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    kind: ListGamesKind | Unset = UNSET,
    status: ListGamesStatus | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
) -> Response[Lobby | Problem]:
    """ListGames

     The lobby: tables, newest first, filtered by kind and status, a page at a time.

    Args:
        kind (ListGamesKind | Unset): Only this game.
        status (ListGamesStatus | Unset): Only tables in this state.
        limit (int | Unset): Tables per page. Default: 20.
        offset (int | Unset): Tables to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Lobby | Problem]
    """

    kwargs = _get_kwargs(
        kind=kind,
        status=status,
        limit=limit,
        offset=offset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    kind: ListGamesKind | Unset = UNSET,
    status: ListGamesStatus | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
) -> Lobby | Problem | None:
    """ListGames

     The lobby: tables, newest first, filtered by kind and status, a page at a time.

    Args:
        kind (ListGamesKind | Unset): Only this game.
        status (ListGamesStatus | Unset): Only tables in this state.
        limit (int | Unset): Tables per page. Default: 20.
        offset (int | Unset): Tables to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Lobby | Problem
    """

    return sync_detailed(
        client=client,
        kind=kind,
        status=status,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    kind: ListGamesKind | Unset = UNSET,
    status: ListGamesStatus | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
) -> Response[Lobby | Problem]:
    """ListGames

     The lobby: tables, newest first, filtered by kind and status, a page at a time.

    Args:
        kind (ListGamesKind | Unset): Only this game.
        status (ListGamesStatus | Unset): Only tables in this state.
        limit (int | Unset): Tables per page. Default: 20.
        offset (int | Unset): Tables to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Lobby | Problem]
    """

    kwargs = _get_kwargs(
        kind=kind,
        status=status,
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    kind: ListGamesKind | Unset = UNSET,
    status: ListGamesStatus | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
) -> Lobby | Problem | None:
    """ListGames

     The lobby: tables, newest first, filtered by kind and status, a page at a time.

    Args:
        kind (ListGamesKind | Unset): Only this game.
        status (ListGamesStatus | Unset): Only tables in this state.
        limit (int | Unset): Tables per page. Default: 20.
        offset (int | Unset): Tables to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Lobby | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            kind=kind,
            status=status,
            limit=limit,
            offset=offset,
        )
    ).parsed
