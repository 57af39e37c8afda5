"""The house's Cheat: only legal moves, the same move for the same inputs, blind to what its
seat cannot see, and strong against the random bot."""

from __future__ import annotations

import random
from typing import Any

import pytest
from msgspec.structs import replace

from benchmarks.house_strength import play_match
from kronikas_rules import cheat
from kronikas_rules.cheat import CheatOptions, counting, strategy
from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Back, Leave
from tests.conftest import examples
from tests.unit.cheat.helpers import fold, run
from tests.unit.cheat.helpers import table as table_of
from tests.unit.house.tables import Decks, Table, drive, twin, unhashed

TABLES = [
    (CheatOptions(), 2),
    (CheatOptions(), 3),
    (CheatOptions(), 4),
    (CheatOptions(chroniclers=True), 2),
    (CheatOptions(chroniclers=True, max_play=2), 3),
    (CheatOptions(decks=2), 5),
    (CheatOptions(decks=2, chroniclers=True, max_play=3), 2),
    (CheatOptions(rounds=3, max_play=1), 2),
    (CheatOptions(max_plays=20), 2),  # rounds end at their limit: the house accepts or calls
    (CheatOptions(decks=2, chroniclers=True, max_plays=20, rounds=2), 8),
]


@pytest.mark.parametrize("seed", range(examples(24)))
def test_every_command_the_house_makes_is_legal(seed: int) -> None:
    """In random positions of every kind of table, with the house in some seats and random moves
    in the others, each command the house makes is one `decide` accepts, and it always moves
    when the table waits for it."""
    options, n = TABLES[seed % len(TABLES)]
    seats = range(n) if seed % 4 == 0 else [seed % n]
    table = Table(CHEAT, options, n, seats, Decks(seed, dealer=seed))

    def asked(seat: int, command: Any) -> None:
        kinds = table.view(seat).legal
        assert not isinstance(command, Leave | Back)
        if command is None:
            assert "play" not in kinds and "accept" not in kinds, "it must move on its turn"
        else:
            cheat.decide(table.state, command, seat, table.deals, by_house=True)

    drive(table, seed, 600, asked)
    if seed % 4 == 0:
        assert table.over(), "a table of the house alone plays its match to the end"


def test_the_same_inputs_give_the_same_command() -> None:
    """Seeded tables replay: the same view, history and rng state give the same command, also
    when the house has forgotten what it folded before."""
    table = Table(CHEAT, CheatOptions(), 3, [0, 1, 2], Decks(7, dealer=1))
    answers: list[tuple[Any, Any, Any]] = []

    def asked(seat: int, command: Any) -> None:
        view, history = table.view(seat), table.history(seat)
        again = strategy.house_command(view, history, random.Random(3))
        counting._reading.cache_clear()
        afresh = strategy.house_command(view, list(history), random.Random(3))
        answers.append((command, again, afresh))

    drive(table, 7, 150, asked)
    assert len(answers) > 20
    for _, again, afresh in answers:
        assert again == afresh


@pytest.mark.parametrize("seed", range(examples(12)))
def test_what_the_seat_cannot_see_changes_nothing(seed: int) -> None:
    """Two tables that differ only in cards the house's seat has not seen (the other hands, the
    set-aside cards; played face down alike) give its seat the same views and histories, and
    the house the same moves."""
    n, options = 2 + seed % 3, CheatOptions(rounds=5, chroniclers=seed % 2 == 1)
    first = Table(CHEAT, options, n, [0], Decks(seed, dealer=seed))
    asks: list[tuple[Any, Any, Any]] = []
    played = drive(first, seed, 40, lambda s, c: asks.append((first.view(s), first.history(s), c)))
    assert asks
    deals, moved = twin(first, 0, seed)
    assert any(card != other for card, other in moved.items()), "some unseen card moved"
    second = Table(CHEAT, options, n, [0], deals)
    # The others play the same, card for card where the cards moved (in the last round).
    last = first.deals_so_far()
    script = (
        cheat.Play(cards=[moved[c] for c in command.cards])
        if isinstance(command, cheat.Play) and dealt == last
        else command
        for seat, command, dealt in played
        if seat != 0
    )
    replayed = iter(asks)

    def asked(seat: int, command: Any) -> None:
        view, history, before = next(replayed)
        assert unhashed(second.view(seat)) == unhashed(view)
        assert unhashed(second.history(seat)) == unhashed(history)
        assert command == before

    drive(second, seed, 40, asked, script)
    assert next(replayed, None) is None


def test_it_beats_the_random_bot() -> None:
    """60 two-seat matches against the random bot, the house in either seat: it lost none of
    400 in the benchmark, so 54 wins here leave a margin no honest run misses."""
    wins = sum(play_match("cheat", "random", seed % 2, 9_000 + seed)[0].won for seed in range(60))
    assert wins >= 54


@pytest.mark.parametrize("seed", range(6))
def test_a_history_cut_short_still_gives_legal_moves(seed: int) -> None:
    """The house works with whatever history it gets: the round's from any event on, or none."""
    options, n = TABLES[seed % len(TABLES)]
    table = Table(CHEAT, options, n, [0], Decks(seed, dealer=seed))
    cut = random.Random(seed)

    def asked(seat: int, command: Any) -> None:
        history = table.history(seat)
        for part in (history[cut.randrange(len(history) + 1) :], []):
            counting._reading.cache_clear()
            other = strategy.house_command(table.view(seat), part, random.Random(seed))
            if other is not None:
                cheat.decide(table.state, other, seat, table.deals, by_house=True)

    drive(table, seed, 300, asked)


@pytest.mark.parametrize("before", [[], [["8B"], ["9L"]], [["8B", "9B"], ["9L", "10L"]]])
@pytest.mark.parametrize("seed", range(8))
def test_a_hand_of_the_two_chroniclers_alone_still_plays_cards(
    before: list[list[str]], seed: int
) -> None:
    """Seat 0 holds only XC and XP, none of the rank due: a play of no cards was once weighed
    with the others and could win (found by `benchmarks.cheat_round_length`)."""
    hands = [["XC", "XP"], ["8B", "9B", "7A"], ["9L", "10L", "8A"]]
    history = table_of(hands, options=CheatOptions(chroniclers=True), dealer=0 if before else 2)
    history = run(
        history, *((seat + 1, cheat.Play(cards=cards)) for seat, cards in enumerate(before))
    )
    state = fold(history)
    assert (state.deal.turn == 0 and state.deal.rank != "7") or not before
    view = cheat.view(state, 0, "g", len(history))
    seen = [cheat.redact(event, 0) for event in history[2 + len(hands) - 1 :]]
    command = strategy.house_command(view, seen, random.Random(seed))
    if before:  # it may call the open play instead; whatever it plays holds cards
        played = isinstance(command, cheat.Play) and command.cards
        assert isinstance(command, cheat.Call) or played
        # As it would play, had it chosen not to call:
        command = strategy.house_command(
            replace(view, legal=["play", "leave"]), seen, random.Random(seed)
        )
    assert isinstance(command, cheat.Play) and command.cards
    cheat.decide(state, command, 0, SeededRandomness(0))
