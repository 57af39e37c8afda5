"""The rules package's `Table` (rules/README.md, "A table"): a table played in-process plays as
the service plays it — the same events for the same seed and commands, the same refusals with
the same codes and nothing changed, each seat's view and events as the service serves them."""

from __future__ import annotations

import random

import msgspec
import pytest

from kronikas_rules import games
from kronikas_rules.cheat import Call, Play
from kronikas_rules.common import Refusal
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join, Leave
from kronikas_rules.table import Table

KINDS = ["cheat", "thirty_one"]


def _random_match(table: Table, seed: int, limit: int = 4000) -> int:
    """Random legal commands (never `leave`) by the seats that may act, to the match's end."""
    rng = random.Random(seed)
    moves = 0
    while not table.finished and moves < limit:
        seat = rng.choice(sorted(table.to_act()))
        choices = [m for m in table.legal_moves(seat) if not isinstance(m, Leave)]
        table.play(seat, rng.choice(choices))
        moves += 1
    return moves


def test_the_package_lists_its_games_and_the_service_runs_exactly_those() -> None:
    from kronikas.application.engines import service_games

    assert list(games.games()) == KINDS
    assert dict(service_games()) == dict(games.games())


@pytest.mark.parametrize("kind", KINDS)
def test_a_seeded_table_plays_to_its_end_and_replays_the_same(kind: str) -> None:
    first = Table(kind, 3, seed=41)
    _random_match(first, seed=7)
    again = Table(kind, 3, seed=41)
    _random_match(again, seed=7)
    assert first.finished and first.view(None).status == "finished"
    assert msgspec.json.encode(first.events) == msgspec.json.encode(again.events)


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_deals_as_the_engine_does_from_the_same_seed(kind: str) -> None:
    engine = games.games()[kind]
    options = engine.options()
    state = engine.initial_state(options, True)
    events = list(engine.created(options, True))
    for event in events:
        state = engine.evolve(state, event)
    rng = SeededRandomness(5)
    for seat in range(2):
        join = Join(player_id=f"p{seat}", name=f"Player {seat + 1}")
        for event in engine.decide(state, join, None, rng):
            state = engine.evolve(state, event)
            events.append(event)
    events += engine.decide(state, engine_start(), None, rng)
    assert msgspec.json.encode(Table(kind, 2, seed=5).events) == msgspec.json.encode(events)


def engine_start() -> msgspec.Struct:
    from kronikas_rules.common import Start

    return Start()


def _hand(table: Table, seat: int) -> list[str]:
    view = msgspec.to_builtins(table.view(seat))
    return list(view["me"]["hand"])


def test_a_refused_command_raises_the_services_code_and_changes_nothing() -> None:
    table = Table("cheat", 2, seed=3)
    before = (table.version, msgspec.json.encode(table.view(0)))
    waiting = table.waiting_for
    assert waiting is not None
    other = 1 - waiting
    with pytest.raises(Refusal) as refused:
        table.play(other, Play(cards=[_hand(table, other)[0]]))
    assert refused.value.code == "not_your_turn"
    with pytest.raises(Refusal) as called:
        table.play(waiting, Call())  # nothing was played yet: nothing to call
    assert called.value.code == "illegal_move"
    assert (table.version, msgspec.json.encode(table.view(0))) == before


def test_a_command_from_its_wire_form_is_the_games_own() -> None:
    table = Table("thirty_one", 2, seed=9)
    waiting = table.waiting_for
    assert waiting is not None
    assert table.command({"type": "keep"}) in table.legal_moves(waiting)
    with pytest.raises(ValueError, match="no command"):
        table.command({"type": "call"})


@pytest.mark.parametrize("kind", KINDS)
def test_a_seat_sees_its_own_cards_and_no_other_seats(kind: str) -> None:
    table = Table(kind, 2, seed=11)
    mine, theirs = _hand(table, 0), _hand(table, 1)
    assert mine and theirs and not set(mine) & set(theirs)
    told = msgspec.json.encode([table.view(0), table.events_for(0)])
    for card in theirs:
        assert f'"{card}"'.encode() not in told
    spectator = msgspec.json.encode([table.view(None), table.events_for(None)])
    for card in mine + theirs:
        assert f'"{card}"'.encode() not in spectator


@pytest.mark.parametrize("kind", KINDS)
def test_the_house_chooses_a_legal_command_for_the_seat_on_turn(kind: str) -> None:
    table = Table(kind, 3, seed=13)
    for _ in range(60):
        if table.finished:
            break
        seat = table.waiting_for
        assert seat is not None
        command = table.house(seat, random.Random(1))
        assert command is not None
        assert type(command).__struct_config__.tag in table.legal(seat)
        table.play(seat, command)
