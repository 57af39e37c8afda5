"""Cheat: the lobby, the start, the deal and its set-aside cards (docs/rules.md, engines.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from kronikas_rules import cheat, proofs
from kronikas_rules.cards import STANDARD
from kronikas_rules.cheat import (
    Accept,
    Call,
    CheatGameCreated,
    CheatOptions,
    CheatRoundDealt,
    Play,
)
from kronikas_rules.common import (
    GameFull,
    GameNotOpen,
    IllegalMove,
    NotYourTurn,
    Start,
)
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join, PlayerJoined

from .helpers import StackedRandomness, fold, given, lobby, run, table


def test_created_is_the_first_event_and_carries_options_and_seeded() -> None:
    options = CheatOptions(rounds=3, chroniclers=True)
    stored = cheat.CheatTableOptions.of(options)
    assert cheat.created(options, True) == [CheatGameCreated(options=stored, seeded=True)]
    assert stored.max_plays == 300  # a new table's rounds end at 300 plays


def test_initial_state_is_an_empty_lobby_and_the_created_event_sets_its_options() -> None:
    options = CheatOptions(decks=2, chroniclers=True)
    empty = cheat.initial_state(CheatOptions(), False)
    assert empty == cheat.Lobby(cheat.Match(cheat.CheatTableOptions.of(CheatOptions()), False))
    state = cheat.evolve(empty, cheat.created(options, True)[0])
    assert state == cheat.initial_state(options, True)


def test_join_takes_the_next_free_seat() -> None:
    given(lobby(2)).when(Join(player_id="p2", name="Cecília"), None).then(
        [PlayerJoined(player_id="p2", name="Cecília", seat=2)]
    )


def test_a_join_beyond_four_players_with_one_deck_is_refused_as_full() -> None:
    given(lobby(4)).when(Join(player_id="p4", name="Extra"), None).raises(GameFull)


def test_a_join_beyond_eight_players_with_two_decks_is_refused_as_full() -> None:
    two = CheatOptions(decks=2)
    given(lobby(7, two)).when(Join(player_id="p7", name="Eighth"), None).then(
        [PlayerJoined(player_id="p7", name="Eighth", seat=7)]
    )
    given(lobby(8, two)).when(Join(player_id="p8", name="Ninth"), None).raises(GameFull)


def test_max_players_is_four_with_one_deck_and_eight_with_two() -> None:
    assert cheat.MIN_PLAYERS == 2
    assert cheat.max_players(CheatOptions(decks=1)) == 4
    assert cheat.max_players(CheatOptions(decks=2)) == 8


def test_a_join_after_the_start_is_refused() -> None:
    history = run(lobby(2), (0, Start()))
    given(history).when(Join(player_id="p2", name="Late"), None).raises(GameNotOpen)


def test_starting_twice_is_refused() -> None:
    history = run(lobby(2), (0, Start()))
    given(history).when(Start(), None).raises(GameNotOpen)


@pytest.mark.parametrize("n", [0, 1])
def test_starting_needs_at_least_two_players(n: int) -> None:
    given(lobby(n)).when(Start(), None).raises(IllegalMove, match="At least 2 players")


def test_starting_with_more_than_four_players_needs_two_decks() -> None:
    """Joins stop at four with one deck; a log written otherwise is still refused at the start."""
    joins = [PlayerJoined(player_id=f"p{i}", name=f"P{i}", seat=i) for i in range(5)]
    given([*cheat.created(CheatOptions(), False), *joins]).when(Start(), None).raises(
        IllegalMove, match="two decks"
    )


@pytest.mark.parametrize("command", [Play(cards=["7H"]), Call(), Accept()])
def test_a_command_before_the_start_is_not_your_turn(command: cheat.Command) -> None:
    given(lobby(2)).when(command, 0).raises(NotYourTurn, match="not started")


def test_a_command_without_a_seat_is_not_your_turn() -> None:
    given(table([["7H"], ["8H"]])).when(Play(cards=["7H"]), None).raises(NotYourTurn)
    given(table([["7H"], ["8H"]])).when(Play(cards=["7H"]), 5).raises(NotYourTurn)


def test_the_first_dealer_is_drawn_at_random_with_the_first_shuffle() -> None:
    rng = StackedRandomness(dealer=2)
    deal = given(lobby(3)).when(Start(), None, rng).events()[0]
    assert isinstance(deal, CheatRoundDealt)
    assert (deal.round, deal.dealer, deal.turn, deal.rank) == (1, 2, 0, "7")
    assert rng.shuffled == [(STANDARD, 1)]


def test_the_deal_commits_to_each_position_of_the_shuffled_deck() -> None:
    deal = given(lobby(3)).when(Start(), None, SeededRandomness(7)).events()[0]
    assert isinstance(deal, CheatRoundDealt)
    assert deal.deck is not None and deal.salts is not None
    assert (deal.scheme, deal.deck_size, deal.salt) == (proofs.SCHEME, 32, None)
    assert len(set(deal.salts)) == 32, "a salt of its own for each position"
    assert deal.commitment == proofs.Tree(deal.deck, deal.salts).root


EXPECTED_DEALS = [
    # players, decks, chroniclers, cards each, set aside
    (2, 1, False, 16, 0),
    (2, 1, True, 17, 0),
    (3, 1, False, 10, 2),
    (3, 1, True, 11, 1),
    (4, 1, False, 8, 0),
    (4, 1, True, 8, 2),
    (2, 2, False, 32, 0),
    (2, 2, True, 33, 0),
    (3, 2, False, 21, 1),
    (3, 2, True, 22, 0),
    (4, 2, False, 16, 0),
    (4, 2, True, 16, 2),
    (5, 2, False, 12, 4),
    (5, 2, True, 13, 1),
    (6, 2, False, 10, 4),
    (6, 2, True, 11, 0),
    (7, 2, False, 9, 1),
    (7, 2, True, 9, 3),
    (8, 2, False, 8, 0),
    (8, 2, True, 8, 2),
]


@pytest.mark.parametrize(("n", "decks", "chroniclers", "each", "aside"), EXPECTED_DEALS)
def test_the_whole_deck_is_dealt_evenly_and_the_rest_set_aside(
    n: int, decks: int, chroniclers: bool, each: int, aside: int
) -> None:
    options = CheatOptions(decks=decks, chroniclers=chroniclers)
    deal = given(lobby(n, options)).when(Start(), None, SeededRandomness(n)).events()[0]
    assert isinstance(deal, CheatRoundDealt)
    assert deal.deck is not None and deal.set_aside_cards is not None
    assert [len(hand or []) for hand in deal.hands] == [each] * n
    assert deal.set_aside == aside and deal.set_aside_cards == deal.deck[len(deal.deck) - aside :]
    expected = Counter(STANDARD * decks + (("XC", "XP") if chroniclers else ()))
    dealt = Counter(c for hand in deal.hands for c in hand or []) + Counter(deal.set_aside_cards)
    assert dealt == expected == Counter(deal.deck)
    for i in range(each * n):  # engines.md: card i goes to seat (dealer + 1 + i) mod n
        assert deal.deck[i] in (deal.hands[(deal.dealer + 1 + i) % n] or [])


def test_with_two_decks_every_code_is_in_play_twice_and_chroniclers_stay_two() -> None:
    options = CheatOptions(decks=2, chroniclers=True)
    deal = given(lobby(5, options)).when(Start(), None).events()[0]
    assert isinstance(deal, CheatRoundDealt) and deal.deck is not None
    counts = Counter(deal.deck)
    assert all(counts[code] == 2 for code in STANDARD)
    assert counts["XC"] == counts["XP"] == 1 and len(deal.deck) == 66


def test_chroniclers_are_off_by_default() -> None:
    deal = given(lobby(2)).when(Start(), None).events()[0]
    assert isinstance(deal, CheatRoundDealt) and deal.deck is not None
    assert sorted(deal.deck) == sorted(STANDARD)


def test_a_deal_shows_each_player_only_their_own_hand_and_set_aside_cards_to_nobody() -> None:
    deal = given(lobby(3)).when(Start(), None).events()[0]
    assert isinstance(deal, CheatRoundDealt)
    for viewer in (None, 0, 1, 2):
        seen = cheat.redact(deal, viewer)
        assert isinstance(seen, CheatRoundDealt)
        assert seen.hands == [h if s == viewer else None for s, h in enumerate(deal.hands)]
        assert (seen.deck, seen.salt, seen.set_aside_cards) == (None, None, None)
        assert (seen.set_aside, seen.commitment) == (2, deal.commitment)


def test_hands_are_dealt_in_a_stable_sorted_order() -> None:
    state = fold(run(lobby(2), (0, Start())))
    order = [cheat.sort_cards(list(hand)) for hand in state.deal.hands]
    assert list(state.deal.hands) == order
