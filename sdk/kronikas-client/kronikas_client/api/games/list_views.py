from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.past_views import PastViews
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    after: int | Unset = 0,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{game_id}/views".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PastViews | Problem | None:
    if response.status_code == 200:
        response_200 = PastViews.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PastViews | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 20,
) -> Response[PastViews | Problem]:
    """ListViews

     The views the asker was served at past versions of the table, one for each version
    after `after`: what replays a match, step by step, as the asker saw it. Paid as one
    view read a view.

    A player token sees its seat's view at each version (a spectator's before it sat
    down), never a card its seat could not see then; without a token (or with the host's),
    a spectator's views. Page on with `after` set to the last view's version while `more`
    is true.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only views at a greater version. Default: 0.
        limit (int | Unset): Views per page. Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PastViews | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 20,
) -> PastViews | Problem | None:
    """ListViews

     The views the asker was served at past versions of the table, one for each version
    after `after`: what replays a match, step by step, as the asker saw it. Paid as one
    view read a view.

    A player token sees its seat's view at each version (a spectator's before it sat
    down), never a card its seat could not see then; without a token (or with the host's),
    a spectator's views. Page on with `after` set to the last view's version while `more`
    is true.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only views at a greater version. Default: 0.
        limit (int | Unset): Views per page. Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PastViews | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        after=after,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 20,
) -> Response[PastViews | Problem]:
    """ListViews

     The views the asker was served at past versions of the table, one for each version
    after `after`: what replays a match, step by step, as the asker saw it. Paid as one
    view read a view.

    A player token sees its seat's view at each version (a spectator's before it sat
    down), never a card its seat could not see then; without a token (or with the host's),
    a spectator's views. Page on with `after` set to the last view's version while `more`
    is true.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only views at a greater version. Default: 0.
        limit (int | Unset): Views per page. Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PastViews | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 20,
) -> PastViews | Problem | None:
    """ListViews

     The views the asker was served at past versions of the table, one for each version
    after `after`: what replays a match, step by step, as the asker saw it. Paid as one
    view read a view.

    A player token sees its seat's view at each version (a spectator's before it sat
    down), never a card its seat could not see then; without a token (or with the host's),
    a spectator's views. Page on with `after` set to the last view's version while `more`
    is true.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only views at a greater version. Default: 0.
        limit (int | Unset): Views per page. Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PastViews | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            after=after,
            limit=limit,
        )
    ).parsed
