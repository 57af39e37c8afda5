from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.accept import Accept
from ...models.back import Back
from ...models.call import Call
from ...models.command_result import CommandResult
from ...models.exchange import Exchange
from ...models.keep import Keep
from ...models.leave import Leave
from ...models.pass_ import Pass
from ...models.play import Play
from ...models.problem import Problem
from ...models.show import Show
from ...models.swap import Swap
from ...models.swap_all import SwapAll
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    body: Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap | SwapAll,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{game_id}/commands".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    if isinstance(body, Play):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Call):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Accept):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Leave):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Back):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Keep):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Exchange):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Swap):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SwapAll):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Pass):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CommandResult | Problem | None:
    if response.status_code == 200:
        response_200 = CommandResult.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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
) -> Response[CommandResult | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap | SwapAll,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[CommandResult | Problem]:
    """SendCommand

     One move by the token's seat. The answer has the new version, its events and the view
    (its `openings` empty: the events brought them).

    Args:
        game_id (str): The table's id.
        if_match (str | Unset): Apply only at this version, as `"<version>"`; otherwise 412.
        idempotency_key (str | Unset): A retry with the same key and body gets the first answer
            again.
        body (Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap |
            SwapAll): One command; `type` chooses it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CommandResult | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        if_match=if_match,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap | SwapAll,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> CommandResult | Problem | None:
    """SendCommand

     One move by the token's seat. The answer has the new version, its events and the view
    (its `openings` empty: the events brought them).

    Args:
        game_id (str): The table's id.
        if_match (str | Unset): Apply only at this version, as `"<version>"`; otherwise 412.
        idempotency_key (str | Unset): A retry with the same key and body gets the first answer
            again.
        body (Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap |
            SwapAll): One command; `type` chooses it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CommandResult | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        body=body,
        if_match=if_match,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap | SwapAll,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[CommandResult | Problem]:
    """SendCommand

     One move by the token's seat. The answer has the new version, its events and the view
    (its `openings` empty: the events brought them).

    Args:
        game_id (str): The table's id.
        if_match (str | Unset): Apply only at this version, as `"<version>"`; otherwise 412.
        idempotency_key (str | Unset): A retry with the same key and body gets the first answer
            again.
        body (Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap |
            SwapAll): One command; `type` chooses it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CommandResult | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        if_match=if_match,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap | SwapAll,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> CommandResult | Problem | None:
    """SendCommand

     One move by the token's seat. The answer has the new version, its events and the view
    (its `openings` empty: the events brought them).

    Args:
        game_id (str): The table's id.
        if_match (str | Unset): Apply only at this version, as `"<version>"`; otherwise 412.
        idempotency_key (str | Unset): A retry with the same key and body gets the first answer
            again.
        body (Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap |
            SwapAll): One command; `type` chooses it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CommandResult | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
            if_match=if_match,
            idempotency_key=idempotency_key,
        )
    ).parsed
