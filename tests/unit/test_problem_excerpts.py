"""A refusal quotes at most `EXCERPT` characters of an input in a row, whatever quotes the input
holds: as msgspec and the service's own messages put it in (backticks, `repr`), an input with
quotes and backticks of its own cannot end its quoted span early and leave the rest whole."""

from __future__ import annotations

import pytest

from kronikas.api.problems import DETAIL_MAX, short
from kronikas.application.errors import EXCERPT, quoted

LONG = "wxyz" * 200
"""An input no message word holds 41 characters of."""


def longest_run(text: str, of: str) -> int:
    """The most characters of `of` that `text` holds in a row (`of` is one letter repeated in
    runs, so a run of it in `text` is a run of the input)."""
    best = run = 0
    for char in text:
        run = run + 1 if char in of else 0
        best = max(best, run)
    return best


@pytest.mark.parametrize("inside", ["", "`", "'", '"', "'\"", "\\", "`'\"\\", " - at `$.x` "])
def test_an_input_with_quotes_of_its_own_is_cut_to_an_excerpt(inside: str) -> None:
    value = "q" + inside + LONG
    messages = [
        f"Object contains unknown field `{value}` - at `$.options`",  # msgspec, as it writes it
        f"Invalid enum value {value!r} - at `$.options.reveal`",
        f"There is no game {quoted(value)} here (`GET /v1/kinds`).",
        f"`games` must name games of `GET /v1/kinds`, not {quoted([value])}.",
        f"Cut before its closing quote: {value!r}"[:-1],
    ]
    for message in messages:
        said = short(message)
        assert len(said) <= DETAIL_MAX
        assert longest_run(said, "wxyz") <= EXCERPT, said


def test_a_short_message_is_left_as_it_is() -> None:
    for message in (
        "Expected `int`, got `str` - at `$.after`",
        "Object contains unknown field `colour` - at `$.options`",
        "Invalid enum value 'sometimes' - at `$.options.reveal`",
        "`hello` was sent already.",
    ):
        assert short(message) == message


def test_an_input_of_quotes_and_escapes_alone_is_cut_too() -> None:
    """Quotes and backslashes alone, as `repr` escapes them: one quoted span, cut."""
    value = "'\\" * 30_000
    said = short(f"Invalid enum value {value!r} - at `$.options.reveal`")
    assert len(said) <= DETAIL_MAX
    assert said.endswith('…" - at `$.options.reveal`'), said
