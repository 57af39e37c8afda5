"""Cheat (seeds 000/001, docs/rules.md): the rules engine as a Decider.

The contract is docs/engines.md. The life of a table:

1. `created(options, seeded)` gives the first event of every game (`CheatGameCreated`); the
   application appends it itself when the table is created. `initial_state(options, seeded)` is the
   empty lobby before it; evolving `CheatGameCreated` assigns its options and `seeded`, so a stored
   log folds to the same state from any `initial_state`.
2. `common.Join` → `PlayerJoined`; `common.Start` (the application checks the host) → a deal.
3. The wire commands `Play`, `Call` and `Accept`, until the last round ends with `CheatMatchEnded`.

Decisions this module makes where the rules leave a detail open (each also noted where it acts,
and listed in docs/rules.md):

- Five or more players need two decks: this is enforced at join time through `max_players` (a fifth
  join at a one-deck table is refused as full) and checked again at the start.
- Calling one's own play is `illegal_move`, as docs/api.md lists it, although the player who just
  played may do nothing else (any other command from them is `not_your_turn`).
- On an honest call of a play that emptied its player's hand, the caller takes the pile first, then
  the round ends: places count the caller's cards with the pile.
- A penalty for an uncalled `XP` is its own event (`penalty_taken`), placed before the cards of the
  play that closed the window; `accept` is its own event (`play_accepted`) too.
- Hands are kept sorted (rank 7…A, then suit H B L A, Chroniclers last) so views are stable.
- The last call's turned-up cards stay in the table view (`last_call`) until the next call or deal.
- A round that ends on `accept` leaves its last play on the pile: the view keeps it as
  `last_play` (docs/api.md: null only once the pile is taken), with the window closed.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias, assert_never

import msgspec

from kronikas.domain.cards import (
    COLOURED,
    PALE,
    RANKS,
    SUITS,
    Card,
    CardCode,
    make_deck,
    next_rank,
)
from kronikas.domain.common import (
    DeckRevealed,
    DomainError,
    GameFull,
    GameNotOpen,
    GameOver,
    IllegalMove,
    InvalidOptions,
    Join,
    MyHand,
    NotYourTurn,
    PlayerJoined,
    Randomness,
    Start,
)

KIND: Final = "cheat"
MIN_PLAYERS: Final = 2
FIRST_RANK: Final = RANKS[0]

_ORDER: Final[dict[Card, int]] = {
    code: i
    for i, code in enumerate(
        (*(rank + suit for rank in RANKS for suit in SUITS), COLOURED, PALE),
    )
}
_NEXT_RANK: Final[dict[str, str]] = {rank: next_rank(rank) for rank in RANKS}


# --- options ---------------------------------------------------------------------------------


class CheatOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The options of a Cheat table; every field may be left out for its default."""

    decks: Annotated[
        int,
        msgspec.Meta(ge=1, le=2, description="Decks of 32 cards: 1 or 2; 2 seat 5–8 players."),
    ] = 1
    max_play: Annotated[
        int, msgspec.Meta(ge=1, le=4, description="The most cards one play may put down (1–4).")
    ] = 4
    rounds: Annotated[
        int, msgspec.Meta(ge=1, le=100, description="Rounds in the match (1–100).")
    ] = 1
    place_points: Annotated[
        tuple[Annotated[int, msgspec.Meta(ge=0, le=100)], ...],
        msgspec.Meta(
            min_length=1,
            max_length=8,
            description="Points for 1st, 2nd, … place (1–8 whole numbers, 0–100); "
            "a place beyond the list scores 0.",
        ),
    ] = (4, 3, 2)
    chroniclers: Annotated[
        bool, msgspec.Meta(description="Add the Coloured (XC) and Pale (XP) Chroniclers.")
    ] = False


def _whole(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def validate_options(options: CheatOptions) -> None:
    """Raise `InvalidOptions` when an option is outside the limits in docs/rules.md."""
    if not _whole(options.decks, 1, 2):
        raise InvalidOptions("decks must be 1 or 2.")
    if not _whole(options.max_play, 1, 4):
        raise InvalidOptions("max_play must be a whole number from 1 to 4.")
    if not _whole(options.rounds, 1, 100):
        raise InvalidOptions("rounds must be a whole number from 1 to 100.")
    points = options.place_points
    if not isinstance(points, tuple | list) or not 1 <= len(points) <= 8:
        raise InvalidOptions("place_points must list 1 to 8 numbers.")
    if not all(_whole(p, 0, 100) for p in points):
        raise InvalidOptions("place_points must be whole numbers from 0 to 100.")
    if type(options.chroniclers) is not bool:
        raise InvalidOptions("chroniclers must be true or false.")


def max_players(options: CheatOptions) -> int:
    """Seats at a table: 4 with one deck, 8 with two (docs/rules.md)."""
    return 4 if options.decks == 1 else 8


# --- wire commands ---------------------------------------------------------------------------


class Play(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="play"):
    """Put 1 to `max_play` cards from your hand face down on the pile; the service announces
    their count and the rank due now."""

    cards: Annotated[list[CardCode], msgspec.Meta(min_length=1, max_length=4)]


class Call(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="call"):
    """Call "Cheat!" on the most recent play (not your own) while its window is open."""


class Accept(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="accept"
):
    """As the next player, let the window close on a play that emptied its player's hand."""


Command: TypeAlias = Play | Call | Accept
COMMANDS: Final = (Play, Call, Accept)


# --- events ----------------------------------------------------------------------------------


class CheatGameCreated(msgspec.Struct, frozen=True, tag_field="type", tag="game_created"):
    """A Cheat table was created with these options."""

    options: CheatOptions
    seeded: bool


class CheatRoundDealt(msgspec.Struct, frozen=True, tag_field="type", tag="round_dealt"):
    """A round was dealt: `hands` by seat (each viewer sees only their own), `set_aside` cards
    out of play; `commitment` is the hash of the shuffled deck (docs/api.md, "Fair deals")."""

    round: int
    dealer: int
    turn: int
    rank: str
    set_aside: int
    commitment: str
    hands: list[list[Card] | None]
    set_aside_cards: list[Card] | None = None
    deck: list[Card] | None = None
    salt: str | None = None


class CheatCardsPlayed(msgspec.Struct, frozen=True, tag_field="type", tag="cards_played"):
    """`seat` put `count` cards down announced as `rank`; `turn` is next, to announce
    `next_rank`. The cards are shown only to their player."""

    seat: int
    count: int
    rank: str
    turn: int
    next_rank: str
    cards: list[Card] | None = None


class CheatCalled(msgspec.Struct, frozen=True, tag_field="type", tag="cheat_called"):
    """`caller` called "Cheat!" on the play of `seat`; its `cards` are turned up for all. On an
    honest play the caller is the `taker` of the pile, on a lie the player who lied."""

    caller: int
    seat: int
    rank: str
    cards: list[Card]
    honest: bool
    taker: int


class CheatPileTaken(msgspec.Struct, frozen=True, tag_field="type", tag="pile_taken"):
    """After a call `seat` took the whole pile (`count` cards; the cards are shown only to them);
    `turn` plays next, or null when the round ends with this call."""

    seat: int
    count: int
    turn: int | None
    cards: list[Card] | None = None


class CheatPenaltyTaken(msgspec.Struct, frozen=True, tag_field="type", tag="penalty_taken"):
    """The last play held the Pale Chronicler and was not called: its player `seat` took the pile
    (`count` cards, shown only to them); `turn` plays next."""

    seat: int
    count: int
    turn: int
    cards: list[Card] | None = None


class CheatPlayAccepted(msgspec.Struct, frozen=True, tag_field="type", tag="play_accepted"):
    """`seat` let the window close on the play of `player`, who had no cards left."""

    seat: int
    player: int


class CheatRoundEnded(msgspec.Struct, frozen=True, tag_field="type", tag="round_ended"):
    """`winner` finished the round; places by cards in hand, points scored and running totals
    (lists indexed by seat)."""

    round: int
    winner: int
    hand_sizes: list[int]
    places: list[int]
    points: list[int]
    totals: list[int]


class CheatMatchEnded(msgspec.Struct, frozen=True, tag_field="type", tag="match_ended"):
    """The last round ended: `winners` have the most `points` (totals by seat)."""

    winners: list[int]
    points: list[int]


Event: TypeAlias = (
    CheatGameCreated
    | PlayerJoined
    | CheatRoundDealt
    | CheatCardsPlayed
    | CheatCalled
    | CheatPileTaken
    | CheatPenaltyTaken
    | CheatPlayAccepted
    | CheatRoundEnded
    | DeckRevealed
    | CheatMatchEnded
)


# --- view ------------------------------------------------------------------------------------


class CheatPlayerView(msgspec.Struct, frozen=True):
    """A seat at a Cheat table: who sits there, how many cards they hold, their points."""

    id: str
    name: str
    seat: int
    hand_size: int
    points: int


class CheatLastPlay(msgspec.Struct, frozen=True):
    """The latest play while its cards lie on the pile: who, how many, announced as what."""

    seat: int
    count: int
    rank: str


class CheatCallResult(msgspec.Struct, frozen=True):
    """The latest call of the round: its turned-up cards, whether the play was honest, who took
    the pile."""

    caller: int
    seat: int
    rank: str
    cards: list[Card]
    honest: bool
    taker: int


class CheatPenalty(msgspec.Struct, frozen=True):
    """The latest uncalled play that held the Pale Chronicler: its player took the pile."""

    seat: int
    count: int


class CheatTableView(msgspec.Struct, frozen=True):
    """The middle of a Cheat table: the rank due, the pile and the challenge window."""

    rank: str
    pile_size: int
    set_aside: int
    window_open: bool
    last_play: CheatLastPlay | None
    last_call: CheatCallResult | None = None
    commitment: str | None = None
    last_penalty: CheatPenalty | None = None
    """Everyone learns that an uncalled play held XP (docs/rules.md); shown until the next deal."""


class CheatRoundResult(msgspec.Struct, frozen=True):
    """The most recent finished round: lists are indexed by seat."""

    round: int
    winner: int
    places: list[int]
    points: list[int]
    hand_sizes: list[int]


Status: TypeAlias = Literal["open", "playing", "finished"]


class CheatGameView(msgspec.Struct, frozen=True, tag_field="kind", tag="cheat"):
    """A Cheat table as one viewer may see it; a spectator's `me` and `legal` are null."""

    id: str
    status: Status
    version: int
    options: CheatOptions
    seeded: bool
    round: int
    dealer: int | None
    turn: int | None
    winners: list[int]
    players: list[CheatPlayerView]
    me: MyHand | None
    legal: list[str] | None
    cheat: CheatTableView | None
    thirty_one: None
    last_round: CheatRoundResult | None


# --- states ----------------------------------------------------------------------------------


class CheatSeat(msgspec.Struct, frozen=True, gc=False):
    """Who sits at a seat."""

    id: str
    name: str


class CheatPileTop(msgspec.Struct, frozen=True, gc=False):
    """The most recent play while its window is open."""

    seat: int
    cards: tuple[Card, ...]
    rank: str


class CheatLobby(msgspec.Struct, frozen=True):
    """The table takes players."""

    options: CheatOptions
    seeded: bool
    players: tuple[CheatSeat, ...] = ()


class CheatRound(msgspec.Struct, frozen=True):
    """A round in play. The challenge window is open exactly while `top` is set."""

    options: CheatOptions
    seeded: bool
    players: tuple[CheatSeat, ...]
    points: tuple[int, ...]
    last_round: CheatRoundResult | None
    round: int
    dealer: int
    deck: tuple[Card, ...]
    salt: str
    commitment: str
    hands: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...]
    pile: tuple[Card, ...]
    rank: str
    turn: int
    top: CheatPileTop | None = None
    last_call: CheatCallResult | None = None
    last_penalty: CheatPenalty | None = None


class CheatRoundOver(msgspec.Struct, frozen=True):
    """A round has ended; in the same decision the next one is dealt or the match ends."""

    table: CheatRound


class CheatFinished(msgspec.Struct, frozen=True):
    """The match is over; `table` is the last round as it ended (its `top` is the accepted last
    play still on the pile, or `None` when the round ended on a call)."""

    table: CheatRound
    winners: tuple[int, ...]


State: TypeAlias = CheatLobby | CheatRound | CheatRoundOver | CheatFinished


def initial_state(options: CheatOptions, seeded: bool) -> State:
    """The empty lobby before the game's first event (`created`)."""
    return CheatLobby(options=options, seeded=seeded)


def created(options: CheatOptions, seeded: bool) -> list[Event]:
    """The first event of every game, appended by the application; validates the options."""
    validate_options(options)
    return [CheatGameCreated(options=options, seeded=seeded)]


def is_terminal(state: State) -> bool:
    """Whether the match is over."""
    return isinstance(state, CheatFinished)


# --- the rules' predicates -------------------------------------------------------------------


def sort_cards(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Cards in hand order: rank 7…A, then suit H B L A, Chroniclers last."""
    return tuple(sorted(cards, key=_ORDER.__getitem__))


def _is_honest(cards: tuple[Card, ...] | list[Card], rank: str) -> bool:
    """Every card is of `rank` or a Chronicler: XC always, XP when called (docs/rules.md)."""
    return all(card[0] == "X" or card[:-1] == rank for card in cards)


def _legal(state: CheatRound, seat: int) -> list[str]:
    top = state.top
    if top is None:
        return ["play"] if seat == state.turn else []
    if seat == top.seat:
        return []
    if seat == state.turn:
        return ["play", "call"] if state.hands[top.seat] else ["accept", "call"]
    return ["call"]


def legal(state: State, seat: int) -> list[str]:
    """The command types this seat may send now (`[]` when none)."""
    if isinstance(state, CheatRound) and 0 <= seat < len(state.players):
        return _legal(state, seat)
    return []


# --- decide ----------------------------------------------------------------------------------


def decide(
    state: State, command: Command | Join | Start, seat: int | None, rng: Randomness
) -> list[Event]:
    """The events a command causes, or a `DomainError` when the rules refuse it."""
    match command:
        case Play() | Call() | Accept():
            return _act(state, command, seat, rng)
        case Join():
            return _join(state, command)
        case Start():
            return _start(state, rng)
        case _:
            assert_never(command)


def _join(state: State, command: Join) -> list[Event]:
    if not isinstance(state, CheatLobby):
        raise GameNotOpen("The game has already started; it takes no more players.")
    limit = max_players(state.options)
    if len(state.players) >= limit:
        raise GameFull(f"All {limit} seats are taken.")
    return [PlayerJoined(player_id=command.player_id, name=command.name, seat=len(state.players))]


def _start(state: State, rng: Randomness) -> list[Event]:
    if not isinstance(state, CheatLobby):
        raise GameNotOpen("The game has already started.")
    n = len(state.players)
    if n < MIN_PLAYERS:
        raise IllegalMove(f"At least {MIN_PLAYERS} players are needed to start; {n} joined.")
    if n > max_players(state.options):
        # Unreachable through joins (they stop at max_players); kept for logs written otherwise.
        raise IllegalMove(f"{n} players need two decks; this table has one.")
    return [_deal(state.options, n, 1, rng.pick(n), rng)]


def _deal(options: CheatOptions, n: int, round: int, dealer: int, rng: Randomness) -> Event:
    """Shuffle and deal: card i goes to seat (dealer + 1 + i) mod n, the rest is set aside."""
    shuffle = rng.shuffle(
        make_deck(options.decks, (COLOURED, PALE) if options.chroniclers else ()), round
    )
    deck = shuffle.deck
    dealt = len(deck) // n * n
    hands: list[list[Card] | None] = [None] * n
    for r in range(n):
        hands[(dealer + 1 + r) % n] = list(sort_cards(deck[r:dealt:n]))
    return CheatRoundDealt(
        round=round,
        dealer=dealer,
        turn=(dealer + 1) % n,
        rank=FIRST_RANK,
        set_aside=len(deck) - dealt,
        commitment=shuffle.commitment,
        hands=hands,
        set_aside_cards=list(deck[dealt:]),
        deck=list(deck),
        salt=shuffle.salt,
    )


def _act(state: State, command: Command, seat: int | None, rng: Randomness) -> list[Event]:
    match state:
        case CheatRound():
            pass
        case CheatLobby():
            raise NotYourTurn("The game has not started.")
        case CheatFinished():
            raise GameOver("The match is over.")
        case CheatRoundOver():
            raise NotYourTurn("The next round is being dealt.")
        case _:
            assert_never(state)
    if seat is None or not 0 <= seat < len(state.players):
        raise NotYourTurn("Only a player seated at this table may send commands.")
    allowed = _legal(state, seat)
    match command:
        case Play():
            if "play" not in allowed:
                raise _refusal(state, seat, "play", allowed)
            return _play(state, seat, command.cards)
        case Call():
            if "call" not in allowed:
                raise _refusal(state, seat, "call", allowed)
            return _call(state, seat, rng)
        case Accept():
            if "accept" not in allowed:
                raise _refusal(state, seat, "accept", allowed)
            return _accept(state, seat, rng)
        case _:
            assert_never(command)


def _refusal(state: CheatRound, seat: int, kind: str, allowed: list[str]) -> DomainError:
    """Why `kind` is refused: `not_your_turn` when the seat may do nothing now, else illegal."""
    top, turn = state.top, state.turn
    if top is not None and top.seat == seat:
        if kind == "call":
            # docs/api.md names this an illegal move, though the player may do nothing else now.
            return IllegalMove("You cannot call your own play.")
        return NotYourTurn(
            f"You have just played: seat {turn} is next, and any other player may call."
        )
    if not allowed:
        return NotYourTurn(f"It is seat {turn}'s turn to play.")
    if kind == "play":
        if seat == turn:
            return IllegalMove(
                "The player who just played has no cards left: you may accept or call, not play."
            )
        return IllegalMove(f"It is seat {turn}'s turn to play; you may only call.")
    if kind == "call":
        return IllegalMove("There is no play to call: put down cards.")
    if top is not None and not state.hands[top.seat]:
        return IllegalMove(f"Only the next player, seat {turn}, may accept; you may call.")
    return IllegalMove("You may accept only a play that emptied its player's hand.")


def _play(state: CheatRound, seat: int, cards: list[Card]) -> list[Event]:
    if not cards:
        raise IllegalMove("Put down at least one card.")
    if len(cards) > state.options.max_play:
        raise IllegalMove(f"You may put down at most {state.options.max_play} cards at once.")
    hand = list(state.hands[seat])
    for card in cards:
        try:
            hand.remove(card)
        except ValueError:
            raise IllegalMove(
                f"You do not hold {card}"
                + (" as many times as you put it down." if card in state.hands[seat] else ".")
            ) from None
    events: list[Event] = []
    top = state.top
    if top is not None and PALE in top.cards:
        # The window closes uncalled on an XP play: its player takes the pile before these land.
        events.append(
            CheatPenaltyTaken(seat=top.seat, count=len(state.pile), turn=seat, cards=[*state.pile])
        )
    events.append(
        CheatCardsPlayed(
            seat=seat,
            count=len(cards),
            rank=state.rank,
            turn=(seat + 1) % len(state.players),
            next_rank=_NEXT_RANK[state.rank],
            cards=list(cards),
        )
    )
    return events


def _call(state: CheatRound, caller: int, rng: Randomness) -> list[Event]:
    top = state.top
    assert top is not None
    honest = _is_honest(top.cards, top.rank)
    taker = caller if honest else top.seat
    finished = honest and not state.hands[top.seat]
    if finished:
        turn: int | None = None
    else:
        # A caught liar's caller plays next, skipping the seats between; else play goes on in order.
        turn = (top.seat + 1) % len(state.players) if honest else caller
    events: list[Event] = [
        CheatCalled(
            caller=caller,
            seat=top.seat,
            rank=top.rank,
            cards=[*top.cards],
            honest=honest,
            taker=taker,
        ),
        CheatPileTaken(seat=taker, count=len(state.pile), turn=turn, cards=[*state.pile]),
    ]
    if finished:
        sizes = [len(hand) for hand in state.hands]
        sizes[taker] += len(state.pile)
        events += _end_round(state, top.seat, sizes, rng)
    return events


def _accept(state: CheatRound, seat: int, rng: Randomness) -> list[Event]:
    top = state.top
    assert top is not None
    events: list[Event] = [CheatPlayAccepted(seat=seat, player=top.seat)]
    if PALE in top.cards:
        events.append(
            CheatPenaltyTaken(seat=top.seat, count=len(state.pile), turn=seat, cards=[*state.pile])
        )
        return events
    events += _end_round(state, top.seat, [len(hand) for hand in state.hands], rng)
    return events


def places_of(sizes: list[int]) -> list[int]:
    """Places by cards in hand, fewest first; equal counts share the better place."""
    return [1 + sum(1 for other in sizes if other < size) for size in sizes]


def points_of(places: list[int], place_points: tuple[int, ...]) -> list[int]:
    """Points for each place; a place beyond the list scores 0."""
    return [place_points[p - 1] if p <= len(place_points) else 0 for p in places]


def _end_round(state: CheatRound, winner: int, sizes: list[int], rng: Randomness) -> list[Event]:
    places = places_of(sizes)
    points = points_of(places, state.options.place_points)
    totals = [a + b for a, b in zip(state.points, points, strict=True)]
    events: list[Event] = [
        CheatRoundEnded(
            round=state.round,
            winner=winner,
            hand_sizes=sizes,
            places=places,
            points=points,
            totals=totals,
        ),
        DeckRevealed(round=state.round, salt=state.salt, deck=list(state.deck)),
    ]
    n = len(state.players)
    if state.round < state.options.rounds:
        events.append(_deal(state.options, n, state.round + 1, (state.dealer + 1) % n, rng))
    else:
        best = max(totals)
        events.append(
            CheatMatchEnded(winners=[s for s, t in enumerate(totals) if t == best], points=totals)
        )
    return events


# --- evolve ----------------------------------------------------------------------------------


def _at(
    items: tuple[tuple[Card, ...], ...], i: int, value: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*items[:i], value, *items[i + 1 :])


def _unredacted(cards: list[Card] | None) -> list[Card]:
    if cards is None:
        raise ValueError("A redacted event cannot be folded into a state.")
    return cards


def _wrong(state: State, event: Event) -> ValueError:
    return ValueError(f"{type(event).__name__} cannot follow {type(state).__name__}.")


def _dealt(
    options: CheatOptions,
    seeded: bool,
    players: tuple[CheatSeat, ...],
    points: tuple[int, ...] | None,
    last_round: CheatRoundResult | None,
    event: CheatRoundDealt,
) -> CheatRound:
    return CheatRound(
        options=options,
        seeded=seeded,
        players=players,
        points=(0,) * len(players) if points is None else points,
        last_round=last_round,
        round=event.round,
        dealer=event.dealer,
        deck=tuple(_unredacted(event.deck)),
        salt=event.salt or "",
        commitment=event.commitment,
        hands=tuple(tuple(_unredacted(hand)) for hand in event.hands),
        set_aside=tuple(_unredacted(event.set_aside_cards)),
        pile=(),
        rank=event.rank,
        turn=event.turn,
    )


def evolve(state: State, event: Event) -> State:
    """The state after an event: assigns what the event says."""
    match event:
        case CheatCardsPlayed():
            if not isinstance(state, CheatRound):
                raise _wrong(state, event)
            cards = _unredacted(event.cards)
            hand = list(state.hands[event.seat])
            for card in cards:
                hand.remove(card)
            return msgspec.structs.replace(
                state,
                hands=_at(state.hands, event.seat, tuple(hand)),
                pile=state.pile + tuple(cards),
                rank=event.next_rank,
                turn=event.turn,
                top=CheatPileTop(seat=event.seat, cards=tuple(cards), rank=event.rank),
            )
        case CheatCalled():
            if not isinstance(state, CheatRound):
                raise _wrong(state, event)
            return msgspec.structs.replace(
                state,
                top=None,
                last_call=CheatCallResult(
                    caller=event.caller,
                    seat=event.seat,
                    rank=event.rank,
                    cards=event.cards,
                    honest=event.honest,
                    taker=event.taker,
                ),
            )
        case CheatPileTaken() | CheatPenaltyTaken():
            if not isinstance(state, CheatRound):
                raise _wrong(state, event)
            taken = _unredacted(event.cards)
            penalty = (
                CheatPenalty(seat=event.seat, count=event.count)
                if isinstance(event, CheatPenaltyTaken)
                else state.last_penalty
            )
            return msgspec.structs.replace(
                state,
                hands=_at(state.hands, event.seat, sort_cards((*state.hands[event.seat], *taken))),
                pile=(),
                top=None,
                turn=state.turn if event.turn is None else event.turn,
                last_penalty=penalty,
            )
        case CheatPlayAccepted():
            if not isinstance(state, CheatRound):
                raise _wrong(state, event)
            return state
        case CheatRoundEnded():
            if not isinstance(state, CheatRound):
                raise _wrong(state, event)
            result = CheatRoundResult(
                round=event.round,
                winner=event.winner,
                places=event.places,
                points=event.points,
                hand_sizes=event.hand_sizes,
            )
            return CheatRoundOver(
                # `top` stays: a round ended by `accept` leaves its last play on the pile.
                table=msgspec.structs.replace(state, points=tuple(event.totals), last_round=result)
            )
        case DeckRevealed():
            if not isinstance(state, CheatRoundOver):
                raise _wrong(state, event)
            return state
        case CheatRoundDealt():
            if isinstance(state, CheatLobby):
                return _dealt(state.options, state.seeded, state.players, None, None, event)
            if isinstance(state, CheatRoundOver):
                t = state.table
                return _dealt(t.options, t.seeded, t.players, t.points, t.last_round, event)
            raise _wrong(state, event)
        case CheatMatchEnded():
            if not isinstance(state, CheatRoundOver):
                raise _wrong(state, event)
            return CheatFinished(
                table=msgspec.structs.replace(state.table, points=tuple(event.points)),
                winners=tuple(event.winners),
            )
        case PlayerJoined():
            if not isinstance(state, CheatLobby):
                raise _wrong(state, event)
            seat = CheatSeat(id=event.player_id, name=event.name)
            return msgspec.structs.replace(state, players=(*state.players, seat))
        case CheatGameCreated():
            if not isinstance(state, CheatLobby):
                raise _wrong(state, event)
            return msgspec.structs.replace(state, options=event.options, seeded=event.seeded)
        case _:
            assert_never(event)


# --- views -----------------------------------------------------------------------------------


def redact(event: Event, viewer: int | None) -> Event:
    """The event as `viewer` may see it: hidden cards become `None`."""
    match event:
        case CheatCardsPlayed() if event.seat != viewer and event.cards is not None:
            return msgspec.structs.replace(event, cards=None)
        case CheatPileTaken() | CheatPenaltyTaken() if (
            event.seat != viewer and event.cards is not None
        ):
            return msgspec.structs.replace(event, cards=None)
        case CheatRoundDealt():
            return msgspec.structs.replace(
                event,
                hands=[hand if seat == viewer else None for seat, hand in enumerate(event.hands)],
                set_aside_cards=None,
                deck=None,
                salt=None,
            )
        case _:
            return event


def _players(
    players: tuple[CheatSeat, ...],
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
        )
        for seat, p in enumerate(players)
    ]


def view(state: State, viewer: int | None, game_id: str, version: int) -> CheatGameView:
    """The table as `viewer` (a seat, or `None` for a spectator) may see it."""
    if isinstance(state, CheatLobby):
        seated = viewer is not None and 0 <= viewer < len(state.players)
        return CheatGameView(
            id=game_id,
            status="open",
            version=version,
            options=state.options,
            seeded=state.seeded,
            round=0,
            dealer=None,
            turn=None,
            winners=[],
            players=_players(state.players, None, None),
            me=MyHand(id=state.players[viewer].id, seat=viewer, hand=[])
            if seated and viewer is not None
            else None,
            legal=[] if seated else None,
            cheat=None,
            thirty_one=None,
            last_round=None,
        )
    status: Status = "playing"
    winners: list[int] = []
    turn: int | None = None
    if isinstance(state, CheatRound):
        table, turn = state, state.turn
    else:
        table = state.table
        if isinstance(state, CheatFinished):
            status, winners = "finished", list(state.winners)
    # docs/api.md: `last_play` lasts while its cards lie on the pile, after the round too; the
    # window is open only while the round is played.
    top = table.top
    seated = viewer is not None and 0 <= viewer < len(table.players)
    return CheatGameView(
        id=game_id,
        status=status,
        version=version,
        options=table.options,
        seeded=table.seeded,
        round=table.round,
        dealer=table.dealer,
        turn=turn,
        winners=winners,
        players=_players(table.players, table.hands, table.points),
        me=MyHand(id=table.players[viewer].id, seat=viewer, hand=list(table.hands[viewer]))
        if seated and viewer is not None
        else None,
        legal=(_legal(state, viewer) if isinstance(state, CheatRound) else [])
        if seated and viewer is not None
        else None,
        cheat=CheatTableView(
            rank=table.rank,
            pile_size=len(table.pile),
            set_aside=len(table.set_aside),
            window_open=top is not None and isinstance(state, CheatRound),
            last_play=CheatLastPlay(seat=top.seat, count=len(top.cards), rank=top.rank)
            if top is not None
            else None,
            last_call=table.last_call,
            last_penalty=table.last_penalty,
            commitment=table.commitment,
        ),
        thirty_one=None,
        last_round=table.last_round,
    )
