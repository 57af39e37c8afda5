"""Thirty-One's wire commands: one tagged, frozen Struct each, unknown fields refused; `leave`
and `back` are both games' (`common`)."""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

from msgspec import Struct

from kronikas_rules.cards import CardCode
from kronikas_rules.seating import Back, Leave


class _ThirtyOneCommand(Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Keep(_ThirtyOneCommand, frozen=True, tag="keep"):
    """The dealer keeps their hand: the dealer's choice before the first turn of a round."""


class Exchange(_ThirtyOneCommand, frozen=True, tag="exchange"):
    """The dealer exchanges their whole hand with the table (the old hand goes face up to the
    table): the dealer's choice before the first turn of a round."""


class Swap(_ThirtyOneCommand, frozen=True, tag="swap"):
    """Exchange one card of the hand (`give`) with one card of the table (`take`). In the last
    circuit only when the hand afterwards scores at least 21; it is then shown at once."""

    give: CardCode
    take: CardCode


class SwapAll(_ThirtyOneCommand, frozen=True, tag="swap_all"):
    """Exchange the whole hand with the table; only when the table's three cards score at least
    21 as a hand. In the last circuit the hand is then shown at once."""


class Pass(_ThirtyOneCommand, frozen=True, tag="pass"):
    """Do nothing this turn; not twice in a row before a show, always allowed in the last
    circuit."""


class Show(_ThirtyOneCommand, frozen=True, tag="show"):
    """Lay the hand open, whatever it scores: the others get one last turn each (the last
    circuit), then all hands are scored."""


Move: TypeAlias = Keep | Exchange | Swap | SwapAll | Pass | Show
"""The game's own commands (every command but `leave` and `back`)."""
Command: TypeAlias = Move | Leave | Back
COMMANDS: Final = (Keep, Exchange, Swap, SwapAll, Pass, Show, Leave, Back)

CommandType = Literal["keep", "exchange", "swap", "swap_all", "pass", "show", "leave", "back"]
