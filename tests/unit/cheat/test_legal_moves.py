"""Cheat: `legal_moves`, every concrete command a seat may send now (OpenSpiel's legal_actions);
test_properties.py checks it against `decide` over random matches."""

from __future__ import annotations

from kronikas_rules import cheat
from kronikas_rules.cards import STANDARD
from kronikas_rules.cheat import Accept, Call, CheatOptions, Play
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Leave

from .helpers import fold, lobby, run, table


def _plays(*cards: str) -> list[cheat.Command]:
    return [Play(cards=card.split()) for card in cards]


def test_the_player_on_turn_may_play_every_choice_of_one_to_max_play_cards() -> None:
    state = fold(table([["9H", "7H", "8H"], ["7B"], ["7L"]], CheatOptions(max_play=2)))
    assert cheat.legal_moves(state, 0) == [
        *_plays("7H", "8H", "9H", "7H 8H", "7H 9H", "8H 9H"),
        Leave(),
    ]  # fewer cards first, then in hand order, each play's cards in hand order; leave last
    assert cheat.legal_moves(state, 1) == cheat.legal_moves(state, 2) == [Leave()]


def test_a_player_may_only_leave_before_the_start_and_a_spectator_never_sends_anything() -> None:
    state = fold(table([["7H"], ["7B"]]))
    assert cheat.legal_moves(state, -1) == cheat.legal_moves(state, 2) == []
    assert cheat.legal_moves(fold(lobby(2)), 0) == [Leave()]
    assert cheat.legal_moves(fold(lobby(2)), 2) == []


def test_two_copies_of_a_card_give_each_play_once() -> None:
    state = fold(table([["7H", "8H", "7H"], ["7B"]], CheatOptions(decks=2)))
    assert cheat.legal_moves(state, 0) == [
        *_plays("7H", "8H", "7H 7H", "7H 8H", "7H 7H 8H"),
        Leave(),
    ]


def test_a_hand_of_sixteen_with_max_play_four_has_2516_plays() -> None:
    state = fold(table([STANDARD[:16], STANDARD[16:]]))
    moves = cheat.legal_moves(state, 0)
    assert len(moves) == 16 + 120 + 560 + 1820 + 1
    assert moves[-1] == Leave()
    assert moves[:16] == [Play(cards=[card]) for card in cheat.sort_cards(STANDARD[:16])]


def test_while_the_window_is_open_the_next_player_plays_or_calls_and_the_others_call() -> None:
    state = fold(run(table([["7H", "8H"], ["7B", "8B"], ["7L"]]), (0, Play(cards=["8H"]))))
    assert cheat.legal_moves(state, 0) == [Leave()]
    assert cheat.legal_moves(state, 1) == [*_plays("7B", "8B", "7B 8B"), Call(), Leave()]
    assert cheat.legal_moves(state, 2) == [Call(), Leave()]


def test_after_a_play_that_emptied_a_hand_the_next_player_accepts_or_calls() -> None:
    state = fold(run(table([["7H"], ["7B", "8B"], ["7L"]]), (0, Play(cards=["7H"]))))
    assert [cheat.legal_moves(state, seat) for seat in range(3)] == [
        [Leave()],
        [Accept(), Call(), Leave()],
        [Call(), Leave()],
    ]


def test_every_listed_move_is_accepted_and_its_types_are_legal() -> None:
    history = run(table([["7H", "8H", "XC"], ["7B", "8B"], ["7L", "9L"]]), (0, Play(cards=["XC"])))
    state = fold(history)
    for seat in range(3):
        moves = cheat.legal_moves(state, seat)
        kinds = [type(move).__struct_config__.tag for move in moves]
        assert list(dict.fromkeys(kinds)) == cheat.legal(state, seat)
        for move in moves:
            assert cheat.decide(state, move, seat, SeededRandomness(0))


def test_nothing_is_legal_once_the_match_is_over() -> None:
    state = fold(run(table([["7H"], ["7B", "8B"]]), (0, Play(cards=["7H"])), (1, Accept())))
    assert cheat.is_terminal(state)
    assert [cheat.legal_moves(state, seat) for seat in range(2)] == [[], []]
