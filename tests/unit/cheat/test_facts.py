"""docs/api.md, "The view": a Cheat seat's `me` counts the cards of each rank in its hand
(`rank_counts`: the ranks held only, the Chroniclers under their card codes), as the hand
changes; nobody else's view carries it."""

from __future__ import annotations

import random
from collections import Counter

import msgspec

from kronikas_rules import cheat
from kronikas_rules.cheat import Call, CheatOptions, Play
from kronikas_rules.randomness import SeededRandomness

from .helpers import fold, lobby, random_command, run, table

TWO_DECKS = CheatOptions(decks=2, chroniclers=True)


def counts(history: list[cheat.Event], seat: int) -> dict[str, int]:
    view = cheat.view(fold(history), seat, "g", len(history))
    assert view.me is not None
    return view.me.rank_counts


def test_a_seat_is_told_how_many_cards_of_each_rank_it_holds_chroniclers_by_code() -> None:
    hands = [["7H", "7H", "10B", "10L", "AA", "XC", "XP"], ["8H", "9H", "UB"]]
    history = table(hands, options=TWO_DECKS)
    assert counts(history, 0) == {"7": 2, "10": 2, "A": 1, "XC": 1, "XP": 1}
    assert list(counts(history, 0)) == ["7", "10", "A", "XC", "XP"]  # in hand order
    assert counts(history, 1) == {"8": 1, "9": 1, "U": 1}


def test_the_counts_follow_the_hand_through_plays_and_a_taken_pile() -> None:
    history = table([["7H", "7B", "8H", "KA"], ["8B", "9B", "9L", "OL"]])
    assert counts(history, 0) == {"7": 2, "8": 1, "K": 1}
    history = run(history, (0, Play(cards=["7H", "7B"])))
    assert counts(history, 0) == {"8": 1, "K": 1}  # a rank no longer held is not listed
    history = run(history, (1, Play(cards=["9B"])), (0, Call()))  # a lie: seat 1 takes the pile
    assert counts(history, 1) == {"7": 2, "8": 1, "9": 2, "O": 1}


def test_a_seat_in_the_lobby_counts_nothing_and_a_spectator_has_no_counts() -> None:
    assert counts(lobby(2), 1) == {}
    history = table([["7H", "8H"], ["7B", "8B"]])
    assert cheat.view(fold(history), None, "g", 5).me is None
    body = msgspec.json.encode(cheat.view(fold(history), 1, "g", 5)).decode()
    assert '"7H"' not in body and '"8H"' not in body and body.count("rank_counts") == 1


def test_the_counts_are_the_hand_counted_by_rank_in_random_matches() -> None:
    rnd = random.Random(40)
    history = table(
        [["7H", "8H", "9H", "10H", "UH", "OH"], ["7B", "8B", "9B", "10B", "UB", "OB"]],
    )
    state = fold(history)
    steps = 0
    while isinstance(state, cheat.ToPlay | cheat.Window) and steps < 200:
        for seat in (0, 1):
            mine = cheat.view(state, seat, "g", 1).me
            assert mine is not None
            by_rank = Counter(card if card[0] == "X" else card[:-1] for card in mine.hand)
            assert mine.rank_counts == dict(by_rank)
            assert all(n > 0 for n in mine.rank_counts.values())
        seat, command = random_command(state, rnd)
        for event in cheat.decide(state, command, seat, SeededRandomness(0)):
            state = cheat.evolve(state, event)
        steps += 1
    assert steps > 5
