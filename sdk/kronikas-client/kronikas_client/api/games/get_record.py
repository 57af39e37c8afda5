from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.game_record import GameRecord
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    after: int | Unset = 0,
    limit: int | Unset = 500,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{game_id}/record".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GameRecord | Problem | None:
    if response.status_code == 200:
        response_200 = GameRecord.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[GameRecord | Problem]:
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
    limit: int | Unset = 500,
) -> Response[GameRecord | Problem]:
    """GetRecord

     A table's record as the asker may see it, finished or not, a page at a time: the
    table (kind, options, players), its events as `list_events` gives them to the asker,
    and every opening those events hold. Paid as a page of events.

    The token is optional (`Authorization: Bearer <token>`): without one, a spectator's
    record. Page on with `after` set to the last event's version while `more` is true.

    With `Accept: text/plain`, the same page as an account in words (`text/plain;
    charset=utf-8`), for people and LLM agents: the table and the asker's seat, then round
    by round each deal, play, call, swap, show and result, with the asker's own cards where
    its events show them; its last line says where to page on when more events follow.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        limit (int | Unset): Events per page. Default: 500.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameRecord | Problem]
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
    limit: int | Unset = 500,
) -> GameRecord | Problem | None:
    """GetRecord

     A table's record as the asker may see it, finished or not, a page at a time: the
    table (kind, options, players), its events as `list_events` gives them to the asker,
    and every opening those events hold. Paid as a page of events.

    The token is optional (`Authorization: Bearer <token>`): without one, a spectator's
    record. Page on with `after` set to the last event's version while `more` is true.

    With `Accept: text/plain`, the same page as an account in words (`text/plain;
    charset=utf-8`), for people and LLM agents: the table and the asker's seat, then round
    by round each deal, play, call, swap, show and result, with the asker's own cards where
    its events show them; its last line says where to page on when more events follow.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        limit (int | Unset): Events per page. Default: 500.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameRecord | Problem
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
    limit: int | Unset = 500,
) -> Response[GameRecord | Problem]:
    """GetRecord

     A table's record as the asker may see it, finished or not, a page at a time: the
    table (kind, options, players), its events as `list_events` gives them to the asker,
    and every opening those events hold. Paid as a page of events.

    The token is optional (`Authorization: Bearer <token>`): without one, a spectator's
    record. Page on with `after` set to the last event's version while `more` is true.

    With `Accept: text/plain`, the same page as an account in words (`text/plain;
    charset=utf-8`), for people and LLM agents: the table and the asker's seat, then round
    by round each deal, play, call, swap, show and result, with the asker's own cards where
    its events show them; its last line says where to page on when more events follow.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        limit (int | Unset): Events per page. Default: 500.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameRecord | Problem]
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
    limit: int | Unset = 500,
) -> GameRecord | Problem | None:
    """GetRecord

     A table's record as the asker may see it, finished or not, a page at a time: the
    table (kind, options, players), its events as `list_events` gives them to the asker,
    and every opening those events hold. Paid as a page of events.

    The token is optional (`Authorization: Bearer <token>`): without one, a spectator's
    record. Page on with `after` set to the last event's version while `more` is true.

    With `Accept: text/plain`, the same page as an account in words (`text/plain;
    charset=utf-8`), for people and LLM agents: the table and the asker's seat, then round
    by round each deal, play, call, swap, show and result, with the asker's own cards where
    its events show them; its last line says where to page on when more events follow.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        limit (int | Unset): Events per page. Default: 500.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameRecord | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            after=after,
            limit=limit,
        )
    ).parsed
