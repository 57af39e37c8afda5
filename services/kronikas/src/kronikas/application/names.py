"""Names people give — a player's at a table, an arena entrant's: what counts as one that shows."""

from __future__ import annotations

import unicodedata
from typing import Final

from kronikas.application.errors import InvalidRequest

MARKS_PER_BASE: Final = 2
"""Combining marks one character may carry: enough for any script's names, not for a tower."""
_BLANK: Final = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
"""Letters and symbols that render as nothing: Hangul fillers, Khmer inherent vowels, the
braille blank (the rest that render blank are spaces, format or control characters)."""
_MARKS: Final = frozenset({"Mn", "Me"})


def shown_name(value: str, most: int, refusal: str) -> str:
    """A name in NFKC form, spaces trimmed and runs of them made one; 422 `refusal` for a name
    that renders blank, holds an invisible or control character, stacks combining marks, or is
    not 1–`most` characters once normalised."""
    text = unicodedata.normalize("NFKC", value)
    if not text.isprintable():  # control, format, private and unassigned characters
        raise InvalidRequest(refusal)
    text = " ".join(text.split())  # what is left of white space is the space itself
    if not 1 <= len(text) <= most:
        raise InvalidRequest(refusal)
    shown = 0
    marks = MARKS_PER_BASE  # a mark before any character, or on a space, is refused
    for char in text:
        if char in _BLANK:
            raise InvalidRequest(refusal)
        if unicodedata.category(char) in _MARKS:
            marks += 1
            if marks > MARKS_PER_BASE:
                raise InvalidRequest(refusal)
        elif char == " ":
            marks = MARKS_PER_BASE
        else:
            marks = 0
            shown += 1
    if not shown:
        raise InvalidRequest(refusal)
    return text
