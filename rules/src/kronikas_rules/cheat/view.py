"""What leaves the service of a Cheat table: the view one viewer may see, and events redacted for
them."""

from __future__ import annotations

from typing import assert_never

import msgspec

import kronikas_rules.cheat.events as ev
import kronikas_rules.cheat.states as st
from kronikas_rules import proofs
from kronikas_rules.cards import PALE, Card
from kronikas_rules.cheat.facts import CheatMyHand, my_hand
from kronikas_rules.cheat.options import CheatTableOptions
from kronikas_rules.common import (
    AwaySeat,
    Deadline,
    DealsOpened,
    DeckRevealed,
    EndReasonOnWire,
    HouseSeat,
    LeftSeat,
    wire_reason,
)
from kronikas_rules.engine import Status, Viewer
from kronikas_rules.seating import PlayerJoined, PlayerLeft, SeatAway, SeatBack, Seating


class CheatPlayerView(msgspec.Struct, frozen=True, gc=False):
    """A seat at a Cheat table: who sits there, how many cards they hold, their points, and
    whether the house plays the seat."""

    id: str
    name: str
    seat: int
    hand_size: int
    points: int
    house: HouseSeat
    away: AwaySeat
    left: LeftSeat


class CheatLastPlay(msgspec.Struct, frozen=True, gc=False):
    """The latest play while its cards lie on the pile: who, how many, announced as what."""

    seat: int
    count: int
    rank: str


class CheatTableView(msgspec.Struct, frozen=True, gc=False):
    """The middle of a Cheat table: the rank due, the pile and the challenge window."""

    rank: str
    pile_size: int
    set_aside: int
    window_open: bool
    last_play: CheatLastPlay | None
    last_call: st.CheatCallResult | None = None
    commitment: str | None = None
    """The deal's commitment: the root of its Merkle tree (`scheme` `merkle-sha256`), or the
    hash of its whole deck for a deal stored before (`deck-sha256`)."""
    last_penalty: st.CheatPenalty | None = None
    """Everyone learns that an uncalled play held XP (docs/rules.md); shown until the next deal."""
    scheme: str | None = None
    """How `commitment` commits to the deal: `merkle-sha256` or `deck-sha256`."""
    deck_size: int | None = None
    """The cards in the deal's deck, which an opening is checked against."""


class CheatGameView(
    msgspec.Struct, frozen=True, gc=False, tag_field="kind", tag="cheat", omit_defaults=True
):
    """A Cheat table as one viewer may see it; a spectator's `me` and `legal` are null.
    `openings` opens, against the deal's `cheat.commitment`, the cards of the deal it shows the
    viewer: its hand and the last call's turned-up cards; empty in a command's answer, whose
    events (and those before) brought them. `end_reason` is there only when the table's cap of
    events ended the match."""

    id: str
    status: Status
    version: int
    options: CheatTableOptions
    seeded: bool
    round: int
    dealer: int | None
    turn: int | None
    winners: list[int]
    players: list[CheatPlayerView]
    me: CheatMyHand | None
    legal: list[str] | None
    cheat: CheatTableView | None
    last_round: st.CheatRoundResult | None
    deadline: Deadline
    openings: list[proofs.Opening]
    end_reason: EndReasonOnWire = msgspec.UNSET


def redact(event: ev.Event, viewer: int | None) -> ev.Event:
    """The event as `viewer` may see it: hidden cards become `None`, and it keeps only the
    openings of cards the viewer comes to know by it (docs/rules.md)."""
    match event:
        case ev.CheatCardsPlayed():
            if event.seat == viewer or event.cards is None:
                return event
            return msgspec.structs.replace(event, cards=None)
        case ev.CheatPileTaken():
            if event.seat == viewer or event.cards is None:
                return event
            return msgspec.structs.replace(event, cards=None, openings=None)
        case ev.CheatPenaltyTaken():
            if event.seat == viewer or event.cards is None:
                return event
            announced = None if event.openings is None else _pale(event.openings)
            return msgspec.structs.replace(event, cards=None, openings=announced)
        case ev.CheatRoundDealt():
            return msgspec.structs.replace(
                event,
                hands=[hand if seat == viewer else None for seat, hand in enumerate(event.hands)],
                set_aside_cards=None,
                deck=None,
                salt=None,
                salts=None,
                openings=_dealt_openings(event, viewer),
            )
        case (
            ev.CheatGameCreated()
            | PlayerJoined()
            | ev.CheatCalled()
            | ev.CheatPlayAccepted()
            | ev.CheatRoundEnded()
            | DeckRevealed()
            | ev.CheatMatchEnded()
            | DealsOpened()
            | PlayerLeft()
            | SeatAway()
            | SeatBack()
        ):
            return event
        case _:
            assert_never(event)


def _pale(openings: list[proofs.Opening]) -> list[proofs.Opening]:
    """Of a penalty's pile, what everyone learns: the Pale Chronicler (one in a deck)."""
    return [opening for opening in openings if opening.card == PALE]


def _dealt_openings(event: ev.CheatRoundDealt, viewer: int | None) -> list[proofs.Opening] | None:
    """A seat's own dealt cards opened, in its hand's order, from the stored deck and salts;
    None for a spectator or a seat the deal did not reach, a redacted event, or a deal stored
    before (no salt for each card)."""
    if viewer is None or not 0 <= viewer < len(event.hands) or event.deck is None:
        return None
    if not event.salts:
        return None
    deck, sizes = tuple(event.deck), [len(hand or ()) for hand in event.hands]
    positions = st.dealt_positions(event.dealer, sizes)[viewer]
    tree = proofs.tree(deck, event.salts, event.commitment)
    return tree.openings(event.round, st.in_hand_order(deck, positions))


def _players(
    seats: Seating,
    hands: tuple[tuple[Card, ...], ...] | None,
    points: tuple[int, ...] | None,
) -> list[CheatPlayerView]:
    return [
        CheatPlayerView(
            id=p.id,
            name=p.name,
            seat=seat,
            hand_size=len(hands[seat]) if hands is not None else 0,
            points=points[seat] if points is not None else 0,
            house=p.house or p.left,
            away=p.away,
            left=p.left,
        )
        for seat, p in enumerate(seats)
    ]


def _lobby_view(
    match: st.Match,
    viewer: Viewer,
    game_id: str,
    version: int,
    deadline: str | None,
    reason: str | None,
) -> CheatGameView:
    """The lobby's view; or, when the table's cap of events ended the match before the start
    (`reason`), the lobby as it was then (finished: nobody may do anything)."""
    seat = viewer.seat
    return CheatGameView(
        id=game_id,
        status=viewer.status,
        version=version,
        options=CheatTableOptions.of(match.options),
        seeded=match.seeded,
        round=0,
        dealer=None,
        turn=None,
        winners=[],
        players=_players(match.seats, None, None),
        me=None if seat is None else my_hand(match.seats[seat].id, seat, ()),
        legal=viewer.legal,
        cheat=None,
        last_round=None,
        deadline=deadline,
        openings=[],
        end_reason=wire_reason(reason),
    )


def view(
    state: st.State, viewer: Viewer, game_id: str, version: int, deadline: str | None
) -> CheatGameView:
    """The table as `viewer` (a seat, or a spectator) may see it. `deadline` is when the clock
    of the seat the table waits for runs out (the application keeps the clocks)."""
    winners: list[int] = []
    end_reason: str | None = None
    playing = True
    top: st.PileTop | None = None
    match state:
        case st.ToPlay():
            deal = state.deal
        case st.Window():
            deal, top = state.deal, state.top
        case st.RoundOver():
            # docs/api.md: `last_play` lasts while its cards lie on the pile, after the round
            # too; the window is open only while the round is played.
            deal, top, playing = state.deal, state.last_play, False
        case st.Lobby():
            return _lobby_view(state.match, viewer, game_id, version, deadline, None)
        case st.Finished():
            if state.deal is None:
                return _lobby_view(state.match, viewer, game_id, version, deadline, state.reason)
            deal, top, playing = state.deal, state.last_play, False
            winners, end_reason = list(state.winners), state.reason
        case _:
            assert_never(state)
    game, seat = state.match, viewer.seat
    return CheatGameView(
        id=game_id,
        status=viewer.status,
        version=version,
        options=CheatTableOptions.of(game.options),
        seeded=game.seeded,
        round=game.round,
        dealer=game.dealer,
        turn=deal.turn if playing else None,
        winners=winners,
        players=_players(game.seats, deal.hands, game.points),
        me=None if seat is None else my_hand(game.seats[seat].id, seat, deal.hands[seat]),
        legal=viewer.legal,
        cheat=CheatTableView(
            rank=deal.rank,
            pile_size=len(deal.pile),
            set_aside=len(deal.set_aside),
            window_open=isinstance(state, st.Window),
            last_play=CheatLastPlay(seat=top.seat, count=len(top.cards), rank=top.rank)
            if top is not None
            else None,
            last_call=deal.last_call,
            last_penalty=deal.last_penalty,
            commitment=deal.commitment,
            scheme=deal.scheme,
            deck_size=len(deal.deck),
        ),
        last_round=game.last_round,
        deadline=deadline,
        openings=_shown(game, deal, seat) if viewer.openings else [],
        end_reason=wire_reason(end_reason),
    )


def _shown(match: st.Match, deal: st.Deal, seat: int | None) -> list[proofs.Opening]:
    """The openings of the deal's cards a view shows: the seat's hand, then the last call's
    turned-up cards (each position once)."""
    positions = deal.held[seat] if seat is not None else ()
    if deal.called_at:
        positions += tuple(p for p in deal.called_at if p not in positions)
    return deal.openings(match.round, positions) or []
