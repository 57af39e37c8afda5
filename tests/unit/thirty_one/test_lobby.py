"""The lobby and the first deal (docs/rules.md, Thirty-One "Players" and "The deal"; engines.md)."""

from __future__ import annotations

from kronikas_rules import proofs
from kronikas_rules import thirty_one as t
from kronikas_rules.common import GameFull, GameNotOpen, IllegalMove, NotYourTurn, Start
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join, PlayerJoined
from tests.unit.thirty_one.helpers import Stacked, arrange, dealt, given, h, lobby


def test_a_table_starts_with_its_options_and_whether_it_is_seeded() -> None:
    options = t.ThirtyOneOptions(lives=2, chronicler=True)
    assert t.created(options, True) == [t.ThirtyOneGameCreated(options=options, seeded=True)]
    state = given(*t.created(options, True)).state
    assert state == t.initial_state(options, True)
    assert not t.is_terminal(state)


def test_players_take_the_next_seat() -> None:
    given(*lobby(2)).when(Join(player_id="p2", name="Cecil"), None).then(
        [PlayerJoined(player_id="p2", name="Cecil", seat=2)]
    )


def test_a_tenth_player_is_refused_as_full() -> None:
    given(*lobby(8)).when(Join(player_id="p8", name="I"), None).then(
        [PlayerJoined(player_id="p8", name="I", seat=8)]
    )
    given(*lobby(9)).when(Join(player_id="p9", name="J"), None).raises(GameFull)


def test_starting_needs_two_players() -> None:
    given(*lobby(0)).when(Start(), None).raises(IllegalMove, match="at least 2 players")
    given(*lobby(1)).when(Start(), None).raises(IllegalMove, match="at least 2 players")


def test_start_draws_the_first_dealer_and_deals_from_the_seat_after_them() -> None:
    hands = {2: h("7H 8H 9H"), 0: h("7B 8B 9B"), 1: h("7L 8L 9L")}
    table = h("KA OA UA")
    deck = arrange(hands, table, dealer=1, n=3)
    rng = Stacked({1: deck}, dealer=1)
    state = given(*lobby(3)).when(Start(), None, rng).then([dealt(hands, table, dealer=1, n=3)])
    assert rng.picked == [3]
    assert isinstance(state, t.DealerChoice)
    assert state.deal.order == (2, 0, 1)
    # card i of the deck goes to the (i mod m)-th player from the seat after the dealer
    assert deck[:9] == ["7H", "7B", "7L", "8H", "8B", "8L", "9H", "9B", "9L"]
    assert deck[9:12] == table


def test_the_deal_commits_to_each_card_of_the_deck_and_keeps_it_with_its_salts() -> None:
    rng = SeededRandomness(7)
    [deal] = given(*lobby(4)).when(Start(), None, rng).events()
    assert isinstance(deal, t.ThirtyOneRoundDealt)
    assert deal.deck is not None
    assert deal.salts is not None
    assert (deal.scheme, deal.deck_size, deal.salt) == (proofs.SCHEME, 32, None)
    assert len(set(deal.salts)) == 32 and all(len(salt) == 32 for salt in deal.salts)
    assert deal.commitment == proofs.Tree(deal.deck, deal.salts).root
    assert deal.openings is None  # each viewer's are made when the deal is redacted for it
    assert len(deal.deck) == 32
    dealt_cards = [card for hand in deal.hands if hand for card in hand] + deal.table
    assert len(dealt_cards) == 15
    assert set(dealt_cards) <= set(deal.deck)


def test_the_chronicler_deals_a_deck_of_thirty_three() -> None:
    rng = SeededRandomness(7)
    history = lobby(2, t.ThirtyOneOptions(chronicler=True))
    [deal] = given(*history).when(Start(), None, rng).events()
    assert isinstance(deal, t.ThirtyOneRoundDealt)
    assert deal.deck is not None
    assert sorted(deal.deck) == sorted((*t.deck_of(t.ThirtyOneOptions()), "XC"))


def test_joining_or_starting_again_after_the_start_is_refused() -> None:
    history = [*lobby(3), dealt({0: h("7H 8H 9H"), 1: h("7B 8B 9B"), 2: h("7L 8L 9L")},
                                h("KA OA UA"), dealer=2, n=3)]  # fmt: skip
    given(*history).when(Join(player_id="p3", name="Late"), None).raises(GameNotOpen)
    given(*history).when(Start(), None).raises(GameNotOpen)


def test_a_command_before_the_start_is_not_your_turn() -> None:
    for command in (t.Keep(), t.Swap(give="7H", take="8H"), t.Show()):
        given(*lobby(3)).when(command, 0).raises(NotYourTurn, match="has not started")


def test_the_lobby_view_is_open_with_empty_hands() -> None:
    state = given(*lobby(2)).state
    view = t.view(state, 1, "g1", 3)
    assert view.status == "open"
    assert view.round == 0
    assert view.dealer is None
    assert view.turn is None
    assert view.me is not None
    assert view.me.hand == []
    assert view.legal == ["leave"]
    assert view.thirty_one is None
    assert [p.lives for p in view.players] == [3, 3]
