"""Cheat: the limits of the options and the wire form of commands (docs/rules.md, docs/api.md)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kronikas_rules import cheat
from kronikas_rules.cheat import Accept, Call, CheatOptions, Play
from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.common import InvalidOptions
from kronikas_rules.seating import Back, Leave


def test_defaults_are_those_of_the_rules() -> None:
    options = CheatOptions()
    assert (options.decks, options.max_play, options.rounds) == (1, 4, 1)
    assert (options.place_points, options.chroniclers) == ((4, 3, 2), False)
    CHEAT.validate_options(options)
    assert msgspec.json.decode(b"{}", type=CheatOptions) == options


@pytest.mark.parametrize(
    "fields",
    [
        {"decks": 2},
        {"max_play": 1},
        {"max_play": 4},
        {"rounds": 1},
        {"rounds": 100},
        {"place_points": (0,)},
        {"place_points": (100,) * 8},
        {"chroniclers": True},
    ],
)
def test_options_at_the_limits_are_valid(fields: dict[str, Any]) -> None:
    CHEAT.validate_options(CheatOptions(**fields))
    msgspec.convert(fields, CheatOptions)


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"decks": 0}, "decks"),
        ({"decks": 3}, "decks"),
        ({"decks": True}, "decks"),
        ({"max_play": 0}, "max_play"),
        ({"max_play": 5}, "max_play"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 101}, "rounds"),
        ({"place_points": ()}, "place_points"),
        ({"place_points": (1,) * 9}, "place_points"),
        ({"place_points": (-1,)}, "place_points"),
        ({"place_points": (101,)}, "place_points"),
        ({"place_points": (1.5,)}, "place_points"),
        ({"place_points": (True,)}, "place_points"),
        ({"chroniclers": 1}, "chroniclers"),
    ],
)
def test_options_outside_the_limits_are_refused(fields: dict[str, Any], name: str) -> None:
    with pytest.raises(InvalidOptions, match=name):
        CHEAT.validate_options(CheatOptions(**fields))
    with pytest.raises(msgspec.ValidationError):  # and at the edge, when decoded from JSON
        msgspec.json.decode(msgspec.json.encode(fields), type=CheatOptions)


def test_unknown_options_are_refused_at_the_edge() -> None:
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        msgspec.json.decode(b'{"jokers": true}', type=CheatOptions)


def test_two_decks_above_four_players_is_checked_by_the_seats() -> None:
    """The player count is unknown when options are set: one deck seats four (see the lobby)."""
    assert cheat.max_players(CheatOptions(decks=1)) == 4


@pytest.mark.parametrize(
    ("body", "command"),
    [
        (b'{"type": "play", "cards": ["7H"]}', Play(cards=["7H"])),
        (
            b'{"type": "play", "cards": ["10L", "UB", "XC", "XP"]}',
            Play(cards=["10L", "UB", "XC", "XP"]),
        ),
        (b'{"type": "call"}', Call()),
        (b'{"type": "accept"}', Accept()),
    ],
)
def test_wire_commands_decode_by_their_type(body: bytes, command: cheat.Command) -> None:
    assert msgspec.json.decode(body, type=cheat.Command) == command
    assert msgspec.json.decode(msgspec.json.encode(command), type=cheat.Command) == command


@pytest.mark.parametrize(
    "body",
    [
        b'{"type": "play", "cards": []}',
        b'{"type": "play", "cards": ["7H", "8H", "9H", "10H", "UH"]}',
        b'{"type": "play", "cards": ["1H"]}',
        b'{"type": "play", "cards": ["XX"]}',
        b'{"type": "play"}',
        b'{"type": "call", "on": 2}',
        b'{"type": "swap", "give": "7H", "take": "8H"}',
        b'{"type": "shout"}',
    ],
)
def test_malformed_wire_commands_are_refused_at_the_edge(body: bytes) -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(body, type=cheat.Command)


def test_every_wire_command_is_listed() -> None:
    assert (Play, Call, Accept, Leave, Back) == cheat.COMMANDS
    assert cheat.KIND == "cheat"
    assert [c.__struct_config__.tag for c in cheat.COMMANDS] == [
        "play",
        "call",
        "accept",
        "leave",
        "back",
    ]
