"""The games' encodings, by kind: one line each."""

from __future__ import annotations

from typing import Final

from kronikas_rules.envs import cheat, thirty_one
from kronikas_rules.envs.decisions import Encoding

ENCODINGS: Final[dict[str, Encoding]] = {
    cheat.KIND: cheat.ENCODING,
    thirty_one.KIND: thirty_one.ENCODING,
}


def encoding_of(kind: str) -> Encoding:
    """The encoding of a game, by kind."""
    try:
        return ENCODINGS[kind]
    except KeyError:
        raise ValueError(f"no environment for {kind!r}") from None
