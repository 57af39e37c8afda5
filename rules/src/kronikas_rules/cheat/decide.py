"""Cheat's `decide`: the events a command causes, every derived fact computed here, or the
`DomainError` that refuses it."""

from __future__ import annotations

from typing import Final, assert_never

import msgspec

import kronikas_rules.cheat.events as ev
from kronikas_rules import proofs, seating
from kronikas_rules.cards import COLOURED, PALE, Card, make_deck
from kronikas_rules.cheat.commands import Accept, Call, Move, Play
from kronikas_rules.cheat.legal import allowed
from kronikas_rules.cheat.options import MIN_PLAYERS, CheatTableOptions, max_players
from kronikas_rules.cheat.states import (
    ANNOUNCED,
    FIRST_RANK,
    MAX_PLAYS_REASON,
    Deal,
    Finished,
    InRound,
    Lobby,
    Match,
    RoundOver,
    RoundReason,
    State,
    ToPlay,
    Window,
    next_rank,
    sort_cards,
)
from kronikas_rules.common import (
    EVENT_CAP_REASON,
    CapReached,
    DealsOpened,
    DeckRevealed,
    DomainError,
    GameNotOpen,
    GameOver,
    IllegalMove,
    NotYourTurn,
    Randomness,
    Start,
)
from kronikas_rules.engine import tag_of
from kronikas_rules.proofs import SCHEME

_NEXT_RANK: Final[dict[str, str]] = {rank: next_rank(rank) for rank in ANNOUNCED}


def created(options: CheatTableOptions, seeded: bool) -> list[ev.Event]:
    """The first event of every table, appended by the application (which has checked the
    options with the engine's `validate_options`)."""
    return [ev.CheatGameCreated(options=CheatTableOptions.of(options), seeded=seeded)]


def decide(
    state: State,
    command: Move | Start | CapReached,
    seat: int | None,
    rng: Randomness,
    by_house: bool = False,
) -> list[ev.Event]:
    """The events of one of the game's moves, of the start or of the cap of events, or a
    `DomainError` when the rules refuse it (seating's commands are the builder's). `by_house`:
    the house chose `command` for `seat`, one it plays (see `seating`)."""
    match command:  # the cases run in order: the most frequent first
        case Play() | Call() | Accept():
            return _move(state, command, seat, rng, by_house)
        case Start():
            return _start(state, rng)
        case CapReached():
            return _end_at_cap(state)
        case _:
            assert_never(command)


def _end_at_cap(state: State) -> list[ev.Event]:
    """The table's log reached its cap of events: the match ends where it stands. A round in
    play is not scored (nobody finished it), and its cards stay as hidden as at any round's end
    (a deal stored before is revealed, as its rounds were); the players with the most points
    win, and among them those holding the fewest cards. Before the start nobody wins."""
    match state:
        case Finished():
            return []
        case Lobby():
            points = [0] * len(state.match.seats)
            return [ev.CheatMatchEnded(winners=[], points=points, reason=EVENT_CAP_REASON)]
        case ToPlay() | Window():
            match, deal, events = state.match, state.deal, _revealed(state.match, state.deal)
        case RoundOver():
            match, deal, events = state.match, state.deal, []
        case _:
            assert_never(state)
    points = list(match.points)
    best = max(points)
    leaders = [s for s, p in enumerate(points) if p == best]
    fewest = min(len(deal.hands[s]) for s in leaders)
    winners = [s for s in leaders if len(deal.hands[s]) == fewest]
    events += _opened(match)
    events.append(ev.CheatMatchEnded(winners=winners, points=points, reason=EVENT_CAP_REASON))
    return events


def _revealed(match: Match, deal: Deal) -> list[ev.Event]:
    """A round's end reveals the whole deck of a deal stored before (`proofs.OLD_SCHEME`) only:
    a deal committed card by card opens each card to those who may know it, as it goes."""
    if deal.salts:
        return []
    return [DeckRevealed(round=match.round, salt=deal.salt, deck=list(deal.deck))]


def _opened(match: Match) -> list[ev.Event]:
    """As the match ends, every position of every deal opened to everyone, when the table's
    `reveal` asks for it (`match.kept` holds those deals): the event right before
    `match_ended`, which stays the match's last (`final` on the wire)."""
    if match.options.reveal != "match_end":
        return []
    # Trees of their own, not the process's cache: a long match would push out the live deals'.
    openings = [
        opening
        for kept in match.kept
        for opening in proofs.Tree(kept.deck, kept.salts).openings(
            kept.round, range(len(kept.deck))
        )
    ]
    return [DealsOpened(openings=openings)]


# --- the lobby and the deal ---------------------------------------------------------------------


def _start(state: State, rng: Randomness) -> list[ev.Event]:
    if not isinstance(state, Lobby):
        raise GameNotOpen("The game has already started.")
    n = len(state.match.seats)
    if n < MIN_PLAYERS:
        raise IllegalMove(f"At least {MIN_PLAYERS} players are needed to start; {n} joined.")
    if n > max_players(state.match.options):
        # Unreachable through joins (they stop at max_players); kept for logs written otherwise.
        raise IllegalMove(f"{n} players need two decks; this table has one.")
    return [_deal(state.match.options, n, 1, rng.pick(n), rng)]


def _deal(options: CheatTableOptions, n: int, round: int, dealer: int, rng: Randomness) -> ev.Event:
    """Shuffle and deal: card i goes to seat (dealer + 1 + i) mod n, the rest is set aside."""
    shuffle = rng.shuffle(
        make_deck(options.decks, (COLOURED, PALE) if options.chroniclers else ()), round
    )
    deck = shuffle.deck
    dealt = len(deck) // n * n
    hands: list[list[Card] | None] = [None] * n
    for r in range(n):
        hands[(dealer + 1 + r) % n] = list(sort_cards(deck[r:dealt:n]))
    return ev.CheatRoundDealt(
        round=round,
        dealer=dealer,
        turn=(dealer + 1) % n,
        rank=FIRST_RANK,
        set_aside=len(deck) - dealt,
        commitment=shuffle.commitment,
        hands=hands,
        set_aside_cards=list(deck[dealt:]),
        deck=list(deck),
        salts=list(shuffle.salts),
        scheme=SCHEME,
        deck_size=len(deck),
    )


# --- the round ----------------------------------------------------------------------------------


def _move(
    state: State, command: Move, seat: int | None, rng: Randomness, by_house: bool
) -> list[ev.Event]:
    match state:
        case ToPlay() | Window():
            mover = _seated(state, seat, by_house)
            kinds = allowed(state, mover)
            match command:  # `call` and `accept` are allowed only in a window
                case Play() if "play" in kinds:
                    return _play(state, mover, command.cards)
                case Call() if "call" in kinds and isinstance(state, Window):
                    return _call(state, mover, rng)
                case Accept() if "accept" in kinds and isinstance(state, Window):
                    return _accept(state, mover, rng)
            raise _refusal(state, mover, tag_of(type(command)), kinds)
        case Lobby():
            raise NotYourTurn("The game has not started.")
        case Finished():
            raise GameOver("The match is over.")
        case RoundOver():  # never stored: a round's end always deals the next one
            raise NotYourTurn("The next round is being dealt.")
        case _:
            assert_never(state)


def _seated(state: InRound, seat: int | None, by_house: bool) -> int:
    """The seat, if it is one at the table; NotYourTurn otherwise (IllegalMove for a seat whose
    player left, unless the house chose the command)."""
    if seat is None or not 0 <= seat < len(state.match.seats):
        raise NotYourTurn("Only a player seated at this table may send commands.")
    seating.check_sender(state.match.seats[seat], seat, by_house)
    return seat


def _refusal(state: InRound, seat: int, kind: str, kinds: list[str]) -> DomainError:
    """Why `kind` is refused: `not_your_turn` when the seat may do nothing now, else illegal."""
    top = state.top if isinstance(state, Window) else None
    turn = state.deal.turn
    if top is not None and top.seat == seat:
        if kind == "call":
            # docs/api.md names this an illegal move, though the player may do nothing else now.
            return IllegalMove("You cannot call your own play.")
        return NotYourTurn(
            f"You have just played: seat {turn} is next, and any other player may call."
        )
    if not kinds:
        return NotYourTurn(f"It is seat {turn}'s turn to play.")
    if kind == "play":
        if seat == turn and top is not None and not state.deal.hands[top.seat]:
            return IllegalMove(
                "The player who just played has no cards left: you may accept or call, not play."
            )
        if seat == turn:
            return IllegalMove(
                f"That was the round's last allowed play ({state.deal.plays}): you may accept "
                "or call, not play."
            )
        return IllegalMove(f"It is seat {turn}'s turn to play; you may only call.")
    if kind == "call":
        return IllegalMove("There is no play to call: put down cards.")
    if isinstance(state, Window) and state.closes_round:
        return IllegalMove(f"Only the next player, seat {turn}, may accept; you may call.")
    return IllegalMove(
        "You may accept only a play that emptied its player's hand or was the round's last."
    )


def _is_honest(cards: tuple[Card, ...] | list[Card], rank: str) -> bool:
    """Every card is of `rank` or a Chronicler: XC always, XP when called (docs/rules.md)."""
    return all(card[0] == "X" or card[:-1] == rank for card in cards)


def _play(state: InRound, seat: int, cards: list[Card]) -> list[ev.Event]:
    match, deal = state.match, state.deal
    if not cards:
        raise IllegalMove("Put down at least one card.")
    if len(cards) > match.options.max_play:
        raise IllegalMove(f"You may put down at most {match.options.max_play} cards at once.")
    hand = list(deal.hands[seat])
    for card in cards:
        try:
            hand.remove(card)
        except ValueError:
            raise IllegalMove(
                f"You do not hold {card}"
                + (" as many times as you put it down." if card in deal.hands[seat] else ".")
            ) from None
    events: list[ev.Event] = []
    if isinstance(state, Window) and PALE in state.top.cards:
        # The window closes uncalled on an XP play: its player takes the pile before these land.
        events.append(_penalty(state, turn=seat))
    events.append(
        ev.CheatCardsPlayed(
            seat=seat,
            count=len(cards),
            rank=deal.rank,
            turn=(seat + 1) % len(match.seats),
            next_rank=_NEXT_RANK[deal.rank],
            cards=list(cards),
        )
    )
    return events


def _penalty(state: Window, turn: int) -> ev.CheatPenaltyTaken:
    """The player of an uncalled play that held the Pale Chronicler takes the pile (and the
    pile's openings, which its event shows everyone else only of the Pale Chronicler)."""
    deal = state.deal
    return ev.CheatPenaltyTaken(
        seat=state.top.seat,
        count=len(deal.pile),
        turn=turn,
        cards=[*deal.pile],
        openings=deal.openings(state.match.round, deal.pile_at),
    )


def _call(state: Window, caller: int, rng: Randomness) -> list[ev.Event]:
    match, deal, top = state.match, state.deal, state.top
    honest = _is_honest(top.cards, top.rank)
    taker = caller if honest else top.seat
    finished = honest and not deal.hands[top.seat]
    if finished or state.at_limit:
        turn: int | None = None
    else:
        # A caught liar's caller plays next, skipping the seats between; else play goes on in order.
        turn = (top.seat + 1) % len(match.seats) if honest else caller
    events: list[ev.Event] = [
        ev.CheatCalled(
            caller=caller,
            seat=top.seat,
            rank=top.rank,
            cards=[*top.cards],
            honest=honest,
            taker=taker,
            openings=deal.openings(match.round, top.at),
        ),
        ev.CheatPileTaken(
            seat=taker,
            count=len(deal.pile),
            turn=turn,
            cards=[*deal.pile],
            openings=deal.openings(match.round, deal.pile_at),
        ),
    ]
    if finished or state.at_limit:
        sizes = [len(hand) for hand in deal.hands]
        sizes[taker] += len(deal.pile)
        events += _end_round(match, deal, top.seat if finished else None, sizes, rng)
    return events


def _accept(state: Window, seat: int, rng: Randomness) -> list[ev.Event]:
    match, deal, top = state.match, state.deal, state.top
    events: list[ev.Event] = [ev.CheatPlayAccepted(seat=seat, player=top.seat)]
    sizes = [len(hand) for hand in deal.hands]
    if PALE in top.cards:
        events.append(_penalty(state, turn=seat))
        if not state.at_limit:
            return events
        sizes[top.seat] += len(deal.pile)
    # Accepted with no penalty, the play went out, unless it was only the round's last allowed.
    finished = not sizes[top.seat]
    events += _end_round(match, deal, top.seat if finished else None, sizes, rng)
    return events


# --- the end of a round -------------------------------------------------------------------------


def places_of(sizes: list[int]) -> list[int]:
    """Places by cards in hand, fewest first; equal counts share the better place."""
    return [1 + sum(1 for other in sizes if other < size) for size in sizes]


def points_of(places: list[int], place_points: tuple[int, ...]) -> list[int]:
    """Points for each place; a place beyond the list scores 0."""
    return [place_points[p - 1] if p <= len(place_points) else 0 for p in places]


def _end_round(
    match: Match, deal: Deal, winner: int | None, sizes: list[int], rng: Randomness
) -> list[ev.Event]:
    """The round's end: `winner` finished it; None when its limit of plays ended it, and the
    first seat placed 1st stands as its `winner`."""
    places = places_of(sizes)
    reason: RoundReason = msgspec.UNSET
    if winner is None:
        winner, reason = places.index(1), MAX_PLAYS_REASON
    points = points_of(places, match.options.place_points)
    totals = [a + b for a, b in zip(match.points, points, strict=True)]
    events: list[ev.Event] = [
        ev.CheatRoundEnded(
            round=match.round,
            winner=winner,
            hand_sizes=sizes,
            places=places,
            points=points,
            totals=totals,
            reason=reason,
        ),
        *_revealed(match, deal),
    ]
    n = len(match.seats)
    if match.round < match.options.rounds:
        events.append(_deal(match.options, n, match.round + 1, (match.dealer + 1) % n, rng))
    else:
        best = max(totals)
        events += _opened(match)
        events.append(
            ev.CheatMatchEnded(
                winners=[s for s, t in enumerate(totals) if t == best], points=totals
            )
        )
    return events
