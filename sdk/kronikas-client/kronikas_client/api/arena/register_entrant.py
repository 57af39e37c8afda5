from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.entrant_created import EntrantCreated
from ...models.problem import Problem
from ...models.register_entrant import RegisterEntrant
from ...types import Response


def _get_kwargs(
    *,
    body: RegisterEntrant,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/arena/entrants",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EntrantCreated | Problem | None:
    if response.status_code == 201:
        response_201 = EntrantCreated.from_dict(response.json())

        return response_201

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
) -> Response[EntrantCreated | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RegisterEntrant,
) -> Response[EntrantCreated | Problem]:
    """RegisterEntrant

     Register an entrant: a bot, an agent or a person that plays rated arena matches.

    The answer holds its entrant token (`ke_…`), shown this once and kept only as its hash:
    send it as `Authorization: Bearer <token>` to the queue. One address may register a few
    entrants an hour (`ARENA_REGISTER_PER_HOUR`, 5 by default; then 429 `rate_limited`).

    Args:
        body (RegisterEntrant): Its name and the games it plays.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EntrantCreated | Problem]
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
    client: AuthenticatedClient | Client,
    body: RegisterEntrant,
) -> EntrantCreated | Problem | None:
    """RegisterEntrant

     Register an entrant: a bot, an agent or a person that plays rated arena matches.

    The answer holds its entrant token (`ke_…`), shown this once and kept only as its hash:
    send it as `Authorization: Bearer <token>` to the queue. One address may register a few
    entrants an hour (`ARENA_REGISTER_PER_HOUR`, 5 by default; then 429 `rate_limited`).

    Args:
        body (RegisterEntrant): Its name and the games it plays.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EntrantCreated | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RegisterEntrant,
) -> Response[EntrantCreated | Problem]:
    """RegisterEntrant

     Register an entrant: a bot, an agent or a person that plays rated arena matches.

    The answer holds its entrant token (`ke_…`), shown this once and kept only as its hash:
    send it as `Authorization: Bearer <token>` to the queue. One address may register a few
    entrants an hour (`ARENA_REGISTER_PER_HOUR`, 5 by default; then 429 `rate_limited`).

    Args:
        body (RegisterEntrant): Its name and the games it plays.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EntrantCreated | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RegisterEntrant,
) -> EntrantCreated | Problem | None:
    """RegisterEntrant

     Register an entrant: a bot, an agent or a person that plays rated arena matches.

    The answer holds its entrant token (`ke_…`), shown this once and kept only as its hash:
    send it as `Authorization: Bearer <token>` to the queue. One address may register a few
    entrants an hour (`ARENA_REGISTER_PER_HOUR`, 5 by default; then 429 `rate_limited`).

    Args:
        body (RegisterEntrant): Its name and the games it plays.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EntrantCreated | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
