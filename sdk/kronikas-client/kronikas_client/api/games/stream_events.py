from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    after: int | Unset = 0,
    token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    params: dict[str, Any] = {}

    params["after"] = after

    params["token"] = token

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{game_id}/stream".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 200:
        response_200 = cast(Any, response.text)
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
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
    token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """StreamEvents

     The same events as `list_events`, as a stream that stays open.

    The token is optional, in `Authorization: Bearer <token>` or `?token=`; resumes after
    `Last-Event-ID`.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        token (str | Unset): The token, for browsers' EventSource, which sets no header.
        last_event_id (str | Unset): Resume after this version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        token=token,
        last_event_id=last_event_id,
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
    token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Any | Problem | None:
    """StreamEvents

     The same events as `list_events`, as a stream that stays open.

    The token is optional, in `Authorization: Bearer <token>` or `?token=`; resumes after
    `Last-Event-ID`.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        token (str | Unset): The token, for browsers' EventSource, which sets no header.
        last_event_id (str | Unset): Resume after this version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        after=after,
        token=token,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """StreamEvents

     The same events as `list_events`, as a stream that stays open.

    The token is optional, in `Authorization: Bearer <token>` or `?token=`; resumes after
    `Last-Event-ID`.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        token (str | Unset): The token, for browsers' EventSource, which sets no header.
        last_event_id (str | Unset): Resume after this version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        token=token,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Any | Problem | None:
    """StreamEvents

     The same events as `list_events`, as a stream that stays open.

    The token is optional, in `Authorization: Bearer <token>` or `?token=`; resumes after
    `Last-Event-ID`.

    Args:
        game_id (str): The table's id.
        after (int | Unset): Only events with a greater version. Default: 0.
        token (str | Unset): The token, for browsers' EventSource, which sets no header.
        last_event_id (str | Unset): Resume after this version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            after=after,
            token=token,
            last_event_id=last_event_id,
        )
    ).parsed
