"""Cheat's limit of plays (docs/rules.md, "A round that does not end"): the window of a round's
last allowed play is settled as a going-out play's is, then the round ends with no one finished
and places go by cards in hand. A table stored before the option keeps no limit."""

from __future__ import annotations

import msgspec
import pytest

from kronikas_rules import cheat
from kronikas_rules.cards import RANKS, SUITS
from kronikas_rules.cheat import (
    Accept,
    Call,
    CheatCalled,
    CheatCardsPlayed,
    CheatMatchEnded,
    CheatOptions,
    CheatPenaltyTaken,
    CheatPileTaken,
    CheatPlayAccepted,
    CheatRoundEnded,
    CheatTableOptions,
    Command,
    Event,
    Play,
)
from kronikas_rules.common import DeckRevealed, GameOver, IllegalMove, NotYourTurn
from kronikas_rules.randomness import SeededRandomness

from .helpers import fold, run, table
from .helpers import given as given_events

LIMIT = CheatOptions(max_plays=20)
"""The least limit a table may set: short enough to play out move by move."""
THEIRS = [[r + s for r in RANKS[1::2] for s in SUITS], [r + s for r in RANKS[0::2] for s in SUITS]]
"""Two hands of a whole deck in which each seat holds every card of the ranks the other must
announce (seat 0 announces 7, 9, U, K; seat 1 8, 10, O, A): every play is a lie the other can
prove, and a caught liar takes back only the card it put down, so no hand ever shrinks."""


def _provable_bluff(view: cheat.CheatGameView) -> bool:
    """The open play announces more cards of its rank than the viewer does not hold itself."""
    table_ = view.cheat
    assert table_ is not None and view.me is not None
    last = table_.last_play
    if last is None or not table_.window_open:
        return False
    held = sum(card[:-1] == last.rank for card in view.me.hand)
    return last.count > 4 * view.options.decks - held


def _careful(state: cheat.InRound) -> tuple[int, Command]:
    """Two careful seats: each calls every bluff it can prove, else plays its first card."""
    for seat in range(len(state.match.seats)):
        view = cheat.view(state, seat, "g", 0)
        if "call" in (view.legal or []) and _provable_bluff(view):
            return seat, Call()
    seat = state.deal.turn
    return seat, Play(cards=[state.deal.hands[seat][0]])


def _until_plays(history: list[Event], plays: int) -> list[Event]:
    """The careful seats' moves until the round holds `plays` plays and the last lies open."""
    rng = SeededRandomness(0)
    state = fold(history)
    while not (isinstance(state, cheat.Window) and state.deal.plays == plays):
        assert isinstance(state, cheat.InRound)
        seat, command = _careful(state)
        for event in cheat.decide(state, command, seat, rng):
            history = [*history, event]
            state = cheat.evolve(state, event)
    return history


def test_a_new_table_allows_300_plays_and_the_option_is_stored_with_it() -> None:
    assert CheatOptions().max_plays == 300
    created = cheat.created(CheatOptions(), False)[0]
    assert isinstance(created, cheat.CheatGameCreated)
    assert b'"max_plays":300' in msgspec.json.encode(created)
    assert fold([created]).match.options.play_limit == 300


def test_two_seats_that_call_every_provable_bluff_end_the_round_at_the_limit() -> None:
    history = _until_plays(table(THEIRS, options=LIMIT, dealer=1), 20)
    played = [e for e in history if isinstance(e, CheatCardsPlayed)]
    calls = [e for e in history if isinstance(e, CheatCalled)]
    # Every play was a lie, and every one but the open last was called and proved.
    assert [e.seat for e in played] == [0, 1] * 10
    assert [(c.caller, c.seat, c.honest) for c in calls] == [
        (1 - p.seat, p.seat, False) for p in played[:19]
    ]
    state = fold(history)
    assert isinstance(state, cheat.Window) and state.deal.plays == 20 and state.top.seat == 1
    # The last allowed play's window: seat 0 may only accept or call; seat 1 may do nothing.
    assert [cheat.legal(state, seat) for seat in (0, 1)] == [["accept", "call", "leave"], ["leave"]]
    given_events(history).when(Play(cards=["8H"]), 0).raises(IllegalMove, match="last allowed play")
    given_events(history).when(Play(cards=["7H"]), 1).raises(NotYourTurn)
    given_events(history).when(Accept(), 1).raises(NotYourTurn)
    given_events(history).when(Call(), 1).raises(IllegalMove, match="own play")
    # Seat 0 proves the last bluff too; the round ends with no one finished: 16 cards each
    # share 1st place.
    end = given_events(history).when(Call(), 0).events()
    last = played[-1]
    assert end[:3] == [
        CheatCalled(caller=0, seat=1, rank="10", cards=last.cards or [], honest=False, taker=1),
        CheatPileTaken(seat=1, count=1, turn=None, cards=last.cards),
        CheatRoundEnded(
            round=1,
            winner=0,
            hand_sizes=[16, 16],
            places=[1, 1],
            points=[4, 4],
            totals=[4, 4],
            reason="max_plays",
        ),
    ]
    assert isinstance(end[3], DeckRevealed)
    assert end[4] == CheatMatchEnded(winners=[0, 1], points=[4, 4])
    assert len(end) == 5
    over = fold([*history, *end])
    assert cheat.is_terminal(over)
    shown = cheat.view(over, None, "g", len(history) + 5)
    assert shown.last_round is not None and shown.last_round.reason == "max_plays"
    given_events([*history, *end]).when(Call(), 0).raises(GameOver)


def test_accepting_the_last_allowed_play_places_the_seats_by_cards_in_hand() -> None:
    history = _until_plays(table(THEIRS, options=LIMIT, dealer=1), 20)
    accepted, ended, revealed, _ = given_events(history).when(Accept(), 0).events()
    assert accepted == CheatPlayAccepted(seat=0, player=1)
    assert isinstance(revealed, DeckRevealed)
    # Its card stays on the pile: seat 1 holds 15, seat 0 16.
    assert ended == CheatRoundEnded(
        round=1,
        winner=1,
        hand_sizes=[16, 15],
        places=[2, 1],
        points=[3, 4],
        totals=[3, 4],
        reason="max_plays",
    )


def _three(options: CheatOptions = LIMIT, last: tuple[str, ...] = ("8H",)) -> list[Event]:
    """Three seats, seat 2 first; 19 plays made, none called: seat 0 makes the 20th, from
    `last`, and seats 1 and 2 keep a card each."""
    hands = [
        ["7H", "10H", "KH", "8B", "UB", "AB", *last],
        ["8L", "UH", "AH", "9B", "KB", "7L", "10L"],
        ["9H", "OH", "7B", "10B", "OB", "8A", "UL", "9A"],
    ]
    made = [0, 0, 0]
    moves: list[tuple[int, Command]] = []
    for k in range(19):
        seat = (2 + k) % 3
        moves.append((seat, Play(cards=[hands[seat][made[seat]]])))
        made[seat] += 1
    return run(table(hands, options=options, dealer=1), *moves)


def test_the_limit_counts_every_play_and_a_lie_called_on_the_last_ends_the_round_too() -> None:
    history = _three()
    state = fold(history)
    assert isinstance(state, cheat.Window) and state.deal.plays == 19
    assert cheat.legal(state, 0) == ["play", "call", "leave"]  # the 19th is not the last
    history = run(history, (0, Play(cards=["8H"])))  # the 20th, announced as 10: a lie
    state = fold(history)
    assert [cheat.legal(state, seat) for seat in range(3)] == [
        ["leave"],
        ["accept", "call", "leave"],
        ["call", "leave"],
    ]
    given_events(history).when(Accept(), 2).raises(IllegalMove, match="Only the next player")
    given_events(history).when(Play(cards=["UL"]), 2).raises(IllegalMove)
    # Any other seat may call it; the liar takes the pile and the round ends all the same.
    events = given_events(history).when(Call(), 2).events()
    assert events[1] == CheatPileTaken(
        seat=0, count=20, turn=None, cards=list(fold(history).deal.pile)
    )
    ended = events[2]
    assert isinstance(ended, CheatRoundEnded)
    assert (ended.hand_sizes, ended.places, ended.points) == ([20, 1, 1], [3, 1, 1], [2, 4, 4])
    assert (ended.winner, ended.reason) == (1, "max_plays")


def test_an_accepted_pale_chronicler_on_the_last_play_is_a_penalty_then_the_round_ends() -> None:
    options = CheatOptions(max_plays=20, chroniclers=True)
    history = run(_three(options, ("XP", "8H")), (0, Play(cards=["XP"])))
    state = fold(history)
    assert isinstance(state, cheat.Window) and state.deal.plays == 20
    pile = list(state.deal.pile)
    events = given_events(history).when(Accept(), 1).events()
    assert events[:2] == [
        CheatPlayAccepted(seat=1, player=0),
        CheatPenaltyTaken(seat=0, count=20, turn=1, cards=pile),
    ]
    ended = events[2]
    assert isinstance(ended, CheatRoundEnded)
    assert (ended.hand_sizes, ended.places, ended.reason) == ([21, 1, 1], [3, 1, 1], "max_plays")


def test_a_last_allowed_play_that_goes_out_and_is_accepted_finishes_as_ever() -> None:
    history = run(_three(), (0, Play(cards=["8H"])))
    # Seat 0's hand is empty after the 20th play, which is also the last allowed.
    state = fold(history)
    assert isinstance(state, cheat.Window) and not state.deal.hands[0]
    ended = given_events(history).when(Accept(), 1).events()[1]
    assert isinstance(ended, CheatRoundEnded)
    assert (ended.winner, ended.reason, ended.places) == (0, msgspec.UNSET, [1, 2, 2])
    assert b"reason" not in msgspec.json.encode(ended)


def test_a_table_stored_without_max_plays_plays_on_past_300() -> None:
    """A log written before the option: its first event holds no `max_plays`."""
    old = (
        b'{"type": "game_created", "options": {"decks": 1, "max_play": 4, "rounds": 1,'
        b' "place_points": [4, 3, 2], "chroniclers": false, "turn_seconds": null,'
        b' "house_pause_seconds": 3}, "seeded": false}'
    )
    created = msgspec.json.decode(old, type=cheat.Event)
    assert created == cheat.CheatGameCreated(options=CheatTableOptions(), seeded=False)
    history = [created, *table(THEIRS, options=LIMIT, dealer=1)[1:]]
    history = _until_plays(history, 301)
    state = fold(history)
    assert state.match.options.play_limit is None
    assert cheat.legal(state, 1) == ["play", "call", "leave"]  # the 301st play closes nothing
    assert not any(isinstance(e, CheatRoundEnded) for e in history)
    # Written again, the old event is as it was: no `max_plays` appears.
    assert msgspec.json.decode(msgspec.json.encode(created)) == msgspec.json.decode(old)
    assert "max_plays" not in msgspec.to_builtins(cheat.view(state, 0, "g", 1).options)


@pytest.mark.parametrize("max_plays", [19, 10_001, None, "300"])
def test_max_plays_outside_20_to_10000_is_refused(max_plays: object) -> None:
    with pytest.raises(msgspec.ValidationError, match="max_plays"):
        msgspec.convert({"max_plays": max_plays}, CheatOptions)
