"""Cheat: places, points, rounds and the match winners (docs/rules.md, "End of the round")."""

from __future__ import annotations

import pytest

from kronikas_rules import cheat
from kronikas_rules.cards import STANDARD
from kronikas_rules.cheat import (
    Accept,
    Call,
    CheatMatchEnded,
    CheatOptions,
    CheatRoundDealt,
    CheatRoundEnded,
    Event,
    Play,
)
from kronikas_rules.common import DeckRevealed, GameNotOpen, GameOver, Start, commitment
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join

from .helpers import StackedRandomness, dealt, fold, given, run, table

FOUR = [["7H"], ["8B", "9B", "10B"], ["8L", "9L", "10L"], ["8A", "9A", "10A", "UA", "OA"]]


def ended(events: list[Event]) -> CheatRoundEnded:
    return next(e for e in events if isinstance(e, CheatRoundEnded))


def test_places_go_by_cards_in_hand_fewest_first_and_equal_counts_share_the_better_place() -> None:
    assert cheat.places_of([0, 3, 3, 5]) == [1, 2, 2, 4]
    assert cheat.places_of([4, 0, 4, 4]) == [2, 1, 2, 2]
    events = given(run(table(FOUR), (0, Play(cards=["7H"])))).when(Accept(), 1).events()
    result = ended(events)
    assert (result.winner, result.hand_sizes) == (0, [0, 3, 3, 5])
    assert result.places == [1, 2, 2, 4]


def test_shared_places_score_the_same_and_a_place_beyond_the_list_scores_zero() -> None:
    events = given(run(table(FOUR), (0, Play(cards=["7H"])))).when(Accept(), 1).events()
    assert ended(events).points == [4, 3, 3, 0]
    assert cheat.points_of([1, 2, 2, 4], (4, 3, 2)) == [4, 3, 3, 0]
    assert cheat.points_of([1, 2, 3, 4], (10,)) == [10, 0, 0, 0]


def test_place_points_are_an_option() -> None:
    options = CheatOptions(place_points=(7, 5, 3, 1))
    history = run(table(FOUR, options=options), (0, Play(cards=["7H"])))
    assert ended(given(history).when(Accept(), 1).events()).points == [7, 5, 5, 1]


def test_the_round_ends_when_a_player_finishes_and_its_deck_is_revealed() -> None:
    history = run(table(FOUR), (0, Play(cards=["7H"])))
    events = given(history).when(Accept(), 1).events()
    revealed = next(e for e in events if isinstance(e, DeckRevealed))
    deal = history[-2]
    assert isinstance(deal, CheatRoundDealt)
    assert revealed == DeckRevealed(round=1, salt=deal.salt, deck=deal.deck)
    assert revealed.deck is not None and revealed.salt is not None
    assert commitment(revealed.deck, revealed.salt) == deal.commitment
    assert cheat.redact(revealed, None) == revealed  # public: the round is over


TWO_ROUNDS = CheatOptions(rounds=2)


def test_the_next_round_is_dealt_in_the_decision_that_ends_the_previous_one() -> None:
    history = run(
        table([["7H"], ["8B", "9B"], ["8L", "9L"]], options=TWO_ROUNDS), (0, Play(cards=["7H"]))
    )
    rng = StackedRandomness(dealer=0)
    events = given(history).when(Accept(), 1, rng).events()
    assert [type(e) for e in events] == [
        cheat.CheatPlayAccepted,
        CheatRoundEnded,
        DeckRevealed,
        CheatRoundDealt,
    ]
    assert rng.shuffled == [(STANDARD, 2)]  # a new shuffle of the whole deck for round 2


def test_the_deal_passes_to_the_next_seat_and_each_round_starts_again_at_sevens() -> None:
    history = run(
        table([["7H", "8H"], ["8B", "9B"], ["8L", "9L"]], options=TWO_ROUNDS),
        (0, Play(cards=["7H"])),
        (1, Play(cards=["8B"])),
        (2, Play(cards=["9L"])),
        (0, Play(cards=["8H"])),
    )
    assert fold(history).deal.rank == "U"
    state = fold(run(history, (1, Accept())))
    assert isinstance(state, cheat.ToPlay)  # a new round, no play open to a call
    match, deal = state.match, state.deal
    assert (match.round, match.dealer, deal.turn, deal.rank) == (2, 0, 1, "7")
    assert match.points == (4, 3, 3) and deal.pile == ()
    assert match.last_round == cheat.CheatRoundResult(
        round=1, winner=0, places=[1, 2, 2], points=[4, 3, 3], hand_sizes=[0, 1, 1]
    )


def _two_round_match(second_winner: int) -> list[Event]:
    """Two players; seat 0 wins round 1 (4 to 3), then `second_winner` goes out first."""
    first = run(
        table([["7H"], ["8B", "9B"]], options=TWO_ROUNDS), (0, Play(cards=["7H"])), (1, Accept())
    )
    assert isinstance(first[-1], CheatRoundDealt)
    # Round 2 with hands chosen by the test: dealer 0, so seat 1 starts.
    second = [*first[:-1], dealt([["8H", "9H"], ["7B"]], dealer=0, round=2)]
    if second_winner == 1:
        return run(second, (1, Play(cards=["7B"])), (0, Accept()))
    return run(
        second,
        (1, Play(cards=["7B"])),
        (0, Call()),  # honest: seat 0 takes the pile and the round ends with seat 1 first
    )


def test_points_add_up_over_the_rounds_and_equal_points_share_the_win() -> None:
    events = _two_round_match(second_winner=1)
    assert events[-1] == CheatMatchEnded(winners=[0, 1], points=[7, 7])
    state = fold(events)
    assert cheat.is_terminal(state)
    assert cheat.view(state, None, "g", len(events)).winners == [0, 1]


def test_the_match_winner_has_the_most_points() -> None:
    history = run(table([["7H"], ["8B", "9B"], ["8L", "9L", "10L"]]), (0, Play(cards=["7H"])))
    events = given(history).when(Accept(), 1).events()
    assert events[-1] == CheatMatchEnded(winners=[0], points=[4, 3, 2])


@pytest.mark.parametrize("command", [Play(cards=["8B"]), Call(), Accept()])
def test_after_the_match_every_command_is_game_over(command: cheat.Command) -> None:
    history = run(table([["7H"], ["8B", "9B"]]), (0, Play(cards=["7H"])), (1, Accept()))
    assert cheat.is_terminal(fold(history))
    given(history).when(command, 1).raises(GameOver)
    given(history).when(Join(player_id="x", name="Late"), None).raises(GameNotOpen)
    given(history).when(Start(), None).raises(GameNotOpen)
    assert cheat.legal(fold(history), 1) == []


def test_a_seeded_match_of_several_rounds_deals_each_round_reproducibly() -> None:
    history = run(table([["7H"], ["8B"]], options=TWO_ROUNDS), (0, Play(cards=["7H"])))
    one = given(history).when(Accept(), 1, SeededRandomness(5)).events()
    two = given(history).when(Accept(), 1, SeededRandomness(5)).events()
    assert one == two and isinstance(one[-1], CheatRoundDealt) and one[-1].round == 2
