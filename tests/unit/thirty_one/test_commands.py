"""docs/api.md, Commands: the Thirty-One wire commands decode strictly."""

from __future__ import annotations

import msgspec
import pytest

from kronikas_rules import thirty_one as t


def decode(body: bytes) -> t.Command:
    command: t.Command = msgspec.json.decode(body, type=t.Command)
    return command


def test_every_command_decodes_by_its_type() -> None:
    assert decode(b'{"type": "keep"}') == t.Keep()
    assert decode(b'{"type": "exchange"}') == t.Exchange()
    assert decode(b'{"type": "swap", "give": "7H", "take": "AA"}') == t.Swap(give="7H", take="AA")
    assert decode(b'{"type": "swap_all"}') == t.SwapAll()
    assert decode(b'{"type": "pass"}') == t.Pass()
    assert decode(b'{"type": "show"}') == t.Show()
    assert decode(b'{"type": "leave"}') == t.Leave()
    assert decode(b'{"type": "back"}') == t.Back()
    assert [c.__struct_config__.tag for c in t.COMMANDS] == [
        "keep",
        "exchange",
        "swap",
        "swap_all",
        "pass",
        "show",
        "leave",
        "back",
    ]


@pytest.mark.parametrize(
    "body",
    [
        b'{"type": "play", "cards": ["7H"]}',
        b'{"type": "keep", "extra": 1}',
        b'{"type": "leave", "seat": 1}',
        b'{"type": "time_out", "seat": 1}',
        b'{"type": "swap", "give": "ZZ", "take": "AA"}',
        b'{"type": "swap", "give": "7H"}',
        b'{"type": "swap", "give": "XP1", "take": "AA"}',
        b"{}",
    ],
)
def test_malformed_commands_are_refused_at_the_edge(body: bytes) -> None:
    with pytest.raises(msgspec.ValidationError):
        decode(body)


def test_commands_are_frozen() -> None:
    swap = t.Swap(give="7H", take="AA")
    with pytest.raises(AttributeError):
        swap.give = "8H"  # type: ignore[misc]
