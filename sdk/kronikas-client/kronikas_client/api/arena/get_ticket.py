from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.ticket import Ticket
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    wait: float | Unset = 0.0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/arena/queue",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Ticket | None:
    if response.status_code == 200:
        response_200 = Ticket.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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
    wait: float | Unset = 0.0,
) -> Response[Problem | Ticket]:
    """GetTicket

     The entrant's ticket (entrant token): `idle`, `waiting`, or `seated` with its table,
    seat and seat token (for it alone: play the table with it as any seat does). Long-polls
    with `wait` while it waits. After its table finished it is `idle` again: queue anew.

    Args:
        wait (float | Unset): While waiting, wait up to this many s. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Ticket]
    """

    kwargs = _get_kwargs(
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    wait: float | Unset = 0.0,
) -> Problem | Ticket | None:
    """GetTicket

     The entrant's ticket (entrant token): `idle`, `waiting`, or `seated` with its table,
    seat and seat token (for it alone: play the table with it as any seat does). Long-polls
    with `wait` while it waits. After its table finished it is `idle` again: queue anew.

    Args:
        wait (float | Unset): While waiting, wait up to this many s. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Ticket
    """

    return sync_detailed(
        client=client,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    wait: float | Unset = 0.0,
) -> Response[Problem | Ticket]:
    """GetTicket

     The entrant's ticket (entrant token): `idle`, `waiting`, or `seated` with its table,
    seat and seat token (for it alone: play the table with it as any seat does). Long-polls
    with `wait` while it waits. After its table finished it is `idle` again: queue anew.

    Args:
        wait (float | Unset): While waiting, wait up to this many s. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Ticket]
    """

    kwargs = _get_kwargs(
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    wait: float | Unset = 0.0,
) -> Problem | Ticket | None:
    """GetTicket

     The entrant's ticket (entrant token): `idle`, `waiting`, or `seated` with its table,
    seat and seat token (for it alone: play the table with it as any seat does). Long-polls
    with `wait` while it waits. After its table finished it is `idle` again: queue anew.

    Args:
        wait (float | Unset): While waiting, wait up to this many s. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Ticket
    """

    return (
        await asyncio_detailed(
            client=client,
            wait=wait,
        )
    ).parsed
