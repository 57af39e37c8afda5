"""What leaves the engine: `view`, the table as one viewer may see it, and `redact`, an event as
one viewer may see it."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

import kronikas_rules.thirty_one.events as ev
import kronikas_rules.thirty_one.states as st
from kronikas_rules.cards import Card
from kronikas_rules.common import DealsOpened, DeckRevealed, wire_reason
from kronikas_rules.engine import Viewer
from kronikas_rules.proofs import OLD_SCHEME, SCHEME
from kronikas_rules.seating import PlayerJoined, PlayerLeft, SeatAway, SeatBack
from kronikas_rules.thirty_one.facts import my_hand
from kronikas_rules.thirty_one.openings import dealt, seen
from kronikas_rules.thirty_one.options import ThirtyOneTableOptions
from kronikas_rules.thirty_one.view_types import (
    Phase,
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
    turn: int | None = None
    winners: list[int] = []
    end_reason: str | None = None
    match state:  # the cases run in order: the most frequent first
        case st.Turns() | st.LastCircuit():
            turn = state.turn
        case st.DealerChoice():
            turn = game.dealer
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
        thirty_one=_middle(state, n),
        last_round=game.last_round,
        deadline=deadline,
        openings=seen(state, seat) if viewer.openings else [],
        end_reason=wire_reason(end_reason),
    )


def _middle(state: st.State, n: int) -> ThirtyOneTableView | None:
    """The middle of the table in a round, with its deal's commitment; None outside one."""
    shown: list[list[Card] | None] = [None] * n
    circuit: int | None
    match state:  # the cases run in order: the most frequent first
        case st.Turns():
            phase: Phase = "turns"
            circuit = state.turns // len(state.deal.order) + 1
            passed = [s for s in range(n) if state.passed[s]]
        case st.LastCircuit():
            phase, circuit, passed = "last_circuit", None, []
            shown = [list(hand) if hand is not None else None for hand in state.shown]
        case st.DealerChoice():
            phase, circuit, passed = "dealer_choice", None, []
        case st.Lobby() | st.RoundOver() | st.Finished():
            return None
        case _:
            assert_never(state)
    deal = state.deal
    return ThirtyOneTableView(
        table=list(deal.table),
        phase=phase,
        shown_by=state.shower if isinstance(state, st.LastCircuit) else None,
        shown=shown,
        circuit=circuit,
        passed=passed,
        commitment=deal.commitment,
        scheme=OLD_SCHEME if deal.salts is None else SCHEME,
        deck_size=None if deal.salts is None else len(deal.deck),
    )


def redact(event: ev.Event, viewer: int | None) -> ev.Event:
    """The event as a viewer may see it: a deal shows only the viewer's own hand, opens it and
    the table's cards, and never shows the deck or its salts; every other Thirty-One event is
    public (a show or a round's end carries only the hands it opens; `deck_revealed` comes once
    a round of the old scheme is over)."""
    match event:
        case ev.ThirtyOneRoundDealt():
            return replace(
                event,
                hands=[hand if s == viewer else None for s, hand in enumerate(event.hands)],
                deck=None,
                salt=None,
                salts=None,
                openings=dealt(event, viewer),
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
            | DealsOpened()
            | PlayerJoined()
            | ev.ThirtyOneGameCreated()
            | PlayerLeft()
            | SeatAway()
            | SeatBack()
        ):
            return event
        case _:
            assert_never(event)
