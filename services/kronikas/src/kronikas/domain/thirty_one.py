"""Thirty-One (docs/rules.md, seeds 002 and 003) as a Decider: commands, events, phases, views.

Decisions taken here where the rules leave a detail open (docs/rules.md lists them too):

- A round's end comes in one decision with its cause: the move, `round_ended` (scores, lives,
  who is out), `deck_revealed`, then the next `round_dealt` or `match_ended`. The deck's unused
  cards are never shown during the round; `deck_revealed` shows them once it is over, as
  docs/api.md's "Fair deals" requires.
- A swap in the last circuit is followed at once by `hand_shown` for the swapper ("whoever swaps
  shows at once"); a swap that makes three Aces is then followed by the round's end.
- With three Aces the round result holds only the winner's hand and score, even when hands were
  shown earlier in the last circuit: "the others stay hidden" is kept literally.
- A hand's cards keep their positions: a swap puts the taken card where the given one was, and
  the given card where the taken one lay on the table.
- `round_ended.lives` is every seat's lives afterwards; a player who loses a life at 0 without
  going out (everyone left would be out) stays at 0 and is listed in `lost_life`, not in `out`.
- `max_circuits` counts the turns (swap, swap_all, pass) taken since the dealer's choice; once
  `max_circuits` × the players in the round have been taken, the player on turn may only show.
- In the last circuit `legal` lists `swap` only when some one-card swap reaches 21, and
  `swap_all` only when the table scores 21 (the hand afterwards is the table).
- A wire command from a seat that does not exist, a spectator, a player who is out, or anyone
  but the player on turn is `not_your_turn`; a `join` or `start` after the match has ended is
  `game_not_open`, a wire command then is `game_over`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Final, Literal, TypeAlias, TypeVar, assert_never

from msgspec import Meta, Struct
from msgspec.structs import replace

from kronikas.domain.cards import COLOURED, STANDARD, VALUES, Card, CardCode
from kronikas.domain.common import (
    DeckRevealed,
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

T = TypeVar("T")

KIND: Final = "thirty_one"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 9
HAND_SIZE: Final = 3
TABLE_SIZE: Final = 3
MIN_SCORE: Final = 42
"""21, doubled: the lowest score a hand can have that is not 0."""
THREE_ACES: Final = 66
"""33, doubled: three Aces, an immediate win."""


# --------------------------------------------------------------------------------------------
# Options


class ThirtyOneOptions(Struct, frozen=True, forbid_unknown_fields=True):
    """The options of a Thirty-One table (docs/rules.md, "Limits of the options")."""

    lives: Annotated[
        int,
        Meta(ge=0, le=10, description="Lives each player starts with; 0: out at the first loss."),
    ] = 3
    max_circuits: (
        Annotated[
            int,
            Meta(
                ge=1,
                le=100,
                description="After this many full circuits without a show, the player on turn "
                "may only show; null: no limit.",
            ),
        ]
        | None
    ) = None
    chronicler: Annotated[
        bool, Meta(description="Whether the Coloured Chronicler XC joins the deck (33 cards).")
    ] = False


def validate_options(options: ThirtyOneOptions) -> None:
    """Raise InvalidOptions when an option is outside the limits in docs/rules.md."""
    lives, circuits = options.lives, options.max_circuits
    if type(lives) is not int or not 0 <= lives <= 10:
        raise InvalidOptions("lives must be a whole number from 0 to 10.")
    if circuits is not None and (type(circuits) is not int or not 1 <= circuits <= 100):
        raise InvalidOptions("max_circuits must be a whole number from 1 to 100, or null.")
    if type(options.chronicler) is not bool:
        raise InvalidOptions("chronicler must be true or false.")


def max_players(options: ThirtyOneOptions) -> int:
    """The most seats a table can have: 9, whatever the options."""
    return MAX_PLAYERS


def deck_of(options: ThirtyOneOptions) -> tuple[Card, ...]:
    """The unshuffled deck: the 32 cards, and XC when the Chronicler is on."""
    return (*STANDARD, COLOURED) if options.chronicler else STANDARD


# --------------------------------------------------------------------------------------------
# Scoring

_RANK: Final = {card: card[:-1] for card in STANDARD}
_SUIT: Final = {card: card[-1] for card in STANDARD}
_VALUE: Final = {card: VALUES[card[:-1]] for card in STANDARD}
_SCORES: dict[tuple[Card, ...], int] = {}


def _plain_score(a: Card, b: Card, c: Card) -> int:
    """Twice the score of three ordinary cards (a card may repeat: XC can copy one)."""
    rank = _RANK[a]
    if rank == _RANK[b] == _RANK[c]:
        return THREE_ACES if rank == "A" else 61
    sums = dict.fromkeys((_SUIT[a], _SUIT[b], _SUIT[c]), 0)
    sums[_SUIT[a]] += _VALUE[a]
    sums[_SUIT[b]] += _VALUE[b]
    sums[_SUIT[c]] += _VALUE[c]
    best = max(sums.values())
    return 2 * best if best >= 21 else 0


def _compute_score(hand: tuple[Card, ...]) -> int:
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a hand has {HAND_SIZE} cards, not {len(hand)}")
    if COLOURED in hand:
        # XC stands for whatever card scores best, a copy of one in the hand included.
        a, b = (card for card in hand if card != COLOURED)
        return max(_plain_score(a, b, card) for card in STANDARD)
    return _plain_score(*hand)


def score(hand: Sequence[Card]) -> int:
    """Twice the score of a 3-card hand: 61 for 30.5, 66 for three Aces, 0 under 21."""
    key = tuple(hand)
    doubled = _SCORES.get(key)
    if doubled is None:
        doubled = _SCORES[key] = _compute_score(key)
    return doubled


def wire_score(doubled: int) -> float:
    """A doubled score as the wire shows it: 61 → 30.5, 42 → 21.0."""
    return doubled / 2


# --------------------------------------------------------------------------------------------
# Commands (the wire)


class _ThirtyOneCommand(Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Keep(_ThirtyOneCommand, frozen=True, tag="keep"):
    """The dealer keeps their hand: the dealer's choice before the first turn of a round."""


class Exchange(_ThirtyOneCommand, frozen=True, tag="exchange"):
    """The dealer exchanges their whole hand with the table (the old hand goes face up to the
    table): the dealer's choice before the first turn of a round."""


class Swap(_ThirtyOneCommand, frozen=True, tag="swap"):
    """Exchange one card of the hand (`give`) with one card of the table (`take`). In the last
    circuit only when the hand afterwards scores at least 21; it is then shown at once."""

    give: CardCode
    take: CardCode


class SwapAll(_ThirtyOneCommand, frozen=True, tag="swap_all"):
    """Exchange the whole hand with the table; only when the table's three cards score at least
    21 as a hand. In the last circuit the hand is then shown at once."""


class Pass(_ThirtyOneCommand, frozen=True, tag="pass"):
    """Do nothing this turn; not twice in a row before a show, always allowed in the last
    circuit."""


class Show(_ThirtyOneCommand, frozen=True, tag="show"):
    """Lay the hand open, whatever it scores: the others get one last turn each (the last
    circuit), then all hands are scored."""


Command: TypeAlias = Keep | Exchange | Swap | SwapAll | Pass | Show
COMMANDS: Final = (Keep, Exchange, Swap, SwapAll, Pass, Show)

CommandType = Literal["keep", "exchange", "swap", "swap_all", "pass", "show"]


# --------------------------------------------------------------------------------------------
# Events (stored; they never forbid unknown fields, so new fields can be added with defaults)


class _ThirtyOneEvent(Struct, frozen=True, tag_field="type"):
    pass


class ThirtyOneGameCreated(_ThirtyOneEvent, frozen=True, tag="game_created"):
    """A Thirty-One table was created."""

    options: ThirtyOneOptions
    seeded: bool


class ThirtyOneRoundDealt(_ThirtyOneEvent, frozen=True, tag="round_dealt"):
    """A round was dealt. `seats` is the order of play of the players in the round, from the
    seat after the dealer to the dealer; `hands` is by seat (null for a seat out of the match or
    a hand the viewer may not see); `deck` and `salt` are seen by nobody until `deck_revealed`.
    The dealer is on turn, to keep or exchange."""

    round: int
    dealer: int
    seats: list[int]
    hands: list[list[Card] | None]
    table: list[Card]
    commitment: str
    deck: list[Card] | None = None
    salt: str | None = None


class ThirtyOneHandKept(_ThirtyOneEvent, frozen=True, tag="hand_kept"):
    """The dealer kept their hand; `turn` starts the turns."""

    seat: int
    turn: int


class ThirtyOneHandExchanged(_ThirtyOneEvent, frozen=True, tag="hand_exchanged"):
    """The dealer took the table into their hand and laid their old hand, now `table`, face up.
    `turn` is null when the exchange ended the round (three Aces)."""

    seat: int
    table: list[Card]
    turn: int | None


class ThirtyOneCardSwapped(_ThirtyOneEvent, frozen=True, tag="card_swapped"):
    """`seat` gave `give` to the table and took `take` from it. `turn` is who is on turn next
    (the swapper again in the last circuit, who shows at once; null when the round ended)."""

    seat: int
    give: Card
    take: Card
    turn: int | None


class ThirtyOneHandsSwapped(_ThirtyOneEvent, frozen=True, tag="hands_swapped"):
    """`seat` exchanged their whole hand with the table; their old hand is now `table`."""

    seat: int
    table: list[Card]
    turn: int | None


class ThirtyOnePassed(_ThirtyOneEvent, frozen=True, tag="passed"):
    """`seat` passed; `turn` is null when this was the last turn of the last circuit."""

    seat: int
    turn: int | None


class ThirtyOneHandShown(_ThirtyOneEvent, frozen=True, tag="hand_shown"):
    """`seat` laid their hand open: by `show` (which starts the last circuit) or after a swap in
    the last circuit."""

    seat: int
    hand: list[Card]
    turn: int | None


class ThirtyOneRoundEnded(_ThirtyOneEvent, frozen=True, tag="round_ended"):
    """A round was scored. Lists are by seat: `hands` and `scores` hold what was shown (null
    elsewhere; with three Aces only the winner's); `lost_life` and `out` are seats; `lives` is
    every seat's lives afterwards."""

    round: int
    hands: list[list[Card] | None]
    scores: list[float | None]
    lost_life: list[int]
    out: list[int]
    three_aces: int | None
    lives: list[int]


class ThirtyOneMatchEnded(_ThirtyOneEvent, frozen=True, tag="match_ended"):
    """The match is over: one player is left, and wins."""

    winners: list[int]


Event: TypeAlias = (
    ThirtyOneGameCreated
    | PlayerJoined
    | ThirtyOneRoundDealt
    | ThirtyOneHandKept
    | ThirtyOneHandExchanged
    | ThirtyOneCardSwapped
    | ThirtyOneHandsSwapped
    | ThirtyOnePassed
    | ThirtyOneHandShown
    | ThirtyOneRoundEnded
    | DeckRevealed
    | ThirtyOneMatchEnded
)


# --------------------------------------------------------------------------------------------
# Views


class ThirtyOnePlayerView(Struct, frozen=True):
    """A seat at a Thirty-One table."""

    id: str
    name: str
    seat: int
    hand_size: int
    lives: int
    out: bool


class ThirtyOneTableView(Struct, frozen=True):
    """The middle of the table in the current round. `shown` is by seat: the hands laid open in
    this round's last circuit; `circuit` counts the circuits of the turns from 1 (null outside
    them); `passed` lists the seats whose previous turn was a pass (they may not pass now)."""

    table: list[Card]
    phase: Literal["dealer_choice", "turns", "last_circuit"]
    shown_by: int | None
    shown: list[list[Card] | None]
    circuit: int | None
    passed: list[int]


class ThirtyOneRoundResult(Struct, frozen=True):
    """The most recent finished round; lists by seat, null where a seat took no part or a hand
    was not shown."""

    round: int
    hands: list[list[Card] | None]
    scores: list[float | None]
    lost_life: list[int]
    out: list[int]
    three_aces: int | None


class ThirtyOneGameView(Struct, frozen=True, tag_field="kind", tag="thirty_one"):
    """A Thirty-One table as one viewer may see it (`me` and `legal` are null for a
    spectator)."""

    id: str
    status: Literal["open", "playing", "finished"]
    version: int
    options: ThirtyOneOptions
    seeded: bool
    round: int
    dealer: int | None
    turn: int | None
    winners: list[int]
    players: list[ThirtyOnePlayerView]
    me: MyHand | None
    legal: list[str] | None
    thirty_one: ThirtyOneTableView | None
    last_round: ThirtyOneRoundResult | None
    cheat: None = None


# --------------------------------------------------------------------------------------------
# States: one phase each


class Match(Struct, frozen=True):
    """What lasts the whole match: the seats, their lives, the round and its dealer."""

    options: ThirtyOneOptions
    seeded: bool
    ids: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    lives: tuple[int, ...] = ()
    out: tuple[bool, ...] = ()
    round: int = 0
    dealer: int | None = None
    last_round: ThirtyOneRoundResult | None = None


class Deal(Struct, frozen=True):
    """One round's cards. `order` is the players in the round from the seat after the dealer;
    `after` maps a seat to the next seat in the round (-1 for a seat that is out)."""

    order: tuple[int, ...]
    after: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    deck: tuple[Card, ...]
    salt: str | None
    commitment: str


class Lobby(Struct, frozen=True):
    """Seats are being taken."""

    match: Match


class DealerChoice(Struct, frozen=True):
    """The dealer keeps or exchanges their hand."""

    match: Match
    deal: Deal


class Turns(Struct, frozen=True):
    """Turns go round until someone shows. `passed` is by seat; `turns` counts the turns taken
    since the dealer's choice."""

    match: Match
    deal: Deal
    turn: int | None
    passed: tuple[bool, ...]
    turns: int = 0


class LastCircuit(Struct, frozen=True):
    """After `shower` showed, everyone else has one last turn; `shown` is by seat."""

    match: Match
    deal: Deal
    turn: int | None
    shower: int
    shown: tuple[tuple[Card, ...] | None, ...]


class RoundOver(Struct, frozen=True):
    """Between a round's end and the next deal (or the match's end), inside one decision."""

    match: Match


class Finished(Struct, frozen=True):
    """The match is over."""

    match: Match
    winners: tuple[int, ...]


State: TypeAlias = Lobby | DealerChoice | Turns | LastCircuit | RoundOver | Finished
InRound: TypeAlias = DealerChoice | Turns | LastCircuit


def initial_state(options: ThirtyOneOptions, seeded: bool) -> State:
    """The empty lobby."""
    return Lobby(Match(options=options, seeded=seeded))


def created(options: ThirtyOneOptions, seeded: bool) -> list[Event]:
    """The first event of every table."""
    return [ThirtyOneGameCreated(options=options, seeded=seeded)]


def is_terminal(state: State) -> bool:
    """Whether the match is over."""
    return type(state) is Finished


# --------------------------------------------------------------------------------------------
# Predicates shared by decide and legal


def _forced_show(state: Turns) -> bool:
    """After max_circuits full circuits without a show, the player on turn may only show."""
    limit = state.match.options.max_circuits
    return limit is not None and state.turns >= limit * len(state.deal.order)


def _can_swap_all(table: Sequence[Card]) -> bool:
    """The table's cards would score at least 21 as a hand."""
    return score(table) >= MIN_SCORE


def _swapped(hand: tuple[Card, ...], give: Card, take: Card) -> tuple[Card, ...]:
    i = hand.index(give)
    return (*hand[:i], take, *hand[i + 1 :])


def _any_good_swap(hand: tuple[Card, ...], table: tuple[Card, ...]) -> bool:
    """Some one-card swap leaves the hand at 21 or more (the last circuit's condition)."""
    return any(score(_swapped(hand, give, take)) >= MIN_SCORE for give in hand for take in table)


def legal(state: State, seat: int) -> list[str]:
    """The command types this seat may send now."""
    if type(state) is Turns:
        if seat != state.turn:
            return []
        if _forced_show(state):
            return ["show"]
        moves = ["swap"]
        if _can_swap_all(state.deal.table):
            moves.append("swap_all")
        if not state.passed[seat]:
            moves.append("pass")
        moves.append("show")
        return moves
    if type(state) is LastCircuit:
        if seat != state.turn:
            return []
        deal = state.deal
        moves = ["swap"] if _any_good_swap(deal.hands[seat], deal.table) else []
        if _can_swap_all(deal.table):
            moves.append("swap_all")
        moves.append("pass")
        return moves
    if type(state) is DealerChoice:
        return ["keep", "exchange"] if seat == state.match.dealer else []
    return []


# --------------------------------------------------------------------------------------------
# decide


class _Log:
    """The events of one decision, with the state they lead to."""

    __slots__ = ("events", "state")

    def __init__(self, state: State) -> None:
        self.events: list[Event] = []
        self.state = state

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def decide(
    state: State, command: Command | Join | Start, seat: int | None, rng: Randomness
) -> list[Event]:
    """The events a command causes, or a DomainError saying why it is refused."""
    log = _Log(state)
    match command:
        case Join():
            _join(log, command)
        case Start():
            _start(log, rng)
        case _:
            _play(log, command, seat, rng)
    return log.events


def _join(log: _Log, command: Join) -> None:
    state = log.state
    if type(state) is not Lobby:
        raise GameNotOpen("The game has already started; it takes no more players.")
    seats = len(state.match.ids)
    if seats >= MAX_PLAYERS:
        raise GameFull(f"All {MAX_PLAYERS} seats are taken.")
    log.emit(PlayerJoined(player_id=command.player_id, name=command.name, seat=seats))


def _start(log: _Log, rng: Randomness) -> None:
    state = log.state
    if type(state) is not Lobby:
        raise GameNotOpen("The game has already started.")
    n = len(state.match.ids)
    if n < MIN_PLAYERS:
        joined = "one has" if n == 1 else f"{n} have"
        raise IllegalMove(f"Thirty-One needs at least {MIN_PLAYERS} players; {joined} joined.")
    _deal(log, rng, 1, rng.pick(n))


def _deal(log: _Log, rng: Randomness, round: int, dealer: int) -> None:
    """Deal a round (docs/engines.md's mapping); three Aces in a hand win it at once."""
    match = log.state.match
    n = len(match.ids)
    order = [s % n for s in range(dealer + 1, dealer + n + 1) if not match.out[s % n]]
    m = len(order)
    shuffle = rng.shuffle(deck_of(match.options), round)
    deck = shuffle.deck
    hands: list[list[Card] | None] = [None] * n
    for j, s in enumerate(order):
        hands[s] = [deck[j], deck[j + m], deck[j + 2 * m]]
    log.emit(
        ThirtyOneRoundDealt(
            round=round,
            dealer=dealer,
            seats=order,
            hands=hands,
            table=list(deck[HAND_SIZE * m : HAND_SIZE * m + TABLE_SIZE]),
            commitment=shuffle.commitment,
            deck=list(deck),
            salt=shuffle.salt,
        )
    )
    for s in order:
        if score(hands[s] or ()) == THREE_ACES:
            _end_round(log, rng, s)
            return


def _play(log: _Log, command: Command, seat: int | None, rng: Randomness) -> None:
    state = log.state
    if type(state) is Lobby:
        raise NotYourTurn("The game has not started.")
    if type(state) is Finished:
        raise GameOver("The match is over.")
    if type(state) is RoundOver:  # never stored: a round's end always deals the next one
        raise NotYourTurn("The next round is being dealt.")
    match = state.match
    if seat is None or not 0 <= seat < len(match.ids):
        raise NotYourTurn("Only a player seated at this table may send commands.")
    if match.out[seat]:
        raise NotYourTurn("You are out of the match.")
    if type(state) is DealerChoice:
        if seat != match.dealer:
            raise NotYourTurn(
                f"The dealer (seat {match.dealer}) is choosing to keep or exchange their hand."
            )
        _dealer_choice(log, state, command, seat, rng)
    elif type(state) is Turns:
        if seat != state.turn:
            raise NotYourTurn(f"It is seat {state.turn}'s turn.")
        _turn(log, state, command, seat, rng)
    else:
        assert type(state) is LastCircuit
        if seat == state.shower:
            raise NotYourTurn("You have shown your hand; the others are taking their last turns.")
        if seat != state.turn:
            raise NotYourTurn(f"It is seat {state.turn}'s last turn.")
        _last_turn(log, state, command, seat, rng)


def _dealer_choice(
    log: _Log, state: DealerChoice, command: Command, seat: int, rng: Randomness
) -> None:
    deal = state.deal
    first = deal.order[0]
    if type(command) is Keep:
        log.emit(ThirtyOneHandKept(seat=seat, turn=first))
    elif type(command) is Exchange:
        wins = score(deal.table) == THREE_ACES
        log.emit(
            ThirtyOneHandExchanged(
                seat=seat, table=list(deal.hands[seat]), turn=None if wins else first
            )
        )
        if wins:
            _end_round(log, rng, seat)
    else:
        raise IllegalMove("The dealer must first keep or exchange their hand.")


_NOT_THE_DEALERS_CHOICE: Final = (
    "Keep and exchange are the dealer's choice, before the first turn of a round."
)


def _check_swap_all(table: tuple[Card, ...]) -> None:
    if not _can_swap_all(table):
        raise IllegalMove(
            f"The table scores {_text(score(table))}; swap_all needs a table worth at least 21."
        )


def _check_swap(hand: tuple[Card, ...], table: tuple[Card, ...], command: Swap) -> None:
    if command.give not in hand:
        raise IllegalMove(f"{command.give} is not in your hand.")
    if command.take not in table:
        raise IllegalMove(f"{command.take} is not on the table.")


def _turn(log: _Log, state: Turns, command: Command, seat: int, rng: Randomness) -> None:
    deal = state.deal
    nxt = deal.after[seat]
    if type(command) in (Keep, Exchange):
        raise IllegalMove(_NOT_THE_DEALERS_CHOICE)
    if type(command) is not Show and _forced_show(state):
        limit = state.match.options.max_circuits
        raise IllegalMove(
            f"After {limit} full circuit{'s' if limit != 1 else ''} without a show, "
            "you may only show."
        )
    hand = deal.hands[seat]
    if type(command) is Swap:
        _check_swap(hand, deal.table, command)
        wins = score(_swapped(hand, command.give, command.take)) == THREE_ACES
        log.emit(
            ThirtyOneCardSwapped(
                seat=seat, give=command.give, take=command.take, turn=None if wins else nxt
            )
        )
        if wins:
            _end_round(log, rng, seat)
    elif type(command) is SwapAll:
        _check_swap_all(deal.table)
        wins = score(deal.table) == THREE_ACES
        log.emit(ThirtyOneHandsSwapped(seat=seat, table=list(hand), turn=None if wins else nxt))
        if wins:
            _end_round(log, rng, seat)
    elif type(command) is Pass:
        if state.passed[seat]:
            raise IllegalMove("You passed on your previous turn; swap or show now.")
        log.emit(ThirtyOnePassed(seat=seat, turn=nxt))
    else:
        assert type(command) is Show
        log.emit(ThirtyOneHandShown(seat=seat, hand=list(hand), turn=nxt))


def _last_turn(log: _Log, state: LastCircuit, command: Command, seat: int, rng: Randomness) -> None:
    deal = state.deal
    # The last circuit ends with the player before the shower.
    nxt = deal.after[seat]
    following = None if nxt == state.shower else nxt
    hand = deal.hands[seat]
    if type(command) is Pass:
        log.emit(ThirtyOnePassed(seat=seat, turn=following))
        if following is None:
            _end_round(log, rng, None)
        return
    if type(command) is Swap:
        _check_swap(hand, deal.table, command)
        new_hand = _swapped(hand, command.give, command.take)
        if score(new_hand) < MIN_SCORE:
            raise IllegalMove(
                "In the last circuit a swap must leave your hand at 21 or more; "
                f"this one would score {_text(score(new_hand))}."
            )
        log.emit(ThirtyOneCardSwapped(seat=seat, give=command.give, take=command.take, turn=seat))
    elif type(command) is SwapAll:
        _check_swap_all(deal.table)
        new_hand = deal.table
        log.emit(ThirtyOneHandsSwapped(seat=seat, table=list(hand), turn=seat))
    elif type(command) is Show:
        raise IllegalMove("Show is not a move of the last circuit; swap, swap_all or pass.")
    else:
        raise IllegalMove(_NOT_THE_DEALERS_CHOICE)
    # Whoever swaps in the last circuit shows at once.
    wins = score(new_hand) == THREE_ACES
    log.emit(ThirtyOneHandShown(seat=seat, hand=list(new_hand), turn=None if wins else following))
    if wins:
        _end_round(log, rng, seat)
    elif following is None:
        _end_round(log, rng, None)


def _text(doubled: int) -> str:
    return f"{wire_score(doubled):g}"


def _end_round(log: _Log, rng: Randomness, three_aces: int | None) -> None:
    """Score the round, take lives, put players out, reveal the deck, deal on or end the match."""
    state = log.state
    assert isinstance(state, DealerChoice | Turns | LastCircuit)
    match, deal = state.match, state.deal
    n = len(match.ids)
    hands: list[list[Card] | None] = [None] * n
    scores: list[float | None] = [None] * n
    if three_aces is not None:
        hands[three_aces] = list(deal.hands[three_aces])
        scores[three_aces] = wire_score(THREE_ACES)
        losers = [s for s in deal.order if s != three_aces]
    else:
        doubled = {s: score(deal.hands[s]) for s in deal.order}
        for s in deal.order:
            hands[s] = list(deal.hands[s])
            scores[s] = wire_score(doubled[s])
        lowest = min(doubled.values())
        losers = [s for s in deal.order if doubled[s] == lowest]
    lives = list(match.lives)
    drowning = []
    for s in losers:
        if lives[s] == 0:
            drowning.append(s)  # swims at 0, drowns on the next loss
        else:
            lives[s] -= 1
    # If everyone left would drown, nobody does: the match must keep a winner.
    out = [] if len(drowning) == len(deal.order) else drowning
    log.emit(
        ThirtyOneRoundEnded(
            round=match.round,
            hands=hands,
            scores=scores,
            lost_life=sorted(losers),
            out=sorted(out),
            three_aces=three_aces,
            lives=lives,
        )
    )
    log.emit(DeckRevealed(round=match.round, salt=deal.salt, deck=list(deal.deck)))
    left = [s for s in deal.order if s not in out]
    if len(left) == 1:
        log.emit(ThirtyOneMatchEnded(winners=left))
        return
    dealer = match.dealer
    assert dealer is not None
    still_in = set(left)
    dealer = next(s % n for s in range(dealer + 1, dealer + n + 1) if s % n in still_in)
    _deal(log, rng, match.round + 1, dealer)


# --------------------------------------------------------------------------------------------
# evolve


def _put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def evolve(state: State, event: Event) -> State:
    """The state after an event: only what the event says is assigned."""
    match event:
        case ThirtyOneCardSwapped():
            return _evolve_swap(state, event)
        case ThirtyOnePassed():
            if type(state) is Turns:
                return replace(
                    state,
                    turn=event.turn,
                    passed=_put(state.passed, event.seat, True),
                    turns=state.turns + 1,
                )
            assert type(state) is LastCircuit
            return replace(state, turn=event.turn)
        case ThirtyOneHandsSwapped():
            return _evolve_swap_all(state, event)
        case ThirtyOneHandShown():
            return _evolve_shown(state, event)
        case ThirtyOneHandKept():
            assert type(state) is DealerChoice
            return Turns(
                match=state.match,
                deal=state.deal,
                turn=event.turn,
                passed=(False,) * len(state.match.ids),
            )
        case ThirtyOneHandExchanged():
            assert type(state) is DealerChoice
            deal = state.deal
            deal = replace(
                deal,
                hands=_put(deal.hands, event.seat, deal.table),
                table=tuple(event.table),
            )
            return Turns(
                match=state.match,
                deal=deal,
                turn=event.turn,
                passed=(False,) * len(state.match.ids),
            )
        case ThirtyOneRoundDealt():
            return _evolve_dealt(state, event)
        case ThirtyOneRoundEnded():
            return _evolve_round_ended(state, event)
        case DeckRevealed():
            return state
        case ThirtyOneMatchEnded():
            return Finished(match=state.match, winners=tuple(event.winners))
        case PlayerJoined():
            assert type(state) is Lobby
            table = state.match
            return Lobby(
                replace(
                    table,
                    ids=(*table.ids, event.player_id),
                    names=(*table.names, event.name),
                    lives=(*table.lives, table.options.lives),
                    out=(*table.out, False),
                )
            )
        case ThirtyOneGameCreated():
            return initial_state(event.options, event.seeded)
        case _:
            assert_never(event)


def _evolve_swap(state: State, event: ThirtyOneCardSwapped) -> State:
    assert type(state) is Turns or type(state) is LastCircuit
    deal = state.deal
    seat = event.seat
    table = deal.table
    deal = replace(
        deal,
        hands=_put(deal.hands, seat, _swapped(deal.hands[seat], event.give, event.take)),
        table=_put(table, table.index(event.take), event.give),
    )
    if type(state) is Turns:
        return replace(
            state,
            deal=deal,
            turn=event.turn,
            passed=_put(state.passed, seat, False),
            turns=state.turns + 1,
        )
    return replace(state, deal=deal, turn=event.turn)


def _evolve_swap_all(state: State, event: ThirtyOneHandsSwapped) -> State:
    assert type(state) is Turns or type(state) is LastCircuit
    deal = state.deal
    deal = replace(deal, hands=_put(deal.hands, event.seat, deal.table), table=tuple(event.table))
    if type(state) is Turns:
        return replace(
            state,
            deal=deal,
            turn=event.turn,
            passed=_put(state.passed, event.seat, False),
            turns=state.turns + 1,
        )
    return replace(state, deal=deal, turn=event.turn)


def _evolve_shown(state: State, event: ThirtyOneHandShown) -> State:
    hand = tuple(event.hand)
    if type(state) is Turns:
        shown: list[tuple[Card, ...] | None] = [None] * len(state.match.ids)
        shown[event.seat] = hand
        return LastCircuit(
            match=state.match,
            deal=state.deal,
            turn=event.turn,
            shower=event.seat,
            shown=tuple(shown),
        )
    assert type(state) is LastCircuit
    return replace(state, turn=event.turn, shown=_put(state.shown, event.seat, hand))


def _evolve_dealt(state: State, event: ThirtyOneRoundDealt) -> State:
    assert type(state) is Lobby or type(state) is RoundOver
    n = len(state.match.ids)
    order = tuple(event.seats)
    after = [-1] * n
    for i, s in enumerate(order):
        after[s] = order[(i + 1) % len(order)]
    deal = Deal(
        order=order,
        after=tuple(after),
        hands=tuple(tuple(hand) if hand is not None else () for hand in event.hands),
        table=tuple(event.table),
        deck=tuple(event.deck or ()),
        salt=event.salt,
        commitment=event.commitment,
    )
    match = replace(state.match, round=event.round, dealer=event.dealer)
    return DealerChoice(match=match, deal=deal)


def _evolve_round_ended(state: State, event: ThirtyOneRoundEnded) -> State:
    assert isinstance(state, DealerChoice | Turns | LastCircuit)
    match = state.match
    out = list(match.out)
    for s in event.out:
        out[s] = True
    result = ThirtyOneRoundResult(
        round=event.round,
        hands=event.hands,
        scores=event.scores,
        lost_life=event.lost_life,
        out=event.out,
        three_aces=event.three_aces,
    )
    return RoundOver(replace(match, lives=tuple(event.lives), out=tuple(out), last_round=result))


# --------------------------------------------------------------------------------------------
# Views and redaction


def view(state: State, viewer: int | None, game_id: str, version: int) -> ThirtyOneGameView:
    """The docs/api.md view of the table for a seat, or for a spectator (`viewer` None)."""
    match = state.match
    n = len(match.ids)
    seat = viewer if viewer is not None and 0 <= viewer < n else None
    deal = getattr(state, "deal", None)
    hands: tuple[tuple[Card, ...], ...] = deal.hands if deal is not None else ((),) * n
    players = [
        ThirtyOnePlayerView(
            id=match.ids[s],
            name=match.names[s],
            seat=s,
            hand_size=len(hands[s]),
            lives=match.lives[s],
            out=match.out[s],
        )
        for s in range(n)
    ]
    table: ThirtyOneTableView | None = None
    turn: int | None = None
    if type(state) is Turns:
        turn = state.turn
        table = ThirtyOneTableView(
            table=list(state.deal.table),
            phase="turns",
            shown_by=None,
            shown=[None] * n,
            circuit=state.turns // len(state.deal.order) + 1,
            passed=[s for s in range(n) if state.passed[s]],
        )
    elif type(state) is LastCircuit:
        turn = state.turn
        table = ThirtyOneTableView(
            table=list(state.deal.table),
            phase="last_circuit",
            shown_by=state.shower,
            shown=[list(hand) if hand is not None else None for hand in state.shown],
            circuit=None,
            passed=[],
        )
    elif type(state) is DealerChoice:
        turn = match.dealer
        table = ThirtyOneTableView(
            table=list(state.deal.table),
            phase="dealer_choice",
            shown_by=None,
            shown=[None] * n,
            circuit=None,
            passed=[],
        )
    if type(state) is Lobby:
        status: Literal["open", "playing", "finished"] = "open"
    elif type(state) is Finished:
        status = "finished"
    else:
        status = "playing"
    return ThirtyOneGameView(
        id=game_id,
        status=status,
        version=version,
        options=match.options,
        seeded=match.seeded,
        round=match.round,
        dealer=match.dealer,
        turn=turn,
        winners=list(state.winners) if type(state) is Finished else [],
        players=players,
        me=None if seat is None else MyHand(id=match.ids[seat], seat=seat, hand=list(hands[seat])),
        legal=None if seat is None else legal(state, seat),
        thirty_one=table,
        last_round=match.last_round,
    )


def redact(event: Event, viewer: int | None) -> Event:
    """The event as a viewer may see it: a deal shows only the viewer's own hand and never the
    deck or its salt; every other Thirty-One event is public (a show or a round's end carries
    only the hands it opens; `deck_revealed` comes once the round is over)."""
    if type(event) is ThirtyOneRoundDealt:
        return replace(
            event,
            hands=[hand if s == viewer else None for s, hand in enumerate(event.hands)],
            deck=None,
            salt=None,
        )
    return event
