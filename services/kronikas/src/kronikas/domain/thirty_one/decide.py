"""`decide`: the events a command causes, or a DomainError saying why it is refused."""

from __future__ import annotations

from typing import Final, assert_never

from kronikas.domain import seating
from kronikas.domain.cards import Card
from kronikas.domain.common import (
    EVENT_CAP_REASON,
    Back,
    CapReached,
    DeckRevealed,
    GameNotOpen,
    GameOver,
    IllegalMove,
    Join,
    Leave,
    NotYourTurn,
    Randomness,
    Start,
    TimeOut,
)
from kronikas.domain.thirty_one.commands import (
    Command,
    Exchange,
    Keep,
    Move,
    Pass,
    Show,
    Swap,
    SwapAll,
)
from kronikas.domain.thirty_one.events import (
    Event,
    ThirtyOneCardSwapped,
    ThirtyOneGameCreated,
    ThirtyOneHandExchanged,
    ThirtyOneHandKept,
    ThirtyOneHandShown,
    ThirtyOneHandsSwapped,
    ThirtyOneMatchEnded,
    ThirtyOnePassed,
    ThirtyOneRoundDealt,
    ThirtyOneRoundEnded,
)
from kronikas.domain.thirty_one.evolve import evolve
from kronikas.domain.thirty_one.legal import (
    check_not_forced,
    check_swap,
    check_swap_all,
    reaches_21,
)
from kronikas.domain.thirty_one.options import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TABLE_SIZE,
    ThirtyOneOptions,
    deck_of,
)
from kronikas.domain.thirty_one.scoring import THREE_ACES, score, score_text, swapped, wire_score
from kronikas.domain.thirty_one.seats import stage_of
from kronikas.domain.thirty_one.states import (
    DealerChoice,
    Finished,
    LastCircuit,
    Lobby,
    Match,
    RoundOver,
    State,
    Turns,
    deal_of,
)


class ImpossibleState(Exception):
    """A decision reached a state no rule leads to: a bug, never a player's doing, so not a
    `DomainError`."""


_NOT_THE_DEALERS_CHOICE: Final = (
    "Keep and exchange are the dealer's choice, before the first turn of a round."
)


def created(options: ThirtyOneOptions, seeded: bool) -> list[Event]:
    """The first event of every table."""
    return [ThirtyOneGameCreated(options=options, seeded=seeded)]


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
    state: State,
    command: Command | Join | Start | TimeOut | CapReached,
    seat: int | None,
    rng: Randomness,
    *,
    by_house: bool = False,
) -> list[Event]:
    """The events a command causes, or a DomainError saying why it is refused. `by_house`: the
    house chose `command` for `seat`, one it plays (see `seating`)."""
    log = _Log(state)
    match command:  # the cases run in order: the most frequent first
        case Swap() | Pass() | Show() | SwapAll() | Keep() | Exchange():
            _play(log, command, seat, rng, by_house)
        case Join() | Leave() | Back() | TimeOut():
            seats, stage = state.match.seats, stage_of(state)
            for event in seating.decide(seats, command, seat, stage, MAX_PLAYERS, by_house):
                log.emit(event)
        case Start():
            _start(log, rng)
        case CapReached():
            _end_at_cap(log)
        case _:
            assert_never(command)
    return log.events


def _end_at_cap(log: _Log) -> None:
    """The table's log reached its cap of events: the match ends where it stands. A round in
    play is not scored (nobody showed), but its deck is revealed as at every round's end; the
    players still in with the most lives win. Before the start nobody wins."""
    state = log.state
    match state:
        case Finished():
            return
        case Lobby():
            log.emit(ThirtyOneMatchEnded(winners=[], reason=EVENT_CAP_REASON))
            return
        case DealerChoice() | Turns() | LastCircuit():
            deal = state.deal
            log.emit(DeckRevealed(round=state.match.round, salt=deal.salt, deck=list(deal.deck)))
        case RoundOver():
            pass
        case _:
            assert_never(state)
    match = log.state.match
    still_in = [s for s in range(len(match.seats)) if not match.out[s]]
    most = max(match.lives[s] for s in still_in)
    winners = [s for s in still_in if match.lives[s] == most]
    log.emit(ThirtyOneMatchEnded(winners=winners, reason=EVENT_CAP_REASON))


def _start(log: _Log, rng: Randomness) -> None:
    state = log.state
    if not isinstance(state, Lobby):
        raise GameNotOpen("The game has already started.")
    n = len(state.match.seats)
    if n < MIN_PLAYERS:
        joined = "one has" if n == 1 else f"{n} have"
        raise IllegalMove(f"Thirty-One needs at least {MIN_PLAYERS} players; {joined} joined.")
    _deal(log, rng, 1, rng.pick(n))


def _deal(log: _Log, rng: Randomness, round: int, dealer: int) -> None:
    """Deal a round (docs/engines.md's mapping); three Aces in a hand win it at once."""
    match = log.state.match
    n = len(match.seats)
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


def _seated(match: Match, seat: int | None, by_house: bool) -> int:
    """The seat, if it is one still in the match; NotYourTurn otherwise (IllegalMove for a seat
    whose player left, unless the house chose the command)."""
    if seat is None or not 0 <= seat < len(match.seats):
        raise NotYourTurn("Only a player seated at this table may send commands.")
    seating.check_sender(match.seats[seat], seat, by_house)
    if match.out[seat]:
        raise NotYourTurn("You are out of the match.")
    return seat


def _play(log: _Log, command: Move, seat: int | None, rng: Randomness, by_house: bool) -> None:
    state = log.state
    match state:
        case Turns():
            mover = _seated(state.match, seat, by_house)
            if mover != state.turn:
                raise NotYourTurn(f"It is seat {state.turn}'s turn.")
            _turn(log, state, command, mover, rng)
        case LastCircuit():
            mover = _seated(state.match, seat, by_house)
            if mover == state.shower:
                raise NotYourTurn(
                    "You have shown your hand; the others are taking their last turns."
                )
            if mover != state.turn:
                raise NotYourTurn(f"It is seat {state.turn}'s last turn.")
            _last_turn(log, state, command, mover, rng)
        case DealerChoice():
            mover = _seated(state.match, seat, by_house)
            if mover != state.match.dealer:
                raise NotYourTurn(
                    f"The dealer (seat {state.match.dealer}) is choosing to keep or exchange "
                    "their hand."
                )
            _dealer_choice(log, state, command, mover, rng)
        case Lobby():
            raise NotYourTurn("The game has not started.")
        case Finished():
            raise GameOver("The match is over.")
        case RoundOver():  # never stored: a round's end always deals the next one
            raise NotYourTurn("The next round is being dealt.")
        case _:
            assert_never(state)


def _dealer_choice(
    log: _Log, state: DealerChoice, command: Move, seat: int, rng: Randomness
) -> None:
    deal = state.deal
    first = deal.order[0]
    match command:
        case Keep():
            log.emit(ThirtyOneHandKept(seat=seat, turn=first))
        case Exchange():
            wins = score(deal.table) == THREE_ACES
            log.emit(
                ThirtyOneHandExchanged(
                    seat=seat, table=list(deal.hands[seat]), turn=None if wins else first
                )
            )
            if wins:
                _end_round(log, rng, seat)
        case Swap() | SwapAll() | Pass() | Show():
            raise IllegalMove("The dealer must first keep or exchange their hand.")
        case _:
            assert_never(command)


def _turn(log: _Log, state: Turns, command: Move, seat: int, rng: Randomness) -> None:
    deal = state.deal
    nxt = deal.after[seat]
    hand = deal.hands[seat]
    match command:
        case Swap():
            check_not_forced(state)
            check_swap(hand, deal.table, command)
            wins = score(swapped(hand, command.give, command.take)) == THREE_ACES
            log.emit(
                ThirtyOneCardSwapped(
                    seat=seat, give=command.give, take=command.take, turn=None if wins else nxt
                )
            )
            if wins:
                _end_round(log, rng, seat)
        case Pass():
            check_not_forced(state)
            if state.passed[seat]:
                raise IllegalMove("You passed on your previous turn; swap or show now.")
            log.emit(ThirtyOnePassed(seat=seat, turn=nxt))
        case Show():
            log.emit(ThirtyOneHandShown(seat=seat, hand=list(hand), turn=nxt))
        case SwapAll():
            check_not_forced(state)
            check_swap_all(deal.table)
            wins = score(deal.table) == THREE_ACES
            log.emit(ThirtyOneHandsSwapped(seat=seat, table=list(hand), turn=None if wins else nxt))
            if wins:
                _end_round(log, rng, seat)
        case Keep() | Exchange():
            raise IllegalMove(_NOT_THE_DEALERS_CHOICE)
        case _:
            assert_never(command)


def _last_turn(log: _Log, state: LastCircuit, command: Move, seat: int, rng: Randomness) -> None:
    deal = state.deal
    # The last circuit ends with the player before the shower.
    nxt = deal.after[seat]
    following = None if nxt == state.shower else nxt
    hand = deal.hands[seat]
    match command:
        case Pass():
            log.emit(ThirtyOnePassed(seat=seat, turn=following))
            if following is None:
                _end_round(log, rng, None)
        case Swap():
            check_swap(hand, deal.table, command)
            new_hand = swapped(hand, command.give, command.take)
            if not reaches_21(new_hand):
                raise IllegalMove(
                    "In the last circuit a swap must leave your hand at 21 or more; "
                    f"this one would score {score_text(score(new_hand))}."
                )
            log.emit(
                ThirtyOneCardSwapped(seat=seat, give=command.give, take=command.take, turn=seat)
            )
            _show_at_once(log, rng, seat, new_hand, following)
        case SwapAll():
            check_swap_all(deal.table)
            log.emit(ThirtyOneHandsSwapped(seat=seat, table=list(hand), turn=seat))
            _show_at_once(log, rng, seat, deal.table, following)
        case Show():
            raise IllegalMove("Show is not a move of the last circuit; swap, swap_all or pass.")
        case Keep() | Exchange():
            raise IllegalMove(_NOT_THE_DEALERS_CHOICE)
        case _:
            assert_never(command)


def _show_at_once(
    log: _Log, rng: Randomness, seat: int, hand: tuple[Card, ...], following: int | None
) -> None:
    """Whoever swaps in the last circuit shows at once; three Aces or the last turn end the
    round."""
    wins = score(hand) == THREE_ACES
    log.emit(ThirtyOneHandShown(seat=seat, hand=list(hand), turn=None if wins else following))
    if wins:
        _end_round(log, rng, seat)
    elif following is None:
        _end_round(log, rng, None)


def _end_round(log: _Log, rng: Randomness, three_aces: int | None) -> None:
    """Score the round, take lives, put players out, reveal the deck, deal on or end the match."""
    state = log.state
    match, deal = state.match, deal_of(state)
    if deal is None or match.dealer is None:
        raise ImpossibleState(f"A round cannot end in {type(state).__name__}.")
    n = len(match.seats)
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
    still_in = set(left)
    dealer = next(s % n for s in range(match.dealer + 1, match.dealer + n + 1) if s % n in still_in)
    _deal(log, rng, match.round + 1, dealer)
