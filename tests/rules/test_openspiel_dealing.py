"""What the OpenSpiel games' chance nodes stand on, with no OpenSpiel: a `Dealing` says which
random input a decision needs instead of drawing it, a `Table` deals from the `Randomness` it
is given, and a table's copy plays on alone."""

from __future__ import annotations

import random

import pytest

from kronikas_rules.cards import COLOURED, PALE, make_deck
from kronikas_rules.envs.dealing import CODES, Dealing, Draw, salts
from kronikas_rules.proofs import SALT_BYTES
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.table import Table


def test_a_dealing_with_nothing_given_says_what_the_start_needs() -> None:
    with pytest.raises(Draw) as first:
        Table("cheat", 3, randomness=Dealing())
    assert (first.value.n, first.value.cards) == (3, ())  # the first dealer
    with pytest.raises(Draw) as deck:
        Table("cheat", 3, options={"chroniclers": True}, randomness=Dealing(picks=[1]))
    assert sorted(deck.value.cards) == sorted(make_deck(1, (COLOURED, PALE)))


def test_a_table_deals_the_dealer_and_deck_it_is_given() -> None:
    seeded = SeededRandomness(11)
    dealer, deck = seeded.pick(4), seeded.shuffle(make_deck(), 1).deck
    table = Table("cheat", 4, randomness=Dealing([dealer], [deck]))
    same = Table("cheat", 4, seed=11)
    assert table.view(None).dealer == same.view(None).dealer
    for seat in range(4):
        assert table.view(seat).me.hand == same.view(seat).me.hand
    assert table.view(0).seeded  # a deal not from the secure source


def test_a_deck_of_other_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="another set of cards"):
        Table("thirty_one", 2, randomness=Dealing([0], [(*CODES[1:32], "XC")]))


def test_derived_salts_have_the_length_of_real_ones_and_differ() -> None:
    made = salts(3, 34)
    assert all(len(salt) == 2 * SALT_BYTES for salt in made)
    assert len(set(made)) == 34 and set(made).isdisjoint(salts(4, 34))


def test_codes_number_every_card_in_hand_order() -> None:
    assert CODES[:5] == ("7H", "7B", "7L", "7A", "8H") and CODES[-2:] == ("XC", "XP")
    assert sorted(CODES) == sorted(make_deck(1, (COLOURED, PALE)))


def _house_move(table: Table, chooser: random.Random) -> None:
    seat = table.engine.waiting_for(table.state)
    assert seat is not None
    move = table.house(seat, chooser)
    assert move is not None
    table.play(seat, move)


def test_a_copied_table_plays_on_alone() -> None:
    table = Table("thirty_one", 3, seed=5, house=range(3))
    chooser = random.Random(5)
    for _ in range(4):
        _house_move(table, chooser)
    events, state = list(table.events), table.state
    copy = table.copy()
    while not copy.finished:
        _house_move(copy, chooser)
    assert (table.events, table.state) == (events, state)
    assert len(copy.events) > len(events)
    _house_move(table, chooser)  # the original plays on from where it was
