"""An audit of docs/rules.md's seating, lobby, clocks, house and leaving rules, sentence by
sentence, for both games: the rules no other unit test checks in the engines, or checks only in
a way that could not fail were the engine to break them.

Every test drives an engine's pure `decide` and `evolve` (through `tests.unit.decider.Given` and
the games' own test helpers), with seeded randomness and no clock: a `TimeOut` is the command the
application sends when a clock ran out, so no test needs the time of day."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from kronikas_rules import cheat
from kronikas_rules import thirty_one as t
from kronikas_rules.cheat import Accept, Call, CheatMatchEnded, CheatOptions, Play
from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.common import GameFull, GameNotOpen, GameOver, IllegalMove, NameTaken
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Back, Join, Leave, PlayerJoined, PlayerLeft, SeatAway, SeatBack
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE
from tests.unit.cheat import helpers as ch
from tests.unit.thirty_one import helpers as th

Move = tuple[int, Any, bool]
"""A seat, its command, and whether the house chose it (`by_house`)."""

THREE = ch.table([["7H", "8H", "9H"], ["7B", "8B", "9B"], ["7L", "8L", "9L"]])
"""Cheat, three players: seat 0 plays first."""
LAST_CARD = ch.table([["7H"], ["8B", "9B"], ["8L", "9L"]])
"""Cheat: seat 0 goes out with its first play, unless it is called."""

HANDS = {0: th.h("7H 8B 9L"), 1: th.h("AH KH 7L"), 2: th.h("10B UB 9B")}
CHOICE = [*th.lobby(3), th.dealt(HANDS, th.h("AL KL 8A"), dealer=2, n=3)]
"""Thirty-One: the dealer, seat 2, keeps or exchanges."""
TURNS = [*CHOICE, t.ThirtyOneHandKept(seat=2, turn=0)]
"""Thirty-One: seat 0 is on turn."""
LAST = [*TURNS, t.ThirtyOneHandShown(seat=0, hand=HANDS[0], turn=1)]
"""Thirty-One: seat 0 showed; seat 1 has its last turn."""


def duel(lives: int) -> list[t.Event]:
    """Thirty-One, two players: the dealer, seat 1, chooses; seat 0 holds 31, seat 1 scores 0."""
    hands = {0: th.h("AH KH 10H"), 1: th.h("7B 8L 9A")}
    return [
        *th.lobby(2, t.ThirtyOneOptions(lives=lives)),
        th.dealt(hands, th.h("7H 8H 9L"), dealer=1, n=2),
    ]


def play(engine: Any, history: Sequence[Any], initial: Any, moves: Sequence[Move]) -> list[Any]:
    """The history extended by the events of each move, decided in turn (seed 0)."""
    rng, events, state = SeededRandomness(0), list(history), initial
    for event in events:
        state = engine.evolve(state, event)
    for seat, command, by_house in moves:
        for event in engine.decide(state, command, seat, rng, by_house):
            events.append(event)
            state = engine.evolve(state, event)
    return events


def cheat_play(history: Sequence[Any], *moves: Move) -> list[Any]:
    return play(CHEAT, history, ch.initial(), moves)


def t31_play(history: Sequence[Any], *moves: Move) -> list[Any]:
    return play(THIRTY_ONE, history, t.initial_state(t.ThirtyOneOptions(), False), moves)


def left(history: list[Any], seat: int) -> list[Any]:
    return [*history, PlayerLeft(seat=seat, player_id=f"p{seat}", started=True)]


# --- "Seats, dealers and shuffling" -------------------------------------------------------------


@pytest.mark.parametrize("house", [False, True])
def test_a_player_or_house_seat_named_as_a_player_already_there_is_name_taken(house: bool) -> None:
    """Rules: "Two players at one table never have the same name, compared after Unicode NFKC and
    ignoring case: a second `Ilona` or an `ILONA` is refused (409 `name_taken`), and so is a house
    seat named as a player already there." (docs/rules.md)."""
    wide = "ＰＬＡＹＥＲ 1"  # fullwidth letters: NFKC makes them "PLAYER 1"
    for name in ("player 1", wide):
        err = ch.given(ch.lobby(2)).when(Join(player_id="h", name=name, house=house), None)
        err.raises(NameTaken, match="already called")
        th.given(*th.lobby(2)).when(Join(player_id="h", name=name, house=house), None).raises(
            NameTaken, match="already called"
        )
    ch.given(ch.lobby(2)).when(Join(player_id="h", name="Player 2", house=house), None).then(
        [PlayerJoined(player_id="h", name="Player 2", seat=2, house=house)]
    )


# --- "Who plays a seat": a house player ----------------------------------------------------------


def test_a_house_player_is_refused_as_any_join_after_the_start_and_at_a_full_table() -> None:
    """Rules: "A house player ... takes a seat like any other join (409 `game_not_open` after the
    start, `game_full` at a full table)" (docs/rules.md)."""
    house = Join(player_id="h", name="House", house=True)
    ch.given(ch.lobby(4)).when(house, None).raises(GameFull, match="All 4 seats")
    ch.given(ch.lobby(8, CheatOptions(decks=2))).when(house, None).raises(GameFull, match="All 8")
    ch.given(THREE).when(house, None).raises(GameNotOpen, match="already started")
    th.given(*th.lobby(9)).when(house, None).raises(GameFull, match="All 9 seats")
    th.given(*CHOICE).when(house, None).raises(GameNotOpen, match="already started")


def test_a_house_players_results_count_like_anyones() -> None:
    """Rules: "... has no token and no clock, and its results count like anyone's." A Cheat house
    player who goes out wins; a Thirty-One house player who scores lowest loses its life and goes
    out."""
    seats = [PlayerJoined(player_id="h", name="House", seat=0, house=True)]
    seats += [PlayerJoined(player_id=f"p{s}", name=f"P{s}", seat=s) for s in (1, 2)]
    deal = ch.dealt([["7H"], ["8B", "9B"], ["8L", "9L"]])
    history = [*cheat.created(CheatOptions(), False), *seats, deal]
    events = cheat_play(history, (0, Play(cards=["7H"]), True), (1, Accept(), False))
    assert events[-1] == CheatMatchEnded(winners=[0], points=[4, 3, 3])

    first = duel(0)
    t31 = [*first[:2], PlayerJoined(player_id="h", name="House", seat=1, house=True), first[-1]]
    events = t31_play(t31, (1, t.Keep(), True), (0, t.Show(), False), (1, t.Pass(), True))
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert (ended.lost_life, ended.out, events[-1]) == ([1], [1], t.ThirtyOneMatchEnded([0]))


# --- "The clock" --------------------------------------------------------------------------------


def test_the_clock_runs_for_the_seat_the_view_names_as_turn() -> None:
    """Rules: "The clock runs for the seat the table waits for — the view's `turn`: in Cheat the
    player on turn (during the challenge window that is the next player ...), in Thirty-One the
    dealer during the dealer's choice, else the player on turn, in the last circuit too."
    (docs/rules.md)."""
    window = cheat_play(THREE, (0, Play(cards=["7H"]), False))
    for history, seat in ((THREE, 0), (window, 1)):
        state = ch.fold(history)
        assert cheat.waiting_for(state) == cheat.view(state, None, "g", 1).turn == seat
    for events, seat in ((CHOICE, 2), (TURNS, 0), (LAST, 1)):
        state31 = th.fold(events)
        assert t.waiting_for(state31) == t.view(state31, None, "g", 1).turn == seat


def test_cheat_an_away_seat_stays_with_the_house_into_the_next_round() -> None:
    """Rules: "When the clock runs out the seat is away ... It goes on playing the seat, on every
    later turn too, until its player comes back." (docs/rules.md)."""
    two = CheatOptions(rounds=2)
    history = [*ch.table([["7H"], ["8B", "9B"]], options=two), SeatAway(seat=1)]
    events = cheat_play(history, (0, Play(cards=["7H"]), False), (1, Accept(), True))
    state = ch.fold(events)
    assert isinstance(state, cheat.ToPlay) and state.match.round == 2
    assert cheat.house_seats(state) == {1}
    assert cheat.view(state, None, "g", 1).players[1].away
    assert cheat.legal(state, 1)[-2:] == ["leave", "back"]


def test_thirty_one_an_away_seat_stays_with_the_house_into_the_next_round() -> None:
    """Rules: "It goes on playing the seat, on every later turn too, until its player comes back."
    (docs/rules.md)."""
    history = [*duel(3), SeatAway(seat=1)]
    events = t31_play(history, (1, t.Keep(), True), (0, t.Show(), False), (1, t.Pass(), True))
    state = th.fold(events)
    assert isinstance(state, t.DealerChoice) and state.match.round == 2
    assert t.house_seats(state) == {1}
    assert t.view(state, None, "g", 1).players[1].away


def test_back_comes_at_any_time_not_only_on_turn_and_only_from_a_seat_away() -> None:
    """Rules: "An away player comes back with `{"type": "back"}` at any time until the match is
    over, not only on their turn (`seat_back`); `legal` lists `back` while the seat is away. A
    `back` from a seat that is not away is 409 `illegal_move`." (docs/rules.md)."""
    window = cheat_play(THREE, (0, Play(cards=["7H"]), False))  # seat 1 is next
    for history in (THREE, window):
        away = [*history, SeatAway(seat=2)]
        assert cheat.legal(ch.fold(away), 2)[-2:] == ["leave", "back"]
        state = ch.given(away).when(Back(), 2).then([SeatBack(seat=2)])
        assert cheat.house_seats(state) == frozenset()
        ch.given(history).when(Back(), 2).raises(IllegalMove, match="not away")
    for history31 in (CHOICE, LAST):  # seat 0: not on turn in either
        away31 = [*history31, SeatAway(seat=0)]
        assert t.legal(th.fold(away31), 0) == ["leave", "back"]
        th.given(*away31).when(Back(), 0).then([SeatBack(seat=0)])
        th.given(*history31).when(Back(), 0).raises(IllegalMove, match="not away")


# --- "Leaving" ----------------------------------------------------------------------------------


def test_every_seat_may_leave_even_when_it_may_do_nothing_else() -> None:
    """Rules: "`{"type": "leave"}` is legal for every seated player who has not left, from joining
    until the match is over"; Cheat: "Every seat may also `leave` at any time"; Thirty-One: "A
    player who is out of the match may still `leave` the table." (docs/rules.md)."""
    window = cheat_play(THREE, (0, Play(cards=["7H"]), False))
    assert cheat.legal(ch.fold(window), 0) == ["leave"]  # who just played may do nothing else
    ch.given(window).when(Leave(), 0).then([PlayerLeft(seat=0, player_id="p0", started=True)])
    assert t.legal(th.fold(LAST), 0) == ["leave"]  # the shower, frozen in the last circuit
    th.given(*LAST).when(Leave(), 0).then([PlayerLeft(seat=0, player_id="p0", started=True)])
    out = [*th.lobby(3), th.dealt({0: HANDS[0], 2: HANDS[2]}, HANDS[1], dealer=2, n=3, out=[1])]
    assert t.legal(th.fold(out), 1) == ["leave"]
    state = th.given(*out).when(Leave(), 1).then([PlayerLeft(seat=1, player_id="p1", started=True)])
    assert state.match.seats[1].left and t.house_seats(state) == {1}


def test_a_thirty_one_seat_that_left_loses_lives_and_can_go_out() -> None:
    """Rules: "Its results count as usual: ... a Thirty-One seat that left loses lives, can go out,
    and can win." (docs/rules.md)."""
    one = left(duel(1), 1)
    events = t31_play(one, (1, t.Keep(), True), (0, t.Show(), False), (1, t.Pass(), True))
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert (ended.lost_life, ended.out, ended.lives) == ([1], [], [1, 0])
    assert t.house_seats(th.fold(events)) == {1}  # still the house's, in the next round

    none = left(duel(0), 1)
    events = t31_play(none, (1, t.Keep(), True), (0, t.Show(), False), (1, t.Pass(), True))
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert (ended.lost_life, ended.out) == ([1], [1])
    assert events[-1] == t.ThirtyOneMatchEnded(winners=[0])


def test_after_the_match_every_command_even_from_a_seat_that_left_is_game_over() -> None:
    """Rules: "After the match is over `leave` and `back` are 409 `game_over`, as every command then
    is (also from a seat that left)." (docs/rules.md)."""
    over = cheat_play(left(LAST_CARD, 1), (0, Play(cards=["7H"]), False), (1, Accept(), True))
    assert isinstance(over[-1], CheatMatchEnded)
    for command in (Leave(), Back(), Play(cards=["8B"]), Call(), Accept()):
        for seat in (0, 1):
            ch.given(over).when(command, seat).raises(GameOver, match="match is over")
    assert [cheat.legal(ch.fold(over), s) for s in range(3)] == [[], [], []]

    moves: list[Move] = [(1, t.Keep(), True), (0, t.Show(), False), (1, t.Pass(), True)]
    over31 = t31_play(left(duel(0), 1), *moves)
    assert isinstance(over31[-1], t.ThirtyOneMatchEnded)
    for command31 in (Leave(), Back(), t.Pass(), t.Show()):
        for seat in (0, 1):
            th.given(*over31).when(command31, seat).raises(GameOver, match="match is over")
    assert [t.legal(th.fold(over31), s) for s in range(2)] == [[], []]
