"""Cheat's states: one Struct per phase of the match (the lobby, a play due, the challenge window,
a round's end, the end), each holding only what it needs, over what lasts the whole `Match` and
what lasts one round (`Deal`), as Thirty-One's; the order ranks are announced in, and the hand
order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Final, Literal, TypeAlias

import msgspec

from kronikas_rules import proofs
from kronikas_rules.cards import COLOURED, PALE, RANKS, SUITS, Card
from kronikas_rules.cheat.options import CheatTableOptions
from kronikas_rules.common import EndReason
from kronikas_rules.seating import Seating

ANNOUNCED: Final = RANKS
"""The ranks in the order Cheat's players announce them, from a round's first; after `A` comes
`7` again."""
FIRST_RANK: Final = ANNOUNCED[0]


def next_rank(rank: str, steps: int = 1) -> str:
    """The rank announced `steps` plays after `rank` (A is followed by 7)."""
    return ANNOUNCED[(ANNOUNCED.index(rank) + steps) % len(ANNOUNCED)]


_ORDER: Final[dict[Card, int]] = {
    code: i
    for i, code in enumerate(
        (*(rank + suit for rank in RANKS for suit in SUITS), COLOURED, PALE),
    )
}


def card_order(card: Card) -> int:
    """A card's place in hand order: rank 7…A, then suit H B L A, Chroniclers last."""
    return _ORDER[card]


def sort_cards(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Cards in hand order: rank 7…A, then suit H B L A, Chroniclers last."""
    return tuple(sorted(cards, key=_ORDER.__getitem__))


def in_hand_order(deck: tuple[Card, ...], positions: Iterable[int]) -> tuple[int, ...]:
    """Positions of the deck in the hand order of their cards; two copies of a card (two decks)
    by position, so a hand's first copy of a card is the one at the lower position."""
    return tuple(sorted(positions, key=lambda p: (_ORDER[deck[p]], p)))


def dealt_positions(dealer: int, sizes: list[int]) -> list[list[int]]:
    """The positions of the shuffled deck in each seat's hand of a deal of hands of `sizes`
    cards: the deck is dealt one card at a time, from the seat after the dealer round the
    table, to each seat whose hand is not yet full. A deal's hands are of one size, so position
    i goes to seat (dealer + 1 + i) mod n; the rest is set aside."""
    n, dealt = len(sizes), sum(sizes)
    held: list[list[int]] = [[] for _ in sizes]
    position, seat = 0, (dealer + 1) % n
    while position < dealt:
        if len(held[seat]) < sizes[seat]:
            held[seat].append(position)
            position += 1
        seat = (seat + 1) % n
    return held


# --- what the state keeps and the view shows as it is -----------------------------------------


class CheatCallResult(msgspec.Struct, frozen=True, gc=False):
    """The latest call of the round: its turned-up cards, whether the play was honest, who took
    the pile."""

    caller: int
    seat: int
    rank: str
    cards: list[Card]
    honest: bool
    taker: int


class CheatPenalty(msgspec.Struct, frozen=True, gc=False):
    """The latest uncalled play that held the Pale Chronicler: its player took the pile."""

    seat: int
    count: int


MAX_PLAYS_REASON: Final = "max_plays"
"""`reason` of a round its limit of plays ended."""
RoundReason = (
    Annotated[
        Literal["max_plays"],
        msgspec.Meta(
            description="Why the round ended with no one finished: `max_plays`, it reached "
            "the most plays a round allows (docs/rules.md). Absent when a player finished."
        ),
    ]
    | msgspec.UnsetType
)


class CheatRoundResult(msgspec.Struct, frozen=True, gc=False):
    """The most recent finished round: lists are indexed by seat. `winner` is the player who
    finished; in a round its limit of plays ended (`reason`), nobody did, and `winner` is the
    first seat placed 1st (fewest cards in hand)."""

    round: int
    winner: int
    places: list[int]
    points: list[int]
    hand_sizes: list[int]
    reason: RoundReason = msgspec.UNSET


# --- the phases --------------------------------------------------------------------------------


class PileTop(msgspec.Struct, frozen=True, gc=False):
    """The most recent play while its cards lie on top of the pile: who, which cards (at which
    positions of the deck, `at`), announced as what."""

    seat: int
    cards: tuple[Card, ...]
    rank: str
    at: tuple[int, ...] = ()


class DealKept(msgspec.Struct, frozen=True, gc=False):
    """A deal the match opens to everyone at its end (its table's `reveal` is `match_end`)."""

    round: int
    deck: tuple[Card, ...]
    salts: tuple[str, ...]


class Match(msgspec.Struct, frozen=True, gc=False):
    """What lasts the whole match: the options, the seating (`seating`: who sits where, and who
    plays each seat), the points, the round and its dealer, the last round's result, and the
    deals to open at the end (`kept`, only when the table's `reveal` asks for it)."""

    options: CheatTableOptions
    seeded: bool
    seats: Seating = ()
    points: tuple[int, ...] = ()
    round: int = 0
    dealer: int = 0
    """The round's dealer (0 before the first deal: the views show none in the lobby)."""
    last_round: CheatRoundResult | None = None
    kept: tuple[DealKept, ...] = ()


class Deal(msgspec.Struct, frozen=True, gc=False):
    """One round's cards, whichever its phase: the deck behind its commitment, the hands, the
    cards set aside and the pile, the rank due and who is on turn, and what the view keeps
    showing of the round's last call and penalty.

    Every card in a hand or on the pile is one position of the deck (`held`, `pile_at`,
    `called_at`: the positions of `hands`, `pile` and `last_call`'s cards, card for card), so an
    opening names the very copy a viewer saw even when two decks hold the card twice. `salts`
    commit to each position (`proofs.SCHEME`); a deal stored before has none, only `salt`."""

    deck: tuple[Card, ...]
    salt: str
    commitment: str
    hands: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...]
    pile: tuple[Card, ...]
    rank: str
    turn: int
    last_call: CheatCallResult | None = None
    last_penalty: CheatPenalty | None = None
    plays: int = 0
    """The plays made in the round so far."""
    salts: tuple[str, ...] = ()
    held: tuple[tuple[int, ...], ...] = ()
    pile_at: tuple[int, ...] = ()
    called_at: tuple[int, ...] = ()
    tree: proofs.Tree | None = None
    """The Merkle tree of `deck` and `salts`, built once for the deal and carried from state to
    state, so that no view looks it up again; None for a deal stored before."""

    @property
    def scheme(self) -> str:
        """How the deal is committed to: card by card, or (stored before) as one deck."""
        return proofs.SCHEME if self.salts else proofs.OLD_SCHEME

    def openings(self, round: int, positions: Iterable[int]) -> list[proofs.Opening] | None:
        """The openings of `positions` in their order; None for a deal stored before (it has
        no salt for each card: its `deck_revealed` shows the whole deck at the round's end)."""
        if not self.salts:
            return None
        tree = self.tree or proofs.tree(self.deck, self.salts, self.commitment)
        return tree.openings(round, positions)


class Lobby(msgspec.Struct, frozen=True, gc=False):
    """The table takes players."""

    match: Match


class ToPlay(msgspec.Struct, frozen=True, gc=False):
    """The player on turn (`deal.turn`) is to play; no play lies open to a call."""

    match: Match
    deal: Deal


class Window(msgspec.Struct, frozen=True, gc=False):
    """The challenge window after a play: any seat but its player's may call `top`, and the
    player on turn (`deal.turn`) plays on, or accepts a play that emptied its player's hand or
    was the round's last allowed (`closes_round`)."""

    match: Match
    deal: Deal
    top: PileTop

    @property
    def at_limit(self) -> bool:
        """Whether `top` is the round's last allowed play (the table's `max_plays`)."""
        limit = self.match.options.play_limit
        return limit is not None and self.deal.plays >= limit

    @property
    def closes_round(self) -> bool:
        """Whether the player on turn may only accept or call: `top` emptied its player's hand
        or is the round's last allowed play."""
        return not self.deal.hands[self.top.seat] or self.at_limit


class RoundOver(msgspec.Struct, frozen=True, gc=False):
    """A round has ended; in the same decision the next one is dealt or the match ends.
    `last_play` is the round's last play when it was accepted: its cards still lie on the
    pile."""

    match: Match
    deal: Deal
    last_play: PileTop | None = None


class Finished(msgspec.Struct, frozen=True, gc=False):
    """The match is over; `deal` is the last round as it ended (`last_play` as in `RoundOver`),
    None when the table's cap of events ended the match before the start. `reason` is why
    when the rules did not end it (`event_cap`)."""

    match: Match
    winners: tuple[int, ...]
    reason: EndReason | None = None
    deal: Deal | None = None
    last_play: PileTop | None = None


State: TypeAlias = Lobby | ToPlay | Window | RoundOver | Finished
InRound: TypeAlias = ToPlay | Window
"""The phases of a round in play."""


def initial_state(options: CheatTableOptions, seeded: bool) -> State:
    """The empty lobby before the game's first event (`created`)."""
    return Lobby(Match(options=CheatTableOptions.of(options), seeded=seeded))
