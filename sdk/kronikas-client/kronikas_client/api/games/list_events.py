from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_page import EventPage
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    after: int | Unset = 0,
    wait: float | Unset = 0.0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{game_id}/events".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventPage | Problem | None:
    if response.status_code == 200:
        response_200 = EventPage.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EventPage | Problem]:
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
    wait: float | Unset = 0.0,
) -> Response[EventPage | Problem]:
    """ListEvents

     Events after a version, as the asker may see them; long-polls with `wait`.

    The token is optional (`Authorization: Bearer <token>`): without one, a spectator's events.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        wait (float | Unset): Wait up to this many seconds for an event. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        wait=wait,
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
    wait: float | Unset = 0.0,
) -> EventPage | Problem | None:
    """ListEvents

     Events after a version, as the asker may see them; long-polls with `wait`.

    The token is optional (`Authorization: Bearer <token>`): without one, a spectator's events.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        wait (float | Unset): Wait up to this many seconds for an event. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        after=after,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    wait: float | Unset = 0.0,
) -> Response[EventPage | Problem]:
    """ListEvents

     Events after a version, as the asker may see them; long-polls with `wait`.

    The token is optional (`Authorization: Bearer <token>`): without one, a spectator's events.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        wait (float | Unset): Wait up to this many seconds for an event. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    wait: float | Unset = 0.0,
) -> EventPage | Problem | None:
    """ListEvents

     Events after a version, as the asker may see them; long-polls with `wait`.

    The token is optional (`Authorization: Bearer <token>`): without one, a spectator's events.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        wait (float | Unset): Wait up to this many seconds for an event. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            after=after,
            wait=wait,
        )
    ).parsed
