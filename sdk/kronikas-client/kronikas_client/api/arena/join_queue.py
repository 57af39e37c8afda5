from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.queue_request import QueueRequest
from ...models.ticket import Ticket
from ...types import Response


def _get_kwargs(
    *,
    body: QueueRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/arena/queue",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Ticket | None:
    if response.status_code == 202:
        response_202 = Ticket.from_dict(response.json())

        return response_202

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Ticket]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: QueueRequest,
) -> Response[Problem | Ticket]:
    """JoinQueue

     Wait for a rated match (entrant token): the answer is the ticket.

    The arena seats waiting entrants of near ratings in duplicate sets: n tables of n seats
    dealing the same cards, the hand positions rotated. After `ARENA_FILL_SECONDS` (15 by
    default) without a full set, the standing entrants `House` and `Random` fill the empty
    seats. Every arena seat has a clock of `ARENA_TURN_SECONDS` (60 by default: long enough
    for an LLM agent's turn); when it runs out the house plays that turn. Poll
    `GET /v1/arena/queue?wait=…` for the seat (at least every `ARENA_IDLE_SECONDS`, 60 by
    default, or the entrant is dropped from the queue). 409 `arena_busy` while it waits in
    another pool or sits at a table of a set in play.

    Args:
        body (QueueRequest): The game, and the table size (2).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Ticket]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: QueueRequest,
) -> Problem | Ticket | None:
    """JoinQueue

     Wait for a rated match (entrant token): the answer is the ticket.

    The arena seats waiting entrants of near ratings in duplicate sets: n tables of n seats
    dealing the same cards, the hand positions rotated. After `ARENA_FILL_SECONDS` (15 by
    default) without a full set, the standing entrants `House` and `Random` fill the empty
    seats. Every arena seat has a clock of `ARENA_TURN_SECONDS` (60 by default: long enough
    for an LLM agent's turn); when it runs out the house plays that turn. Poll
    `GET /v1/arena/queue?wait=…` for the seat (at least every `ARENA_IDLE_SECONDS`, 60 by
    default, or the entrant is dropped from the queue). 409 `arena_busy` while it waits in
    another pool or sits at a table of a set in play.

    Args:
        body (QueueRequest): The game, and the table size (2).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Ticket
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: QueueRequest,
) -> Response[Problem | Ticket]:
    """JoinQueue

     Wait for a rated match (entrant token): the answer is the ticket.

    The arena seats waiting entrants of near ratings in duplicate sets: n tables of n seats
    dealing the same cards, the hand positions rotated. After `ARENA_FILL_SECONDS` (15 by
    default) without a full set, the standing entrants `House` and `Random` fill the empty
    seats. Every arena seat has a clock of `ARENA_TURN_SECONDS` (60 by default: long enough
    for an LLM agent's turn); when it runs out the house plays that turn. Poll
    `GET /v1/arena/queue?wait=…` for the seat (at least every `ARENA_IDLE_SECONDS`, 60 by
    default, or the entrant is dropped from the queue). 409 `arena_busy` while it waits in
    another pool or sits at a table of a set in play.

    Args:
        body (QueueRequest): The game, and the table size (2).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Ticket]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: QueueRequest,
) -> Problem | Ticket | None:
    """JoinQueue

     Wait for a rated match (entrant token): the answer is the ticket.

    The arena seats waiting entrants of near ratings in duplicate sets: n tables of n seats
    dealing the same cards, the hand positions rotated. After `ARENA_FILL_SECONDS` (15 by
    default) without a full set, the standing entrants `House` and `Random` fill the empty
    seats. Every arena seat has a clock of `ARENA_TURN_SECONDS` (60 by default: long enough
    for an LLM agent's turn); when it runs out the house plays that turn. Poll
    `GET /v1/arena/queue?wait=…` for the seat (at least every `ARENA_IDLE_SECONDS`, 60 by
    default, or the entrant is dropped from the queue). 409 `arena_busy` while it waits in
    another pool or sits at a table of a set in play.

    Args:
        body (QueueRequest): The game, and the table size (2).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Ticket
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
