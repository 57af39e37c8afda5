"""What leaves the engine: `view`, the table as one viewer may see it, and `redact`, an event as
one viewer may see it."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

import kronikas.domain.thirty_one.events as ev
import kronikas.domain.thirty_one.states as st
from kronikas.domain.cards import Card
from kronikas.domain.common import DeckRevealed, wire_reason
from kronikas.domain.engine import Viewer
from kronikas.domain.seating import PlayerJoined, PlayerLeft, SeatAway, SeatBack
from kronikas.domain.thirty_one.facts import my_hand
from kronikas.domain.thirty_one.options import ThirtyOneTableOptions
from kronikas.domain.thirty_one.view_types import (
    ThirtyOneGameView,
    ThirtyOnePlayerView,
    ThirtyOneTableView,
)


def view(
    state: st.State, viewer: Viewer, game_id: str, version: int, deadline: str | None
) -> ThirtyOneGameView:
    """The docs/api.md view of the table for a seat, or for a spectator. `deadline` is when the
    clock of the seat the table waits for runs out (the application keeps the clocks)."""
    game = state.match
    n = len(game.seats)
    seat = viewer.seat
    deal = st.deal_of(state)
    hands: tuple[tuple[Card, ...], ...] = deal.hands if deal is not None else ((),) * n
    players = [
        ThirtyOnePlayerView(
            id=player.id,
            name=player.name,
            seat=s,
            hand_size=len(hand),
            lives=lives,
            out=out,
            house=player.house or player.left,
            away=player.away,
            left=player.left,
        )
        for s, (player, hand, lives, out) in enumerate(
            zip(game.seats, hands, game.lives, game.out, strict=True)
        )
    ]
    table: ThirtyOneTableView | None = None
    turn: int | None = None
    winners: list[int] = []
    end_reason: str | None = None
    match state:  # the cases run in order: the most frequent first
        case st.Turns():
            turn = state.turn
            table = ThirtyOneTableView(
                table=list(state.deal.table),
                phase="turns",
                shown_by=None,
                shown=[None] * n,
                circuit=state.turns // len(state.deal.order) + 1,
                passed=[s for s in range(n) if state.passed[s]],
            )
        case st.LastCircuit():
            turn = state.turn
            table = ThirtyOneTableView(
                table=list(state.deal.table),
                phase="last_circuit",
                shown_by=state.shower,
                shown=[list(hand) if hand is not None else None for hand in state.shown],
                circuit=None,
                passed=[],
            )
        case st.DealerChoice():
            turn = game.dealer
            table = ThirtyOneTableView(
                table=list(state.deal.table),
                phase="dealer_choice",
                shown_by=None,
                shown=[None] * n,
                circuit=None,
                passed=[],
            )
        case st.Lobby() | st.RoundOver():
            pass
        case st.Finished():
            winners = list(state.winners)
            end_reason = state.reason
        case _:
            assert_never(state)
    return ThirtyOneGameView(
        id=game_id,
        status=viewer.status,
        version=version,
        options=ThirtyOneTableOptions.of(game.options),
        seeded=game.seeded,
        round=game.round,
        dealer=game.dealer,
        turn=turn,
        winners=winners,
        players=players,
        me=None
        if seat is None
        else my_hand(state, seat, players[seat].id, hands[seat], viewer.legal or ()),
        legal=viewer.legal,
        thirty_one=table,
        last_round=game.last_round,
        deadline=deadline,
        end_reason=wire_reason(end_reason),
    )


def redact(event: ev.Event, viewer: int | None) -> ev.Event:
    """The event as a viewer may see it: a deal shows only the viewer's own hand and never the
    deck or its salt; every other Thirty-One event is public (a show or a round's end carries
    only the hands it opens; `deck_revealed` comes once the round is over)."""
    match event:
        case ev.ThirtyOneRoundDealt():
            return replace(
                event,
                hands=[hand if s == viewer else None for s, hand in enumerate(event.hands)],
                deck=None,
                salt=None,
                salts=None,
            )
        case (  # public; the most frequent first, as the cases run in order
            ev.ThirtyOneCardSwapped()
            | ev.ThirtyOnePassed()
            | ev.ThirtyOneHandShown()
            | ev.ThirtyOneHandsSwapped()
            | ev.ThirtyOneHandKept()
            | ev.ThirtyOneHandExchanged()
            | ev.ThirtyOneRoundEnded()
            | DeckRevealed()
            | ev.ThirtyOneMatchEnded()
            | PlayerJoined()
            | ev.ThirtyOneGameCreated()
            | PlayerLeft()
            | SeatAway()
            | SeatBack()
        ):
            return event
        case _:
            assert_never(event)
