"""Cheat: clocks, leaving and the house (docs/rules.md, "Clocks, leaving and the house").

The seating every game shares (join, leave, away, back, house seats) is tested once, in
`tests/unit/test_seating.py`; here, what Cheat adds: its cards, its turns, its results."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kronikas_rules import cheat
from kronikas_rules.cheat import (
    Accept,
    Call,
    CheatMatchEnded,
    CheatOptions,
    CheatRoundEnded,
    CheatTableOptions,
    Play,
)
from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.common import DeckRevealed, IllegalMove, InvalidOptions
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import (
    Back,
    Leave,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    TimeOut,
)

from .helpers import dealt, fold, given, lobby, run, table

THREE = table([["7H", "8H", "9H"], ["7B", "8B", "9B"], ["7L", "8L", "9L"]])
"""Seat 0 plays first."""
LAST_CARD = table([["7H"], ["8B", "9B"], ["8L", "9L"]])
"""Seat 0 goes out with its first play, unless it is called."""
OVER = run(LAST_CARD, (0, Play(cards=["7H"])), (1, Accept()))
"""The match is over: seat 0 won."""


def away(history: list[Any], seat: int) -> list[Any]:
    return [*history, SeatAway(seat=seat)]


def left(history: list[Any], seat: int) -> list[Any]:
    return [*history, PlayerLeft(seat=seat, player_id=f"p{seat}", started=True)]


# --- leaving ------------------------------------------------------------------------------------


def test_leaving_after_the_start_keeps_the_seat_for_the_house_and_its_cards() -> None:
    state = given(THREE).when(Leave(), 1).then([PlayerLeft(seat=1, player_id="p1", started=True)])
    assert isinstance(state, cheat.ToPlay)
    assert state.match.seats[1].left and state.deal.hands[1] == ("7B", "8B", "9B")
    assert cheat.house_seats(state) == {1}
    assert cheat.seat_of(state, "p1") == 1
    player = cheat.view(state, None, "g", 6).players[1]
    assert (player.house, player.away, player.left, player.hand_size) == (True, False, True, 3)


def test_a_player_on_turn_may_leave_and_the_house_plays_on_for_them() -> None:
    history = left(THREE, 0)
    state = fold(history)
    assert cheat.waiting_for(state) == 0
    assert cheat.legal(state, 0) == []
    assert cheat.legal(state, 0, by_house=True) == ["play"]
    assert cheat.legal_moves(state, 0, by_house=True)[0] == Play(cards=["7H"])
    events = given(history).when(Play(cards=["7H"]), 0, by_house=True).events()
    assert [type(e) for e in events] == [cheat.CheatCardsPlayed]


def test_a_seat_that_left_counts_its_results_as_usual() -> None:
    history = left(LAST_CARD, 0)
    events = run(history, (1, Leave()))[len(history) :]
    assert events == [PlayerLeft(seat=1, player_id="p1", started=True)]
    history += events
    state = fold(history)
    for event in cheat.decide(state, Play(cards=["7H"]), 0, _rng(), by_house=True):
        state = cheat.evolve(state, event)
    done = cheat.decide(state, Accept(), 1, _rng(), by_house=True)
    ended = next(e for e in done if isinstance(e, CheatRoundEnded))
    assert (ended.winner, ended.points) == (0, [4, 3, 3])
    assert done[-1] == CheatMatchEnded(winners=[0], points=[4, 3, 3])


def test_any_command_from_a_seat_that_left_is_an_illegal_move() -> None:
    history = left(run(THREE, (0, Play(cards=["7H"]))), 1)  # seat 1 is next, and may call
    for command in (Play(cards=["7B"]), Call(), Accept(), Leave(), Back()):
        given(history).when(command, 1).raises(IllegalMove)
    assert cheat.legal(fold(history), 1) == cheat.legal_moves(fold(history), 1) == []
    # the house plays the seat: the player's commands, not the house's, are refused
    given(history).when(Call(), 1, by_house=True).then(
        [
            cheat.CheatCalled(caller=1, seat=0, rank="7", cards=["7H"], honest=True, taker=1),
            cheat.CheatPileTaken(seat=1, count=1, turn=1, cards=["7H"]),
        ]
    )


def test_a_seat_that_left_still_reads_its_hand_with_nothing_legal() -> None:
    state = fold(left(THREE, 2))
    seen = cheat.view(state, 2, "g", 6)
    assert seen.me is not None and seen.me.hand == ["7L", "8L", "9L"]
    assert seen.legal == []
    assert seen.players[2].left and seen.players[2].house
    # the seat as the house plays it: what it may choose there
    window = fold(left(run(THREE, (0, Play(cards=["7H"]))), 2))
    assert cheat.view(window, 2, "g", 7, by_house=True).legal == ["call"]
    assert cheat.view(window, 1, "g", 7, by_house=True).legal == []


# --- the clock runs out -------------------------------------------------------------------------


def test_time_out_makes_the_seat_away_and_the_house_plays_it() -> None:
    state = given(THREE).when(TimeOut(seat=0), None).then([SeatAway(seat=0)])
    assert cheat.house_seats(state) == {0}
    player = cheat.view(state, None, "g", 6).players[0]
    assert (player.house, player.away, player.left) == (False, True, False)
    given(away(THREE, 0)).when(Play(cards=["7H"]), 0, by_house=True).events()


def test_an_away_player_may_also_just_play_on() -> None:
    given(away(THREE, 0)).when(Play(cards=["7H"]), 0).events()


# --- house players ------------------------------------------------------------------------------


def test_a_house_players_seat_is_decided_normally() -> None:
    history = [*lobby(1), PlayerJoined(player_id="h", name="House", seat=1, house=True)]
    started = run([*history, dealt([["7H", "9H"], ["8B"]])], (0, Play(cards=["7H"])))
    assert cheat.legal(fold(started), 1, by_house=True) == ["play", "call"]
    called = given(started).when(Call(), 1, by_house=True).events()
    assert [type(e) for e in called] == [cheat.CheatCalled, cheat.CheatPileTaken]
    given(started).when(Play(cards=["8B"]), 1).events()  # or without the flag: no token, no harm


# --- the clock's seat and the seats that may call ---------------------------------------------


def test_waiting_for_is_the_player_on_turn_and_during_the_window_the_next_player() -> None:
    assert cheat.waiting_for(fold(lobby(3))) is None
    assert cheat.waiting_for(fold(THREE)) == 0
    window = fold(run(THREE, (0, Play(cards=["7H"]))))
    assert cheat.waiting_for(window) == 1
    assert cheat.may_call(window) == {1, 2}
    assert cheat.may_call(fold(THREE)) == frozenset()
    assert cheat.waiting_for(fold(OVER)) is None


def test_waiting_for_is_nobody_between_rounds() -> None:
    options = CheatOptions(rounds=2)
    history = run(table([["7H"], ["8B", "9B"]], options=options), (0, Play(cards=["7H"])))
    events = cheat.decide(fold(history), Accept(), 1, _rng())
    cut = next(i for i, e in enumerate(events) if isinstance(e, DeckRevealed)) + 1
    between = fold([*history, *events[:cut]])
    assert isinstance(between, cheat.RoundOver)
    assert cheat.waiting_for(between) is None
    assert cheat.may_call(between) == frozenset()


# --- the view's deadline, the options and old logs ----------------------------------------------


def test_the_view_places_the_deadline_it_is_given() -> None:
    at = "2026-11-29T17:09:36.123Z"
    for history in (lobby(2), THREE, OVER):
        assert cheat.view(fold(history), 0, "g", 5).deadline is None
        assert cheat.view(fold(history), None, "g", 5, deadline=at).deadline == at


@pytest.mark.parametrize(
    "fields",
    [
        {"turn_seconds": None},
        {"turn_seconds": 5},
        {"turn_seconds": 86_400},
        {"house_pause_seconds": 0},
        {"house_pause_seconds": 30},
    ],
)
def test_clock_options_at_their_limits_are_valid(fields: dict[str, Any]) -> None:
    CHEAT.validate_options(CheatOptions(**fields))
    msgspec.convert(fields, CheatOptions)


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"turn_seconds": 4}, "turn_seconds"),
        ({"turn_seconds": 86_401}, "turn_seconds"),
        ({"turn_seconds": True}, "turn_seconds"),
        ({"house_pause_seconds": -1}, "house_pause_seconds"),
        ({"house_pause_seconds": 31}, "house_pause_seconds"),
    ],
)
def test_clock_options_outside_their_limits_are_refused(fields: dict[str, Any], name: str) -> None:
    with pytest.raises(InvalidOptions, match=name):
        CHEAT.validate_options(CheatOptions(**fields))
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(msgspec.json.encode(fields), type=CheatOptions)


def test_clock_options_default_to_no_clock_and_a_three_second_pause_and_show_in_the_view() -> None:
    options = CheatOptions()
    assert (options.turn_seconds, options.house_pause_seconds) == (None, 3)
    shown = CheatTableOptions.of(CheatOptions(turn_seconds=60, house_pause_seconds=0))
    assert shown.max_plays == 300
    assert (shown.turn_seconds, shown.house_pause_seconds) == (60, 0)


def test_a_log_written_before_the_clocks_still_loads() -> None:
    old = [
        b'{"type": "game_created", "options": {"decks": 1, "max_play": 4, "rounds": 1,'
        b' "place_points": [4, 3, 2], "chroniclers": false}, "seeded": false}',
        b'{"type": "player_joined", "player_id": "p0", "name": "Anna", "seat": 0}',
        b'{"type": "player_joined", "player_id": "p1", "name": "Bence", "seat": 1}',
    ]
    decoder = msgspec.json.Decoder(cheat.Event)
    events = [decoder.decode(line) for line in old]
    assert events[1] == PlayerJoined(player_id="p0", name="Anna", seat=0, house=False)
    state = fold(events)
    # Stored before `max_plays` too: its rounds keep no limit of plays.
    assert isinstance(state, cheat.Lobby) and state.match.options == CheatTableOptions()
    assert state.match.options.play_limit is None
    assert cheat.house_seats(state) == frozenset()


def test_the_new_events_and_commands_round_trip_and_hide_nothing() -> None:
    decoder = msgspec.json.Decoder(cheat.Event)
    for event in (
        PlayerLeft(seat=1, player_id="p1", started=True),
        SeatAway(seat=0),
        SeatBack(seat=0),
        PlayerJoined(player_id="h", name="House", seat=2, house=True),
    ):
        assert decoder.decode(msgspec.json.encode(event)) == event
        for viewer in (None, 0, 1):
            assert cheat.redact(event, viewer) is event
    for body, command in ((b'{"type": "leave"}', Leave()), (b'{"type": "back"}', Back())):
        assert msgspec.json.decode(body, type=cheat.Command) == command
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"type": "leave", "seat": 2}', type=cheat.Command)


def _rng() -> SeededRandomness:
    return SeededRandomness(0)


def test_an_event_of_the_wrong_seat_or_phase_is_refused_as_a_corrupt_log() -> None:
    for history in (
        [*lobby(2), PlayerLeft(seat=1, player_id="p0", started=False)],
        [*lobby(2), PlayerLeft(seat=1, player_id="p1", started=True)],
        [*THREE, PlayerLeft(seat=1, player_id="p1", started=False)],
        [*lobby(2), SeatAway(seat=0)],
        [*THREE, SeatBack(seat=3)],
        [*OVER, SeatAway(seat=0)],
    ):
        with pytest.raises(cheat.EventOutOfPlace):
            fold(history)
