"""Play a table over seat sockets (`--transport socket`): one socket per bot, each bot moving when
its own push shows it may, with the version it saw.

The table is made over HTTP as always (`Table.create`); then every seat opens
`kronikas_client.socket.connect_seat` with `views=True`, feeds its bot each event, and when the
view after an update lists moves for it, sends the bot's choice as a `command` with `if_match`.
The seats run side by side, as players would: moves any seat may make out of turn race at the
service, and the loser's is answered 412 `version_mismatch` and dropped — its bot decides again
on the next view.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from kronikas_client.events import GameEvent
from kronikas_client.socket import CommandRefused, SeatSocket, Update, connect_seat

from .base import View, moves
from .table import HOUSE_PATIENCE, ApiError, Seat, Table

OnEvents = Callable[[list[GameEvent], View], None]


async def play_over_socket(
    table: Table, on_events: OnEvents | None = None, patience: float = HOUSE_PATIENCE
) -> View:
    """Play the table to the end over sockets; the final view of the first bot's seat (of a
    spectator's socket when the house plays every seat). `on_events` sees that seat's events as
    they come. A seat that hears nothing for `patience` seconds fails the match."""
    eyes = table.eyes
    if not table.seats:
        # The house plays every seat: a spectator's socket watches.
        watcher = connect_seat(table.url, table.game_id, views=True)
        return await follow(eyes, watcher, on_events, patience, act=False)
    plays = [
        follow(
            seat,
            connect_seat(seat.client, table.game_id, views=True),
            on_events if seat is eyes else None,
            patience,
            act=True,
        )
        for seat in table.seats
    ]
    views = await asyncio.gather(*plays)
    return views[0]


async def follow(
    seat: Seat,
    socket: SeatSocket,
    on_events: OnEvents | None = None,
    patience: float = HOUSE_PATIENCE,
    act: bool = True,
) -> View:
    """One seat's loop on its socket (opened here, closed at the end): feed the bot each update's
    events; when the newest view lists moves, send the bot's choice. The seat's final view."""
    async with socket:
        updates = socket.updates()
        while True:
            update = await _next(updates, patience, seat)
            if update is None:
                break
            seat.seen(update.events, update.view)
            if on_events is not None and seat.view is not None and update.events:
                on_events(update.events, seat.view)
            if update.final:
                break
            if act and seat.view is not None and not socket.queued:
                await _act(seat, socket, seat.view)
    if seat.view is None:
        raise RuntimeError(f"seat {seat.seat} never saw the table")
    return seat.view


async def _next(updates: AsyncIterator[Update], patience: float, seat: Seat) -> Update | None:
    try:
        async with asyncio.timeout(patience):
            return await anext(updates)
    except StopAsyncIteration:
        return None
    except TimeoutError:
        what = f"seat {seat.seat} ({seat.bot.name}) heard nothing for {patience:.0f} s"
        raise RuntimeError(what) from None


async def _act(seat: Seat, socket: SeatSocket, view: View) -> None:
    """Send the bot's move on this view, if it has one; a stale view's move is dropped."""
    if not moves(view):
        return
    command = seat.bot.act(view)
    if command is None:
        return
    while True:
        try:
            await socket.command(command, if_match=view.version)
            return
        except CommandRefused as refused:
            if refused.code == "version_mismatch":
                return  # someone was faster: the next update brings the view to decide on
            if refused.status == 429:
                await asyncio.sleep(refused.retry_after or 1)
                continue
            what = f"{seat.bot.name} bot in seat {seat.seat} sent {command.to_dict()}"
            raise ApiError(what, refused.problem) from None


def play(table: Table, on_events: OnEvents | None = None) -> View:
    """`play_over_socket` from synchronous code (its own event loop)."""
    return asyncio.run(play_over_socket(table, on_events))
