"""Cheat's wire commands: what a seated player may send while a round is played, and the
`leave` and `back` of both games (`common`)."""

from __future__ import annotations

from typing import Annotated, Final, TypeAlias

import msgspec

from kronikas_rules.cards import CardCode
from kronikas_rules.seating import Back, Leave


class _CheatCommand(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Play(_CheatCommand, frozen=True, tag="play"):
    """Put 1 to `max_play` cards from your hand face down on the pile; the service announces
    their count and the rank due now."""

    cards: Annotated[list[CardCode], msgspec.Meta(min_length=1, max_length=4)]


class Call(_CheatCommand, frozen=True, tag="call"):
    """Call "Cheat!" on the most recent play (not your own) while its window is open."""


class Accept(_CheatCommand, frozen=True, tag="accept"):
    """As the next player, let the window close on a play that emptied its player's hand or
    was the round's last allowed (`max_plays`)."""


Move: TypeAlias = Play | Call | Accept
"""The game's own commands (every command but `leave` and `back`)."""
Command: TypeAlias = Move | Leave | Back
COMMANDS: Final = (Play, Call, Accept, Leave, Back)
