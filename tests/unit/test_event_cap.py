"""The cap on a table's events (issue 25): the decision that takes a log to its engine's
`event_cap` is followed by the match's end, `match_ended` with `reason` `event_cap`; the view
says the match is over and why, and no command is accepted after it.

The engines' rules for the end at the cap are tested on their pure functions; the cap itself
through the use cases on the memory store, with an engine whose cap a test can reach."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import msgspec
import pytest

from kronikas.application.engines import Registry
from kronikas_rules import cheat, thirty_one
from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.common import CapReached, GameNotOpen, GameOver, Start
from kronikas_rules.engine import rules
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join, Leave
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE
from tests.apps import ENGINES
from tests.unit.application.clock_helpers import (
    person_move,
    started,
    stored,
    table,
    tag,
    view,
    world,
)

KINDS = ["cheat", "thirty_one"]


def capped(kind: str, cap: int) -> Any:
    """The game's engine with a cap a test reaches in a few moves."""
    engine: Any = CHEAT if kind == "cheat" else THIRTY_ONE
    return rules(dataclasses.replace(engine, event_cap=cap))


def capped_games(kind: str, cap: int) -> Registry:
    """The service's games, with `kind` keeping at most `cap` events: a registry of the test's
    own, given to the use cases as an app would be given it (no global is changed)."""
    return ENGINES | {kind: capped(kind, cap)}


# -- the engines: the end at the cap -------------------------------------------------------------


def test_the_caps_are_far_beyond_the_longest_matches_the_house_plays() -> None:
    # Measured with the house's players (issue 25): Cheat with 8 players, two decks, the
    # Chroniclers and 100 rounds makes about 47,500 events; Thirty-One with 9 players and 10
    # lives, under 1,500.
    assert ENGINES["cheat"].event_cap == 100_000
    assert ENGINES["thirty_one"].event_cap == 20_000


def thirty_one_in_round() -> thirty_one.State:
    """Three players in Thirty-One's first round, seat 1 having lost a life (lives 3, 2, 3)."""
    rng = SeededRandomness(5)
    options = thirty_one.ThirtyOneOptions()
    state = thirty_one.initial_state(options, True)
    for event in thirty_one.created(options, True):
        state = thirty_one.evolve(state, event)
    for seat in range(3):
        for event in thirty_one.decide(state, Join(f"p{seat}", f"N{seat}"), None, rng):
            state = thirty_one.evolve(state, event)
    for event in thirty_one.decide(state, Start(), None, rng):
        state = thirty_one.evolve(state, event)
    assert isinstance(state, thirty_one.DealerChoice)
    lives = (3, 2, 3)
    return msgspec.structs.replace(state, match=msgspec.structs.replace(state.match, lives=lives))


def test_thirty_one_at_the_cap_opens_no_hand_and_the_most_lives_win() -> None:
    state = thirty_one_in_round()
    assert isinstance(state, thirty_one.DealerChoice)
    events = thirty_one.decide(state, CapReached(), None, SeededRandomness(0))
    assert events == [thirty_one.ThirtyOneMatchEnded(winners=[0, 2], reason="event_cap")]
    for event in events:
        state = thirty_one.evolve(state, event)
    assert thirty_one.is_terminal(state)
    seen = msgspec.to_builtins(thirty_one.view(state, 0, "g", 99))
    assert (seen["status"], seen["winners"], seen["end_reason"]) == (
        "finished",
        [0, 2],
        "event_cap",
    )
    assert [p["lives"] for p in seen["players"]] == [3, 2, 3]
    assert seen["legal"] == []
    with pytest.raises(GameOver):
        thirty_one.decide(state, thirty_one.Pass(), 0, SeededRandomness(0))
    with pytest.raises(GameOver):
        thirty_one.decide(state, Leave(), 1, SeededRandomness(0))
    assert thirty_one.decide(state, CapReached(), None, SeededRandomness(0)) == []


def test_a_match_that_its_rules_end_says_no_reason_on_the_wire() -> None:
    ended = msgspec.json.encode(thirty_one.ThirtyOneMatchEnded(winners=[1]))
    assert json.loads(ended) == {"type": "match_ended", "winners": [1]}
    ended = msgspec.json.encode(cheat.CheatMatchEnded(winners=[0], points=[4, 3]))
    assert json.loads(ended) == {"type": "match_ended", "winners": [0], "points": [4, 3]}


def cheat_in_round(points: tuple[int, ...]) -> cheat.ToPlay:
    rng = SeededRandomness(3)
    options = cheat.CheatOptions(rounds=3)
    state: cheat.State = cheat.initial_state(options, True)
    for event in cheat.created(options, True):
        state = cheat.evolve(state, event)
    for seat in range(3):
        for event in cheat.decide(state, Join(f"p{seat}", f"N{seat}"), None, rng):
            state = cheat.evolve(state, event)
    for event in cheat.decide(state, Start(), None, rng):
        state = cheat.evolve(state, event)
    assert isinstance(state, cheat.ToPlay)
    deal = state.deal
    hands = (deal.hands[0][:5], deal.hands[1][:2], deal.hands[2][:2])
    held = (deal.held[0][:5], deal.held[1][:2], deal.held[2][:2])
    match = msgspec.structs.replace(state.match, points=points)
    return cheat.ToPlay(match, msgspec.structs.replace(deal, hands=hands, held=held))


@pytest.mark.parametrize(
    ("points", "winners"),
    [
        ((0, 0, 0), [1, 2]),  # nobody scored yet: the fewest cards win (2 and 2 against 5)
        ((4, 3, 4), [2]),  # the most points, then the fewest cards among them
        ((7, 3, 4), [0]),  # the most points win, whatever they hold
    ],
)
def test_cheat_at_the_cap_shows_no_card_the_most_points_then_fewest_cards_win(
    points: tuple[int, ...], winners: list[int]
) -> None:
    state: cheat.State = cheat_in_round(points)
    assert isinstance(state, cheat.ToPlay)
    events = cheat.decide(state, CapReached(), None, SeededRandomness(0))
    assert events == [
        cheat.CheatMatchEnded(winners=winners, points=list(points), reason="event_cap"),
    ]
    for event in events:
        state = cheat.evolve(state, event)
    seen = msgspec.to_builtins(cheat.view(state, 1, "g", 99))
    assert (seen["status"], seen["winners"], seen["end_reason"]) == (
        "finished",
        winners,
        "event_cap",
    )
    assert [p["points"] for p in seen["players"]] == list(points)
    assert [p["hand_size"] for p in seen["players"]] == [5, 2, 2]
    assert seen["legal"] == [] and seen["cheat"]["window_open"] is False
    with pytest.raises(GameOver):
        cheat.decide(state, cheat.Play(cards=[seen["me"]["hand"][0]]), 1, SeededRandomness(0))


@pytest.mark.parametrize("kind", KINDS)
def test_a_lobby_at_the_cap_ends_with_no_winner_and_takes_nobody(kind: str) -> None:
    engine = ENGINES[kind]
    rng = SeededRandomness(0)
    state = engine.initial_state(engine.options(), False)
    for event in engine.created(engine.options(), False):
        state = engine.evolve(state, event)
    for event in engine.decide(state, Join("p0", "Anna"), None, rng):
        state = engine.evolve(state, event)
    [ended] = engine.decide(state, CapReached(), None, rng)
    assert msgspec.to_builtins(ended)["winners"] == []
    assert msgspec.to_builtins(ended)["reason"] == "event_cap"
    state = engine.evolve(state, ended)
    assert engine.is_terminal(state)
    seen = msgspec.to_builtins(engine.view(state, 0, "g", 9))
    assert (seen["status"], seen["winners"], seen["legal"]) == ("finished", [], [])
    assert seen["end_reason"] == "event_cap"
    assert engine.standing(state).status == "finished"
    with pytest.raises(GameNotOpen):
        engine.decide(state, Join("p1", "Bence"), None, rng)
    with pytest.raises(GameNotOpen):
        engine.decide(state, Start(), None, rng)
    with pytest.raises(GameOver):
        engine.decide(state, Leave(), 0, rng)


@pytest.mark.parametrize("kind", KINDS)
def test_views_of_a_match_the_cap_did_not_end_have_no_end_reason(kind: str) -> None:
    engine = ENGINES[kind]
    state = engine.initial_state(engine.options(), False)
    assert "end_reason" not in msgspec.to_builtins(engine.view(state, None, "g", 1))


# -- the use cases: the decision that reaches the cap is followed by the end ---------------------


async def test_the_command_that_reaches_the_cap_appends_its_events_and_then_the_end() -> None:
    w = world(engines=capped_games("thirty_one", 30))
    # Without max_circuits nothing in the rules ends a round of persons who never show.
    s = await started(w.games, "thirty_one", "pp", seed=4, lives=3)
    mover = None
    for _ in range(40):
        seen = await view(w.games, s)
        if seen["status"] == "finished":
            break
        mover = seen["turn"]
        mine = await view(w.games, s, mover)
        if "swap" in mine["legal"]:
            command: Any = thirty_one.Swap(
                give=mine["me"]["hand"][0], take=mine["thirty_one"]["table"][0]
            )
        else:
            command = await person_move(w.games, s, mover)
            assert not isinstance(command, thirty_one.Show)
        answer = json.loads((await w.games.command(s.game_id, s.token(mover), command, b"")).body)
    assert mover is not None
    types = [e["type"] for e in answer["events"]]
    assert types[-1] == "thirty_one.match_ended"  # a round cut short opens no hand
    assert types[0] in ("thirty_one.card_swapped", "thirty_one.passed", "thirty_one.hand_kept")
    ended = answer["events"][-1]
    assert ended["data"] == {"type": "match_ended", "winners": [0, 1], "reason": "event_cap"}
    assert answer["version"] == ended["version"] == 31, "the move's event is the 30th"
    game = answer["game"]
    assert (game["status"], game["end_reason"], game["winners"]) == (
        "finished",
        "event_cap",
        [0, 1],
    )
    assert game["legal"] == [] and game["deadline"] is None
    with pytest.raises(GameOver):
        await w.games.command(s.game_id, s.token(mover), thirty_one.Pass(), b"")
    with pytest.raises(GameOver):
        await w.games.command(s.game_id, s.token(1 - mover), Leave(), b"")
    log = await stored(w.store, s.game_id)
    assert len(log) == 31 and tag(log[-1]) == "match_ended"
    # Read again by another process, the table is the same.
    again = await view(w.process(), s)
    assert (again["status"], again["end_reason"], again["version"]) == ("finished", "event_cap", 31)


async def test_a_lobby_churned_to_the_cap_ends_and_takes_no_more_players() -> None:
    w = world(engines=capped_games("cheat", 6))
    s = await table(w.games, "cheat", "p")  # the creation and one join: 2 events, then 2 a name
    for name in ("B", "C"):
        joined = json.loads(await w.games.join(s.game_id, name))
        answer = json.loads((await w.games.command(s.game_id, joined["token"], Leave(), b"")).body)
    assert [e["type"] for e in answer["events"]] == ["cheat.player_left", "cheat.match_ended"]
    assert answer["events"][-1]["data"] == {
        "type": "match_ended",
        "winners": [],
        "points": [0],
        "reason": "event_cap",
    }
    seen = await view(w.games, s, 0)
    assert (seen["status"], seen["end_reason"], seen["legal"]) == ("finished", "event_cap", [])
    with pytest.raises(GameNotOpen):
        await w.games.join(s.game_id, "D")
    with pytest.raises(GameOver):
        await w.games.command(s.game_id, s.token(0), Leave(), b"")


async def test_the_house_stops_at_the_cap_and_the_clocks_leave_the_table() -> None:
    w = world(engines=capped_games("cheat", 50))
    s = await started(w.games, "cheat", "ph", seed=7, rounds=100)
    for _ in range(60):
        if (await view(w.games, s))["status"] == "finished":
            break
        await w.games.command(s.game_id, s.token(0), await person_move(w.games, s, 0), b"")
    seen = await view(w.games, s)
    assert (seen["status"], seen["end_reason"]) == ("finished", "event_cap")
    log = await stored(w.store, s.game_id)
    assert 50 <= len(log) <= 50 + 10, "the end right after the decision that reached the cap"
    assert [tag(r) for r in log].count("match_ended") == 1
    assert seen["deadline"] is None
