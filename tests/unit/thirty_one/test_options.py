"""docs/rules.md, Thirty-One, "Limits of the options"."""

from __future__ import annotations

import msgspec
import pytest

from kronikas_rules import thirty_one as t
from kronikas_rules.common import InvalidOptions
from kronikas_rules.thirty_one import ThirtyOneOptions
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE


def test_defaults_are_three_lives_twenty_circuits_no_chronicler() -> None:
    assert ThirtyOneOptions() == ThirtyOneOptions(lives=3, max_circuits=20, chronicler=False)
    THIRTY_ONE.validate_options(ThirtyOneOptions())


def test_seats_are_two_to_nine() -> None:
    assert t.MIN_PLAYERS == 2
    assert t.max_players(ThirtyOneOptions()) == 9
    assert t.max_players(ThirtyOneOptions(chronicler=True, lives=0)) == 9


@pytest.mark.parametrize("lives", [0, 1, 3, 10])
def test_lives_from_zero_to_ten_are_accepted(lives: int) -> None:
    THIRTY_ONE.validate_options(ThirtyOneOptions(lives=lives))


@pytest.mark.parametrize("lives", [-1, 11, 100])
def test_lives_outside_zero_to_ten_are_refused(lives: int) -> None:
    with pytest.raises(InvalidOptions, match="lives"):
        THIRTY_ONE.validate_options(ThirtyOneOptions(lives=lives))


@pytest.mark.parametrize("circuits", [None, 1, 50, 100])
def test_max_circuits_from_one_to_a_hundred_or_none_are_accepted(circuits: int | None) -> None:
    THIRTY_ONE.validate_options(ThirtyOneOptions(max_circuits=circuits))


@pytest.mark.parametrize("circuits", [0, -3, 101])
def test_max_circuits_outside_one_to_a_hundred_are_refused(circuits: int) -> None:
    with pytest.raises(InvalidOptions, match="max_circuits"):
        THIRTY_ONE.validate_options(ThirtyOneOptions(max_circuits=circuits))


def test_options_of_the_wrong_type_are_refused() -> None:
    with pytest.raises(InvalidOptions, match="lives"):
        THIRTY_ONE.validate_options(ThirtyOneOptions(lives=True))
    with pytest.raises(InvalidOptions, match="chronicler"):
        THIRTY_ONE.validate_options(ThirtyOneOptions(chronicler=1))  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions, match="max_circuits"):
        THIRTY_ONE.validate_options(ThirtyOneOptions(max_circuits=2.5))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "body",
    [
        b'{"lives": 11}',
        b'{"lives": -1}',
        b'{"max_circuits": 0}',
        b'{"max_circuits": 101}',
        b'{"chronicler": "yes"}',
        b'{"chronicler": 1}',
        b'{"decks": 2}',
    ],
)
def test_the_wire_refuses_options_outside_the_limits_and_unknown_options(body: bytes) -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(body, type=ThirtyOneOptions)


def test_the_wire_accepts_the_limits() -> None:
    body = b'{"lives": 0, "max_circuits": 100, "chronicler": true}'
    options = msgspec.json.decode(body, type=ThirtyOneOptions)
    assert options == ThirtyOneOptions(lives=0, max_circuits=100, chronicler=True)
    assert msgspec.json.decode(b"{}", type=ThirtyOneOptions) == ThirtyOneOptions()


def test_the_chronicler_adds_one_xc_to_the_deck() -> None:
    assert len(t.deck_of(ThirtyOneOptions())) == 32
    deck = t.deck_of(ThirtyOneOptions(chronicler=True))
    assert len(deck) == 33
    assert deck.count("XC") == 1
    assert "XP" not in deck
