"""High Card's commands: reveal or fold, and the seating's leave and back."""

from __future__ import annotations

from typing import Final, TypeAlias

from msgspec import Struct

from kronikas_rules.seating import Back, Leave


class Reveal(Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="reveal"):
    """Stay in the round: your card is compared with the other's when the round ends."""


class Fold(Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="fold"):
    """Give the round up."""


Move: TypeAlias = Reveal | Fold
Command: TypeAlias = Reveal | Fold | Leave | Back
COMMANDS: Final = (Reveal, Fold, Leave, Back)
