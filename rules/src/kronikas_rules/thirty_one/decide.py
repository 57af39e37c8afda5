"""`decide`: the events a command causes, or a DomainError saying why it is refused."""

from __future__ import annotations

from typing import Final, assert_never, cast

import kronikas_rules.thirty_one.commands as cmd
import kronikas_rules.thirty_one.events as ev
import kronikas_rules.thirty_one.states as st
from kronikas_rules import seating
from kronikas_rules.cards import Card
from kronikas_rules.common import (
    EVENT_CAP_REASON,
    CapReached,
    DealsOpened,
    DeckRevealed,
    GameNotOpen,
    GameOver,
    IllegalMove,
    NotYourTurn,
    Randomness,
    Start,
)
from kronikas_rules.proofs import SCHEME
from kronikas_rules.thirty_one.evolve import evolve
from kronikas_rules.thirty_one.legal import (
    check_not_forced,
    check_swap,
    check_swap_all,
    reaches_21,
)
from kronikas_rules.thirty_one.openings import every, opened
from kronikas_rules.thirty_one.options import (
    HAND_SIZE,
    MIN_PLAYERS,
    TABLE_SIZE,
    ThirtyOneOptions,
    deck_of,
)
from kronikas_rules.thirty_one.scoring import THREE_ACES, score, score_text, swapped, wire_score


class ImpossibleState(Exception):
    """A decision reached a state no rule leads to: a bug, never a player's doing, so not a
    `DomainError`."""


_NOT_THE_DEALERS_CHOICE: Final = (
    "Keep and exchange are the dealer's choice, before the first turn of a round."
)


def created(options: ThirtyOneOptions, seeded: bool) -> list[ev.Event]:
    """The first event of every table, appended by the application (which has checked the
    options with the engine's `validate_options`)."""
    return [ev.ThirtyOneGameCreated(options=options, seeded=seeded)]


def _after(state: st.State, events: list[ev.Event]) -> st.State:
    """The state these events of the decision being made lead to: what a later rule of the same
    decision reads (who is still in, the hands a round ends with)."""
    for event in events:
        state = evolve(state, cast(ev.OwnEvent, event))  # a game's decision seats nobody
    return state


def decide(
    state: st.State,
    command: cmd.Move | Start | CapReached,
    seat: int | None,
    rng: Randomness,
    by_house: bool = False,
) -> list[ev.Event]:
    """The events of one of the game's moves, of the start or of the cap of events, or a
    DomainError saying why it is refused (seating's commands are the builder's). `by_house`:
    the house chose `command` for `seat`, one it plays (see `seating`)."""
    match command:  # the cases run in order: the most frequent first
        case cmd.Swap() | cmd.Pass() | cmd.Show() | cmd.SwapAll() | cmd.Keep() | cmd.Exchange():
            return _move(state, command, seat, rng, by_house)
        case Start():
            return _start(state, rng)
        case CapReached():
            return _end_at_cap(state)
        case _:
            assert_never(command)


def _end_at_cap(state: st.State) -> list[ev.Event]:
    """The table's log reached its cap of events: the match ends where it stands. A round in
    play is not scored (nobody showed), so it opens no hand (a deal of the old scheme has its
    deck revealed, as at every round's end then); the players still in with the most lives win.
    Before the start nobody wins."""
    events: list[ev.Event] = []
    match state:
        case st.Finished():
            return []
        case st.Lobby():
            return [ev.ThirtyOneMatchEnded(winners=[], reason=EVENT_CAP_REASON)]
        case st.DealerChoice() | st.Turns() | st.LastCircuit():
            events += _revealed(state.match, state.deal)
        case st.RoundOver():
            pass
        case _:
            assert_never(state)
    match = state.match  # the deck's reveal changes no seat's lives
    still_in = [s for s in range(len(match.seats)) if not match.out[s]]
    most = max(match.lives[s] for s in still_in)
    winners = [s for s in still_in if match.lives[s] == most]
    events += _opened_at_end(match)
    events.append(ev.ThirtyOneMatchEnded(winners=winners, reason=EVENT_CAP_REASON))
    return events


def _revealed(match: st.Match, deal: st.Deal) -> list[ev.Event]:
    """The deck of a deal of the old scheme, revealed at its round's end; nothing for a deal
    committed card by card, whose cards are opened only to those who may know them."""
    if deal.salts is not None:
        return []
    return [DeckRevealed(round=match.round, salt=deal.salt, deck=list(deal.deck))]


def _opened_at_end(match: st.Match) -> list[ev.Event]:
    """`deals_opened` as the match ends, at a table whose `reveal` asks for it: right before
    `match_ended`, which stays the match's last event (`final` on the wire)."""
    if match.options.reveal != "match_end" or not match.deals:
        return []
    return [DealsOpened(openings=every(match.deals))]


def _start(state: st.State, rng: Randomness) -> list[ev.Event]:
    if not isinstance(state, st.Lobby):
        raise GameNotOpen("The game has already started.")
    n = len(state.match.seats)
    if n < MIN_PLAYERS:
        joined = "one has" if n == 1 else f"{n} have"
        raise IllegalMove(f"Thirty-One needs at least {MIN_PLAYERS} players; {joined} joined.")
    return _deal(state, rng, 1, rng.pick(n))


def _deal(
    state: st.Lobby | st.RoundOver, rng: Randomness, round: int, dealer: int
) -> list[ev.Event]:
    """Deal a round (docs/engines.md's mapping); three Aces in a hand win it at once."""
    match = state.match
    n = len(match.seats)
    order = [s % n for s in range(dealer + 1, dealer + n + 1) if not match.out[s % n]]
    m = len(order)
    shuffle = rng.shuffle(deck_of(match.options), round)
    deck = shuffle.deck
    hands: list[list[Card] | None] = [None] * n
    for j, s in enumerate(order):
        hands[s] = [deck[j], deck[j + m], deck[j + 2 * m]]
    dealt: list[ev.Event] = [
        ev.ThirtyOneRoundDealt(
            round=round,
            dealer=dealer,
            seats=order,
            hands=hands,
            table=list(deck[HAND_SIZE * m : HAND_SIZE * m + TABLE_SIZE]),
            commitment=shuffle.commitment,
            deck=list(deck),
            salts=list(shuffle.salts),
            scheme=SCHEME,
            deck_size=len(deck),
        )
    ]
    for s in order:
        if score(hands[s] or ()) == THREE_ACES:
            return _won(state, dealt, rng, s)
    return dealt


def _seated(match: st.Match, seat: int | None, by_house: bool) -> int:
    """The seat, if it is one still in the match; NotYourTurn otherwise (IllegalMove for a seat
    whose player left, unless the house chose the command)."""
    if seat is None or not 0 <= seat < len(match.seats):
        raise NotYourTurn("Only a player seated at this table may send commands.")
    seating.check_sender(match.seats[seat], seat, by_house)
    if match.out[seat]:
        raise NotYourTurn("You are out of the match.")
    return seat


def _move(
    state: st.State, command: cmd.Move, seat: int | None, rng: Randomness, by_house: bool
) -> list[ev.Event]:
    match state:
        case st.Turns():
            mover = _seated(state.match, seat, by_house)
            if mover != state.turn:
                raise NotYourTurn(f"It is seat {state.turn}'s turn.")
            return _turn(state, command, mover, rng)
        case st.LastCircuit():
            mover = _seated(state.match, seat, by_house)
            if mover == state.shower:
                raise NotYourTurn(
                    "You have shown your hand; the others are taking their last turns."
                )
            if mover != state.turn:
                raise NotYourTurn(f"It is seat {state.turn}'s last turn.")
            return _last_turn(state, command, mover, rng)
        case st.DealerChoice():
            mover = _seated(state.match, seat, by_house)
            if mover != state.match.dealer:
                raise NotYourTurn(
                    f"The dealer (seat {state.match.dealer}) is choosing to keep or exchange "
                    "their hand."
                )
            return _dealer_choice(state, command, mover, rng)
        case st.Lobby():
            raise NotYourTurn("The game has not started.")
        case st.Finished():
            raise GameOver("The match is over.")
        case st.RoundOver():  # never stored: a round's end always deals the next one
            raise NotYourTurn("The next round is being dealt.")
        case _:
            assert_never(state)


def _dealer_choice(
    state: st.DealerChoice, move: cmd.Move, seat: int, rng: Randomness
) -> list[ev.Event]:
    deal = state.deal
    first = deal.order[0]
    match move:
        case cmd.Keep():
            return [ev.ThirtyOneHandKept(seat=seat, turn=first)]
        case cmd.Exchange():
            wins = score(deal.table) == THREE_ACES
            events: list[ev.Event] = [
                ev.ThirtyOneHandExchanged(
                    seat=seat,
                    table=list(deal.hands[seat]),
                    turn=None if wins else first,
                    openings=opened(deal, state.match.round, deal.hands[seat]),
                )
            ]
            return _won(state, events, rng, seat) if wins else events
        case cmd.Swap() | cmd.SwapAll() | cmd.Pass() | cmd.Show():
            raise IllegalMove("The dealer must first keep or exchange their hand.")
        case _:
            assert_never(move)


def _turn(state: st.Turns, move: cmd.Move, seat: int, rng: Randomness) -> list[ev.Event]:
    deal = state.deal
    nxt = deal.after[seat]
    hand = deal.hands[seat]
    match move:
        case cmd.Swap():
            check_not_forced(state)
            check_swap(hand, deal.table, move)
            wins = score(swapped(hand, move.give, move.take)) == THREE_ACES
            events: list[ev.Event] = [
                ev.ThirtyOneCardSwapped(
                    seat=seat,
                    give=move.give,
                    take=move.take,
                    turn=None if wins else nxt,
                    openings=opened(deal, state.match.round, [move.give]),
                )
            ]
            return _won(state, events, rng, seat) if wins else events
        case cmd.Pass():
            check_not_forced(state)
            if state.passed[seat]:
                raise IllegalMove("You passed on your previous turn; swap or show now.")
            return [ev.ThirtyOnePassed(seat=seat, turn=nxt)]
        case cmd.Show():
            shown = opened(deal, state.match.round, hand)
            return [ev.ThirtyOneHandShown(seat=seat, hand=list(hand), turn=nxt, openings=shown)]
        case cmd.SwapAll():
            check_not_forced(state)
            check_swap_all(deal.table)
            wins = score(deal.table) == THREE_ACES
            turn = None if wins else nxt
            laid = opened(deal, state.match.round, hand)
            events = [
                ev.ThirtyOneHandsSwapped(seat=seat, table=list(hand), turn=turn, openings=laid)
            ]
            return _won(state, events, rng, seat) if wins else events
        case cmd.Keep() | cmd.Exchange():
            raise IllegalMove(_NOT_THE_DEALERS_CHOICE)
        case _:
            assert_never(move)


def _last_turn(state: st.LastCircuit, move: cmd.Move, seat: int, rng: Randomness) -> list[ev.Event]:
    deal = state.deal
    # The last circuit ends with the player before the shower.
    nxt = deal.after[seat]
    following = None if nxt == state.shower else nxt
    hand = deal.hands[seat]
    match move:
        case cmd.Pass():
            events: list[ev.Event] = [ev.ThirtyOnePassed(seat=seat, turn=following)]
            return _won(state, events, rng, None) if following is None else events
        case cmd.Swap():
            check_swap(hand, deal.table, move)
            new_hand = swapped(hand, move.give, move.take)
            if not reaches_21(new_hand):
                raise IllegalMove(
                    "In the last circuit a swap must leave your hand at 21 or more; "
                    f"this one would score {score_text(score(new_hand))}."
                )
            swap = ev.ThirtyOneCardSwapped(
                seat=seat,
                give=move.give,
                take=move.take,
                turn=seat,
                openings=opened(deal, state.match.round, [move.give]),
            )
            return _show_at_once(state, swap, rng, seat, new_hand, following)
        case cmd.SwapAll():
            check_swap_all(deal.table)
            laid = opened(deal, state.match.round, hand)
            swap_all = ev.ThirtyOneHandsSwapped(
                seat=seat, table=list(hand), turn=seat, openings=laid
            )
            return _show_at_once(state, swap_all, rng, seat, deal.table, following)
        case cmd.Show():
            raise IllegalMove("Show is not a move of the last circuit; swap, swap_all or pass.")
        case cmd.Keep() | cmd.Exchange():
            raise IllegalMove(_NOT_THE_DEALERS_CHOICE)
        case _:
            assert_never(move)


def _show_at_once(
    state: st.LastCircuit,
    swap: ev.Event,
    rng: Randomness,
    seat: int,
    hand: tuple[Card, ...],
    following: int | None,
) -> list[ev.Event]:
    """Whoever swaps in the last circuit shows at once; three Aces or the last turn end the
    round."""
    wins = score(hand) == THREE_ACES
    shown = ev.ThirtyOneHandShown(
        seat=seat,
        hand=list(hand),
        turn=None if wins else following,
        openings=opened(state.deal, state.match.round, hand),
    )
    events: list[ev.Event] = [swap, shown]
    if wins:
        return _won(state, events, rng, seat)
    if following is None:
        return _won(state, events, rng, None)
    return events


def _won(
    state: st.State, events: list[ev.Event], rng: Randomness, three_aces: int | None
) -> list[ev.Event]:
    """These events, then the end of the round they end (`three_aces`: who won it at once)."""
    return events + _end_round(_after(state, events), rng, three_aces)


def _end_round(state: st.State, rng: Randomness, three_aces: int | None) -> list[ev.Event]:
    """Score the round, take lives, put players out, open the hands it shows, deal on or end
    the match."""
    match, deal = state.match, st.deal_of(state)
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
    ended = ev.ThirtyOneRoundEnded(
        round=match.round,
        hands=hands,
        scores=scores,
        lost_life=sorted(losers),
        out=sorted(out),
        three_aces=three_aces,
        lives=lives,
        openings=opened(deal, match.round, (c for hand in hands if hand is not None for c in hand)),
    )
    events: list[ev.Event] = [ended, *_revealed(match, deal)]
    left = [s for s in deal.order if s not in out]
    if len(left) == 1:
        return [*events, *_opened_at_end(match), ev.ThirtyOneMatchEnded(winners=left)]
    still_in = set(left)
    dealer = next(s % n for s in range(match.dealer + 1, match.dealer + n + 1) if s % n in still_in)
    over = _after(state, events)
    if not isinstance(over, st.RoundOver):
        raise ImpossibleState(f"A round's end leads to {type(over).__name__}.")
    return events + _deal(over, rng, match.round + 1, dealer)
