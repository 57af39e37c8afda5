from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.leaderboard import Leaderboard
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    kind: str,
    players: int | Unset = 2,
    limit: int | Unset = 50,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["kind"] = kind

    params["players"] = players

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/arena/leaderboard",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Leaderboard | Problem | None:
    if response.status_code == 200:
        response_200 = Leaderboard.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Leaderboard | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    kind: str,
    players: int | Unset = 2,
    limit: int | Unset = 50,
) -> Response[Leaderboard | Problem]:
    """GetLeaderboard

     A pool's leaderboard: entrants by their conservative rating `ordinal` (`mu - 3*sigma`,
    OpenSkill Plackett–Luce), with `sigma` its uncertainty, the sets played (`matches`) and
    when last. The standing entrants `House` and `Random` are the yardstick.

    Args:
        kind (str): The game, as `GET /v1/kinds` names it.
        players (int | Unset): The table size. Default: 2.
        limit (int | Unset): Entries. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Leaderboard | Problem]
    """

    kwargs = _get_kwargs(
        kind=kind,
        players=players,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    kind: str,
    players: int | Unset = 2,
    limit: int | Unset = 50,
) -> Leaderboard | Problem | None:
    """GetLeaderboard

     A pool's leaderboard: entrants by their conservative rating `ordinal` (`mu - 3*sigma`,
    OpenSkill Plackett–Luce), with `sigma` its uncertainty, the sets played (`matches`) and
    when last. The standing entrants `House` and `Random` are the yardstick.

    Args:
        kind (str): The game, as `GET /v1/kinds` names it.
        players (int | Unset): The table size. Default: 2.
        limit (int | Unset): Entries. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Leaderboard | Problem
    """

    return sync_detailed(
        client=client,
        kind=kind,
        players=players,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    kind: str,
    players: int | Unset = 2,
    limit: int | Unset = 50,
) -> Response[Leaderboard | Problem]:
    """GetLeaderboard

     A pool's leaderboard: entrants by their conservative rating `ordinal` (`mu - 3*sigma`,
    OpenSkill Plackett–Luce), with `sigma` its uncertainty, the sets played (`matches`) and
    when last. The standing entrants `House` and `Random` are the yardstick.

    Args:
        kind (str): The game, as `GET /v1/kinds` names it.
        players (int | Unset): The table size. Default: 2.
        limit (int | Unset): Entries. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Leaderboard | Problem]
    """

    kwargs = _get_kwargs(
        kind=kind,
        players=players,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    kind: str,
    players: int | Unset = 2,
    limit: int | Unset = 50,
) -> Leaderboard | Problem | None:
    """GetLeaderboard

     A pool's leaderboard: entrants by their conservative rating `ordinal` (`mu - 3*sigma`,
    OpenSkill Plackett–Luce), with `sigma` its uncertainty, the sets played (`matches`) and
    when last. The standing entrants `House` and `Random` are the yardstick.

    Args:
        kind (str): The game, as `GET /v1/kinds` names it.
        players (int | Unset): The table size. Default: 2.
        limit (int | Unset): Entries. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Leaderboard | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            kind=kind,
            players=players,
            limit=limit,
        )
    ).parsed
